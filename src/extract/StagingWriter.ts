/**
 * Writes one source file's outcome into staging: its previous rows removed, then staged, skipped and
 * rejected rows buffered and flushed as multi-row INSERTs (200 rows a statement), then its `src_files` row.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import type { SkipReason } from "./Profile.js"

/** The line accounting of one file. */
export interface Counts {
  readonly lines: number
  readonly staged: number
  readonly skipped: number
  readonly rejected: number
}

/** The file-level facts recorded in `src_files`. */
export interface FileFacts {
  readonly file: string
  readonly source: string
  readonly kind: string
  readonly confidence: number
  readonly sha256: string
}

/** Buffers rows of one file; `flush` writes what is buffered, `counts` is the accounting so far. */
export interface FileWriter {
  readonly stage: (line: number, hash: string, data: Readonly<Record<string, string>>) => void
  readonly skip: (line: number, reason: SkipReason, raw: string) => void
  readonly reject: (line: number, reason: string, raw: string) => void
  readonly buffered: () => number
  readonly flush: Effect.Effect<void, SqlError>
  readonly counts: () => Counts
}

const ROWS_PER_STATEMENT = 200

const insertAll = (
  sql: SqlClient.SqlClient,
  table: string,
  columns: ReadonlyArray<string>,
  rows: Array<ReadonlyArray<string | number>>
): Effect.Effect<void, SqlError> =>
  Effect.gen(function* () {
    const tuple = `(${columns.map(() => "?").join(",")})`
    for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(at, at + ROWS_PER_STATEMENT)
      const statement = `INSERT INTO ${table} (${columns.join(",")}) VALUES ${chunk.map(() => tuple).join(",")}`
      yield* sql.unsafe(statement, chunk.flat()).raw
    }
  })

/** Removes everything a previous extract of `file` staged (its rows, skips, extract rejects, summary). */
export const clear = (sql: SqlClient.SqlClient, file: string): Effect.Effect<void, SqlError> =>
  Effect.all(
    [
      sql`DELETE FROM src_rows WHERE file = ${file}`,
      sql`DELETE FROM skipped WHERE file = ${file}`,
      sql`DELETE FROM rejects WHERE file = ${file} AND stage = 'extract'`,
      sql`DELETE FROM src_files WHERE file = ${file}`
    ],
    { discard: true }
  )

/** A writer for the rows of `file` of `kind`. */
export const make = (sql: SqlClient.SqlClient, file: string, kind: string): FileWriter => {
  let rows: Array<ReadonlyArray<string | number>> = []
  let skips: Array<ReadonlyArray<string | number>> = []
  let rejects: Array<ReadonlyArray<string | number>> = []
  const counts = { lines: 0, staged: 0, skipped: 0, rejected: 0 }
  return {
    stage: (line, hash, data) => {
      rows.push([file, line, kind, hash, JSON.stringify(data)])
      counts.lines++
      counts.staged++
    },
    skip: (line, reason, raw) => {
      skips.push([file, line, reason, raw])
      counts.lines++
      counts.skipped++
    },
    reject: (line, reason, raw) => {
      rejects.push([file, line, "extract", reason, raw])
      counts.lines++
      counts.rejected++
    },
    buffered: () => rows.length + skips.length + rejects.length,
    flush: Effect.suspend(() => {
      const [r, s, j] = [rows, skips, rejects]
      rows = []
      skips = []
      rejects = []
      return Effect.all(
        [
          insertAll(sql, "src_rows", ["file", "line", "kind", "row_hash", "data"], r),
          insertAll(sql, "skipped", ["file", "line", "reason", "raw"], s),
          insertAll(sql, "rejects", ["file", "line", "stage", "reason", "raw"], j)
        ],
        { discard: true }
      )
    }),
    counts: () => ({ ...counts })
  }
}

/** Records the file's summary row (last, once its rows are all written). */
export const finish = (
  sql: SqlClient.SqlClient,
  facts: FileFacts,
  counts: Counts
): Effect.Effect<void, SqlError> =>
  insertAll(
    sql,
    "src_files",
    ["file", "source", "kind", "confidence", "sha256", "lines", "staged", "skipped", "rejected"],
    [
      [
        facts.file,
        facts.source,
        facts.kind,
        facts.confidence,
        facts.sha256,
        counts.lines,
        counts.staged,
        counts.skipped,
        counts.rejected
      ]
    ]
  )
