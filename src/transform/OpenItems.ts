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
import { SpilledDocuments, type SpilledHead } from "./BooksSpill.js"
import type { Records } from "./Records.js"
import { documentReferences } from "./RecordIdentity.js"
import type {
  DocumentKind,
  SourceAgedItem,
  SourceAgedReport,
  SourceBooks,
  SourceCredit,
  SourceDocument
} from "./SourceModel.js"
import { creditKind, creditReferences } from "./TransactionIdentity.js"

/** The source record an open item stands for, with the reference the plan gives it. */
export type OpenItemMatch<D = SourceDocument> =
  | { readonly _tag: "document"; readonly doc: D; readonly reference: string }
  | { readonly _tag: "credit"; readonly credit: SourceCredit; readonly reference: string }

/** The entity name of a match: invoice, bill, or the kind of credit note. */
export const entityOf = (m: OpenItemMatch<Pick<SourceDocument, "kind">>): string =>
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

/** What matching an item reads of a document. */
type MatchedDocument = Pick<SourceDocument, "kind" | "number" | "contactName" | "currency">

/**
 * `kind`'s migrating documents of a number, in the references' order, each with its reference and first row;
 * `prefetch` readies those of the numbers given, which are asked for next.
 */
interface ByNumber<D extends MatchedDocument> {
  (
    number: string
  ): ReadonlyArray<{ readonly doc: D; readonly reference: string; readonly firstRow: string | undefined }>
  readonly prefetch?: (numbers: ReadonlyArray<string>) => void
}

/**
 * `ByNumber` of documents held whole: indexed by number (each number's contacts told apart when an item is
 * matched: keyed by number and contact, the index made a text for each of 100,000 invoices, all at once).
 */
const heldByNumber = (
  documents: ReadonlyArray<SourceDocument>,
  kind: DocumentKind
): ByNumber<SourceDocument> => {
  const references = documentReferences(documents)
  const docs = groupBy(
    Iterable.map(
      Iterable.filter(references, ([d]) => d.kind === kind),
      ([doc, reference]) => ({ doc, reference, firstRow: doc.lineage[0] })
    ),
    (d) => d.doc.number
  )
  return (number) => docs.get(number) ?? []
}

/**
 * `ByNumber` of a spill's documents: asked of SQLite (those of the numbers prefetched at once), each document
 * as its columns give it.
 */
const spilledByNumber = (documents: SpilledDocuments, kind: DocumentKind): ByNumber<MatchedDocument> => {
  const { spill, numbering } = documents
  let ready = new Map<string, ReadonlyArray<SpilledHead>>()
  const byNumber = (number: string) =>
    (ready.get(number) ?? spill.documentsOf(kind, number))
      .slice()
      .sort((a, b) => numbering.positions[a.place]! - numbering.positions[b.place]!)
      .map((doc) => ({
        doc,
        reference: numbering.renamed.get(doc.place)?.reference ?? doc.number,
        firstRow: doc.firstRow === "" ? undefined : doc.firstRow
      }))
  return Object.assign(byNumber, {
    prefetch: (numbers: ReadonlyArray<string>) => {
      const found = spill.documentsOfEach(kind, numbers)
      ready = new Map(numbers.map((n) => [n, found.get(n) ?? []]))
    }
  })
}

/** Finds the source record of each item of one side's report among `docs` and `books`' credits. */
const matcherOf = <D extends MatchedDocument>(
  docs: ByNumber<D>,
  books: Pick<SourceBooks, "credits">,
  side: "AR" | "AP"
) => {
  // By number (documents) and by contact (credits): a report lists thousands of items.
  const credits = groupBy(
    [...creditReferences(books.credits ?? [])].filter(
      ([c]) => c.side === (side === "AR" ? "sale" : "purchase")
    ),
    ([c]) => normalizeName(c.contactName)
  )
  const credit = (i: SourceAgedItem): OpenItemMatch<D> | undefined => {
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
  const match = (
    i: SourceAgedItem
  ): { readonly match: OpenItemMatch<D>; readonly firstRow: string | undefined } | undefined => {
    const contact = normalizeName(i.contactName)
    const found = docs(i.number || i.reference).find((d) => normalizeName(d.doc.contactName) === contact)
    if (found !== undefined)
      return {
        match: { _tag: "document", doc: found.doc, reference: found.reference },
        firstRow: found.firstRow
      }
    const c = Money.isNegative(i.outstanding) ? credit(i) : undefined
    return c === undefined
      ? undefined
      : { match: c, firstRow: c._tag === "credit" ? c.credit.lineage[0] : undefined }
  }
  return Object.assign(match, {
    /** Readies the documents `items` name, which are matched next. */
    prefetch: (items: ReadonlyArray<SourceAgedItem>) =>
      docs.prefetch?.(items.map((i) => i.number || i.reference))
  })
}

/** Finds the source record of each item of one side's report. */
export const matcher = (books: Pick<SourceBooks, "documents" | "credits">, side: "AR" | "AP") => {
  const match = matcherOf(heldByNumber(books.documents, side === "AR" ? "invoice" : "bill"), books, side)
  return (i: SourceAgedItem): OpenItemMatch | undefined => match(i)?.match
}

/** The books an aged report is matched against: their documents (held whole or in a spill) and credits. */
export type MatchedBooks = Pick<SourceBooks, "credits"> & { readonly documents: Records<SourceDocument> }

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
  books: MatchedBooks,
  side: "AR" | "AP"
): ((item: SourceAgedItem) => ReportMatch | null) & {
  /** Readies what `items` are in the books, which are matched next (one read of a spill for them all). */
  readonly prefetch: (items: ReadonlyArray<SourceAgedItem>) => void
} => {
  const kind = side === "AR" ? "invoice" : "bill"
  const { documents } = books
  const match =
    documents instanceof SpilledDocuments
      ? matcherOf(spilledByNumber(documents, kind), books, side)
      : matcherOf(heldByNumber(documents as ReadonlyArray<SourceDocument>, kind), books, side)
  return Object.assign(
    (i: SourceAgedItem): ReportMatch | null => {
      const found = match(i)
      if (found === undefined) return null
      const { match: m, firstRow } = found
      return {
        entity: entityOf(m),
        reference: m.reference,
        currency: m._tag === "document" ? m.doc.currency : m.credit.currency,
        lineage: firstRow === undefined ? [] : [firstRow]
      }
    },
    { prefetch: match.prefetch }
  )
}

/** What each item of `report` is in the books (`reportMatcher`), in the items' order. */
export const reportMatches = (books: MatchedBooks, report: SourceAgedReport): Array<ReportMatch | null> => {
  const match = reportMatcher(books, report.side)
  return Array.from(report.items, (item) => match(item))
}
