/**
 * Reading the cells of staged Xero rows: text, required text, amounts (thousands separators allowed) and
 * day-first dates; a cell that cannot be read throws a `RowProblem`, which `readRows` turns into a reject
 * issue naming the row's file:line.
 */
import { remembered } from "../../Remembered.js"
import { copied, flat } from "../../Strings.js"
import * as Option from "effect/Option"
import { where, type StagedRow } from "../../staging/SourceRows.js"
import * as Dates from "../Dates.js"
import * as Money from "../Money.js"
import type { Issue, SourceTracking } from "../SourceModel.js"

/** Thrown inside row readers; caught per row and turned into a reject. */
export class RowProblem {
  constructor(
    readonly what: string,
    readonly fix: string
  ) {}
}

/**
 * The trimmed cell, "" when the row has no such key; a string of its own (`flat`), since the books keep it:
 * at 20,000 invoices the references and descriptions they kept held 65,000 rows' texts (10 MB) alive.
 */
export const cell = (row: StagedRow, key: string): string => flat((row.data[key] ?? "").trim())

/** The trimmed cell, which must not be empty. */
export const required = (row: StagedRow, key: string): string => {
  const v = cell(row, key)
  if (v === "") throw new RowProblem(`${key} is empty`, `fill in ${key} in the export`)
  return v
}

/**
 * Amounts and texts already read: an export repeats the same quantities, prices, rates, zeros, account codes,
 * tax types, item codes, descriptions and contact names row after row, and one shared (immutable) value for
 * each keeps the books a third smaller.
 */
const parsedAmount = remembered((text: string) => Money.parse(text.replace(/,/g, "")))

/**
 * One string for each text that repeats from row to row (see `parsedAmount`), of its own (`Strings.copied`),
 * the memo's key as well: the memo outlives the read that made its answer, and what the books keep later
 * shares it, so a text shared within `transiently` (a document's cell, a slice of its staged row's text)
 * kept that row's whole text alive for as long as the memo or the books held it.
 */
export const share = remembered((text: string) => text, undefined, copied)

/** One string for each date (the books hold a date per document, line and payment, over a few hundred days). */
const parsedDate = remembered(Dates.parseDayFirst)

/** A line's tracking when it has none: most lines. */
const NO_TRACKING: ReadonlyArray<SourceTracking> = Object.freeze([])

/**
 * One array for each set of tracking options (a line's two categories and options, joined by NUL): a few
 * dozen sets repeated line after line. At 20,000 invoices the books held 21,944 pairs of them, each with its
 * own texts ("Region" 16,395 times), and an array for each line, most of them empty.
 */
const sharedTracking = remembered((key: string): ReadonlyArray<SourceTracking> => {
  const [c1, o1, c2, o2] = key.split("\u0000") as [string, string, string, string]
  const pairs: Array<SourceTracking> = []
  if (c1 !== "" && o1 !== "") pairs.push({ category: c1, option: o1 })
  if (c2 !== "" && o2 !== "") pairs.push({ category: c2, option: o2 })
  return pairs.length === 0 ? NO_TRACKING : Object.freeze(pairs)
})

/**
 * A line's tracking options (`TrackingName1`/`TrackingOption1`, `TrackingName2`/`TrackingOption2`): each
 * category whose name and option are both given.
 */
export const trackingOf = (row: StagedRow): ReadonlyArray<SourceTracking> => {
  const key = ["TrackingName1", "TrackingOption1", "TrackingName2", "TrackingOption2"]
    .map((name) => cell(row, name))
    .join("\u0000")
  // Most lines have none: not worth a memo's entry.
  return key === "\u0000\u0000\u0000" ? NO_TRACKING : sharedTracking(key)
}

/** Lets go of the amounts, texts, dates and tracking read so far (a reader calls it when it has read its books). */
export const forgetShared = (): void => {
  parsedAmount.forget()
  share.forget()
  parsedDate.forget()
  sharedTracking.forget()
}

/** The cell as an amount (`1,234.50`, `-3`); an empty cell is zero when `blankAsZero`. */
export const amount = (row: StagedRow, key: string, blankAsZero = false): Money.Money => {
  const v = cell(row, key)
  if (v === "" && blankAsZero) return Money.zero
  return Option.getOrThrowWith(
    parsedAmount(v),
    () =>
      new RowProblem(
        `${key} ${JSON.stringify(v)} is not an amount`,
        `correct ${key} to a number such as 1234.50`
      )
  )
}

/** The cell as a day-first date (`31/12/2025`, `31 Dec 2025`, `2025-12-31`) in `YYYY-MM-DD`. */
export const date = (row: StagedRow, key: string): string => {
  const v = required(row, key)
  return Option.getOrThrowWith(
    parsedDate(v),
    () => new RowProblem(`${key} ${JSON.stringify(v)} is not a real DD/MM/YYYY date`, `correct ${key}`)
  )
}

/** What `read` gives, or the RowProblem it throws (anything else it throws is thrown on). */
export const attempt = <A>(read: () => A): A | RowProblem => {
  try {
    return read()
  } catch (e) {
    if (e instanceof RowProblem) return e
    throw e
  }
}

/** The reject issue of a row (`lineage`, its file:line) that cannot be read. */
export const rowReject = (lineage: string, problem: RowProblem): Issue => ({
  severity: "reject",
  lineage: [lineage],
  what: problem.what,
  why: "the row cannot be read",
  fix: problem.fix
})

/** Applies `read` to one row; a row that throws a RowProblem becomes a reject issue (and undefined). */
export const readRow = <A>(
  row: StagedRow,
  issues: Array<Issue>,
  read: (row: StagedRow) => A | undefined
): A | undefined => {
  const a = attempt(() => read(row))
  if (!(a instanceof RowProblem)) return a
  issues.push(rowReject(where(row), a))
  return undefined
}

/** Applies `read` to each row; a row that throws a RowProblem becomes a reject issue. */
export const readRows = <A>(
  rows: ReadonlyArray<StagedRow>,
  issues: Array<Issue>,
  read: (row: StagedRow) => A | undefined
): Array<A> => {
  const out: Array<A> = []
  for (const row of rows) {
    const a = readRow(row, issues, read)
    if (a !== undefined) out.push(a)
  }
  return out
}
