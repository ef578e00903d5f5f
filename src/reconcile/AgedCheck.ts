/**
 * Receivables and payables against the source's own aged detail report at its date: per contact (and per
 * currency when the report gives currencies) against the target's AR/AP report, and per open document
 * against the target's documents as they stood at that date, matched on the reference the plan gave the
 * document. Open credits are negative items on both sides: a credit note by its number, an overpayment or
 * prepayment (which the report lists without a number) by its contact, date and kind, each against the
 * target credit note the plan made of it. A contact whose balance differs is reported with the documents
 * that make the difference.
 */
import { relieve } from "../Memory.js"
import { contactKey } from "../review/Similarity.js"
import * as Money from "../transform/Money.js"
import { headingOf, type AgedReportHeading } from "../transform/ComparedDocuments.js"
import type { ComparedBooks, SourceAgedItem, SourceAgedReport } from "../transform/SourceModel.js"
import * as OpenItems from "../transform/OpenItems.js"
import type { AgedComparison, AgedContactRow, AgedDocumentRow, Candidate, Difference } from "./Model.js"
import {
  isCreditNote,
  isVoid,
  outstandingOf,
  type TargetAgedRow,
  type TargetDocument
} from "./TargetBooks.js"

const fmt = (m: Money.Money) => Money.toFixed(m)
const one = Money.fromNumber(1)

interface DocSide {
  /** invoice, bill, or the kind of credit note. */
  entity: string
  number: string
  reference: string
  date: string
  dueDate: string
  foreign: boolean
  source: Money.Money
  target: Money.Money
  lineage: Array<string>
  inSource: boolean
  inTarget: boolean
}

interface ContactSide {
  contact: string
  currency: string
  source: Money.Money
  target: Money.Money
  docs: Map<string, DocSide>
}

/**
 * A foreign document's outstanding amount in the base currency as a ledger holds it: its total converted at
 * its rate, less each settlement up to `asAt` converted at the same rate (each rounded to the cent).
 */
const baseOutstanding = (d: TargetDocument, asAt: string) => {
  const base = (m: Money.Money) => Money.round2(Money.div(m, d.exchangeRate, 12))
  return Money.sub(
    base(d.total),
    Money.sum([...d.payments, ...d.credits].filter((p) => p.date <= asAt).map((p) => base(p.amount)))
  )
}

export const compareAged = (
  report: SourceAgedReport,
  targetRows: ReadonlyArray<TargetAgedRow>,
  targetDocs: ReadonlyArray<TargetDocument>,
  books: ComparedBooks,
  baseCurrency: string
): { readonly comparison: AgedComparison; readonly differences: Array<Difference> } => {
  const tally = agedTally(headingOf(report), baseCurrency)
  const matches = OpenItems.reportMatches(books, report)
  let at = 0
  for (const item of report.items) tally.source(item, matches[at++] ?? null)
  tally.target(targetRows)
  tally.add(targetDocs)
  return tally.finish()
}

/**
 * The comparison with the source's aged report of `heading`: its items, one by one (`source`), each
 * with what it is in our reading of the source (`OpenItems.reportMatches`), so that the books' documents need
 * not be held (nor are the items); the target's AR or AP report at its date (`target`); and the target's
 * documents as they arrive, a window of them at a time (`add`): of each, only a document open at the report's
 * date is kept. What `finish` reports does not depend on how the documents were cut into windows.
 */
export const agedTally = (heading: AgedReportHeading, baseCurrency: string) => {
  const { side, asAt, file, perCurrency } = heading
  const kind = side === "AR" ? "invoice" : "bill"
  // By contact key (legal form, punctuation, case and spacing set aside), as the review matches contacts: a
  // source contact adopted under another spelling of the target's, or merged with a variant, is one contact.
  const keyOf = (contact: string, currency: string) =>
    perCurrency ? `${contactKey(contact)}|${currency}` : contactKey(contact)
  const contacts = new Map<string, ContactSide>()
  const contactOf = (name: string, currency: string) => {
    const k = keyOf(name, currency)
    const known = contacts.get(k)
    if (known !== undefined) return known
    const c: ContactSide = {
      contact: name,
      currency: perCurrency ? currency : baseCurrency,
      source: Money.zero,
      target: Money.zero,
      docs: new Map()
    }
    contacts.set(k, c)
    return c
  }
  const docOf = (
    c: ContactSide,
    reference: string,
    init: () => Omit<DocSide, "source" | "target" | "inSource" | "inTarget">
  ) => {
    const known = c.docs.get(reference)
    if (known !== undefined) return known
    // Field by field, not spread: a spread makes each document an object of a shape of its own (110 ms of
    // the aged check's 1.4 s at 20,000 invoices).
    const i = init()
    const d: DocSide = {
      entity: i.entity,
      number: i.number,
      reference: i.reference,
      date: i.date,
      dueDate: i.dueDate,
      foreign: i.foreign,
      source: Money.zero,
      target: Money.zero,
      lineage: i.lineage,
      inSource: false,
      inTarget: false
    }
    c.docs.set(reference, d)
    return d
  }

  /** An item of the report, with what it is in the books. */
  const source = (i: SourceAgedItem, found: OpenItems.ReportMatch | null) => {
    const currency = i.currency ?? baseCurrency
    const c = contactOf(i.contactName, currency)
    c.source = Money.add(c.source, i.outstanding)
    const reference = found?.reference ?? (i.number || i.reference)
    // Made to its size: an array grown from empty by a push holds 17 slots (79,500 such arrays took 16.7 MB
    // of reconcile's heap at 100,000 invoices; made to size, 5.9 MB).
    const lineage = found === null ? [i.lineage] : [i.lineage].concat(found.lineage)
    const d = docOf(c, reference, () => ({
      entity: found?.entity ?? (Money.isNegative(i.outstanding) ? "credit" : kind),
      number: i.number || i.reference,
      reference,
      date: i.date,
      dueDate: i.dueDate ?? "",
      foreign:
        currency !== baseCurrency ||
        (found !== null && found.currency !== "" && found.currency !== baseCurrency),
      lineage
    }))
    d.source = Money.add(d.source, i.outstanding)
    d.inSource = true
    if (d.lineage !== lineage) d.lineage.push(...lineage)
  }
  /** The target's AR or AP report at the report's date: each contact's balance. */
  const target = (targetRows: ReadonlyArray<TargetAgedRow>) => {
    for (const r of targetRows) {
      const c = contactOf(r.contact, r.currency)
      c.target = Money.add(c.target, perCurrency ? r.outstanding : r.outstandingBase)
    }
  }
  let added = 0
  /** The target's documents of a window: invoices or bills, or credit notes, of the report's side. */
  const add = (targetDocs: ReadonlyArray<TargetDocument>) => {
    for (const t of targetDocs) {
      // Its sums leave garbage in proportion to the company: collected by the ceiling as it goes, not by V8's
      // own heuristics, which grew reconcile's heap by 60 MB here at 20,000 invoices.
      if (added++ % 1_000 === 0) relieve()
      if (t.date > asAt || t.status === "DRAFT" || isVoid(t.status)) continue
      const open = outstandingOf(t, asAt)
      if (Money.isZero(open)) continue
      const foreign = t.currency !== baseCurrency
      const unsigned = perCurrency || !foreign ? open : baseOutstanding(t, asAt)
      const amount = isCreditNote(t) ? Money.negate(unsigned) : unsigned
      const c = contactOf(t.contact, t.currency)
      const d = docOf(c, t.reference, () => ({
        entity: t.kind,
        number: t.reference,
        reference: t.reference,
        date: t.date,
        dueDate: t.dueDate,
        foreign,
        lineage: []
      }))
      const target = Money.add(d.target, amount)
      // The source's amount when they agree, as most do: one object instead of two (79,000 of 80 bytes each
      // at 100,000 invoices).
      d.target = Money.equals(target, d.source) ? d.source : target
      d.inTarget = true
    }
  }

  const finish = (): { readonly comparison: AgedComparison; readonly differences: Array<Difference> } => {
    const differences: Array<Difference> = []
    const rows: Array<AgedContactRow> = []
    for (const c of [...contacts.values()].sort(
      (a, b) => a.contact.localeCompare(b.contact) || a.currency.localeCompare(b.currency)
    )) {
      const docs = [...c.docs.values()].sort(
        (a, b) => a.date.localeCompare(b.date) || a.reference.localeCompare(b.reference)
      )
      const differing = docs.filter((d) => !Money.equals(d.source, d.target))
      const diff = Money.sub(c.target, c.source)
      const rounding =
        !Money.greaterThan(Money.abs(diff), one) &&
        differing.every(
          (d) =>
            d.foreign &&
            d.inSource &&
            d.inTarget &&
            !Money.greaterThan(Money.abs(Money.sub(d.target, d.source)), one)
        ) &&
        (differing.length > 0 || docs.some((d) => d.foreign))
      const differs = !Money.isZero(diff) || differing.length > 0
      const status = !differs ? "ok" : rounding ? "rounding" : "contact-balance"
      const documentRows = docs.map((d): AgedDocumentRow => ({
        number: d.number,
        reference: d.reference,
        date: d.date,
        dueDate: d.dueDate,
        source: fmt(d.source),
        target: fmt(d.target),
        difference: fmt(Money.sub(d.target, d.source)),
        lineage: d.lineage
      }))
      rows.push({
        contact: c.contact,
        currency: c.currency,
        source: fmt(c.source),
        target: fmt(c.target),
        difference: fmt(diff),
        status,
        documents: documentRows
      })
      if (status === "ok") continue
      const candidates = differing.map((d): Candidate => ({
        kind: !d.inTarget ? "missing" : !d.inSource ? "extra" : "changed",
        entity: d.entity,
        reference: d.reference,
        date: d.date,
        source: fmt(d.source),
        target: fmt(d.target),
        lineage: d.lineage
      }))
      differences.push({
        class: status,
        area: side,
        asAt,
        subject: perCurrency ? `${c.contact} (${c.currency})` : c.contact,
        source: fmt(c.source),
        target: fmt(c.target),
        difference: fmt(diff),
        fix:
          status === "rounding"
            ? "Within 1.00 on foreign-currency documents: conversion rounding; nothing to correct unless the books must agree to the cent."
            : fixFor(side, candidates),
        candidates,
        lineage: differing.flatMap((d) => d.lineage)
      })
    }
    const source = Money.sum([...contacts.values()].map((c) => c.source))
    const target = Money.sum([...contacts.values()].map((c) => c.target))
    return {
      comparison: {
        side,
        asAt,
        file,
        perCurrency,
        contacts: rows,
        totals: { source: fmt(source), target: fmt(target), difference: fmt(Money.sub(target, source)) }
      },
      differences
    }
  }
  return { source, target, add, finish }
}

export type AgedTally = ReturnType<typeof agedTally>

const fixFor = (side: "AR" | "AP", candidates: ReadonlyArray<Candidate>): string => {
  const doc = side === "AR" ? "invoice" : "bill"
  const parts: Array<string> = []
  const refs = (k: Candidate["kind"]) =>
    candidates
      .filter((c) => c.kind === k)
      .map((c) => c.reference)
      .join(", ")
  if (refs("extra"))
    parts.push(
      `${refs("extra")} open in the target but not in the source's report: a payment missing in the target (the source shows it settled), or a ${doc} the source does not have`
    )
  if (refs("missing"))
    parts.push(
      `${refs("missing")} open in the source but not in the target: a payment in the target that the source does not have, or the ${doc} missing`
    )
  if (refs("changed"))
    parts.push(`${refs("changed")} outstanding differently: compare its lines and payments`)
  return parts.length > 0
    ? `${parts.join("; ")}.`
    : `The ${side} report's balance differs with no document to show for it: compare the contact's ledger in both systems.`
}
