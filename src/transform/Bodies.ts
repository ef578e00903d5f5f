/**
 * The canonical request bodies of every write the migration makes. Each is a `Schema.Class` whose
 * encoded form is exactly what the platform receives: `YYYY-MM-DD` dates, `*ResourceId` names, money as
 * JSON numbers, the `currency` object only for foreign documents. Nothing is sent that has not been
 * decoded through one of these (invariant 3).
 */
import * as Schema from "effect/Schema"
import { DateString } from "./Dates.js"
import { Amount, NonNegativeAmount, PositiveAmount } from "./Money.js"
import * as Money from "./Money.js"
import { ResourceRef } from "./Refs.js"

/**
 * `Schema.Class` whose constructor does not validate: `PlanContext.add` encodes every body through its schema
 * (the encoder `CompiledEncoder` compiles from it), and encoding checks every field's refinements (nested
 * bodies included) once. Validating in the constructor as well checked each body twice and was a fifth of
 * `plan`'s CPU on a big company.
 */
/** What `Schema.Class` accepts besides a plain field record: a struct, or a refinement of one. */
type HasFields<Fields extends Schema.Struct.Fields> =
  Schema.Struct<Fields> | { readonly [Schema.RefineSchemaId]: HasFields<Fields> }

const Body =
  <Self>(identifier: string) =>
  <Fields extends Schema.Struct.Fields>(
    fields: Fields | HasFields<Fields>
  ): Schema.Class<
    Self,
    Fields,
    Schema.Struct.Encoded<Fields>,
    Schema.Struct.Context<Fields>,
    Schema.Struct.Constructor<Fields>,
    {},
    {}
  > => {
    const Base = Schema.Class<{ readonly _: unique symbol }>(identifier)(fields) as unknown as new (
      props: unknown,
      options?: boolean
    ) => object
    return class extends Base {
      constructor(props: unknown, options = true) {
        // Without validation, `Schema.Class`'s constructor copies the fields, looks up each field's default
        // (no body has one) and assigns them: an instance of the class with its fields as own properties is the
        // same value, made without it. In CPU profiles of plan at 20,000 invoices the constructor took about
        // 200 ms (`lazilyMergeDefaults` 111 ms, `klass` 87 ms).
        if (options === true) return Object.assign(Object.create(new.target.prototype) as object, props)
        super(props, options)
      }
    } as never
  }

export const CurrencyCode = Schema.String.pipe(Schema.pattern(/^[A-Z]{3}$/)).annotations({
  identifier: "CurrencyCode"
})

/** `POST /organization/currencies`: enables currencies before their rates are set. */
export class EnableCurrencies extends Body<EnableCurrencies>("EnableCurrencies")({
  currencies: Schema.NonEmptyArray(CurrencyCode)
}) {}

/** `POST /organization-currencies/:code/rates`: `rate` is foreign units per 1 base unit. */
export class CurrencyRate extends Body<CurrencyRate>("CurrencyRate")({
  currencyCode: CurrencyCode,
  rate: PositiveAmount,
  rateApplicableFrom: DateString,
  rateApplicableTo: Schema.optional(DateString)
}) {}

/** `POST /chart-of-accounts`. */
export class Account extends Body<Account>("Account")({
  name: Schema.NonEmptyTrimmedString,
  code: Schema.optional(Schema.String),
  classificationType: Schema.NonEmptyTrimmedString,
  currency: Schema.optional(CurrencyCode),
  description: Schema.optional(Schema.String)
}) {}

/** `POST /contacts`: `name` is the billing name; the platform's document also wants `billingName`. */
export class Contact extends Body<Contact>("Contact")({
  name: Schema.NonEmptyTrimmedString,
  billingName: Schema.NonEmptyTrimmedString,
  customer: Schema.Boolean,
  supplier: Schema.Boolean,
  email: Schema.optional(Schema.String),
  phone: Schema.optional(Schema.String),
  taxId: Schema.optional(Schema.String)
}) {}

/** `POST /items` (non-inventory items; the names are always sent, the platform 422s without them). */
export class Item extends Body<Item>("Item")(
  Schema.Struct({
    itemCode: Schema.NonEmptyTrimmedString,
    internalName: Schema.NonEmptyTrimmedString,
    itemCategory: Schema.Literal("NON_INVENTORY", "INVENTORY"),
    appliesToSale: Schema.Boolean,
    appliesToPurchase: Schema.Boolean,
    saleItemName: Schema.optional(Schema.NonEmptyTrimmedString),
    salePrice: Schema.optional(NonNegativeAmount),
    saleAccountResourceId: Schema.optional(ResourceRef),
    saleTaxProfile: Schema.optional(ResourceRef),
    purchaseItemName: Schema.optional(Schema.NonEmptyTrimmedString),
    purchaseItemPrice: Schema.optional(NonNegativeAmount),
    purchaseAccountResourceId: Schema.optional(ResourceRef),
    purchaseTaxProfile: Schema.optional(ResourceRef)
  }).pipe(
    Schema.filter((i) => [
      ...(i.appliesToSale && (i.saleItemName === undefined || i.saleAccountResourceId === undefined)
        ? [{ path: ["saleItemName"], message: "a sale item needs saleItemName and saleAccountResourceId" }]
        : []),
      ...(i.appliesToPurchase &&
      (i.purchaseItemName === undefined || i.purchaseAccountResourceId === undefined)
        ? [
            {
              path: ["purchaseItemName"],
              message: "a purchase item needs purchaseItemName and purchaseAccountResourceId"
            }
          ]
        : [])
    ])
  )
) {}

/** The transaction-currency object: only on foreign-currency documents. */
export class TransactionCurrency extends Body<TransactionCurrency>("TransactionCurrency")({
  sourceCurrency: CurrencyCode,
  exchangeRate: Schema.optional(PositiveAmount)
}) {}

/** `POST /tags`: created once, before the transactions that carry its name. */
export class Tag extends Body<Tag>("Tag")({
  tagName: Schema.NonEmptyTrimmedString
}) {}

/** Tag names on a transaction (the platform's `tags`, at most 50). */
export const TagNames = Schema.Array(Schema.NonEmptyTrimmedString).pipe(Schema.maxItems(50))

/** A line: `discount` is a flat amount off `quantity × unitPrice` (the OpenAPI document's line field). */
export class LineItem extends Body<LineItem>("LineItem")({
  name: Schema.NonEmptyTrimmedString,
  quantity: Amount,
  unitPrice: Amount,
  discount: Schema.optional(PositiveAmount),
  accountResourceId: ResourceRef,
  taxProfileResourceId: Schema.optional(ResourceRef),
  itemResourceId: Schema.optional(ResourceRef)
}) {}

/** `POST /invoices` and `POST /bills` (finalized unless `saveAsDraft`). */
export class Document extends Body<Document>("Document")({
  reference: Schema.NonEmptyTrimmedString,
  valueDate: DateString,
  dueDate: Schema.optional(DateString),
  contactResourceId: ResourceRef,
  currency: Schema.optional(TransactionCurrency),
  taxInclusion: Schema.Boolean,
  saveAsDraft: Schema.Boolean,
  lineItems: Schema.NonEmptyArray(LineItem),
  tags: Schema.optional(TagNames)
}) {}

/** `POST /customer-credit-notes` and `POST /supplier-credit-notes` (finalized unless `saveAsDraft`). */
export class CreditNote extends Body<CreditNote>("CreditNote")({
  reference: Schema.NonEmptyTrimmedString,
  valueDate: DateString,
  contactResourceId: ResourceRef,
  currency: Schema.optional(TransactionCurrency),
  taxInclusion: Schema.Boolean,
  saveAsDraft: Schema.Boolean,
  lineItems: Schema.NonEmptyArray(LineItem),
  tags: Schema.optional(TagNames)
}) {}

export const PaymentMethod = Schema.Literal(
  "CASH",
  "CREDIT_CARD",
  "BANK_TRANSFER",
  "E_WALLET",
  "CHEQUE",
  "WITHHOLDING_TAX_CERTIFICATE",
  "CLEARING_SETTLEMENT",
  "DEBT_WRITE_OFF",
  "INTER_COMPANY",
  "OTHER",
  "PAYMENT_GATEWAY"
)

/** One payment: `paymentAmount` in the bank's currency, `transactionAmount` in the document's. */
export class Payment extends Body<Payment>("Payment")({
  paymentAmount: PositiveAmount,
  transactionAmount: PositiveAmount,
  accountResourceId: ResourceRef,
  paymentMethod: PaymentMethod,
  reference: Schema.NonEmptyTrimmedString,
  valueDate: DateString
}) {}

/** `POST /invoices/:resourceId/payments` (and bills): the document id is echoed in the body. */
export class Payments extends Body<Payments>("Payments")({
  resourceId: ResourceRef,
  payments: Schema.NonEmptyArray(Payment)
}) {}

/** One application of a credit note to a document; `amountApplied` in the document's currency. */
export class CreditApplication extends Body<CreditApplication>("CreditApplication")({
  creditNoteResourceId: ResourceRef,
  amountApplied: PositiveAmount
}) {}

/** `POST /invoices/:resourceId/credits` (and bills): the document id is echoed in the body. */
export class CreditApplications extends Body<CreditApplications>("CreditApplications")({
  resourceId: ResourceRef,
  credits: Schema.NonEmptyArray(CreditApplication)
}) {}

/** One refund: `refundAmount` in the bank's currency, `transactionAmount` in the credit note's. */
export class Refund extends Body<Refund>("Refund")({
  refundAmount: PositiveAmount,
  refundMethod: PaymentMethod,
  transactionAmount: PositiveAmount,
  accountResourceId: ResourceRef,
  reference: Schema.NonEmptyTrimmedString,
  valueDate: DateString
}) {}

/** `POST /customer-credit-notes/:resourceId/refunds` (and supplier): not `payments`. */
export class Refunds extends Body<Refunds>("Refunds")({
  resourceId: ResourceRef,
  refunds: Schema.NonEmptyArray(Refund)
}) {}

export class JournalEntry extends Body<JournalEntry>("JournalEntry")({
  accountResourceId: ResourceRef,
  type: Schema.Literal("DEBIT", "CREDIT"),
  amount: PositiveAmount,
  description: Schema.optional(Schema.String)
}) {}

/** `POST /journals`: entries must balance (Σ debits = Σ credits). */
export class Journal extends Body<Journal>("Journal")(
  Schema.Struct({
    reference: Schema.NonEmptyTrimmedString,
    valueDate: DateString,
    saveAsDraft: Schema.Boolean,
    journalEntries: Schema.Array(JournalEntry).pipe(Schema.minItems(2)),
    tags: Schema.optional(TagNames)
  }).pipe(
    Schema.filter((j) => {
      const side = (t: "DEBIT" | "CREDIT") =>
        Money.sum(j.journalEntries.filter((e) => e.type === t).map((e) => e.amount))
      return Money.equals(side("DEBIT"), side("CREDIT"))
        ? undefined
        : {
            path: ["journalEntries"],
            message: `debits ${Money.toFixed(side("DEBIT"))} ≠ credits ${Money.toFixed(side("CREDIT"))}`
          }
    })
  )
) {}

/**
 * `POST /cash-in-entries` and `POST /cash-out-entries`: the bank account at top level and the offsetting
 * `journalEntries` (the specification's name; the OpenAPI document's `lines`), amounts in the bank's
 * currency, each on its side (`CREDIT` is the natural side of money in, `DEBIT` of money out).
 */
export class CashEntry extends Body<CashEntry>("CashEntry")({
  accountResourceId: ResourceRef,
  reference: Schema.NonEmptyTrimmedString,
  valueDate: DateString,
  contactResourceId: Schema.optional(ResourceRef),
  currency: Schema.optional(TransactionCurrency),
  internalNotes: Schema.optional(Schema.String),
  journalEntries: Schema.NonEmptyArray(JournalEntry)
}) {}

/** One side of a cash transfer: the account and the amount in its own currency. */
export class CashTransferSide extends Body<CashTransferSide>("CashTransferSide")({
  accountResourceId: ResourceRef,
  amount: PositiveAmount
}) {}

/** `POST /cash-transfers`: `cashOut` and `cashIn` sub-objects (both amounts, so any rate is the source's). */
export class CashTransfer extends Body<CashTransfer>("CashTransfer")({
  reference: Schema.NonEmptyTrimmedString,
  valueDate: DateString,
  cashOut: CashTransferSide,
  cashIn: CashTransferSide,
  internalNotes: Schema.optional(Schema.String)
}) {}
