/**
 * What the workbooks a person reads share (the reconciliation's report.xlsx, the plan's plan.xlsx, the
 * review's review.xlsx): the accounting number format, the header and highlight fills, a styled, frozen and
 * filtered header row, and money cells written as numbers. exceljs itself is loaded only when a workbook is
 * written or read, and only its streaming writer (`excelWriter`) when that is all a command needs.
 */
import type ExcelJS from "exceljs"
import { once } from "node:events"
import { ORDINARY_CHARS } from "../Pieces.mjs"
import * as Format from "./Format.js"

export const accountingFormat = '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)'

export const heading = { type: "pattern", pattern: "solid", fgColor: { argb: "FF1C2430" } } as const
export const differs = { type: "pattern", pattern: "solid", fgColor: { argb: "FFFDE2E0" } } as const

export interface Column {
  readonly header: string
  readonly width: number
  readonly money?: boolean
}

/** The exceljs module, loaded on first use: for reading a workbook, or writing one held in memory. */
export const excel = async (): Promise<typeof ExcelJS> => (await import("exceljs")).default

/**
 * exceljs' streaming workbook writer alone, loaded on first use: what the reports and the plan's preview
 * write with. Loading the whole of exceljs (its reader, its CSV and its zip reader too) takes a new process
 * 383-469 ms of CPU, the writer alone 134-150 ms, on the thread that reconcile's comparison runs on.
 */
export const excelWriter = async (): Promise<typeof ExcelJS.stream.xlsx.WorkbookWriter> =>
  (await import("exceljs/lib/stream/xlsx/workbook-writer.js")).default

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

export type Cell = string | number | null

/** How a row stands out: a fill over every cell, bold, or a font of its own. */
export interface RowStyle {
  readonly fill?: ExcelJS.Fill
  readonly bold?: boolean
  readonly font?: Partial<ExcelJS.Font>
}

/** The longest a sheet waits for its zip to take what it wrote before it writes on regardless. */
const DRAIN_WAIT_MS = 5000

/**
 * exceljs writes a streamed sheet's XML to the zip without backpressure: its stream (a `StreamBuf`) ignores
 * what writing to the zip's input returns, so rows added faster than the zip compresses them wait in memory.
 * Writing plan.xlsx of 76,660 operations left 41 MB of buffers outside the heap; of 384,056 operations,
 * the preview's RSS grew from 224 to 444 MB. This waits until the zip's input for the sheet is below its high-water mark (it is the stream that
 * archiver pipes the sheet's `StreamBuf` into), or `DRAIN_WAIT_MS` has passed: a sheet whose entry the zip
 * has not reached yet is written on rather than waited for.
 */
const drained = async (ws: ExcelJS.Worksheet): Promise<void> => {
  const pipes = (ws as unknown as { stream?: { pipes?: ReadonlyArray<NodeJS.WritableStream> } }).stream?.pipes
  for (const p of pipes ?? []) {
    // archiver's streams are `readable-stream`'s, which have no `writableNeedDrain`.
    const state = p as { writableNeedDrain?: boolean; _writableState?: { needDrain?: boolean } }
    if (!(state.writableNeedDrain ?? state._writableState?.needDrain)) continue
    const timeout = new AbortController()
    const timer = setTimeout(() => timeout.abort(), DRAIN_WAIT_MS)
    await once(p, "drain", { signal: timeout.signal }).catch(() => undefined)
    clearTimeout(timer)
  }
}

/**
 * One style object per column for each row style, shared by every cell that has it: exceljs keeps a style's id
 * by the object's identity, and works out the id of any object it has not seen (as it did for the style
 * object exceljs gave each new cell: 3 s of the 20,000-invoice plan's 29 s, writing plan.xlsx).
 */
export const rowStyles = (columns: ReadonlyArray<Column>) => {
  const styles = new Map<string, ReadonlyArray<ExcelJS.Style>>()
  return (style: RowStyle): ReadonlyArray<ExcelJS.Style> => {
    const key = JSON.stringify(style)
    let s = styles.get(key)
    if (s === undefined) {
      const font =
        style.bold || style.font ? { ...(style.bold ? { bold: true } : {}), ...style.font } : undefined
      s = columns.map(
        (c) =>
          ({
            ...(c.money ? { numFmt: accountingFormat } : {}),
            ...(style.fill ? { fill: style.fill } : {}),
            ...(font ? { font } : {})
          }) as ExcelJS.Style
      )
      styles.set(key, s)
    }
    return s
  }
}

/** exceljs' cell types (its `Enums.ValueType`), which a style's id is made for when first seen. */
const NULL_CELL = 0
const NUMBER_CELL = 2
const STRING_CELL = 3

/** What a table's rows are written through: exceljs' style register and the sheet's XML stream. */
interface Internals {
  readonly styles: { readonly addStyleModel: (style: object, cellType?: number) => number }
}
interface SheetInternals {
  readonly stream: { readonly write: (xml: string) => unknown }
}

/** A cell's text as exceljs writes it (`utils.xmlEncode`): the five entities, and no control characters. */
const UNSAFE = /[<>&'"\x7F\x00-\x08\x0B-\x0C\x0E-\x1F]/
const UNSAFE_ALL = /[<>&'"\x7F\x00-\x08\x0B-\x0C\x0E-\x1F]/g
const ENTITIES: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  "'": "&apos;",
  '"': "&quot;"
}
export const xmlText = (text: string): string =>
  UNSAFE.test(text) ? text.replace(UNSAFE_ALL, (c) => ENTITIES[c] ?? "") : text

/** A column's letters: 1 is A, 27 is AA. */
export const columnLetters = (n: number): string => {
  let letters = ""
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26))
    letters = String.fromCharCode(65 + ((k - 1) % 26)) + letters
  return letters
}

/**
 * A sheet of one table in a streamed workbook: a frozen, filtered, styled header, then rows written to disk as
 * they are added, so that a workbook of any size takes the memory of one row.
 *
 * exceljs writes the workbook, its styles and the header; the rows' XML is written here, as exceljs writes
 * it (a test compares the two byte for byte). exceljs makes a row, a cell and a cell model of every value and
 * renders them through its XML stream: 1.4 s of plan's 76,660 operations (18 µs a row of 11 cells), and
 * 0.45 s of reconcile's report at 20,000 invoices. Rows wait in pieces below V8's large-object size
 * (`ORDINARY_CHARS`) and go to the sheet's stream together.
 */
export const streamedTable = (
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  columns: ReadonlyArray<Column>
) => {
  const ws = wb.addWorksheet(name, frozenHeader)
  header(ws, columns).commit()
  const register = (wb as unknown as Internals).styles
  const stream = (ws as unknown as SheetInternals).stream
  const stylesOf = rowStyles(columns)
  // A row's own style, as exceljs gives each row (none), and the letters of each column.
  const rowStyle = {}
  const letters = columns.map((_, i) => columnLetters(i + 1))
  let number = 1
  let pending: Array<string> = []
  let pendingChars = 0
  const flush = () => {
    if (pending.length === 0) return
    stream.write(pending.join(""))
    pending = []
    pendingChars = 0
  }
  return {
    /** Resolves once the rows added so far have been taken by the workbook's zip (`drained`). */
    drained: () => {
      flush()
      return drained(ws)
    },
    add: (cells: ReadonlyArray<Cell>, style: RowStyle = {}) => {
      const r = ++number
      const s = stylesOf(style)
      const vs = values(columns, cells)
      // The calls exceljs makes as it writes a row, in its order: the row's style, then each cell's.
      const rowId = register.addStyleModel(rowStyle)
      let xml = ""
      let written = false
      let first = 0
      let last = 0
      for (let i = 0; i < vs.length; i++) {
        const v = vs[i]
        // exceljs makes no cell of an undefined value.
        if (v === undefined) continue
        first ||= i + 1
        last = i + 1
        const type = v === null ? NULL_CELL : typeof v === "number" ? NUMBER_CELL : STRING_CELL
        const id = register.addStyleModel(s[i] ?? {}, type)
        const cell = `<c r="${letters[i] ?? columnLetters(i + 1)}${r}"${id ? ` s="${id}"` : ""}`
        if (v === null) {
          if (id) xml += `${cell}/>`
          continue
        }
        written = true
        xml +=
          typeof v === "number"
            ? `${cell}><v>${v}</v></c>`
            : `${cell} t="str"><v>${xmlText(String(v))}</v></c>`
      }
      // exceljs writes no row without a value (its number is taken all the same).
      if (!written) return
      const head = `<row r="${r}" spans="${first}:${last}"${rowId ? ` s="${rowId}" customFormat="1"` : ""} x14ac:dyDescent="0.25">`
      const row = `${head}${xml}</row>`
      if (pendingChars + row.length > ORDINARY_CHARS) flush()
      pending.push(row)
      pendingChars += row.length
    },
    done: () => {
      flush()
      ws.commit()
    }
  }
}

/** A workbook streamed into `file` (shared styles, inline strings). */
export const streamedWorkbook = async (file: string): Promise<ExcelJS.stream.xlsx.WorkbookWriter> => {
  const WorkbookWriter = await excelWriter()
  const wb = new WorkbookWriter({
    filename: file,
    useStyles: true,
    useSharedStrings: false
  })
  wb.creator = "ledger-migrate"
  return wb
}

/** A row's values, its money columns' decimal strings as numbers. */
export const values = <V>(columns: ReadonlyArray<Column>, cells: ReadonlyArray<V | string>) =>
  cells.map((v, i) => (columns[i]?.money && typeof v === "string" ? Format.toNumber(v) : v))
