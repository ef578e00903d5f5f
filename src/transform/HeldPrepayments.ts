/**
 * Plans a prepayment the source holds on the account its line is coded to (`heldOnAccount`): the source
 * posts the cash to that account (Prepayments, Customer Deposits), not to the contact's balance, and moves
 * what it applies to a document onto the contact's receivable or payable only when it applies it. The
 * platform has no prepayment object, so:
 * - the cash is a cash-out (purchases) or cash-in (sales) on the bank whose one entry posts to that account;
 * - each application is a credit note dated when it is applied (the later of the prepayment's and the
 *   document's date), whose one tax-free line posts to that account, applied in full to the document;
 * - each refund is a cash entry the other way, on that account.
 * So the account, the bank and the contact move exactly as the source's do, and an unapplied remainder stays
 * on the account, where the source's Trial Balance has it.
 */
import * as Bodies from "./Bodies.js"
import type { PlannedCredit } from "./CreditPlanner.js"
import { foreignCurrency } from "./DocumentPlanner.js"
import { accountCurrency } from "./Fx.js"
import * as Money from "./Money.js"
import { deps, type PlanContext } from "./PlanContext.js"
import * as Refs from "./Refs.js"
import type { Books, SourceCredit } from "./SourceModel.js"
import { heldApplicationReference, heldRefundReference } from "./TransactionIdentity.js"

/** A cash entry of a held prepayment: its cash going out or coming in through `bankAccountName`. */
const cashEntry = (
  ctx: PlanContext,
  books: Books,
  credit: SourceCredit,
  heldOn: string,
  spec: {
    readonly key: string
    readonly phase: "transactions" | "settlements"
    readonly direction: "in" | "out"
    readonly reference: string
    readonly bankAccountName: string
    readonly date: string
    readonly amount: Money.Money
    readonly notes: string
    readonly lineage: string
    readonly dependsOn: ReadonlyArray<string | undefined>
  }
) => {
  const kind = spec.direction === "in" ? ("cash-in" as const) : ("cash-out" as const)
  return ctx.add(
    {
      key: spec.key,
      phase: spec.phase,
      kind,
      naturalKey: spec.reference,
      sortKey: `${spec.date}|${kind}|${spec.reference}`,
      lineage: [spec.lineage]
    },
    Bodies.CashEntry,
    () => {
      const bank = ctx.account(spec.bankAccountName)
      const account = ctx.account(heldOn)
      const contact = ctx.contact(credit.contactName)
      const base = ctx.snapshot.baseCurrency
      const fx = foreignCurrency(ctx, books.rates, {
        currency: accountCurrency(books.accounts, spec.bankAccountName, base),
        date: spec.date,
        lineage: [spec.lineage],
        label: `prepayment ${spec.reference}`
      })
      return {
        body: new Bodies.CashEntry({
          accountResourceId: bank.ref,
          reference: spec.reference,
          valueDate: spec.date,
          contactResourceId: contact.ref,
          ...(fx.currency ? { currency: fx.currency } : {}),
          internalNotes: spec.notes,
          journalEntries: [
            new Bodies.JournalEntry({
              accountResourceId: account.ref,
              type: spec.direction === "in" ? "CREDIT" : "DEBIT",
              amount: spec.amount,
              description: spec.notes
            })
          ]
        }),
        dependsOn: deps(bank.opKey, contact.opKey, account.opKey, ...fx.opKeys, ...spec.dependsOn)
      }
    }
  )
}

/** The cash of a held prepayment, on the day the bank paid or received it; its key is the credit's key. */
export const planFunding = (
  ctx: PlanContext,
  books: Books,
  planned: PlannedCredit,
  heldOn: string,
  funding: {
    readonly bankAccountName: string
    readonly date: string
    readonly amount: Money.Money
    readonly lineage: string
  }
): boolean =>
  cashEntry(ctx, books, planned.credit, heldOn, {
    key: planned.key,
    phase: "transactions",
    direction: planned.credit.side === "sale" ? "in" : "out",
    reference: planned.reference,
    bankAccountName: funding.bankAccountName,
    date: funding.date,
    amount: funding.amount,
    notes: `Prepayment ${planned.credit.side === "sale" ? "from" : "to"} ${planned.credit.contactName}, held on ${heldOn} until applied`,
    lineage: funding.lineage,
    dependsOn: []
  })

/** The key of a held prepayment's cash entry (what its applications and refunds depend on). */
export const fundingKey = (credit: SourceCredit, reference: string): string =>
  `${credit.side === "sale" ? "cash-in" : "cash-out"}:${reference}`

/** The `n`th refund of a held prepayment: cash back the other way, off the account it is held on. */
export const planRefund = (
  ctx: PlanContext,
  books: Books,
  planned: PlannedCredit,
  heldOn: string,
  n: number,
  refund: {
    readonly bankAccountName: string
    readonly date: string
    readonly amount: Money.Money
    readonly lineage: string
  }
): boolean => {
  const reference = heldRefundReference(planned.reference, n)
  const direction = planned.credit.side === "sale" ? "out" : "in"
  return cashEntry(ctx, books, planned.credit, heldOn, {
    key: `${direction === "in" ? "cash-in" : "cash-out"}:${reference}`,
    phase: "settlements",
    direction,
    reference,
    bankAccountName: refund.bankAccountName,
    date: refund.date,
    amount: refund.amount,
    notes: `Refund ${n} of prepayment ${planned.reference}`,
    lineage: refund.lineage,
    dependsOn: planned.credit.opening === true ? [] : [planned.key]
  })
}

/**
 * The credit note of a held prepayment's `n`th application: `amount` moved from the account it is held on
 * to the contact, on `date`. Returns its reference and op key, or undefined when it could not be planned.
 */
export const planApplicationNote = (
  ctx: PlanContext,
  books: Books,
  planned: PlannedCredit,
  heldOn: string,
  n: number,
  application: {
    readonly documentReference: string
    readonly date: string
    readonly amount: Money.Money
    readonly lineage: ReadonlyArray<string>
  }
): { readonly reference: string; readonly key: string } | undefined => {
  const reference = heldApplicationReference(planned.reference, n)
  const key = Refs.opKey(planned.kind, reference)
  const c = planned.credit
  const ok = ctx.add(
    {
      key,
      phase: "transactions",
      kind: planned.kind,
      naturalKey: reference,
      sortKey: `${application.date}|${planned.kind}|${reference}`,
      lineage: application.lineage
    },
    Bodies.CreditNote,
    () => {
      const contact = ctx.contact(c.contactName)
      const account = ctx.account(heldOn)
      const fx = foreignCurrency(ctx, books.rates, {
        ...c,
        date: application.date,
        label: `prepayment ${planned.reference}`
      })
      return {
        body: new Bodies.CreditNote({
          reference,
          valueDate: application.date,
          contactResourceId: contact.ref,
          ...(fx.currency ? { currency: fx.currency } : {}),
          taxInclusion: false,
          saveAsDraft: false,
          lineItems: [
            new Bodies.LineItem({
              name: `Prepayment ${planned.reference} applied to ${application.documentReference}`,
              quantity: Money.fromNumber(1),
              unitPrice: application.amount,
              accountResourceId: account.ref
            })
          ]
        }),
        dependsOn: deps(contact.opKey, account.opKey, ...fx.opKeys)
      }
    }
  )
  return ok ? { reference, key } : undefined
}
