/**
 * Reading the cells of staged QuickBooks Online rows: QuickBooks writes amounts as `$1,234.50`, `($250.00)`
 * or `-$110.00` and dates month first (`12/31/2025`); the extract stages them as written. A cell that
 * cannot be read throws a `RowProblem` (see `xero/StagedCells.ts`), which `readRows` turns into a reject.
 */
import * as Option from "effect/Option"
import * as Amount from "../../extract/Amount.js"
import type { StagedRow } from "../../staging/SourceRows.js"
import * as Dates from "../Dates.js"
import * as Money from "../Money.js"
import { cell, required, RowProblem } from "../xero/StagedCells.js"

export { cell, readRows, required, RowProblem } from "../xero/StagedCells.js"

/** An amount as QuickBooks writes it; an empty cell is zero when `blankAsZero`. */
export const amountOf = (text: string): Money.Money | undefined =>
  Option.getOrUndefined(Option.map(Amount.parse(text), (n) => Money.add(n, Money.zero)))

export const amount = (row: StagedRow, key: string, blankAsZero = false): Money.Money => {
  const v = cell(row, key)
  if (v === "" && blankAsZero) return Money.zero
  const n = amountOf(v)
  if (n === undefined)
    throw new RowProblem(
      `${key} ${JSON.stringify(v)} is not an amount`,
      `correct ${key} to an amount such as $1,234.50`
    )
  return n
}

/** A month-first date (`12/31/2025`, `Dec 31, 2025`, `2025-12-31`) as `YYYY-MM-DD`, undefined if not one. */
export const dateOf = (text: string): string | undefined => Option.getOrUndefined(Dates.inOrder(text, "MDY"))

export const date = (row: StagedRow, key: string): string => {
  const v = required(row, key)
  const d = dateOf(v)
  if (d === undefined)
    throw new RowProblem(`${key} ${JSON.stringify(v)} is not a real MM/DD/YYYY date`, `correct ${key}`)
  return d
}

/** The first of several column spellings the row has (QuickBooks renames columns between layouts). */
export const either = (row: StagedRow, ...keys: ReadonlyArray<string>): string => {
  for (const k of keys) if (k in row.data) return cell(row, k)
  return ""
}
