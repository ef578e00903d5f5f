/**
 * The comparison with our own reading of the source: every migrating document exists exactly once with the
 * source's total, paid amount (payments and credits applied, as the source counts it), balance, currency,
 * date and draft state; its payments are all there; every credit note, overpayment and prepayment exists
 * once as a credit note with its total, used amount (applied and refunded) and remaining credit (a prepayment
 * held on its account: a credit note per application, each used in full, together no more than it used), and its
 * refunds are all there; every journal exists once with its debits; each contact's outstanding receivables and payables agree per
 * currency, from the documents and from the target's AR/AP reports. It cannot see what the transform drops:
 * the trial-balance and aged-report comparisons are the independent proof.
 */
import { relieve } from "../Memory.js"
import { contactKey } from "../review/Similarity.js"
import * as Money from "../transform/Money.js"
import { contactsOf, inDateOrder, type Referenced } from "../transform/ComparedDocuments.js"
import { journalReference } from "../transform/RecordIdentity.js"
import {
  documentKinds,
  type ComparedBooks,
  type DocumentKind,
  type SourceDocument
} from "../transform/SourceModel.js"
import { creditReferences, heldOnAccount, heldRecordOf } from "../transform/TransactionIdentity.js"
import type { Count, DocumentComparison, Mismatch, Outstanding } from "./Model.js"
import {
  isVoid,
  outstandingOf,
  settledOf,
  type TargetAgedRow,
  type TargetDocument,
  type TargetJournal
} from "./TargetBooks.js"
import { groupBy } from "../Multimap.js"

const fmt = (m: Money.Money) => Money.toFixed(m)

export interface DocumentTarget {
  readonly invoices: ReadonlyArray<TargetDocument>
  readonly bills: ReadonlyArray<TargetDocument>
  /** Customer and supplier credit notes (absent: the target was not asked, as for books without credits). */
  readonly customerCredits?: ReadonlyArray<TargetDocument>
  readonly supplierCredits?: ReadonlyArray<TargetDocument>
  readonly journals: ReadonlyArray<TargetJournal>
  /** The target's AR and AP reports at `asAt`. */
  readonly AR: ReadonlyArray<TargetAgedRow>
  readonly AP: ReadonlyArray<TargetAgedRow>
}

const byReference = (found: ReadonlyArray<TargetDocument>) => groupBy(found, (d) => d.reference)

/** The target's credit notes (`DocumentTarget`'s). */
export type CreditNotes = Pick<DocumentTarget, "customerCredits" | "supplierCredits">

/** Counts the cash against the target's documents (payments, or a credit note's refunds) with the source's. */
const cashCounter =
  (counts: Array<Count>, mismatches: Array<Mismatch>) => (entity: string, source: number, target: number) => {
    counts.push({ entity, source, target, matched: Math.min(source, target) })
    if (source !== target)
      mismatches.push({
        entity,
        key: "all",
        field: "count",
        source: String(source),
        target: String(target),
        lineage: []
      })
  }

/** How many refunds of held prepayments the plan made cash entries of, per side (they are no credit-note refunds). */
export interface HeldRefunds {
  readonly sale: number
  readonly purchase: number
}
const noHeldRefunds: HeldRefunds = { sale: 0, purchase: 0 }

export const compareDocuments = (
  books: ComparedBooks,
  target: DocumentTarget,
  baseCurrency: string,
  asAt: string,
  heldRefunds: HeldRefunds = noHeldRefunds
): DocumentComparison => {
  const tally = documentTally(books, contactsOf(books), baseCurrency)
  for (const kind of documentKinds) {
    const docs = inDateOrder(books, kind)
    tally.source(kind, docs)
    tally.add(kind, kind === "invoice" ? target.invoices : target.bills)
    if (tally.unclaimed(kind) > 0) tally.claim(kind, docs)
  }
  tally.credits(target, heldRefunds)
  return tally.finish(target, asAt)
}

/** What differs of one source document: how often the target has it (when not once), or the fields that differ. */
interface Outcome {
  readonly doc: SourceDocument
  readonly reference: string
  readonly count: number
  readonly differences: ReadonlyArray<Mismatch>
}

/**
 * The comparison made as the documents of both sides arrive, a stretch of dates at a time: the source's
 * (`source`, in the references they were given) and the target's (`add`). Each is held only until the other
 * side's document of its reference has arrived, and only what differs is kept once they have met: at 100,000
 * invoices the source's documents, held whole, were most of reconcile's heap and the target's a third of it.
 * A reference the target has more than once is found by `claim`: the source's documents again, once all have
 * arrived (only when the target has documents no source document met: `unclaimed`). What `finish` reports
 * does not depend on how either side was cut, or in what order the pieces came.
 */
export const documentTally = (
  books: Pick<ComparedBooks, "payments" | "credits" | "refunds" | "journals">,
  contacts: Iterable<string>,
  baseCurrency: string
) => {
  // Each kind's documents of one side that the other side has not yet met, by reference.
  const waiting = {
    invoice: { source: new Map<string, Referenced>(), target: new Map<string, Array<TargetDocument>>() },
    bill: { source: new Map<string, Referenced>(), target: new Map<string, Array<TargetDocument>>() }
  }
  const expected = { invoice: 0, bill: 0 }
  // The source documents that differ, by their place in the references' order.
  const outcomes = { invoice: new Map<number, Outcome>(), bill: new Map<number, Outcome>() }
  const targetCount = { invoice: 0, bill: 0 }
  const targetPayments = { invoice: 0, bill: 0 }
  // By contact key, as the review matches contacts (a contact adopted under another spelling is one), each
  // named as first met: the source's contacts are met first, so the target's spelling names only one the
  // source does not have.
  const names = new Map<string, string>()
  const keyOf = (contact: string) => {
    const key = contactKey(contact)
    if (!names.has(key)) names.set(key, contact)
    return key
  }
  for (const contact of contacts) keyOf(contact)
  const sums = { source: new Map<string, Money.Money>(), target: new Map<string, Money.Money>() }
  const bump = (
    m: Map<string, Money.Money>,
    side: string,
    contact: string,
    currency: string,
    v: Money.Money
  ) => {
    const k = `${side}|${keyOf(contact)}|${currency}`
    m.set(k, Money.add(m.get(k) ?? Money.zero, v))
  }
  let added = 0

  /** A source document with the target's documents of its reference (`rows`, at least one). */
  const meet = (
    kind: DocumentKind,
    { doc, reference, order }: Referenced,
    rows: ReadonlyArray<TargetDocument>
  ) => {
    if (rows.length !== 1) {
      outcomes[kind].set(order, { doc, reference, count: rows.length, differences: [] })
      return
    }
    const row = rows[0]!
    const differences: Array<Mismatch> = []
    const miss = (field: string, source: string, value: string) =>
      differences.push({ entity: kind, key: reference, field, source, target: value, lineage: doc.lineage })
    const currency = doc.currency || baseCurrency
    const settled = settledOf(row)
    if (!Money.equals(row.total, doc.total)) miss("totalAmount", fmt(doc.total), fmt(row.total))
    if (!Money.equals(settled, doc.amountPaid)) miss("paid", fmt(doc.amountPaid), fmt(settled))
    if (!Money.equals(outstandingOf(row), doc.amountDue))
      miss("balance", fmt(doc.amountDue), fmt(outstandingOf(row)))
    if (row.currency !== currency) miss("currency", currency, row.currency)
    if ((row.status === "DRAFT") !== (doc.state === "draft")) miss("status", doc.status, row.status)
    if (row.date !== doc.date) miss("valueDate", doc.date, row.date)
    if (differences.length > 0) outcomes[kind].set(order, { doc, reference, count: 1, differences })
  }

  /** The source's invoices or bills of a stretch of dates, each once, with their references. */
  const source = (kind: DocumentKind, docs: ReadonlyArray<Referenced>) => {
    const side = kind === "invoice" ? "AR" : "AP"
    const { source: sources, target: targets } = waiting[kind]
    for (const r of docs) {
      expected[kind]++
      if (r.doc.state === "open")
        bump(sums.source, side, r.doc.contactName, r.doc.currency || baseCurrency, r.doc.amountDue)
      const rows = targets.get(r.reference)
      if (rows === undefined) sources.set(r.reference, r)
      else {
        targets.delete(r.reference)
        meet(kind, r, rows)
      }
    }
  }

  /** The target's invoices or bills of a window. */
  const add = (kind: DocumentKind, rows: ReadonlyArray<TargetDocument>) => {
    const side = kind === "invoice" ? "AR" : "AP"
    const { source: sources, target: targets } = waiting[kind]
    for (const row of rows) {
      // Its comparisons leave garbage in proportion to the company: collected by the ceiling as it goes.
      if (++added % 1_000 === 0) relieve()
      if (isVoid(row.status)) continue
      targetCount[kind]++
      targetPayments[kind] += row.payments.length
      if (row.status !== "DRAFT") bump(sums.target, side, row.contact, row.currency, outstandingOf(row))
      const r = sources.get(row.reference)
      if (r !== undefined) {
        sources.delete(row.reference)
        meet(kind, r, [row])
      } else {
        const known = targets.get(row.reference)
        if (known === undefined) targets.set(row.reference, [row])
        else known.push(row)
      }
    }
  }

  /** How many of the target's references of `kind` no source document has met (extra, or repeated). */
  const unclaimed = (kind: DocumentKind): number => waiting[kind].target.size

  /**
   * The source's documents again, once all have arrived: one whose reference the target has again after they
   * met is counted with those (its differences, of one copy, no longer reported).
   */
  const claim = (kind: DocumentKind, docs: ReadonlyArray<Referenced>) => {
    const { source: sources, target: targets } = waiting[kind]
    for (const r of docs) {
      const rows = targets.get(r.reference)
      if (rows === undefined || sources.has(r.reference)) continue
      targets.delete(r.reference)
      const before = outcomes[kind].get(r.order)?.count ?? 1
      outcomes[kind].set(r.order, { ...r, count: before + rows.length, differences: [] })
    }
  }

  // What the credit notes' comparison found (`credits`), put in its place among the rest by `finish`.
  let creditPart: { readonly counts: Array<Count>; readonly mismatches: Array<Mismatch> } | undefined

  /**
   * The target's credit notes against the books' credits: compared as soon as they are read, before the
   * invoices and bills, so that they are not held through those (7,135 and 8,388 at 100,000 invoices, 9.4 MB).
   */
  const credits = (target: CreditNotes, heldRefunds: HeldRefunds = noHeldRefunds) => {
    if (creditPart !== undefined) throw new Error("the credit notes were compared twice")
    const mismatches: Array<Mismatch> = []
    const counts: Array<Count> = []
    const countCash = cashCounter(counts, mismatches)
    const referenced = [...creditReferences(books.credits ?? [])]
    for (const side of ["AR", "AP"] as const) {
      const sourceSide = side === "AR" ? "sale" : "purchase"
      const entity = side === "AR" ? "customer credit note" : "supplier credit note"
      const found = ((side === "AR" ? target.customerCredits : target.supplierCredits) ?? []).filter(
        (d) => !isVoid(d.status)
      )
      const sideCredits = referenced.filter(([c]) => c.side === sourceSide)
      const held = sideCredits.filter(([c]) => heldOnAccount(c) !== undefined)
      const mine = sideCredits.filter(([c]) => heldOnAccount(c) === undefined)
      const applying = new Set(held.map(([, reference]) => reference))
      /** The held prepayment a target credit note applies, if it is one of their application notes. */
      const appliedPrepayment = (d: TargetDocument) => {
        const record = heldRecordOf(d.reference)
        return record?.record === "application" && applying.has(record.prepayment)
          ? record.prepayment
          : undefined
      }
      const heldNotes = groupBy(
        found.filter((d) => appliedPrepayment(d) !== undefined),
        (d) => appliedPrepayment(d)!
      )
      if (sideCredits.length === 0 && found.length === 0) continue
      const notes = found.filter((d) => appliedPrepayment(d) === undefined)
      const byRef = byReference(notes)
      let heldMatched = 0
      for (const [credit, reference] of held) {
        // Held on its account until applied: each application a credit note of its own, used in full.
        const applied = heldNotes.get(reference) ?? []
        const total = Money.sum(applied.map((d) => d.total))
        const miss = (field: string, source: string, value: string) =>
          mismatches.push({
            entity: `${side === "AR" ? "customer" : "supplier"} prepayment`,
            key: reference,
            field,
            source,
            target: value,
            lineage: credit.lineage
          })
        const before = mismatches.length
        if (Money.greaterThan(total, credit.used)) miss("applied", `at most ${fmt(credit.used)}`, fmt(total))
        for (const d of applied) {
          if (!Money.isZero(outstandingOf(d))) miss("remaining credit", "0.00", fmt(outstandingOf(d)))
          if (d.date < credit.date) miss("valueDate", `${credit.date} or later`, d.date)
        }
        if (mismatches.length === before) heldMatched++
      }
      if (held.length > 0)
        counts.push({
          entity: `${side === "AR" ? "customer" : "supplier"} prepayments held on account`,
          source: held.length,
          target: heldMatched,
          matched: heldMatched
        })
      let matched = 0
      for (const [credit, reference] of mine) {
        const currency = credit.currency || baseCurrency
        if (credit.state === "open")
          bump(sums.source, side, credit.contactName, currency, Money.negate(credit.remaining))
        const miss = (field: string, source: string, value: string) =>
          mismatches.push({ entity, key: reference, field, source, target: value, lineage: credit.lineage })
        const rows = byRef.get(reference) ?? []
        if (rows.length !== 1) {
          miss("count", "1", String(rows.length))
          continue
        }
        const row = rows[0]!
        const before = mismatches.length
        if (!Money.equals(row.total, credit.total)) miss("totalAmount", fmt(credit.total), fmt(row.total))
        if (!Money.equals(settledOf(row), credit.used)) miss("used", fmt(credit.used), fmt(settledOf(row)))
        if (!Money.equals(outstandingOf(row), credit.remaining))
          miss("remaining credit", fmt(credit.remaining), fmt(outstandingOf(row)))
        if (row.currency !== currency) miss("currency", currency, row.currency)
        if ((row.status === "DRAFT") !== (credit.state === "draft")) miss("status", credit.status, row.status)
        if (row.date !== credit.date) miss("valueDate", credit.date, row.date)
        if (mismatches.length === before) matched++
      }
      for (const d of found)
        if (d.status !== "DRAFT")
          bump(sums.target, side, d.contact, d.currency, Money.negate(outstandingOf(d)))
      counts.push({ entity: `${entity}s`, source: mine.length, target: notes.length, matched })
      countCash(
        `${entity} refunds`,
        (books.refunds ?? []).filter((r) => r.side === sourceSide).length - heldRefunds[sourceSide],
        found.reduce((n, d) => n + d.payments.length, 0)
      )
    }

    creditPart = { counts, mismatches }
  }

  /**
   * The comparison, once every invoice and bill has been added and the credit notes compared (`credits`),
   * with the rest of the target.
   */
  const finish = (
    target: Omit<DocumentTarget, "invoices" | "bills" | "customerCredits" | "supplierCredits">,
    asAt: string
  ): DocumentComparison => {
    if (creditPart === undefined) throw new Error("the credit notes were not compared before the finish")
    const mismatches: Array<Mismatch> = []
    const counts: Array<Count> = []
    const countCash = cashCounter(counts, mismatches)
    const report = new Map<string, Money.Money>()

    for (const kind of documentKinds) {
      const side = kind === "invoice" ? "AR" : "AP"
      // Those the target does not have are still waiting.
      for (const r of waiting[kind].source.values())
        outcomes[kind].set(r.order, { ...r, count: 0, differences: [] })
      for (const [, { doc, reference, count, differences }] of [...outcomes[kind]].sort(([a], [b]) => a - b))
        if (count !== 1)
          mismatches.push({
            entity: kind,
            key: reference,
            field: "count",
            source: "1",
            target: String(count),
            lineage: doc.lineage
          })
        else mismatches.push(...differences)
      counts.push({
        entity: `${kind}s`,
        source: expected[kind],
        target: targetCount[kind],
        matched: expected[kind] - outcomes[kind].size
      })
      countCash(
        `${kind} payments`,
        books.payments.filter((p) => p.documentKind === kind).length,
        targetPayments[kind]
      )
      for (const r of target[side]) bump(report, side, r.contact, r.currency, r.outstanding)
    }

    counts.push(...creditPart.counts)
    mismatches.push(...creditPart.mismatches)

    const journals = books.journals.map((j) => ({ j, ref: journalReference(j.date, j.narration) }))
    const targetJournals = target.journals.filter((r) => !isVoid(r.status))
    let journalsMatched = 0
    for (const { j, ref } of journals) {
      const found = targetJournals.filter((r) => r.reference === ref)
      const debit = Money.sum(j.lines.filter((l) => !Money.isNegative(l.amount)).map((l) => l.amount))
      const miss = (field: string, source: string, value: string) =>
        mismatches.push({ entity: "journal", key: ref, field, source, target: value, lineage: j.lineage })
      if (found.length !== 1) miss("count", "1", String(found.length))
      else if (!Money.equals(debit, found[0]!.debit)) miss("debits", fmt(debit), fmt(found[0]!.debit))
      else journalsMatched++
    }
    counts.push({
      entity: "journals",
      source: journals.length,
      target: targetJournals.length,
      matched: journalsMatched
    })

    const outstanding: Array<Outstanding> = []
    const keys = [...new Set([...sums.source.keys(), ...sums.target.keys(), ...report.keys()])].sort()
    for (const k of keys) {
      const [side, contact, currency] = k.split("|") as ["AR" | "AP", string, string]
      const s = sums.source.get(k) ?? Money.zero
      const t = sums.target.get(k) ?? Money.zero
      const rep = report.get(k) ?? Money.zero
      if (Money.isZero(s) && Money.isZero(t) && Money.isZero(rep)) continue
      const name = names.get(contact) ?? contact
      outstanding.push({ side, contact: name, currency, source: fmt(s), target: fmt(t), report: fmt(rep) })
      if (!Money.equals(s, t) || !Money.equals(s, rep))
        mismatches.push({
          entity: `${side} outstanding`,
          key: `${name} ${currency}`,
          field: "outstanding",
          source: fmt(s),
          target: `${fmt(t)} (documents), ${fmt(rep)} (report)`,
          lineage: []
        })
    }
    return { asAt, counts, mismatches, outstanding }
  }
  return { source, add, unclaimed, claim, credits, finish }
}

export type DocumentTally = ReturnType<typeof documentTally>
