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

export const CurrencyCode = Schema.String.pipe(Schema.pattern(/^[A-Z]{3}$/)).annotations({
  identifier: "CurrencyCode"
})

/** `POST /organization/currencies`: enables currencies before their rates are set. */
export class EnableCurrencies extends Schema.Class<EnableCurrencies>("EnableCurrencies")({
  currencies: Schema.NonEmptyArray(CurrencyCode)
}) {}

/** `POST /organization-currencies/:code/rates`: `rate` is foreign units per 1 base unit. */
export class CurrencyRate extends Schema.Class<CurrencyRate>("CurrencyRate")({
  currencyCode: CurrencyCode,
  rate: PositiveAmount,
  rateApplicableFrom: DateString,
  rateApplicableTo: Schema.optional(DateString)
}) {}

/** `POST /chart-of-accounts`. */
export class Account extends Schema.Class<Account>("Account")({
  name: Schema.NonEmptyTrimmedString,
  code: Schema.optional(Schema.String),
  classificationType: Schema.NonEmptyTrimmedString,
  currency: Schema.optional(CurrencyCode),
  description: Schema.optional(Schema.String)
}) {}

/** `POST /contacts`: `name` is the billing name; the platform's document also wants `billingName`. */
export class Contact extends Schema.Class<Contact>("Contact")({
  name: Schema.NonEmptyTrimmedString,
  billingName: Schema.NonEmptyTrimmedString,
  customer: Schema.Boolean,
  supplier: Schema.Boolean,
  email: Schema.optional(Schema.String),
  phone: Schema.optional(Schema.String),
  taxId: Schema.optional(Schema.String)
}) {}

/** `POST /items` (non-inventory items; the names are always sent, the platform 422s without them). */
export class Item extends Schema.Class<Item>("Item")(
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
export class TransactionCurrency extends Schema.Class<TransactionCurrency>("TransactionCurrency")({
  sourceCurrency: CurrencyCode,
  exchangeRate: Schema.optional(PositiveAmount)
}) {}

export class LineItem extends Schema.Class<LineItem>("LineItem")({
  name: Schema.NonEmptyTrimmedString,
  quantity: Amount,
  unitPrice: Amount,
  accountResourceId: ResourceRef,
  taxProfileResourceId: Schema.optional(ResourceRef),
  itemResourceId: Schema.optional(ResourceRef)
}) {}

/** `POST /invoices` and `POST /bills` (finalized unless `saveAsDraft`). */
export class Document extends Schema.Class<Document>("Document")({
  reference: Schema.NonEmptyTrimmedString,
  valueDate: DateString,
  dueDate: Schema.optional(DateString),
  contactResourceId: ResourceRef,
  currency: Schema.optional(TransactionCurrency),
  taxInclusion: Schema.Boolean,
  saveAsDraft: Schema.Boolean,
  lineItems: Schema.NonEmptyArray(LineItem)
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
export class Payment extends Schema.Class<Payment>("Payment")({
  paymentAmount: PositiveAmount,
  transactionAmount: PositiveAmount,
  accountResourceId: ResourceRef,
  paymentMethod: PaymentMethod,
  reference: Schema.NonEmptyTrimmedString,
  valueDate: DateString
}) {}

/** `POST /invoices/:resourceId/payments` (and bills): the document id is echoed in the body. */
export class Payments extends Schema.Class<Payments>("Payments")({
  resourceId: ResourceRef,
  payments: Schema.NonEmptyArray(Payment)
}) {}

export class JournalEntry extends Schema.Class<JournalEntry>("JournalEntry")({
  accountResourceId: ResourceRef,
  type: Schema.Literal("DEBIT", "CREDIT"),
  amount: PositiveAmount,
  description: Schema.optional(Schema.String)
}) {}

/** `POST /journals`: entries must balance (Σ debits = Σ credits). */
export class Journal extends Schema.Class<Journal>("Journal")(
  Schema.Struct({
    reference: Schema.NonEmptyTrimmedString,
    valueDate: DateString,
    saveAsDraft: Schema.Boolean,
    journalEntries: Schema.Array(JournalEntry).pipe(Schema.minItems(2))
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
