/** Test support for the extract stage: fixture paths, temporary input directories, and staged-row queries. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs/promises"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as NodeUrl from "node:url"
import * as SourceRows from "../../src/staging/SourceRows.js"

const FIXTURES = NodeUrl.fileURLToPath(new URL("../fixtures/extract/", import.meta.url))

/** The path of a hand-made fixture, e.g. `fixture("xero", "Bills.csv")`. */
export const fixture = (...parts: ReadonlyArray<string>): string => NodePath.join(FIXTURES, ...parts)

/** The bytes of a fixture. */
export const read = (...parts: ReadonlyArray<string>) =>
  Effect.promise(() => NodeFs.readFile(fixture(...parts)))

/**
 * A temporary input directory (removed at the end of the scope) holding `files`: name → content, where
 * content is a string or bytes.
 */
export const inputDir = (files: Readonly<Record<string, string | Uint8Array>>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const dir = await NodeFs.mkdtemp(NodePath.join(NodeOs.tmpdir(), "extract-"))
      for (const [name, content] of Object.entries(files))
        await NodeFs.writeFile(NodePath.join(dir, name), content)
      return dir
    }),
    (dir) => Effect.promise(() => NodeFs.rm(dir, { recursive: true, force: true }))
  )

/** A temporary input directory holding copies of fixtures, under their own names or `as` names. */
export const dirOf = (source: string, names: ReadonlyArray<string | readonly [string, string]>) =>
  Effect.gen(function* () {
    const files: Record<string, Uint8Array> = {}
    for (const n of names) {
      const [from, as] = typeof n === "string" ? [n, n] : n
      files[as] = yield* read(source, from)
    }
    return yield* inputDir(files)
  })

/** Staged rows of a file: line and parsed data, in line order. */
export const stagedRows = (file: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [summary] = yield* sql<{ kind: string }>`SELECT kind FROM src_files WHERE file = ${file}`
    const rows = yield* SourceRows.rowsOfFile(file)
    return rows.map((r) => ({ line: r.line, kind: summary?.kind ?? "", data: r.data }))
  }).pipe(Effect.orDie)

/** Skipped lines of a file as `[line, reason]`. */
export const skippedLines = (file: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ line: number; reason: string }>`
      SELECT line, reason FROM skipped WHERE file = ${file} ORDER BY line`
    return rows.map((r) => [r.line, r.reason] as const)
  }).pipe(Effect.orDie)

/** Rejected lines of a file. */
export const rejectedLines = (file: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ line: number; stage: string; reason: string; raw: string }>`
      SELECT line, stage, reason, raw FROM rejects WHERE file = ${file} ORDER BY line`
  }).pipe(Effect.orDie)

/** The `src_files` row of a file, if any. */
export const fileRow = (file: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      file: string
      source: string
      kind: string
      confidence: number
      sha256: string
      lines: number
      staged: number
      skipped: number
      rejected: number
    }>`SELECT * FROM src_files WHERE file = ${file}`
    return rows[0]
  }).pipe(Effect.orDie)

/** Builds a `data` object from parallel key and value lists. */
export const zip = (keys: ReadonlyArray<string>, values: ReadonlyArray<string>): Record<string, string> =>
  Object.fromEntries(keys.map((k, i) => [k, values[i] ?? ""]))
