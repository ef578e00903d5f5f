/**
 * Typed access to staged source rows: read a kind's rows in file:line order (paged by key, since the
 * SQLite client cannot stream), and record rows a later stage rejects.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

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

/** `file:line`, the lineage form used in plans, reports and messages. */
export const where = (row: { readonly file: string; readonly line: number }): string =>
  `${row.file}:${row.line}`

const pageSize = 5000

/** Every staged row of `kind`, ordered by file then line. */
export const rowsOfKind = (kind: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const out: Array<StagedRow> = []
    let after = { file: "", line: -1 }
    for (;;) {
      const page = yield* sql<{ file: string; line: number; data: string }>`
        SELECT file, line, data FROM src_rows
        WHERE kind = ${kind} AND (file > ${after.file} OR (file = ${after.file} AND line > ${after.line}))
        ORDER BY file, line LIMIT ${pageSize}`
      for (const r of page)
        out.push({ file: r.file, line: r.line, data: JSON.parse(r.data) as Record<string, string> })
      const last = page[page.length - 1]
      if (!last || page.length < pageSize) return out
      after = { file: last.file, line: last.line }
    }
  }).pipe(Effect.orDie)

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
