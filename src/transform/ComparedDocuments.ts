/**
 * The books' invoices and bills as reconcile compares them: each kind's migrating documents in date order,
 * handed over as far as a date at a time, so that reconcile holds only those the target's documents read so
 * far have not yet met. Held whole, the kept documents of 100,000 invoices were most of reconcile's heap once
 * the books were read (107 of 169 MB, before their texts and amounts were shared).
 *
 * What the comparison needs of all of them at once is worked out beforehand (`DocumentFacts`): how many there
 * are, their contacts in the order met, and the books' span. The aged reports' items, with what each is in
 * the books (`reportMatcher`), are handed over apart from the reports' headings (`AgedReportHeading`).
 */
import * as Effect from "effect/Effect"
import * as Iterable from "effect/Iterable"
import { spanOf, type BooksSpan, type SpannedBooks } from "./BooksSpan.js"
import { isSurveyed } from "./DocumentSurvey.js"
import { reportMatcher, type MatchedBooks, type ReportMatch } from "./OpenItems.js"
import type { Records } from "./Records.js"
import { documentReferences } from "./RecordIdentity.js"
import type {
  ComparedBooks,
  DocumentKind,
  SourceAgedItem,
  SourceAgedReport,
  SourceDocument
} from "./SourceModel.js"

/** A migrating invoice or bill with the reference the plan gave it and its place in the references' order. */
export interface Referenced {
  readonly doc: SourceDocument
  readonly reference: string
  readonly order: number
}

/** What reconcile needs of all the documents at once. */
export interface DocumentFacts {
  /** How many documents the books have, migrating or not. */
  readonly count: number
  /** The contacts of the documents, then of the credits, each once, in the order met. */
  readonly contacts: ReadonlyArray<string>
  readonly span: BooksSpan
}

/** An aged report without its items: whether it gives the items' currencies besides. */
export interface AgedReportHeading extends Omit<SourceAgedReport, "items"> {
  readonly perCurrency: boolean
}

export const headingOf = ({ side, asAt, file, items }: SourceAgedReport): AgedReportHeading => ({
  side,
  asAt,
  file,
  perCurrency: Iterable.some(items, (i) => i.currency !== undefined)
})

/** Aged items whose documents are read from a spill at once. */
const AGED_AT_ONCE = 1000

/** An item of the books' aged report at `report` (its place in them), with what it is in the books. */
export type AgedItems = (report: number, item: SourceAgedItem, match: ReportMatch | null) => void

/** Hands over `kind`'s documents after those it handed over already, dated up to `until` (without: all the rest). */
export type DocumentCursor<R = never> = (
  kind: DocumentKind,
  until?: string
) => Effect.Effect<ReadonlyArray<Referenced>, never, R>

/** The documents, read (in `R`: the workspace, for the kept books) as they are handed over. */
export interface ComparedDocuments<R = never> extends DocumentFacts {
  /** A cursor over each kind's documents from the first. */
  readonly cursor: () => DocumentCursor<R>
  /** Each of `kind`'s documents again from the first, a stretch at a time (to find a reference's document). */
  readonly again: (
    kind: DocumentKind,
    each: (docs: ReadonlyArray<Referenced>) => void
  ) => Effect.Effect<void, never, R>
}

/** The contacts of the documents (the survey's, when they came with one), then of the credits, each once, in the order met. */
export const contactsOf = (
  books: Pick<ComparedBooks, "credits"> & { readonly documents: Records<SourceDocument> }
): Array<string> => {
  const names = isSurveyed(books.documents)
    ? new Set(books.documents.survey.contactNames)
    : new Set(Array.from(books.documents, (d) => d.contactName))
  for (const c of books.credits ?? []) names.add(c.contactName)
  return [...names]
}

export const factsOf = (books: SpannedBooks): DocumentFacts => ({
  count: books.documents.length,
  contacts: contactsOf(books),
  span: spanOf(books)
})

/**
 * Each of the books' aged reports' items with the report's place and what the item is in the books, made as
 * they are taken: a plan keeps them a chunk at a time (`PlanBooks.save`). Made all at once, they and their
 * matching's garbage were the peak of plan at 100,000 invoices (79,000 items).
 */
export function* agedItemsIn(
  books: MatchedBooks & Pick<ComparedBooks, "agedReports">
): Generator<readonly [number, SourceAgedItem, ReportMatch | null], void, undefined> {
  for (const [at, report] of books.agedReports.entries()) {
    const match = reportMatcher(books, report.side)
    for (const items of Iterable.chunksOf(report.items, AGED_AT_ONCE)) {
      match.prefetch(items)
      for (const item of items) yield [at, item, match(item)]
    }
  }
}

/** Hands each of the books' aged reports' items to `each`, with what each is in the books. */
export const agedItemsOf = (
  books: MatchedBooks & Pick<ComparedBooks, "agedReports">,
  each: AgedItems
): void => {
  for (const [at, item, match] of agedItemsIn(books)) each(at, item, match)
}

/** `kind`'s migrating documents in date order (then in the references' order). */
export const inDateOrder = (
  books: Pick<ComparedBooks, "documents">,
  kind: DocumentKind
): Array<Referenced> => {
  const out: Array<Referenced> = []
  let order = 0
  for (const [doc, reference] of documentReferences(books.documents)) {
    const at = order++
    if (doc.kind === kind) out.push({ doc, reference, order: at })
  }
  return out.sort((a, b) => (a.doc.date < b.doc.date ? -1 : a.doc.date > b.doc.date ? 1 : a.order - b.order))
}

/**
 * Documents handed over from `chunks(kind)`, a reader of `kind`'s documents in date order (undefined once
 * all are read); each call of `chunks` reads from the first.
 */
export const fromChunks = <R>(
  facts: DocumentFacts,
  chunks: (kind: DocumentKind) => Effect.Effect<ReadonlyArray<Referenced> | undefined, never, R>
): ComparedDocuments<R> => {
  const cursor = (kind: DocumentKind) => {
    const read = chunks(kind)
    let held: ReadonlyArray<Referenced> = []
    let at = 0
    let done = false
    return (until: string | undefined) =>
      Effect.gen(function* () {
        const out: Array<Referenced> = []
        for (;;) {
          while (at < held.length && (until === undefined || held[at]!.doc.date <= until))
            out.push(held[at++]!)
          if (at < held.length || done) return out
          const chunk = yield* read
          if (chunk === undefined) done = true
          held = chunk ?? []
          at = 0
        }
      })
  }
  return {
    ...facts,
    cursor: () => {
      const cursors = { invoice: cursor("invoice"), bill: cursor("bill") }
      return (kind, until) => cursors[kind](until)
    },
    again: (kind, each) =>
      Effect.gen(function* () {
        const read = chunks(kind)
        for (;;) {
          const chunk = yield* read
          if (chunk === undefined) return
          each(chunk)
        }
      })
  }
}

/** The documents of books held whole. */
export const inMemory = (books: ComparedBooks): ComparedDocuments =>
  fromChunks(factsOf(books), (kind) => {
    let given = false
    return Effect.sync(() => {
      if (given) return undefined
      given = true
      return inDateOrder(books, kind)
    })
  })

/** The books as reconcile compares them: their invoices and bills handed over apart from the rest. */
export interface KeptBooks<R = never> {
  /** All but the documents and the issues, and of the aged reports their headings. */
  readonly books: Omit<ComparedBooks, "documents" | "agedReports" | "issues"> & {
    readonly agedReports: ReadonlyArray<AgedReportHeading>
  }
  readonly documents: ComparedDocuments<R>
  /**
   * Hands the aged reports' items to `each` one by one (kept ones read a chunk at a time), in the books'
   * order, for the aged check's
   * tallies, which keep what they need of them: held through the comparison, the items and their matches
   * were 16 MB of reconcile's heap at 100,000 invoices, and read at once, its peak.
   */
  readonly agedItems: (each: AgedItems) => Effect.Effect<void, never, R>
}

/** Books held whole, as reconcile compares them. */
export const keptInMemory = (books: ComparedBooks): KeptBooks => ({
  books: { ...books, agedReports: books.agedReports.map(headingOf) },
  documents: inMemory(books),
  agedItems: (each) => Effect.sync(() => agedItemsOf(books, each))
})
