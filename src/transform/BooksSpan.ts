/**
 * What of the books decides which of the target reconcile reads: the first and last business dates, the
 * dates of the source's own reports, and whether there are credits. A plan stores it, so that reconcile can
 * read the target over the same window while it reads the books again (and checks the two agree).
 */
import { datesOf } from "./DocumentSurvey.js"
import type { Records } from "./Records.js"
import type { ComparedBooks, SourceDocument } from "./SourceModel.js"

export interface BooksSpan {
  /** The first date of a document, payment, journal or credit; "" when the books have none. */
  readonly first: string
  /** The last date of a document, payment or journal: reconcile's date unless told otherwise. */
  readonly last: string
  /** The last date of the source's trial balances and aged reports; "" when it gave none. */
  readonly reports: string
  readonly credits: boolean
}

/** The target's window reconcile reads documents over, as at `asAt`. */
export interface ReadWindow {
  readonly from: string
  readonly until: string
}

/** The latest of `dates` (YYYY-MM-DD), or `start` when none is later. */
export const latest = (dates: ReadonlyArray<string>, start = "") =>
  dates.reduce((m, d) => (d > m ? d : m), start)
const earliest = (dates: ReadonlyArray<string>) => dates.reduce((m, d) => (m === "" || d < m ? d : m), "")

/** The books whose span is asked for: documents and payments as records (`Records`), held whole or not. */
export type SpannedBooks = Omit<ComparedBooks, "documents" | "payments"> & {
  readonly documents: Records<SourceDocument>
  readonly payments: Records<{ readonly date: string }>
}

export const spanOf = (books: SpannedBooks): BooksSpan => {
  const credits = books.credits ?? []
  const dated = (xs: ReadonlyArray<{ readonly date: string }>) => xs.map((x) => x.date)
  const dates = datesOf(books)
  const found = (...ds: ReadonlyArray<string>) => ds.filter((d) => d !== "")
  return {
    first: earliest([...found(dates.first, dates.firstPayment), ...dated(books.journals), ...dated(credits)]),
    last: latest([...found(dates.last, dates.lastPayment), ...dated(books.journals)], "1970-01-01"),
    reports: latest([...books.trialBalances.map((t) => t.asAt), ...books.agedReports.map((r) => r.asAt)]),
    credits: credits.length > 0
  }
}

/** From the books' first date (or `asAt` when they have none) to `asAt` or the last report, whichever is later. */
export const windowOf = (span: BooksSpan, asAt: string): ReadWindow => ({
  from: span.first || asAt,
  until: latest([asAt, span.reports])
})

export const sameWindow = (a: ReadWindow, b: ReadWindow): boolean => a.from === b.from && a.until === b.until
