/**
 * Turns cell values, in exceljs's shapes (what `SheetReader` builds, and what exceljs itself reads), into
 * the strings staged for them, flagging formulas with no cached value.
 */
import type ExcelJS from "exceljs"

/** A cell's staged text, and why it cannot be trusted, if so. */
export interface CellText {
  readonly text: string
  readonly problem?: string
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0")

/** A date cell as `YYYY-MM-DD` (exceljs reads Excel serial dates as UTC), with `THH:MM:SS` if it has a time. */
export const isoDate = (d: Date): string => {
  const day = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  const time = d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds()
  return time === 0
    ? day
    : `${day}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}

const LITERAL = /^=?\s*([-+]?(?:\d[\d,]*)?(?:\.\d+)?)\s*$/

const scalar = (v: unknown): string => {
  if (v === null || v === undefined) return ""
  if (v instanceof Date) return isoDate(v)
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE"
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : ""
  if (typeof v === "string") return v
  if (typeof v === "object" && "error" in v) return String((v as ExcelJS.CellErrorValue).error)
  return String(v)
}

/** The text of one cell value. */
export const text = (value: ExcelJS.CellValue, ref: string): CellText => {
  if (value === null || value === undefined || typeof value !== "object" || value instanceof Date)
    return { text: scalar(value) }
  if ("richText" in value) return { text: value.richText.map((r) => r.text).join("") }
  if ("hyperlink" in value) return { text: scalar(value.text) }
  if ("formula" in value || "sharedFormula" in value) {
    const f = value as ExcelJS.CellFormulaValue
    if (f.result !== undefined) return { text: scalar(f.result) }
    const formula = f.formula ?? ""
    const literal = LITERAL.exec(formula)
    if (literal !== null && literal[1] !== "") return { text: literal[1]! }
    return {
      text: `=${formula}`,
      problem:
        `formula without a cached value in cell ${ref} (=${formula}): the workbook was saved without ` +
        `calculating it; open it in Excel, let it recalculate, save, and extract again`
    }
  }
  return { text: scalar(value) }
}

/** The letters of a 1-based column number (1 → A, 28 → AB). */
export const column = (n: number): string => {
  let s = ""
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s
  return s
}

/** A row's cells as CSV text, for the `raw` column of skipped and rejected rows. */
export const raw = (cells: ReadonlyArray<string>): string =>
  cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(",")
