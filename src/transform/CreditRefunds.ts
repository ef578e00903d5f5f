/**
 * Plans the refunds of credits: each bank row that paid a credit back becomes a refund on its credit note —
 * `refundAmount` in the bank's currency, `transactionAmount` in the credit's (at the source rate of the refund
 * date), numbered per credit note in date order. A row names its credit note by number; one that names none
 * (an overpayment's or prepayment's refund) goes to one of the contact's overpayments and prepayments dated
 * on or before it: first, for every refund in date order, the oldest whose unexplained use equals the
 * refund exactly (a refund usually returns what was left of one advance, and taking the oldest with merely
 * enough left would rob the advance the refund belongs to); then, for the rest, the oldest with enough use
 * left. A refund that matches nothing, or exceeds what the export says was used, is a reject naming its row.
 */
import * as Bodies from "./Bodies.js"
import * as HeldPrepayments from "./HeldPrepayments.js"
import { heldOnAccount } from "./TransactionIdentity.js"
import type { PlannedCredit } from "./CreditPlanner.js"
import { bankAmountIn } from "./Fx.js"
import { normalizeName } from "./Mappings.js"
import * as Money from "./Money.js"
import { deps, type PlanContext } from "./PlanContext.js"
import * as Refs from "./Refs.js"
import type { Books, SourceRefund } from "./SourceModel.js"
import { append } from "../Multimap.js"

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const fmt = (m: Money.Money) => Money.toFixed(m)

/** A credit's use still to explain, as the settlements are matched. */
export interface CreditUse {
  readonly planned: PlannedCredit
  left: Money.Money
}

export const groupOf = (base: string, side: string, contact: string, currency: string) =>
  `${side}|${normalizeName(contact)}|${currency || base}`

/** Plans the refunds, taking what each refunds off its credit's `left`. */
export const planRefunds = (ctx: PlanContext, books: Books, uses: ReadonlyArray<CreditUse>) => {
  const base = ctx.snapshot.baseCurrency
  const matched = new Map<CreditUse, Array<{ refund: SourceRefund; amount: Money.Money }>>()
  const refunds = [...(books.refunds ?? [])].sort(
    (a, b) => compare(a.date, b.date) || compare(a.lineage, b.lineage)
  )
  const numbered = new Map<string, Array<CreditUse>>()
  const unnumbered = new Map<string, Array<CreditUse>>()
  for (const u of uses) {
    const { side, number, contactName } = u.planned.credit
    if (number !== "") append(numbered, `${side}|${number}`, u)
    else append(unnumbered, `${side}|${normalizeName(contactName)}`, u)
  }
  const candidatesOf = (r: SourceRefund) => {
    const byNumber = r.creditNumber === "" ? [] : (numbered.get(`${r.side}|${r.creditNumber}`) ?? [])
    const candidates =
      byNumber.length > 0
        ? byNumber
        : (unnumbered.get(`${r.side}|${normalizeName(r.contactName)}`) ?? []).filter(
            (u) => u.planned.credit.date <= r.date
          )
    return { byNumber, candidates }
  }
  const inCurrency = (r: SourceRefund, u: CreditUse) =>
    bankAmountIn(books, base, r, u.planned.credit.currency)
  const take = (r: SourceRefund, u: CreditUse, amount: Money.Money) => {
    u.left = Money.sub(u.left, amount)
    append(matched, u, { refund: r, amount })
  }

  const rest: Array<SourceRefund> = []
  for (const r of refunds) {
    const { byNumber, candidates } = candidatesOf(r)
    const exact =
      byNumber.length > 0
        ? undefined
        : candidates.find((u) => {
            const a = inCurrency(r, u)
            return a !== undefined && Money.equals(a, u.left)
          })
    if (exact === undefined) rest.push(r)
    else take(r, exact, inCurrency(r, exact)!)
  }
  for (const r of rest) {
    const { byNumber, candidates } = candidatesOf(r)
    const fits = candidates.filter((u) => {
      const a = inCurrency(r, u)
      return a !== undefined && !Money.greaterThan(a, u.left)
    })
    const u = fits[0]
    if (u === undefined || byNumber.length > 1) {
      ctx.reject(
        [r.lineage],
        `a refund of ${fmt(r.amount)} ${r.creditNumber ? `against ${r.creditNumber}` : `to "${r.contactName}"`} on ${r.date}`,
        byNumber.length > 1
          ? `${r.creditNumber} names ${byNumber.length} credit notes`
          : candidates.length === 0
            ? "no migrating credit note, overpayment or prepayment of that contact matches it"
            : "it exceeds what the export says was used of the credit (or no exchange rate converts it)",
        "check the credit's amount paid in the export, and the exchange rates"
      )
      continue
    }
    take(r, u, inCurrency(r, u)!)
  }
  for (const [u, list] of matched) {
    const { credit, reference, kind, key } = u.planned
    const heldOn = heldOnAccount(credit)
    if (credit.state === "draft") continue
    if (heldOn !== undefined) {
      list.forEach(({ refund }, i) =>
        HeldPrepayments.planRefund(ctx, books, u.planned, heldOn, i + 1, refund)
      )
      continue
    }
    list.forEach(({ refund: r, amount }, i) => {
      const n = i + 1
      const refundKind =
        kind === "customer-credit-note" ? ("customer-refund" as const) : ("supplier-refund" as const)
      ctx.add(
        {
          key: `refund:${kind}:${reference}:${n}`,
          phase: "settlements",
          kind: refundKind,
          naturalKey: `${kind}:${reference}:${n}`,
          sortKey: `${r.date}|${kind}|${reference}|${n}`,
          lineage: [r.lineage]
        },
        Bodies.Refunds,
        () => {
          const bank = ctx.account(r.bankAccountName)
          return {
            body: new Bodies.Refunds({
              resourceId: Refs.ref(kind, reference),
              refunds: [
                new Bodies.Refund({
                  refundAmount: r.amount,
                  refundMethod: "BANK_TRANSFER",
                  transactionAmount: amount,
                  accountResourceId: bank.ref,
                  reference: `${reference}-RFD${n}`,
                  valueDate: r.date
                })
              ]
            }),
            dependsOn: deps(key, bank.opKey)
          }
        }
      )
    })
  }
}
