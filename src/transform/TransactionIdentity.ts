/**
 * The identity in the target of the transactions beyond invoices and bills: the reference each credit note,
 * overpayment, prepayment, cash entry and transfer carries (its natural key, which in-doubt recovery and
 * reconciliation search by), and whether a credit migrates. References are deterministic: a source number or
 * reference is kept (repeats get `-2`, `-3`, … in date and source-row order); a record without one gets
 * `MIG-<kind>-<date>-<digest>` from what identifies it in the source, never from its file position.
 */
import { createHash } from "node:crypto"
import { normalizeName } from "./Mappings.js"
import * as Money from "./Money.js"
import { append } from "../Multimap.js"
import { rememberedFor } from "../Remembered.js"
import type { SourceCashEntry, SourceCredit, SourceTransfer } from "./SourceModel.js"

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const digest = (parts: ReadonlyArray<string>) =>
  createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 8)

/**
 * Gives each record a reference: its own (`own`) when it has one, else `MIG-<prefix>-<date>-<digest of
 * identity>`; records sharing a reference are told apart by `-2`, `-3`, … in the order of `order`.
 */
const assign = <A>(
  records: ReadonlyArray<A>,
  own: (a: A) => string,
  generated: (a: A) => { prefix: string; date: string; identity: ReadonlyArray<string> },
  order: (a: A, b: A) => number,
  onDuplicate: (a: A, reference: string, uses: number) => void
): Map<A, string> => {
  const base = new Map<A, string>()
  const seen = new Map<string, number>()
  for (const a of [...records].sort(order)) {
    const o = own(a)
    if (o !== "") {
      base.set(a, o)
      continue
    }
    const g = generated(a)
    const id = [g.prefix, g.date, ...g.identity].join("|")
    const n = (seen.get(id) ?? 0) + 1
    seen.set(id, n)
    base.set(a, `MIG-${g.prefix}-${g.date.replace(/-/g, "")}-${digest([...g.identity, String(n)])}`)
  }
  const groups = new Map<string, Array<A>>()
  for (const a of [...records].sort(order)) append(groups, base.get(a)!, a)
  const out = new Map<A, string>()
  for (const [ref, group] of groups)
    group.forEach((a, i) => {
      const reference = i === 0 ? ref : `${ref}-${i + 1}`
      out.set(a, reference)
      if (i > 0) onDuplicate(a, reference, group.length)
    })
  return out
}

/** Whether a credit migrates: everything but voided (or deleted) ones. */
export const creditMigrates = (c: SourceCredit): boolean => c.state !== "voided"

/**
 * The source account a prepayment is held on until it is applied, when it is one the target can hold it on
 * too: a prepayment whose lines post to one account, without tax. The source keeps such a prepayment on that
 * account (Prepayments, Customer Deposits), not on the contact's balance, and moves what it applies to the
 * contact's receivable or payable only when it applies it; so it migrates as a cash entry on that account,
 * a credit note per application dated when it is applied (`heldApplicationReference`), and a cash entry per
 * refund (`heldRefundReference`). Any other credit migrates as one credit note (undefined).
 */
export const heldOnAccount = (c: SourceCredit): string | undefined => {
  if (c.origin !== "prepayment") return undefined
  const accounts = new Set(c.lines.map((l) => l.accountCode.trim()))
  if (accounts.size !== 1 || c.lines.some((l) => !Money.isZero(l.taxAmount))) return undefined
  const [account] = accounts
  return account === "" ? undefined : account
}

/** The reference of the credit note that applies a held prepayment to its `n`th document (1-based). */
export const heldApplicationReference = (reference: string, n: number): string => `${reference}-A${n}`

/** The reference of the cash entry of a held prepayment's `n`th refund (1-based). */
export const heldRefundReference = (reference: string, n: number): string => `${reference}-RFD${n}`

/**
 * What a target reference is of a held prepayment's (the inverse of `heldApplicationReference` and
 * `heldRefundReference`): the prepayment's own reference and which record it is, or undefined for any other.
 */
export const heldRecordOf = (
  reference: string
): { readonly prepayment: string; readonly record: "application" | "refund" } | undefined => {
  const m = /^(.+)-(A|RFD)\d+$/.exec(reference)
  return m ? { prepayment: m[1]!, record: m[2] === "A" ? "application" : "refund" } : undefined
}

/** The op kind (and reference entity) of a credit: a customer or a supplier credit note. */
export const creditKind = (c: Pick<SourceCredit, "side">) =>
  c.side === "sale" ? ("customer-credit-note" as const) : ("supplier-credit-note" as const)

/**
 * The reference of every migrating credit: credit notes keep their number; overpayments and prepayments
 * (which have none) get `MIG-OVP-…` / `MIG-PRE-…` from their side, contact, date, currency, total and source
 * reference. Unique per side (the two sides are different resources).
 */
export const creditReferences = (
  credits: ReadonlyArray<SourceCredit>,
  onDuplicate?: (c: SourceCredit, reference: string, uses: number) => void
): ReadonlyMap<SourceCredit, string> =>
  onDuplicate === undefined ? creditReferencesOnce(credits) : assignCreditReferences(credits, onDuplicate)

/** The references of a collection of credits, built once (the reconciliation's checks each ask for them). */
const creditReferencesOnce = rememberedFor((credits: ReadonlyArray<SourceCredit>) =>
  assignCreditReferences(credits, () => {})
)

const assignCreditReferences = (
  credits: ReadonlyArray<SourceCredit>,
  onDuplicate: (c: SourceCredit, reference: string, uses: number) => void
): Map<SourceCredit, string> => {
  const out = new Map<SourceCredit, string>()
  for (const side of ["sale", "purchase"] as const) {
    const refs = assign(
      credits.filter((c) => c.side === side && creditMigrates(c)),
      (c) => c.number,
      (c) => ({
        prefix: c.origin === "prepayment" ? "PRE" : "OVP",
        date: c.date,
        identity: [side, normalizeName(c.contactName), c.currency, Money.toFixed(c.total), c.reference]
      }),
      (a, b) =>
        compare(a.date, b.date) ||
        compare(a.contactName, b.contactName) ||
        compare(a.lineage[0]!, b.lineage[0]!),
      onDuplicate
    )
    for (const [c, r] of refs) out.set(c, r)
  }
  return out
}

/** A cash entry or a transfer: the two kinds of record `POST /cashflow-transactions/search` finds by reference. */
export type CashRecord =
  | { readonly _tag: "entry"; readonly entry: SourceCashEntry }
  | { readonly _tag: "transfer"; readonly transfer: SourceTransfer }

const dateOf = (r: CashRecord) => (r._tag === "entry" ? r.entry.date : r.transfer.date)
const lineageOf = (r: CashRecord) => (r._tag === "entry" ? r.entry.lineage : r.transfer.lineage)

/**
 * The reference of every cash entry and transfer, unique across them all: the source's `Reference` when it
 * has one, else `MIG-RM-…` (money received), `MIG-SM-…` (money spent) or `MIG-BT-…` (bank transfer) from the
 * account(s), contact, amount and description.
 */
export const cashReferences = (
  records: ReadonlyArray<CashRecord>,
  onDuplicate: (r: CashRecord, reference: string, uses: number) => void = () => {}
): Map<CashRecord, string> =>
  assign(
    records,
    (r) => (r._tag === "entry" ? r.entry.reference : r.transfer.reference).trim(),
    (r) =>
      r._tag === "entry"
        ? {
            prefix: r.entry.direction === "in" ? "RM" : "SM",
            date: r.entry.date,
            identity: [
              normalizeName(r.entry.bankAccountName),
              normalizeName(r.entry.contactName),
              Money.toFixed(r.entry.amount),
              r.entry.description
            ]
          }
        : {
            prefix: "BT",
            date: r.transfer.date,
            identity: [
              normalizeName(r.transfer.fromAccountName),
              normalizeName(r.transfer.toAccountName),
              Money.toFixed(r.transfer.amountOut),
              Money.toFixed(r.transfer.amountIn)
            ]
          },
    (a, b) => compare(dateOf(a), dateOf(b)) || compare(lineageOf(a)[0]!, lineageOf(b)[0]!),
    onDuplicate
  )
