/**
 * An incremental CSV file writer: RFC 4180 quoting, UTF-8 without BOM, LF line ends, rows buffered in
 * small chunks and flushed synchronously so memory stays flat however many rows are written.
 */
import * as NodeFs from "node:fs"

const NEEDS_QUOTES = /[",\r\n]/

/** One cell, quoted when it holds a comma, a quote or a line break. */
export const cell = (value: string): string =>
  NEEDS_QUOTES.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value

/** One CSV line (without its line end). */
export const line = (cells: ReadonlyArray<string>): string => cells.map(cell).join(",")

const FLUSH_AT = 64 * 1024

/** A CSV file being written; `close` flushes and returns the number of lines written. */
export class CsvFile {
  private readonly fd: number
  private buffer = ""
  private lines = 0

  constructor(readonly path: string) {
    this.fd = NodeFs.openSync(path, "w")
  }

  /** Appends one row. */
  row(cells: ReadonlyArray<string>): void {
    this.raw(line(cells))
  }

  /** Appends one line of already formatted text (an empty string writes a blank line). */
  raw(text: string): void {
    this.buffer += text + "\n"
    this.lines++
    if (this.buffer.length >= FLUSH_AT) this.flush()
  }

  /** Flushes the remaining rows and closes the file. */
  close(): number {
    this.flush()
    NodeFs.closeSync(this.fd)
    return this.lines
  }

  private flush(): void {
    if (this.buffer.length > 0) NodeFs.writeSync(this.fd, this.buffer)
    this.buffer = ""
  }
}
