/**
 * A streaming reader of one worksheet part: `<sheetData><row r="2"><c r="B2" t="s" s="3"><v>..</v></c>`
 * read straight from the inflated bytes into each row's staged cell texts, a batch of rows per region of the
 * part, so that neither the sheet's XML nor its rows are ever held whole.
 *
 * Cell texts are what exceljs's own reader gave (the cell values are exceljs-shaped, so `Cells` serves both): shared, inline (rich text joined) and formula strings;
 * booleans as TRUE/FALSE; errors as their text (`#DIV/0!`); numbers as `String(n)`; numbers in a date style
 * as `YYYY-MM-DD[THH:MM:SS]` (1900 or 1904 date system); a formula's cached value, or for a formula saved
 * without one its literal (`=100` → `100`) or `=FORMULA` with a problem naming the cell. Cells without `r`
 * take the next column and rows without `r` the next row; a cell with no value leaves its column empty.
 */
import type ExcelJS from "exceljs"
import * as Cells from "./Cells.js"
import type { Workbook } from "./Workbook.js"
import * as Xml from "./Xml.js"

/** One `<row>` of a sheet: its row number, its cells' staged texts from column A on, and its first problem. */
export interface Row {
  readonly number: number
  readonly cells: ReadonlyArray<string>
  readonly problem?: string
}

/** Reads the rows of the sheet part `part` of `book`, naming cells `where!B2` in problems. */
export type Read = (book: Workbook, part: string, where: string) => AsyncIterable<ReadonlyArray<Row>>

/** Cell types (the `t` attribute). */
const NUMBER = 0
const SHARED = 1
const STRING = 2
const INLINE = 3
const BOOLEAN = 4
const ERROR = 5
const DATE = 6

const MAX_ROW = 1_048_576
const MAX_COLUMN = 16_384
const DAY_MS = 86_400_000
const ZONE = /(?:[zZ]|[+-]\d\d:?\d\d)$/

class SheetScanner extends Xml.Scanner {
  private lastRow = 0
  /** The cell being read: its `<v>` as a byte range, or as text when it needed decoding; formula; inline. */
  private vs = -1
  private ve = -1
  private vText: string | undefined = undefined
  private formula: string | undefined = undefined
  private inline: string | undefined = undefined
  private problem: string | undefined = undefined

  constructor(
    private readonly book: Workbook,
    private readonly where: string
  ) {
    super()
  }

  /** Appends the rows of the current region to `out`. */
  rows(out: Array<Row>): void {
    while (this.next()) if (this.tag() === Xml.OPEN && this.named("row")) out.push(this.row())
  }

  private row(): Row {
    let number = -1
    while (this.attr()) if (this.attrNamed("r")) number = this.attrInt()
    if (number <= 0) number = this.lastRow + 1
    if (number > MAX_ROW) throw new Error(`row ${number} is beyond Excel's last row (${MAX_ROW})`)
    this.lastRow = number
    const cells: Array<string> = []
    let problem: string | undefined
    if (!this.selfClosing)
      for (let column = 0; ;) {
        this.toTag()
        const kind = this.tag()
        if (kind === Xml.CLOSE) {
          const end = this.named("row")
          this.skipClose()
          if (end) break
        } else if (kind === Xml.OPEN) {
          if (this.le - this.ls === 1 && this.b[this.ls] === 99 /* c */) {
            column = this.cell(number, column, cells)
            if (this.problem !== undefined) {
              problem ??= this.problem
              this.problem = undefined
            }
          } else this.skipAttrs()
        }
      }
    return problem === undefined ? { number, cells } : { number, cells, problem }
  }

  /** Reads the cell whose open tag's name was just read into `cells`; returns its column (1-based). */
  private cell(row: number, previous: number, cells: Array<string>): number {
    const b = this.b
    let column = 0
    let type = NUMBER
    let style = 0
    while (this.attr()) {
      if (this.ane - this.an !== 1) continue
      const name = b[this.an]
      if (name === 114 /* r */) column = this.column()
      else if (name === 116 /* t */) type = this.type()
      else if (name === 115 /* s */) style = this.attrInt()
    }
    if (column <= 0) column = previous + 1
    if (column > MAX_COLUMN)
      throw new Error(`a cell of row ${row} is beyond Excel's last column (${Cells.column(MAX_COLUMN)})`)
    if (this.selfClosing) return column
    this.vs = -1
    this.vText = this.formula = this.inline = undefined
    for (;;) {
      this.toTag()
      const kind = this.tag()
      if (kind === Xml.CLOSE) {
        const end = this.le - this.ls === 1 && b[this.ls] === 99 /* c */
        this.skipClose()
        if (end) break
        continue
      }
      if (kind !== Xml.OPEN) continue
      const one = this.le - this.ls === 1 ? b[this.ls] : 0
      this.skipAttrs()
      if (one === 118 /* v */) this.value()
      else if (this.selfClosing) {
        if (one === 102 /* f */) this.formula = ""
        else if (this.named("is")) this.inline = ""
      } else if (one === 102 /* f */) this.formula = Xml.unescape(this.content())
      else if (this.named("is")) this.inline = this.richText()
    }
    const text = this.text(type, style, row, column)
    if (text !== undefined) {
      while (cells.length < column - 1) cells.push("")
      cells[column - 1] = text
    }
    return column
  }

  /** Reads a `<v>` whose open tag was just read: as a byte range when it is plain text (the usual case). */
  private value(): void {
    const b = this.b
    const start = this.p
    if (this.selfClosing) {
      this.vs = this.ve = start
      return
    }
    this.toTag()
    if (b[this.p + 1] === 47 /* / */) {
      this.vs = start
      this.ve = this.p
      this.tag()
      this.skipClose()
    } else {
      this.p = start
      this.vText = this.content()
      this.vs = this.ve = start
    }
  }

  /** The raw text of the cell's `<v>` (numbers, booleans, shared-string indexes). */
  private raw(): string {
    return this.vText ?? this.b.toString("latin1", this.vs, this.ve)
  }

  /** The decoded text of the cell's `<v>` (strings, errors). */
  private decoded(): string {
    return this.vText ?? Xml.unescape(Xml.decodeEntities(this.b.toString("utf8", this.vs, this.ve)))
  }

  /** The cell's staged text, or undefined when it holds no value. */
  private text(type: number, style: number, row: number, column: number): string | undefined {
    if (this.inline !== undefined && (type === INLINE || this.vs < 0)) return this.inline
    if (this.vs < 0) {
      if (this.formula === undefined) return undefined
      const value: ExcelJS.CellFormulaValue = { formula: this.formula }
      const t = Cells.text(value, `${this.where}!${Cells.column(column)}${row}`)
      this.problem = t.problem
      return t.text
    }
    switch (type) {
      case SHARED: {
        const i = this.vText === undefined ? this.int(this.vs, this.ve) : Number(this.vText.trim())
        const s = this.book.strings[i]
        if (s !== undefined) return s
        this.problem =
          `cell ${this.where}!${Cells.column(column)}${row} points at shared string ${this.raw()} but the ` +
          `workbook has ${this.book.strings.length}: the workbook is damaged; save it again from Excel and ` +
          `extract again`
        return ""
      }
      case STRING:
      case INLINE:
      case ERROR:
        return this.decoded()
      case BOOLEAN:
        return parseInt(this.raw(), 10) !== 0 ? "TRUE" : "FALSE"
      case DATE: {
        const iso = this.raw().trim()
        const ms = Date.parse(iso.includes("T") && !ZONE.test(iso) ? `${iso}Z` : iso)
        return Number.isNaN(ms) ? iso : Cells.isoDate(new Date(ms))
      }
      default: {
        const date = this.book.dateStyles[style] === true
        if (!date && this.vText === undefined && this.canonical()) return this.raw()
        const n = parseFloat(this.raw())
        if (!Number.isFinite(n)) return ""
        if (!date) return String(n)
        const serial = n - 25569 + (this.book.date1904 ? 1462 : 0)
        return Cells.isoDate(new Date(Math.round(serial * DAY_MS)))
      }
    }
  }

  /**
   * True when the `<v>` bytes are a decimal that `String(parseFloat(v))` gives back unchanged, so that the
   * conversion can be skipped: an optional `-`, no leading zeros, no trailing fraction zeros, no exponent, at
   * most 15 significant digits (each such decimal is the shortest that round-trips its double) and at most 5
   * zeros after the point before the first digit (below 1e-6 `String` writes an exponent).
   */
  private canonical(): boolean {
    const b = this.b
    const z = this.ve
    let i = this.vs
    if (b[i] === 45 /* - */) i++
    let digits = 0
    if (b[i] === 48 /* 0 */) {
      if (++i === z) return z - this.vs === 1
    } else {
      for (; i < z && b[i]! >= 48 && b[i]! <= 57; i++) digits++
      if (digits === 0) return false
    }
    if (i === z) return digits <= 15
    if (b[i] !== 46 /* . */ || ++i === z || b[z - 1] === 48) return false
    let zeros = 0
    for (; i < z; i++) {
      const c = b[i]!
      if (c < 48 || c > 57) return false
      if (digits === 0 && c === 48) zeros++
      else digits++
    }
    return digits <= 15 && zeros <= 5
  }

  /** The column number of the `r` attribute just read (`AB12` → 28), or 0. */
  private column(): number {
    const b = this.b
    let n = 0
    for (let i = this.av; i < this.ave && n <= MAX_COLUMN; i++) {
      const c = b[i]! | 0x20
      if (c < 97 || c > 122) break
      n = n * 26 + (c - 96)
    }
    return n
  }

  /** The cell type of the `t` attribute just read. */
  private type(): number {
    const b = this.b
    const first = b[this.av]
    switch (this.ave - this.av) {
      case 1:
        return first === 115 /* s */
          ? SHARED
          : first === 98 /* b */
            ? BOOLEAN
            : first === 101 /* e */
              ? ERROR
              : first === 100 /* d */
                ? DATE
                : NUMBER
      case 3:
        return first === 115 /* str */ ? STRING : NUMBER
      case 9:
        return first === 105 /* inlineStr */ ? INLINE : NUMBER
      default:
        return NUMBER
    }
  }
}

/**
 * The rows of the sheet part `part` of `book` in document order, a batch per region of the part; `where`
 * (`Book.xlsx#Sheet`) names cells in problems. Reading stops at the end of `<sheetData>`.
 */
export const read: Read = async function* (book: Workbook, part: string, where: string) {
  const entry = book.entries.get(part)
  if (entry === undefined) throw new Error(`the workbook has no part ${part}`)
  const scanner = new SheetScanner(book, where)
  for await (const region of Xml.regions(await Xml.open(book.path, entry), "row", "sheetData")) {
    scanner.reset(region)
    const rows: Array<Row> = []
    scanner.rows(rows)
    if (rows.length > 0) yield rows
  }
}
