/**
 * What an open item of the source's aged receivables or payables report is in the source's books: the
 * document (by its number and contact) or, for a negative item, the credit note (by its number) or the
 * overpayment or prepayment (listed without a number: by its contact, date and kind, the one whose remaining
 * credit equals the item first). The reconciliation matches the report against the target through it, and
 * a quick conversion reads each item's own currency and amount through it.
 */
import { createHash } from "node:crypto"
import * as Iterable from "effect/Iterable"
import { groupBy } from "../Multimap.js"
import { normalizeName } from "./Mappings.js"
import * as Money from "./Money.js"
import { documentReferences } from "./RecordIdentity.js"
import type {
  SourceAgedItem,
  SourceAgedReport,
  SourceBooks,
  SourceCredit,
  SourceDocument
} from "./SourceModel.js"
import { creditKind, creditReferences } from "./TransactionIdentity.js"

/** The source record an open item stands for, with the reference the plan gives it. */
export type OpenItemMatch =
  | { readonly _tag: "document"; readonly doc: SourceDocument; readonly reference: string }
  | { readonly _tag: "credit"; readonly credit: SourceCredit; readonly reference: string }

/** The entity name of a match: invoice, bill, or the kind of credit note. */
export const entityOf = (m: OpenItemMatch): string =>
  m._tag === "document" ? m.doc.kind : creditKind(m.credit)

/**
 * The number a quick conversion gives an open item's conversion document: the report's own number, else a
 * deterministic one from its side, date, contact, reference and amount (overpayments have none).
 */
export const conversionNumber = (side: "AR" | "AP", i: SourceAgedItem): string =>
  i.number !== ""
    ? i.number
    : `OPEN-${side}-${i.date.replace(/-/g, "")}-${createHash("sha256")
        .update([normalizeName(i.contactName), i.reference, Money.toFixed(i.outstanding)].join("\u0000"))
        .digest("hex")
        .slice(0, 8)}`

/** Finds the source record of each item of one side's report. */
export const matcher = (books: Pick<SourceBooks, "documents" | "credits">, side: "AR" | "AP") => {
  const kind = side === "AR" ? "invoice" : "bill"
  // Indexed by number (documents, each number's contacts told apart when an item is matched) and by contact
  // (credits): a report lists thousands of items. Keyed by number and contact, the index made a text for
  // each of 100,000 invoices, all at once.
  const references = documentReferences(books.documents)
  const docs = groupBy(
    Iterable.filter(references.keys(), (d) => d.kind === kind),
    (d) => d.number
  )
  const credits = groupBy(
    [...creditReferences(books.credits ?? [])].filter(
      ([c]) => c.side === (side === "AR" ? "sale" : "purchase")
    ),
    ([c]) => normalizeName(c.contactName)
  )
  const credit = (i: SourceAgedItem): OpenItemMatch | undefined => {
    const mine = credits.get(normalizeName(i.contactName)) ?? []
    const origin = /prepay/i.test(i.reference)
      ? "prepayment"
      : /overpay/i.test(i.reference)
        ? "overpayment"
        : ""
    const found =
      i.number !== ""
        ? mine.filter(([c]) => c.number === i.number)
        : [
            ...mine.filter(([c]) => c.number === conversionNumber(side, i)),
            ...mine.filter(
              ([c]) => c.number === "" && c.date === i.date && (origin === "" || c.origin === origin)
            )
          ]
    const exact = found.filter(([c]) => Money.equals(c.remaining, Money.negate(i.outstanding)))
    const [c, reference] = (exact.length > 0 ? exact : found)[0] ?? []
    return c === undefined || reference === undefined ? undefined : { _tag: "credit", credit: c, reference }
  }
  return (i: SourceAgedItem): OpenItemMatch | undefined => {
    const contact = normalizeName(i.contactName)
    const found = docs.get(i.number || i.reference)?.find((d) => normalizeName(d.contactName) === contact)
    if (found !== undefined) return { _tag: "document", doc: found, reference: references.get(found)! }
    return Money.isNegative(i.outstanding) ? credit(i) : undefined
  }
}

/** What an aged report's item is in the books, as reconcile compares it: the record's entity, reference, currency, first row. */
export interface ReportMatch {
  readonly entity: string
  readonly reference: string
  readonly currency: string
  readonly lineage: ReadonlyArray<string>
}

/**
 * What an item of one side's report is in the books (`matcher`), as reconcile compares it; null for an item
 * they do not have. A plan keeps these for reconcile, which then compares the report without holding the
 * documents.
 */
export const reportMatcher = (
  books: Pick<SourceBooks, "documents" | "credits">,
  side: "AR" | "AP"
): ((item: SourceAgedItem) => ReportMatch | null) => {
  const match = matcher(books, side)
  return (i) => {
    const m = match(i)
    if (m === undefined) return null
    const record = m._tag === "document" ? m.doc : m.credit
    return {
      entity: entityOf(m),
      reference: m.reference,
      currency: record.currency,
      lineage: record.lineage.slice(0, 1)
    }
  }
}

/** What each item of `report` is in the books (`reportMatcher`), in the items' order. */
export const reportMatches = (
  books: Pick<SourceBooks, "documents" | "credits">,
  report: SourceAgedReport
): Array<ReportMatch | null> => report.items.map(reportMatcher(books, report.side))
