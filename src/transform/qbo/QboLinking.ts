/**
 * Which invoice a customer payment paid, and which bill a bill payment paid: QuickBooks' Journal does not say,
 * so it is inferred deterministically from what the aging reports say is still open at their date.
 *
 * The rule, per side (receivables, payables) and contact:
 * 1. each document's paid amount is its total less its open balance on the aging (0 open when the aging does
 *    not list it);
 * 2. payments go in date order (then reference, then source row); each fills documents of that contact dated
 *    on or before it: one whose remaining paid amount equals the payment exactly (the oldest such); else two to
 *    four whose remaining amounts add up to it exactly (among the 16 oldest with anything left; the first such
 *    set in oldest-first order); else the oldest with anything left, then the next, until it is placed;
 * 3. what cannot be placed is held as unapplied when the aging lists it so (an overpayment, see `QboSource`),
 *    else it is a reject naming the payment and the contact's candidate documents;
 * 4. a payment with two exact matches, or without one exact match or one exact set but with two or more
 *    candidates, is placed by the rule and reported as a warning (another placement may explain the figures).
 * What payments leave unpaid is then the documents' paid amount explained by credits (credit memos and vendor
 * credits, see `CreditAllocation.ts`). A payment named in the links file is placed exactly as the file says
 * instead (and what the file leaves of it is reported).
 */
import * as Money from "../Money.js"
import type { DocumentKind, Issue, SourcePayment } from "../SourceModel.js"
import { normalizeName } from "../Mappings.js"
import { append } from "../../Multimap.js"

export interface LinkDoc {
  readonly kind: DocumentKind
  readonly number: string
  readonly contactName: string
  readonly date: string
  /** The paid amount still to be explained. */
  readonly paid: Money.Money
  readonly lineage: string
}

export interface LinkPayment {
  /** The payment's reference: its Num, else `YYYY-MM-DD contact amount`. */
  readonly reference: string
  readonly kind: DocumentKind
  readonly contactName: string
  readonly date: string
  readonly amount: Money.Money
  readonly bankAccountName: string
  readonly lineage: ReadonlyArray<string>
}

export interface StatedLink {
  readonly reference: string
  readonly documentNumber: string
  readonly amount: Money.Money
  readonly lineage: string
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const min = (a: Money.Money, b: Money.Money) => (Money.greaterThan(a, b) ? b : a)
const fmt = (m: Money.Money) => Money.toFixed(m)
const groupOf = (kind: DocumentKind, contact: string) => `${kind}\u0000${normalizeName(contact)}`
const describe = (d: LinkDoc, left: Money.Money) => `${d.number} of ${d.date} (${fmt(left)} unexplained)`

/** How many documents' whole remaining amounts a payment may settle together, and among how many candidates. */
const SET_SIZE = 4
const SET_POOL = 16

/** The sets (2 to SET_SIZE documents, oldest first) of the oldest SET_POOL candidates whose remainders add up to `amount`. */
const sets = (open: ReadonlyArray<LinkDoc>, left: ReadonlyMap<LinkDoc, Money.Money>, amount: Money.Money) => {
  const pool = open.slice(0, SET_POOL)
  const out: Array<Array<LinkDoc>> = []
  const walk = (from: number, chosen: Array<LinkDoc>, sum: Money.Money) => {
    if (chosen.length >= 2 && Money.equals(sum, amount)) out.push([...chosen])
    if (chosen.length === SET_SIZE || out.length > 1) return
    for (let i = from; i < pool.length; i++) {
      const next = Money.add(sum, left.get(pool[i]!)!)
      if (Money.greaterThan(next, amount)) continue
      walk(i + 1, [...chosen, pool[i]!], next)
    }
  }
  walk(0, [], Money.zero)
  return out
}

/** The first exact set (see `sets`), if any. */
const exactSet = (
  open: ReadonlyArray<LinkDoc>,
  left: ReadonlyMap<LinkDoc, Money.Money>,
  amount: Money.Money
) => sets(open, left, amount)[0]

/** How many exact sets there are: 0, 1, or 2 meaning two or more. */
const exactSets = (
  open: ReadonlyArray<LinkDoc>,
  left: ReadonlyMap<LinkDoc, Money.Money>,
  amount: Money.Money
) => Math.min(sets(open, left, amount).length, 2)

export interface Linked {
  readonly payments: ReadonlyArray<SourcePayment>
  /** What each document's paid amount has left after the payments (for the credits). */
  readonly left: ReadonlyMap<LinkDoc, Money.Money>
}

/** Places the payments on documents by the rule above (or the links file); issues for what it cannot. */
export const link = (
  docs: ReadonlyArray<LinkDoc>,
  payments: ReadonlyArray<LinkPayment>,
  stated: ReadonlyArray<StatedLink>,
  issues: Array<Issue>,
  /** Whether the aging holds what is left of a payment as unapplied (then it is no reject). */
  unapplied: (p: LinkPayment, rest: Money.Money) => boolean = () => false
): Linked => {
  const left = new Map<LinkDoc, Money.Money>(docs.map((d) => [d, d.paid]))
  const byGroup = new Map<string, Array<LinkDoc>>()
  for (const d of [...docs].sort(
    (a, b) => compare(a.date, b.date) || compare(a.number, b.number) || compare(a.lineage, b.lineage)
  ))
    append(byGroup, groupOf(d.kind, d.contactName), d)
  const out: Array<SourcePayment> = []
  const place = (p: LinkPayment, d: LinkDoc, amount: Money.Money) => {
    left.set(d, Money.sub(left.get(d)!, amount))
    out.push({
      documentKind: d.kind,
      documentNumber: d.number,
      bankAccountName: p.bankAccountName,
      date: p.date,
      amount,
      lineage: p.lineage[0]!
    })
  }
  const statedBy = new Map<string, Array<StatedLink>>()
  for (const s of stated) append(statedBy, s.reference, s)

  const sorted = [...payments].sort(
    (a, b) =>
      compare(a.date, b.date) || compare(a.reference, b.reference) || compare(a.lineage[0]!, b.lineage[0]!)
  )
  // The links file first, so that the inference places the other payments on what it leaves.
  const inferred: Array<LinkPayment> = []
  for (const p of sorted) {
    const candidates = byGroup.get(groupOf(p.kind, p.contactName)) ?? []
    const links = statedBy.get(p.reference)
    if (links === undefined) {
      inferred.push(p)
      continue
    }
    statedBy.delete(p.reference)
    let rest = p.amount
    for (const s of links) {
      const d = candidates.find((c) => c.number === s.documentNumber)
      if (d === undefined) {
        issues.push({
          severity: "reject",
          lineage: [s.lineage, ...p.lineage],
          what: `the link of payment ${p.reference} to ${s.documentNumber}`,
          why: `${p.contactName} has no ${p.kind} numbered ${s.documentNumber}`,
          fix: `name one of ${candidates.map((c) => c.number).join(", ") || "(none)"} in the links file`
        })
        continue
      }
      place(p, d, s.amount)
      rest = Money.sub(rest, s.amount)
    }
    if (!Money.isZero(rest))
      issues.push({
        severity: "reject",
        lineage: [...links.map((l) => l.lineage), ...p.lineage],
        what: `payment ${p.reference} of ${p.date} (${p.contactName}, ${fmt(p.amount)})`,
        why: `the links file places ${fmt(Money.sub(p.amount, rest))} of it, ${fmt(rest)} is left unplaced`,
        fix: "make the links file's amounts for this payment add up to the payment"
      })
  }
  for (const p of inferred) {
    const candidates = byGroup.get(groupOf(p.kind, p.contactName)) ?? []
    const open = candidates.filter((d) => d.date <= p.date && Money.greaterThan(left.get(d)!, Money.zero))
    const exact = open.filter((d) => Money.equals(left.get(d)!, p.amount))
    if (exact.length > 1 || (exact.length === 0 && open.length > 1 && exactSets(open, left, p.amount) !== 1))
      issues.push({
        severity: "warning",
        lineage: [...p.lineage],
        what: `payment ${p.reference} of ${p.date} (${p.contactName}, ${fmt(p.amount)})`,
        why:
          `the Journal does not say which ${p.kind} it paid and more than one placement fits: candidates ` +
          `${(exact.length > 1 ? exact : open).map((d) => describe(d, left.get(d)!)).join(", ")}; ` +
          (exact.length > 1 ? "the oldest exact match was chosen" : "the oldest were filled first"),
        fix: `if that is wrong, state it in a links file (QuickBooksLinks.csv: Credit Note Number = ${p.reference}, Document Number, Amount)`
      })
    let rest = p.amount
    const together = exact.length === 0 ? exactSet(open, left, p.amount) : undefined
    if (exact.length > 0) {
      place(p, exact[0]!, p.amount)
      rest = Money.zero
    } else if (together !== undefined) {
      for (const d of together) place(p, d, left.get(d)!)
      rest = Money.zero
    } else
      for (const d of open) {
        if (Money.isZero(rest)) break
        const amount = min(rest, left.get(d)!)
        place(p, d, amount)
        rest = Money.sub(rest, amount)
      }
    if (!Money.isZero(rest) && !unapplied(p, rest))
      issues.push({
        severity: "reject",
        lineage: [...p.lineage],
        what: `${fmt(rest)} of payment ${p.reference} of ${p.date} (${p.contactName}, ${fmt(p.amount)})`,
        why:
          `no ${p.kind} of ${p.contactName} dated on or before it has that much left unpaid by the aging report; ` +
          `candidates: ${candidates.map((d) => describe(d, left.get(d)!)).join(", ") || "none"}`,
        fix: "check the aging report is as at the Journal's end date, or state the payment's documents in a links file"
      })
  }
  for (const [reference, links] of statedBy)
    issues.push({
      severity: "reject",
      lineage: links.map((l) => l.lineage),
      what: `the links file's payment ${reference}`,
      why: "no payment or bill payment in the Journal has that reference",
      fix: "use the payment's Num, or YYYY-MM-DD contact amount for a payment without one"
    })
  return { payments: out, left }
}
