/**
 * Plans what settles credits: their refunds first (`CreditRefunds`), then their applications to invoices and
 * bills — from the allocations file when it names a credit (the file overrides the inference for that
 * credit), else from the inference of `CreditAllocation`; whatever cannot add up is a reject naming its
 * source rows. Returns what was applied to each document, which its payments must then complete.
 */
import * as Bodies from "./Bodies.js"
import * as HeldPrepayments from "./HeldPrepayments.js"
import { heldOnAccount } from "./TransactionIdentity.js"
import { infer, type Capacity } from "./CreditAllocation.js"
import type { PlannedCredit } from "./CreditPlanner.js"
import { settledOf, type DocumentCash } from "./DocumentPlanner.js"
import { groupOf, planRefunds, type CreditUse } from "./CreditRefunds.js"
import * as Money from "./Money.js"
import { deps, type PlanContext } from "./PlanContext.js"
import * as Refs from "./Refs.js"
import type { Books } from "./SourceModel.js"
import { append, groupBy } from "../Multimap.js"

const fmt = (m: Money.Money) => Money.toFixed(m)

/** A document that can take a credit: what its bank payments leave of what the export says was settled. */
export interface DocUse {
  readonly docKey: string
  readonly cash: DocumentCash
  left: Money.Money
}

interface Applied {
  readonly credit: PlannedCredit
  readonly doc: DocUse
  amount: Money.Money
  readonly lineage: Array<string>
}

/** Applies the allocations file's rows; returns the credits it names (no inference for them). */
const stated = (
  ctx: PlanContext,
  books: Books,
  uses: ReadonlyArray<CreditUse>,
  docs: ReadonlyArray<DocUse>,
  apply: (c: CreditUse, d: DocUse, amount: Money.Money, lineage: string) => void
) => {
  const named = new Map<CreditUse, Array<string>>()
  const base = ctx.snapshot.baseCurrency
  // A credit is named by its number, or (an overpayment or prepayment) by the reference the plan gave it.
  const creditsByName = groupBy(uses, (u) => u.planned.credit.number || u.planned.reference)
  const docsByNumber = groupBy(docs, (d) => `${d.cash.doc.kind}|${d.cash.doc.number}`)
  for (const a of books.allocations ?? []) {
    const credits = creditsByName.get(a.creditNumber) ?? []
    const pairs = credits.flatMap((u) =>
      (
        docsByNumber.get(`${u.planned.credit.side === "sale" ? "invoice" : "bill"}|${a.documentNumber}`) ?? []
      ).map((d) => ({ u, d }))
    )
    const fail = (why: string) =>
      ctx.reject(
        [a.lineage],
        `the allocation of ${fmt(a.amount)} from ${a.creditNumber} to ${a.documentNumber}`,
        why,
        "correct the allocations file"
      )
    if (pairs.length !== 1) {
      fail(
        pairs.length === 0
          ? "no migrating credit and open document of the same side have those numbers"
          : "those numbers name more than one credit and document"
      )
      continue
    }
    const { u, d } = pairs[0]!
    const c = u.planned.credit
    append(named, u, a.lineage)
    if (
      groupOf(base, c.side, c.contactName, c.currency) !==
      groupOf(base, c.side, d.cash.doc.contactName, d.cash.doc.currency)
    )
      fail("the credit and the document belong to different contacts or currencies")
    else if (!Money.greaterThan(a.amount, Money.zero)) fail("the amount is not positive")
    else if (Money.greaterThan(a.amount, u.left))
      fail(
        `it exceeds the ${fmt(u.left)} of ${a.creditNumber} that the export says was used and is not refunded or allocated`
      )
    else if (Money.greaterThan(a.amount, d.left))
      fail(
        `it exceeds the ${fmt(d.left)} of ${a.documentNumber} that the export says was paid and its bank payments do not explain`
      )
    else apply(u, d, a.amount, a.lineage)
  }
  for (const [u, lineage] of named)
    if (!Money.isZero(u.left))
      ctx.reject(
        [...u.planned.credit.lineage, ...lineage],
        `credit ${u.planned.reference}`,
        `${fmt(u.left)} of what the export says was used is neither refunded nor in the allocations file, which overrides the inference for the credits it names`,
        "add the missing allocation rows to the allocations file"
      )
  return new Set(named.keys())
}

/** The numbers of the documents the allocations file names. */
export const namedDocuments = (books: Books): ReadonlySet<string> =>
  new Set((books.allocations ?? []).map((a) => a.documentNumber))

/**
 * The document `c` as one that can take a credit: when its bank payments leave something of what the export
 * says was settled to explain, or the allocations file names it (`named`); undefined otherwise. Most are
 * settled by their bank payments alone.
 */
export const creditTaker = (
  named: ReadonlySet<string>,
  docKey: string,
  c: DocumentCash
): DocUse | undefined => {
  const left = Money.sub(settledOf(c.doc), c.cash)
  if (Money.greaterThan(left, Money.zero)) return { docKey, cash: c, left }
  if (named.has(c.doc.number)) return { docKey, cash: c, left: Money.zero }
  return undefined
}

/**
 * Plans refunds and applications of the planned credits to the documents that can take them (`creditTaker`);
 * returns what was applied to each document (`kind:number` → amount in its currency).
 */
export const planCreditSettlements = (
  ctx: PlanContext,
  books: Books,
  credits: ReadonlyArray<PlannedCredit>,
  docs: ReadonlyArray<DocUse>
): Map<string, Money.Money> => {
  const base = ctx.snapshot.baseCurrency
  const uses: Array<CreditUse> = credits
    .filter((p) => p.credit.state === "open")
    .map((planned) => ({ planned, left: planned.credit.used }))
  planRefunds(ctx, books, uses)
  const applied: Array<Applied> = []
  // Each credit's application to each document, found by credit and document: searching `applied` for it at
  // every application made the applications quadratic (0.58 s of plan's CPU at 100,000 invoices, 25 ms after).
  const appliedTo = new Map<PlannedCredit, Map<DocUse, Applied>>()
  const apply = (u: CreditUse, d: DocUse, amount: Money.Money, lineage: string | undefined) => {
    u.left = Money.sub(u.left, amount)
    d.left = Money.sub(d.left, amount)
    let toDocs = appliedTo.get(u.planned)
    if (toDocs === undefined) appliedTo.set(u.planned, (toDocs = new Map()))
    const same = toDocs.get(d)
    if (same) {
      same.amount = Money.add(same.amount, amount)
      if (lineage) same.lineage.push(lineage)
    } else {
      const a: Applied = {
        credit: u.planned,
        doc: d,
        amount,
        lineage: [u.planned.credit.lineage[0]!, d.cash.doc.lineage[0]!, ...(lineage ? [lineage] : [])]
      }
      applied.push(a)
      toDocs.set(d, a)
    }
  }
  const explicit = stated(ctx, books, uses, docs, apply)
  const order = (date: string, n: string, lineage: string) => `${date}|${n}|${lineage}`
  const creditCaps: Array<Capacity<CreditUse>> = uses
    .filter((u) => !explicit.has(u))
    .map((u) => {
      const c = u.planned.credit
      return {
        item: u,
        group: groupOf(base, c.side, c.contactName, c.currency),
        order: order(c.date, u.planned.reference, c.lineage[0]!),
        amount: u.left
      }
    })
  const docCaps: Array<Capacity<DocUse>> = []
  for (const d of docs) {
    if (!Money.greaterThan(d.left, Money.zero)) continue
    const doc = d.cash.doc
    docCaps.push({
      item: d,
      group: groupOf(base, doc.kind === "invoice" ? "sale" : "purchase", doc.contactName, doc.currency),
      order: order(doc.date, d.cash.reference, doc.lineage[0]!),
      amount: d.left
    })
  }
  const inference = infer(creditCaps, docCaps)
  for (const a of inference.allocations) apply(a.credit, a.doc, a.amount, undefined)
  for (const g of inference.ambiguous)
    ctx.warn(
      [...g.credits.flatMap((u) => u.planned.credit.lineage), ...g.docs.flatMap((d) => d.cash.doc.lineage)],
      `credits ${g.credits.map((u) => u.planned.reference).join(", ")} of "${g.credits[0]!.planned.credit.contactName}" and documents ${g.docs.map((d) => d.cash.reference).join(", ")}`,
      "the exports do not say which credit went to which document; more than one allocation explains the same figures, so the oldest credit was applied to the oldest document first",
      "check the applications in the plan; give an allocations file (Credit Note Number, Document Number, Amount) to state them"
    )
  for (const { credit: u, amount } of inference.creditsLeft)
    ctx.reject(
      u.planned.credit.lineage,
      `credit ${u.planned.reference} of "${u.planned.credit.contactName}"`,
      `${fmt(amount)} of what the export says was used is explained neither by refunds nor by any document's paid amount`,
      "check the credit's and the contact's documents' amounts paid, or state the allocations in an allocations file"
    )
  const credited = new Map<string, Money.Money>()
  const heldApplications = new Map<PlannedCredit, number>()
  for (const a of applied) {
    credited.set(a.doc.docKey, Money.add(credited.get(a.doc.docKey) ?? Money.zero, a.amount))
    const doc = a.doc.cash.doc
    const docKind = doc.kind
    const date = doc.date > a.credit.credit.date ? doc.date : a.credit.credit.date
    const heldOn = heldOnAccount(a.credit.credit)
    const kind = a.credit.kind
    let { reference, key } = a.credit
    if (heldOn !== undefined) {
      // A held prepayment is applied through a credit note of its own, made on the day it is applied.
      const n = (heldApplications.get(a.credit) ?? 0) + 1
      heldApplications.set(a.credit, n)
      const note = HeldPrepayments.planApplicationNote(ctx, books, a.credit, heldOn, n, {
        documentReference: a.doc.cash.reference,
        date,
        amount: a.amount,
        lineage: a.lineage
      })
      if (note === undefined) continue
      ;({ reference, key } = note)
    }
    ctx.add(
      {
        key: `credit:${docKind}:${a.doc.cash.reference}:${reference}`,
        phase: "settlements",
        kind: docKind === "invoice" ? "invoice-credit" : "bill-credit",
        naturalKey: `${docKind}:${a.doc.cash.reference}:${reference}`,
        sortKey: `${date}|credit|${a.doc.cash.reference}|${reference}`,
        lineage: a.lineage
      },
      Bodies.CreditApplications,
      () => ({
        body: new Bodies.CreditApplications({
          resourceId: Refs.ref(docKind, a.doc.cash.reference),
          credits: [
            new Bodies.CreditApplication({
              creditNoteResourceId: Refs.ref(kind, reference),
              amountApplied: a.amount
            })
          ]
        }),
        dependsOn: deps(Refs.opKey(docKind, a.doc.cash.reference), key)
      })
    )
  }
  return credited
}
