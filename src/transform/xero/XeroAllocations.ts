/**
 * The optional credit allocations file (`generic.credit_allocations`: `Credit Note Number`, `Document
 * Number`, `Amount`): the applications the user states, which override the plan's inference for the credits
 * they name. Headers are matched loosely (`CreditNoteNumber` works too).
 */
import * as Option from "effect/Option"
import { where, type StagedRow } from "../../staging/SourceRows.js"
import * as Money from "../Money.js"
import type { Issue, SourceAllocation } from "../SourceModel.js"
import { readRows, RowProblem } from "./StagedCells.js"

const fold = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "")

const loose = (row: StagedRow, name: string): string => {
  const key = Object.keys(row.data).find((k) => fold(k) === fold(name))
  return key === undefined ? "" : (row.data[key] ?? "").trim()
}

const need = (row: StagedRow, name: string): string => {
  const v = loose(row, name)
  if (v === "") throw new RowProblem(`${name} is empty`, `fill in ${name} in the allocations file`)
  return v
}

export const readAllocations = (
  rows: ReadonlyArray<StagedRow>,
  issues: Array<Issue>
): Array<SourceAllocation> =>
  readRows(rows, issues, (row) => {
    const text = need(row, "Amount")
    const amount = Option.getOrThrowWith(
      Money.parse(text.replace(/,/g, "")),
      () =>
        new RowProblem(
          `Amount ${JSON.stringify(text)} is not an amount`,
          "correct Amount to a number such as 120.50"
        )
    )
    return {
      creditNumber: need(row, "Credit Note Number"),
      documentNumber: need(row, "Document Number"),
      amount,
      lineage: where(row)
    }
  })
