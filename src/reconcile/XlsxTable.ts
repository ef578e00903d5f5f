/**
 * What the workbooks a person reads share (the reconciliation's report.xlsx, the plan's plan.xlsx, the
 * review's review.xlsx): the accounting number format, the header and highlight fills, a styled, frozen and
 * filtered header row, and money cells written as numbers. exceljs itself is loaded only when a workbook is
 * written or read (`excel`): it costs every command about 1.5 s of CPU and tens of MB to load.
 */
import type ExcelJS from "exceljs"
import * as Format from "./Format.js"

export const accountingFormat = '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)'

export const heading = { type: "pattern", pattern: "solid", fgColor: { argb: "FF1C2430" } } as const
export const differs = { type: "pattern", pattern: "solid", fgColor: { argb: "FFFDE2E0" } } as const

export interface Column {
  readonly header: string
  readonly width: number
  readonly money?: boolean
}

/** The exceljs module, loaded on first use. */
export const excel = async (): Promise<typeof ExcelJS> => (await import("exceljs")).default

/** A worksheet's view with its first row frozen. */
export const frozenHeader = { views: [{ state: "frozen" as const, ySplit: 1, xSplit: 0 }] }

/** Sets `columns` on `ws` and styles its header row (white bold on dark), filtered over every column. */
export const header = (
  ws: Pick<ExcelJS.Worksheet, "getRow" | "autoFilter" | "columns">,
  columns: ReadonlyArray<Column>
) => {
  ws.columns = columns.map((c) => ({
    header: c.header,
    width: c.width,
    ...(c.money ? { style: { numFmt: accountingFormat } } : {})
  }))
  const head = ws.getRow(1)
  head.font = { bold: true, color: { argb: "FFFFFFFF" } }
  head.fill = heading
  head.alignment = { vertical: "middle" }
  ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } }
  return head
}

/** A row's values, its money columns' decimal strings as numbers. */
export const values = <V>(columns: ReadonlyArray<Column>, cells: ReadonlyArray<V | string>) =>
  cells.map((v, i) => (columns[i]?.money && typeof v === "string" ? Format.toNumber(v) : v))
