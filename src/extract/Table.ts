/**
 * Flat tables (a header row, then one record per line): finding the header among the first records,
 * turning cells into `data`, and the reader shared by every plain export and import template.
 */
import { rememberedFor } from "../Remembered.js"
import * as Headers from "./Headers.js"
import * as P from "./Profile.js"
import { isBlank, lastFilled, type SourceRecord } from "./SourceRecord.js"

/** A flat layout: its kind, the headers it cannot lack, and every header it may have (vendor spelling). */
export interface Layout {
  readonly kind: string
  readonly required: ReadonlyArray<string>
  readonly known: ReadonlyArray<string>
}

/** Where a layout's header row is in the head, and how much of that row the layout explains (0–1). */
export interface HeaderMatch {
  readonly index: number
  readonly coverage: number
}

const SCAN = 25

/** The first of the head's first 25 records that has every `required` header, with its coverage. */
export const findHeader = (
  head: ReadonlyArray<SourceRecord>,
  required: ReadonlyArray<string>,
  known: ReadonlyArray<string>
): HeaderMatch | undefined => {
  const need = required.map(Headers.fold)
  const all = new Set([...known, ...required].map(Headers.fold))
  for (let i = 0; i < Math.min(head.length, SCAN); i++) {
    const cells = head[i]!.cells.map(Headers.fold).filter((c) => c !== "")
    if (cells.length === 0) continue
    const have = new Set(cells)
    if (!need.every((h) => have.has(h))) continue
    return { index: i, coverage: cells.filter((c) => all.has(c)).length / cells.length }
  }
  return undefined
}

/** The reject reason for a record with filled cells beyond the header's width, if it has any. */
export const tooManyCells = (file: string, record: SourceRecord, width: number): string | undefined => {
  const last = lastFilled(record.cells)
  if (last < width) return undefined
  return (
    `too many cells at ${file}:${record.line}: a value in column ${last + 1} but the header has ${width} ` +
    `columns; a value containing the delimiter is probably unquoted — quote it (or remove the extra cells) ` +
    `in the export and extract again`
  )
}

type DataOf = (cells: ReadonlyArray<string>) => Record<string, string>

/**
 * A function building `data` objects for `keys` as one object literal (keys JSON-quoted, in order), so that
 * every row of a file shares one object shape: 5× cheaper to build than key-by-key assignment, which turns a
 * wide row into a dictionary, and cheaper to serialize. Property order and values are the same. One per
 * header.
 */
const builder = rememberedFor((keys: ReadonlyArray<string>): DataOf => {
  const fields = keys.map((k, i) => `${JSON.stringify(k)}: (c[${i}] ?? "").trim()`)
  return new Function("c", `return {${fields.join(",")}}`) as DataOf
})

/** `data` of a record: header key → trimmed cell, "" for missing cells. */
export const toData = (keys: ReadonlyArray<string>, cells: ReadonlyArray<string>): Record<string, string> =>
  builder(keys)(cells)

/**
 * The trimmed cells of a record as `width` values ("" for missing cells): the record's own array when it
 * already is exactly that (the common case, no copy), else a new one.
 */
export const valuesOf = (width: number, cells: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (cells.length === width) {
    let i = 0
    while (i < width && cells[i]!.trim() === cells[i]) i++
    if (i === width) return cells
  }
  const out = new Array<string>(width)
  for (let i = 0; i < width; i++) out[i] = (cells[i] ?? "").trim()
  return out
}

/** A header's cells folded (`Headers.fold`), once per header. */
const folded = rememberedFor((header: ReadonlyArray<string>) => header.map(Headers.fold))

/** True when a record repeats the header row (concatenated exports). */
export const isHeaderAgain = (header: ReadonlyArray<string>, cells: ReadonlyArray<string>): boolean => {
  if (header.length === 0) return false
  const folds = folded(header)
  if (folds[0] !== foldFirst(cells[0] ?? "")) return false
  for (let i = 1; i < folds.length; i++) if (folds[i] !== Headers.fold(cells[i] ?? "")) return false
  return true
}

const firstFolds = new Map<string, string>()

/** `Headers.fold` of a record's first cell, remembered: it is asked of every record, and first cells repeat. */
const foldFirst = (cell: string): string => {
  let f = firstFolds.get(cell)
  if (f === undefined) {
    if (firstFolds.size >= 4096) firstFolds.clear()
    firstFolds.set(cell, (f = Headers.fold(cell)))
  }
  return f
}

/**
 * The reader of a flat table whose header is the `headerIndex`-th record: records before it are titles
 * (or blanks), then each record is staged unless blank, a repeated header, or wider than the header.
 * `check` may turn a staged row into a reject (e.g. a document type that belongs to another kind).
 */
export const reader = (
  file: string,
  headerIndex: number,
  headerCells: ReadonlyArray<string>,
  check?: (record: SourceRecord) => P.Outcome | undefined,
  skips: ReadonlyArray<readonly [RegExp, P.SkipReason]> = []
): P.RowReader => {
  const header = Headers.trimTrailing(headerCells)
  const keys = P.shape(Headers.keys(header))
  let index = 0
  return {
    read: (record) => {
      const i = index++
      if (isBlank(record.cells)) return P.skipped("blank")
      if (i < headerIndex) return P.skipped("title")
      if (i === headerIndex || isHeaderAgain(header, record.cells)) return P.skipped("header")
      if (skips.length > 0) {
        const first = record.cells.map((c) => c.trim()).find((c) => c !== "") ?? ""
        for (const [pattern, reason] of skips) if (pattern.test(first)) return P.skipped(reason)
      }
      const wide = tooManyCells(file, record, keys.length)
      if (wide !== undefined) return P.rejected(wide)
      return check?.(record) ?? P.stagedValues(keys, valuesOf(keys.length, record.cells))
    },
    finish: () => []
  }
}

/** A profile for a flat layout: recognised when its required headers are present, confidence = coverage. */
export const profile = (
  layout: Layout,
  skips: ReadonlyArray<readonly [RegExp, P.SkipReason]> = []
): P.Profile => ({
  kinds: [layout.kind],
  expects: `a header row with ${layout.required.join(", ")}`,
  recognise: (head, file) => {
    const match = findHeader(head, layout.required, layout.known)
    if (match === undefined) return []
    const headerCells = head[match.index]!.cells
    return [
      {
        kind: layout.kind,
        confidence: match.coverage,
        evidence: `header on line ${head[match.index]!.line} matches ${Math.round(match.coverage * 100)}%`,
        reader: () => reader(file, match.index, headerCells, undefined, skips)
      }
    ]
  }
})
