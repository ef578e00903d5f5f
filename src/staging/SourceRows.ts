/**
 * Typed access to staged source rows: read a file's or a kind's rows in file:line order (paged by key,
 * since the SQLite client cannot stream), each rebuilt as an object from its values and its shape's keys,
 * and record rows a later stage rejects.
 */
import { flat } from "../Strings.js"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Sql from "../extract/StagingSql.mjs"
import * as RowText from "./RowText.js"
import { relieve } from "../Memory.js"

/** A staged row: its cells by normalized header, and where it came from. */
export interface StagedRow {
  readonly file: string
  readonly line: number
  readonly data: Readonly<Record<string, string>>
}

export interface Reject {
  readonly file: string
  readonly line: number
  readonly stage: string
  readonly reason: string
  readonly raw: string
}

/** `file:line`, the lineage form used in plans, reports and messages (one flat string: the books keep it). */
export const where = (row: { readonly file: string; readonly line: number }): string =>
  flat(`${row.file}:${row.line}`)

const pageSize = 5000

/**
 * What makes a row's object of its values for one shape's keys: an object literal of those keys, made once
 * per shape, so that every row of the shape is made at once with the same hidden class. Assigned key by key,
 * a row of an export's 30-odd columns took V8 a transition per key: 0.40 s of a CPU profile of the 20,000-invoice
 * books' read. Plan at 20,000 invoices, four interleaved runs each: the read 3.59 against 4.11 s (medians).
 */
const rowMaker = (keys: ReadonlyArray<string>): ((values: ReadonlyArray<string>) => Record<string, string>) =>
  // The keys are written as JSON strings, which JavaScript reads as the same strings; the values by place.
  new Function("v", `return {${keys.map((k, i) => `${JSON.stringify(k)}: v[${i}]`).join(", ")}}`) as (
    values: ReadonlyArray<string>
  ) => Record<string, string>

/** Decodes the staged rows of one file: each row's values (`RowText`) paired with its shape's keys. */
const decoder = (shapes: ReadonlyArray<{ shape: number; keys: string }>) => {
  const shapesOf = new Map(
    shapes.map((s) => {
      const keys = JSON.parse(s.keys) as ReadonlyArray<string>
      return [s.shape, { count: keys.length, make: rowMaker(keys) }] as const
    })
  )
  return (shape: number, data: string): Record<string, string> => {
    const known = shapesOf.get(shape)
    const values = known === undefined ? undefined : RowText.decode(data, known.count)
    if (known === undefined || values === undefined)
      throw new Error(`staging is damaged: a row of shape ${shape} does not match its key list`)
    return known.make(values)
  }
}

/**
 * Hands each staged row of `file` as last published (none if it never was) to `visit`, in line order, one
 * page at a time: only the page in hand is in memory, so a reader that keeps what it needs of each row (not
 * the row) stays as small as what it keeps.
 */
export const eachRowOfFile = (file: string, visit: (row: StagedRow) => void) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [published] = yield* sql<{ gen: number; part: number | null }>`
      SELECT f.gen, p.part FROM src_files f LEFT JOIN src_parts p ON p.file = f.file AND p.gen = f.gen
      WHERE f.file = ${file}`
    if (published?.part == null) return
    const decode = decoder(
      yield* sql<{ shape: number; keys: string }>`
        SELECT shape, keys FROM src_shapes WHERE file = ${file} AND gen = ${published.gen}`
    )
    // A part's rows are the ids from its base (line 0) up to the next part's.
    const base = published.part * Sql.PART_SIZE
    let after = base - 1
    for (;;) {
      const page = yield* sql<{ id: number; shape: number; data: string }>`
        SELECT id, shape, data FROM src_rows WHERE id > ${after} AND id < ${base + Sql.PART_SIZE}
        ORDER BY id LIMIT ${pageSize}`
      for (const r of page) visit({ file, line: r.id - base, data: decode(r.shape, r.data) })
      relieve()
      const last = page[page.length - 1]
      if (!last || page.length < pageSize) return
      after = last.id
    }
  }).pipe(Effect.orDie)

/** The rows `each` hands over, collected into one array. */
const collected = <E, R>(each: (visit: (row: StagedRow) => void) => Effect.Effect<void, E, R>) =>
  Effect.suspend(() => {
    const out: Array<StagedRow> = []
    return Effect.as(
      each((row) => out.push(row)),
      out
    )
  })

/** Every staged row of `file` as last published (none if it never was), in line order. */
export const rowsOfFile = (file: string) => collected((visit) => eachRowOfFile(file, visit))

/** Hands each staged row of `kind` (the kind its file was recognised as) to `visit`, by file then line. */
export const eachRowOfKind = (kind: string, visit: (row: StagedRow) => void) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const files = yield* sql<{ file: string }>`SELECT file FROM src_files WHERE kind = ${kind} ORDER BY file`
    for (const { file } of files) yield* eachRowOfFile(file, visit)
  }).pipe(Effect.orDie)

/** Every staged row of `kind` (the kind its file was recognised as), ordered by file then line. */
export const rowsOfKind = (kind: string) => collected((visit) => eachRowOfKind(kind, visit))

/** Replaces the rejects of one stage with `rejects` (a re-run of that stage starts clean). */
export const replaceRejects = (stage: string, rejects: ReadonlyArray<Reject>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`DELETE FROM rejects WHERE stage = ${stage}`
        for (let i = 0; i < rejects.length; i += 200) {
          yield* sql`INSERT OR REPLACE INTO rejects ${sql.insert(rejects.slice(i, i + 200).map((r) => ({ ...r })))}`
        }
      })
    )
  }).pipe(Effect.orDie)

/** The staged files with their line accounting. */
export const files = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{
    file: string
    source: string
    kind: string
    confidence: number
    lines: number
    staged: number
    skipped: number
    rejected: number
  }>`SELECT file, source, kind, confidence, lines, staged, skipped, rejected FROM src_files ORDER BY file`
}).pipe(Effect.orDie)
