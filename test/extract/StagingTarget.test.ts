import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs/promises"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as Extract from "../../src/extract/Extract.js"
import * as Sql from "../../src/extract/StagingSql.mjs"
import * as SourceRows from "../../src/staging/SourceRows.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { dirOf, inputDir } from "./support.js"

const XERO = [
  "AccountTransactions.csv",
  "Bills.csv",
  "ChartOfAccounts.csv",
  "Contacts.csv",
  "InventoryItems.csv",
  "ManualJournals.csv",
  "SalesInvoices.csv"
]

/** Everything an extract stages, in key order. */
const dump = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ t: string; file: string; line: number; v: string }>`
    SELECT 'row' AS t, file, line, shape || hex(row_hash) || data AS v FROM staged_rows
    UNION ALL SELECT 'shape', file, shape, keys FROM src_shapes
    UNION ALL SELECT 'skip', file, line, reason || raw FROM skipped
    UNION ALL SELECT 'reject', file, line, stage || reason || raw FROM rejects
    UNION ALL SELECT 'file', file, lines, source || kind || confidence || sha256 || staged || skipped || rejected
      FROM src_files
    ORDER BY 1, 2, 3`
}).pipe(Effect.orDie)

const tempDb = Effect.acquireRelease(
  Effect.promise(() => NodeFs.mkdtemp(NodePath.join(NodeOs.tmpdir(), "staging-"))),
  (dir) => Effect.promise(() => NodeFs.rm(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir) => NodePath.join(dir, "staging.db")))

/** Runs not yet published, and their rejects: none once a run has ended, whatever its outcome. */
const unpublished = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [runs] = yield* sql<{ n: number }>`SELECT count(*) AS n FROM extract_runs`
  const [rejects] = yield* sql<{ n: number }>`SELECT count(*) AS n FROM extract_rejects`
  return runs!.n + rejects!.n
}).pipe(Effect.orDie)

/** Extracts `inputDir`, committing every staged batch (`chunkRows: 1`) so that each run spans many commits. */
const extractInto = (filename: string, inputDir: string) =>
  Effect.gen(function* () {
    const summaries = yield* Extract.run({ source: "xero", inputDir, chunkRows: 1 })
    assert.strictEqual(yield* unpublished, 0)
    return { summaries, staged: yield* dump }
  }).pipe(Effect.provide(StagingDb.layer(filename)))

describe("StagingTarget", () => {
  it.scoped(
    "a file-backed staging (writer thread) stages exactly what the in-memory one (SqlClient) does",
    () =>
      Effect.gen(function* () {
        const dir = yield* dirOf("xero", XERO)
        const memory = yield* extractInto(":memory:", dir)
        const file = yield* tempDb
        const onFile = yield* extractInto(file, dir)
        assert.deepStrictEqual(onFile, memory)
        assert.isAbove(onFile.staged.length, 40)
      })
  )

  it.scoped("a failing run on a file-backed staging leaves it exactly as it was", () =>
    Effect.gen(function* () {
      const file = yield* tempDb
      const good = yield* dirOf("xero", XERO)
      const before = yield* extractInto(file, good)
      const bad = yield* dirOf("xero", [...XERO, ["SalesInvoices.csv", "Zz.csv"]])
      yield* Effect.promise(() => NodeFs.appendFile(NodePath.join(bad, "Zz.csv"), '"unclosed,quote\n'))
      const broken = yield* inputDir({ "Weird.csv": "no,known\nheaders,here\n" })
      for (const input of [bad, broken]) {
        const failed = yield* Effect.flip(
          Extract.run({ source: "xero", inputDir: input, chunkRows: 1 }).pipe(
            Effect.provide(StagingDb.layer(file))
          )
        )
        assert.include(["cannot parse the file", "unrecognised file"], failed.what)
        assert.deepStrictEqual(yield* dump.pipe(Effect.provide(StagingDb.layer(file))), before.staged)
        assert.strictEqual(yield* unpublished.pipe(Effect.provide(StagingDb.layer(file))), 0)
      }
    })
  )

  it.scoped("a killed run's committed rows are invisible to readers and discarded by the next extract", () =>
    Effect.gen(function* () {
      const file = yield* tempDb
      const dir = yield* dirOf("xero", XERO)
      const before = yield* extractInto(file, dir)
      const layer = StagingDb.layer(file)
      const chart = yield* SourceRows.rowsOfFile("ChartOfAccounts.csv").pipe(Effect.provide(layer))
      // What a run killed after some commits leaves: its registration (a process that is gone) and its rows.
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO extract_runs (gen, pid) VALUES (999, 2147483646)`
        yield* sql`INSERT INTO src_shapes (file, gen, shape, keys) VALUES ('ChartOfAccounts.csv', 999, 0, '["X"]')`
        yield* sql`INSERT INTO src_parts (part, file, gen) VALUES (900, 'ChartOfAccounts.csv', 999), (901, 'New.csv', 999)`
        yield* sql`INSERT INTO src_rows (id, shape, data, row_hash)
          VALUES (${900 * Sql.PART_SIZE + 2}, 0, 'half-written', x'00'), (${901 * Sql.PART_SIZE + 2}, 0, 'y', x'01')`
        yield* sql`INSERT INTO src_shapes (file, gen, shape, keys) VALUES ('New.csv', 999, 0, '["Y"]')`
        yield* sql`INSERT INTO skipped (file, gen, line, reason, raw) VALUES ('ChartOfAccounts.csv', 999, 1, 'header', 'x')`
        yield* sql`INSERT INTO extract_rejects (gen, file, line, reason, raw) VALUES (999, 'ChartOfAccounts.csv', 3, 'r', 'x')`
      }).pipe(Effect.provide(layer), Effect.orDie)
      assert.deepStrictEqual(
        yield* SourceRows.rowsOfFile("ChartOfAccounts.csv").pipe(Effect.provide(layer)),
        chart
      )
      assert.deepStrictEqual(yield* SourceRows.rowsOfFile("New.csv").pipe(Effect.provide(layer)), [])
      const again = yield* extractInto(file, dir)
      assert.deepStrictEqual(again, before)
    })
  )
})
