/**
 * Grouped reports (general ledger, trial balance, aged receivables/payables): title rows, a column header,
 * then sections opened by a heading row (a name alone in the first cell) and closed by `Total …` rows.
 * Detail rows are staged with the section's heading carried down under a key; totals are checked exactly.
 * A balance report is dated: its rows carry the as-at date of its title rows (`ReportDate`), and without
 * one each of them is a reject.
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Amount from "./Amount.js"
import * as Headers from "./Headers.js"
import * as P from "./Profile.js"
import * as ReportDate from "./ReportDate.js"
import { cell, filledCount, isBlank, lastFilled, type SourceRecord } from "./SourceRecord.js"
import * as Table from "./Table.js"
import * as Totals from "./Totals.js"

/** How one grouped report reads. */
export interface GroupedLayout {
  readonly kind: string
  /** The first title row that makes the recognition sure (`Account Transactions`, `Trial Balance`…). */
  readonly title: RegExp
  readonly required: ReadonlyArray<string>
  readonly known: ReadonlyArray<string>
  /** The `data` key the section heading is carried down under (kept if the row has its own value). */
  readonly carry: string
  /** Columns summed per section and checked against the `Total` rows. */
  readonly amounts: ReadonlyArray<string>
  /** Whether a detail row outside any section is a reject (a GL line with no account is unusable). */
  readonly needsHeading: boolean
  /** More non-data rows, by their first filled cell. */
  readonly skips?: ReadonlyArray<readonly [RegExp, P.SkipReason]>
  /** The key of a first column whose header is blank (QuickBooks puts row labels there). */
  readonly labelKey?: string
  /**
   * Whether the report is as at a date: its rows are staged with that date (`YYYY-MM-DD`) under
   * `ReportDate.KEY`, taken from the title rows, and are rejects when the titles give none.
   */
  readonly dated?: boolean
  /**
   * Whether the grand `Total` row is staged too (after its check, with a blank heading), so that a reader
   * of the report can compare it with the lines and name it.
   */
  readonly stagesGrandTotal?: boolean
}

const PERCENT = /^[-\u2212(]?\s*[\d.,]+\s*%\)?$/

const BASE_SKIPS: ReadonlyArray<readonly [RegExp, P.SkipReason]> = [
  [/^(opening|beginning) balance$/i, "opening-balance"],
  [/^closing balance$/i, "closing-balance"],
  [/^percentage of total$/i, "percentage"]
]

/** The reader of a grouped report whose header is the `headerIndex`-th record. */
export const reader = (
  layout: GroupedLayout,
  file: string,
  headerIndex: number,
  headerCells: ReadonlyArray<string>
): P.RowReader => {
  const header = Headers.trimTrailing(headerCells)
  const keys = Headers.keys(header).map((k, i) =>
    i === 0 && layout.labelKey !== undefined && Headers.normalize(header[0] ?? "") === ""
      ? layout.labelKey
      : k
  )
  const at = (name: string) => keys.findIndex((k) => Headers.fold(k) === Headers.fold(name))
  const amountCols = layout.amounts.map((name) => [name, at(name)] as const).filter(([, i]) => i >= 0)
  const carryAt = at(layout.carry)
  const skips = [...BASE_SKIPS, ...(layout.skips ?? [])]
  const totals = Totals.make(
    file,
    amountCols.map(([name]) => name)
  )
  let index = 0
  let heading: string | undefined
  let headerLine = 0
  const date = ReportDate.watcher()

  const amountsOf = (cells: ReadonlyArray<string>): ReadonlyArray<BigDecimal.BigDecimal> | undefined => {
    const out: Array<BigDecimal.BigDecimal> = []
    for (const [, i] of amountCols) {
      const v = Amount.parse(cell(cells, i))
      if (Option.isNone(v)) return undefined
      out.push(v.value)
    }
    return out
  }

  /** The row's `data` with its heading and, for a dated report, its date; or why it is a reject. */
  const dataOf = (record: SourceRecord, carried: string): Record<string, string> | string => {
    const data = Table.toData(keys, record.cells)
    data[layout.carry] = carried
    if (layout.dated !== true) return data
    const found = date.found()
    if (found._tag !== "Dated") return ReportDate.missing(file, record.line, found, headerLine)
    data[ReportDate.KEY] = found.date
    return data
  }

  return {
    read: (record) => {
      const i = index++
      const cells = record.cells
      if (isBlank(cells)) return P.skipped("blank")
      const first = cells.map((c) => c.trim()).find((c) => c !== "") ?? ""
      if (i < headerIndex) {
        // an unquoted "As of December 31, 2025" spans two cells
        const from = cells.findIndex((c) => c.trim() !== "")
        date.title(record.line, cells.slice(from, lastFilled(cells) + 1).join(","))
        return P.skipped("title")
      }
      if (i === headerIndex) headerLine = record.line
      if (i === headerIndex || Table.isHeaderAgain(header, cells)) return P.skipped("header")
      for (const [pattern, reason] of skips) {
        if (!pattern.test(first)) continue
        if (reason === "opening-balance") totals.opening(amountsOf(cells))
        return P.skipped(reason)
      }
      const values = cells.slice(1).filter((c) => c.trim() !== "")
      if (values.length > 0 && values.every((c) => PERCENT.test(c.trim()))) return P.skipped("percentage")
      if (/^total\b/i.test(first)) {
        totals.check(record.line, first, heading, amountsOf(cells))
        heading = undefined
        if (layout.stagesGrandTotal !== true || !/^total$/i.test(first)) return P.skipped("total")
        const data = dataOf(record, "")
        return typeof data === "string" ? P.rejected(data) : P.staged(data)
      }
      if (filledCount(cells) === 1 && cell(cells, 0) !== "") {
        heading = cell(cells, 0)
        totals.section()
        return P.skipped("heading")
      }
      const wide = Table.tooManyCells(file, record, keys.length)
      if (wide !== undefined) return P.rejected(wide)
      const own = carryAt >= 0 ? cell(cells, carryAt) : ""
      if (own === "" && heading === undefined && layout.needsHeading)
        return P.rejected(
          `detail row outside any section at ${file}:${record.line}: no ${layout.carry} heading above it ` +
            `(or it follows a Total row); keep the report's group headings when exporting and extract again`
        )
      totals.add(record.line, amountsOf(cells))
      const data = dataOf(record, own !== "" ? own : (heading ?? ""))
      return typeof data === "string" ? P.rejected(data) : P.staged(data)
    },
    finish: () => totals.warnings()
  }
}

/** A profile for a grouped report: sure with its title row above the header, else by header coverage. */
export const profile = (layout: GroupedLayout): P.Profile => ({
  kinds: [layout.kind],
  expects: `title matching ${layout.title.source}, then a header row with ${layout.required.join(", ")}`,
  recognise: (head, file) => {
    const match = Table.findHeader(head, layout.required, layout.known)
    if (match === undefined) return []
    const titled = head.slice(0, match.index).some((r) => layout.title.test(cell(r.cells, 0)))
    const headerCells = head[match.index]!.cells
    return [
      {
        kind: layout.kind,
        confidence: titled ? 1 : match.coverage * 0.85,
        evidence: `${titled ? "title and " : ""}header on line ${head[match.index]!.line}`,
        reader: () => reader(layout, file, match.index, headerCells)
      }
    ]
  }
})
