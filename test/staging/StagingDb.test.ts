import { assert, describe, it } from "@effect/vitest"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Effect from "effect/Effect"
import * as NodeCrypto from "node:crypto"
import * as NodeFs from "node:fs/promises"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as Checkpoints from "../../src/staging/Checkpoints.js"
import * as Migrations from "../../src/staging/Migrations.js"
import * as SourceRows from "../../src/staging/SourceRows.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { kindCountsSql } from "../../src/transform/Plan.js"

/**
 * A staging file in a temporary directory (removed with the scope) with the migrations before `upTo` applied:
 * a workspace made by an older version.
 */
const migratedBefore = (upTo: string) =>
  Effect.gen(function* () {
    const dir = yield* Effect.acquireRelease(
      Effect.promise(() => NodeFs.mkdtemp(NodePath.join(NodeOs.tmpdir(), `staging-${upTo}-`))),
      (d) => Effect.promise(() => NodeFs.rm(d, { recursive: true, force: true }))
    )
    const filename = NodePath.join(dir, "staging.db")
    const before = Object.fromEntries(
      Object.entries(Migrations.all).filter(([name]) => name < upTo)
    ) as Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>
    yield* Migrator.make({})({ loader: Migrator.fromRecord(before), table: "staging_migrations" }).pipe(
      Effect.provide(SqliteClient.layer({ filename }))
    )
    return filename
  })

describe("StagingDb", () => {
  it.effect("creates every staging table on a fresh database", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{
        name: string
      }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
      const names = rows.map((r) => r.name)
      for (const t of [
        "checkpoints",
        "extract_rejects",
        "extract_runs",
        "plan_meta",
        "plan_ops",
        "rejects",
        "skipped",
        "src_files",
        "src_parts",
        "src_rows",
        "src_shapes"
      ]) {
        assert.include(names, t)
      }
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.effect(
    "finds a page of a phase of the stored plan through its index, not by scanning the phases before",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const plan = yield* sql<{ detail: string }>`
        EXPLAIN QUERY PLAN SELECT seq, key, body FROM plan_ops
        WHERE phase = ${"settlements"} AND seq > ${0} ORDER BY seq LIMIT ${5000}`
        assert.deepStrictEqual(
          plan.map((p) => p.detail),
          ["SEARCH plan_ops USING INDEX plan_ops_by_phase (phase=? AND rowid>?)"]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.effect(
    "counts the stored plan by kind and phase, and reads a kind's operations, through its index, not the bodies",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // The queries of Checkpoints.countsByKind and PlanStore.naturalKeys.
        const counts = yield* sql<{ detail: string }>`
        EXPLAIN QUERY PLAN SELECT p.kind AS kind, COUNT(*) AS planned,
          COUNT(CASE WHEN c.status = 'done' AND COALESCE(c.origin, 'created') = 'created' THEN 1 END) AS created,
          COUNT(CASE WHEN c.status = 'done' AND c.origin = 'adopted' THEN 1 END) AS adopted,
          COUNT(CASE WHEN c.status = 'rejected' THEN 1 END) AS rejected
        FROM plan_ops p LEFT JOIN checkpoints c ON c.key = p.key
        GROUP BY p.kind ORDER BY MIN(p.seq)`
        assert.include(
          counts.map((p) => p.detail),
          "SCAN p USING COVERING INDEX plan_ops_by_kind"
        )
        // PlanStore.kindCounts: the plan's summary, by the query itself.
        const kinds = yield* sql.unsafe<{ detail: string }>(`EXPLAIN QUERY PLAN ${kindCountsSql("plan_ops")}`)
        assert.include(
          kinds.map((p) => p.detail),
          "SCAN plan_ops USING COVERING INDEX plan_ops_by_kind"
        )
        const ofKinds = yield* sql<{ detail: string }>`
        EXPLAIN QUERY PLAN SELECT kind, natural_key FROM plan_ops
        WHERE ${sql.in("kind", ["cash-in", "cash-out"])} ORDER BY seq`
        assert.include(
          ofKinds.map((p) => p.detail),
          "SEARCH plan_ops USING INDEX plan_ops_by_kind (kind=?)"
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})

describe("migrations 0005 (compact staged rows) and 0006 (extract generations)", () => {
  it.scoped(
    "converts rows staged as objects into values + shapes at generation 0, same data and lineage",
    () =>
      Effect.gen(function* () {
        const filename = yield* migratedBefore("0005")
        const rows = [
          { file: "A.csv", line: 2, data: { Code: "090", Name: "Bank" } },
          { file: "A.csv", line: 3, data: { Code: "200", Name: "Sales" } },
          { file: "B.csv", line: 5, data: { Account: "Sales", Debit: "", Credit: "10.00" } },
          { file: "B.csv", line: 7, data: { Account: "Bank", Debit: "10.00" } }
        ]
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          for (const r of rows)
            yield* sql`INSERT INTO src_rows (file, line, kind, row_hash, data)
            VALUES (${r.file}, ${r.line}, 'k', 'old', ${JSON.stringify(r.data)})`
          yield* sql`INSERT INTO src_files VALUES ('A.csv', 'xero', 'xero.accounts', 1, 'x', 3, 2, 1, 0)`
          yield* sql`INSERT INTO src_files VALUES ('B.csv', 'xero', 'xero.journals', 1, 'x', 7, 2, 5, 0)`
        }).pipe(Effect.provide(SqliteClient.layer({ filename })))

        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const a = yield* SourceRows.rowsOfKind("xero.accounts")
          const b = yield* SourceRows.rowsOfFile("B.csv")
          assert.deepStrictEqual([...a, ...b], rows)
          const shapes = yield* sql<{ file: string; shape: number; keys: string }>`
          SELECT file, shape, keys FROM src_shapes ORDER BY file, shape`
          assert.deepStrictEqual(shapes, [
            { file: "A.csv", shape: 0, keys: '["Code","Name"]' },
            { file: "B.csv", shape: 0, keys: '["Account","Debit","Credit"]' },
            { file: "B.csv", shape: 1, keys: '["Account","Debit"]' }
          ])
          // Since 0009 a row's values are stored joined by U+001F, its hash that text's.
          const [hash] = yield* sql<{ row_hash: string; data: string }>`
          SELECT lower(hex(row_hash)) AS row_hash, data FROM staged_rows WHERE file = 'A.csv' AND line = 3`
          assert.strictEqual(hash?.data, "200\u001fSales")
          assert.strictEqual(
            hash?.row_hash,
            NodeCrypto.createHash("sha256").update("200\u001fSales").digest("hex")
          )
          const gens = yield* sql<{ gen: number }>`
          SELECT gen FROM staged_rows UNION SELECT gen FROM src_shapes UNION SELECT gen FROM src_files`
          assert.deepStrictEqual(gens, [{ gen: 0 }])
        }).pipe(Effect.provide(StagingDb.layer(filename)))
      })
  )
})

describe("migration 0009 (staged rows keyed by id, stored as compact text)", () => {
  it.scoped(
    "converts each generation's rows (published or left by a killed run) into its own part, values and lines kept",
    () =>
      Effect.gen(function* () {
        const filename = yield* migratedBefore("0009")
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`INSERT INTO src_files (file, source, kind, confidence, sha256, lines, staged, skipped, rejected, gen)
            VALUES ('A.csv', 'xero', 'xero.accounts', 1, 'x', 3, 2, 1, 0, 2)`
          yield* sql`INSERT INTO src_shapes (file, gen, shape, keys) VALUES
            ('A.csv', 2, 0, '["Code","Name"]'), ('A.csv', 3, 0, '["Code","Name"]')`
          // Generation 2 is published; 3 is what a killed run left behind.
          yield* sql`INSERT INTO src_rows (file, gen, line, shape, data, row_hash) VALUES
            ('A.csv', 2, 2, 0, '["090","Bank"]', x'00'),
            ('A.csv', 2, 3, 0, ${JSON.stringify(["200", "Sales\u001fand more"])}, x'00'),
            ('A.csv', 3, 2, 0, '["999","Half-written"]', x'00')`
          yield* sql`INSERT INTO extract_runs (gen, pid) VALUES (3, 2147483646)`
        }).pipe(Effect.provide(SqliteClient.layer({ filename })))

        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          assert.deepStrictEqual(yield* SourceRows.rowsOfFile("A.csv"), [
            { file: "A.csv", line: 2, data: { Code: "090", Name: "Bank" } },
            { file: "A.csv", line: 3, data: { Code: "200", Name: "Sales\u001fand more" } }
          ])
          const stored = yield* sql<{ gen: number; line: number; data: string; row_hash: string }>`
            SELECT gen, line, data, lower(hex(row_hash)) AS row_hash FROM staged_rows ORDER BY gen, line`
          assert.deepStrictEqual(
            stored.map((r) => [r.gen, r.line, r.data]),
            [
              [2, 2, "090\u001fBank"],
              [2, 3, `\u001d${JSON.stringify(["200", "Sales\u001fand more"])}`],
              [3, 2, "999\u001fHalf-written"]
            ]
          )
          for (const r of stored)
            assert.strictEqual(r.row_hash, NodeCrypto.createHash("sha256").update(r.data).digest("hex"))
          const parts = yield* sql<{
            file: string
            gen: number
          }>`SELECT file, gen FROM src_parts ORDER BY gen`
          assert.deepStrictEqual(parts, [
            { file: "A.csv", gen: 2 },
            { file: "A.csv", gen: 3 }
          ])
        }).pipe(Effect.provide(StagingDb.layer(filename)))
      })
  )
})

/** A stored plan's operation with the given key and place in load order (the other columns are filler). */
const insertOp = (seq: number, key: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (
      sql
    ) => sql`INSERT INTO plan_ops (seq, key, phase, kind, natural_key, depends_on, body, body_hash, lineage)
      VALUES (${seq}, ${key}, 'transactions', 'invoice', ${key}, '[]', '{}', ${`h-${key}`}, '[]')`
  )

/** The checkpoints' keys in the order the table keeps its rows. */
const storedOrder = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ key: string }>`SELECT key FROM checkpoints ORDER BY rowid`, (rows) =>
    rows.map((r) => r.key)
  )
)

/**
 * An older workspace's checkpoints (in key order, as it kept them): of the plan's operations, and one of an
 * operation a later plan dropped.
 */
const olderCheckpoints = [
  {
    key: "bill:B-7",
    status: "done",
    resource_id: "r-7",
    attempts: 1,
    body_hash: "h-bill:B-7",
    error: null,
    updated_at: "2026-11-01T00:00:00Z",
    origin: "created"
  },
  {
    key: "invoice:INV-1",
    status: "rejected",
    resource_id: null,
    attempts: 2,
    body_hash: "h-invoice:INV-1",
    error: "no such account",
    updated_at: "2026-11-02T00:00:00Z",
    origin: null
  },
  {
    key: "contact:Gone",
    status: "done",
    resource_id: "r-c",
    attempts: 1,
    body_hash: "h-c",
    error: null,
    updated_at: "2026-11-03T00:00:00Z",
    origin: "adopted"
  },
  {
    key: "invoice:INV-2",
    status: "in_doubt",
    resource_id: null,
    attempts: 1,
    body_hash: "h-invoice:INV-2",
    error: null,
    updated_at: "2026-11-04T00:00:00Z",
    origin: null
  }
] as const

describe("checkpoints in load order (0013)", () => {
  it.effect("makes a plan's checkpoints in its load order, which is the order the table keeps", () =>
    Effect.gen(function* () {
      // Load order against key order: the loader updates neighbours in load order together.
      for (const [seq, key] of [
        [1, "invoice:INV-9"],
        [2, "bill:B-1"],
        [3, "invoice:INV-1"]
      ] as const)
        yield* insertOp(seq, key)
      yield* Checkpoints.ensure
      assert.deepStrictEqual(yield* storedOrder, ["invoice:INV-9", "bill:B-1", "invoice:INV-1"])
      // A later plan's new operations come after the rows already made, which keep theirs.
      yield* insertOp(4, "invoice:INV-0")
      yield* Checkpoints.ensure
      assert.deepStrictEqual(yield* storedOrder, [
        "invoice:INV-9",
        "bill:B-1",
        "invoice:INV-1",
        "invoice:INV-0"
      ])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "moves an older workspace's checkpoints into its stored plan's load order, every column and the key's uniqueness kept",
    () =>
      Effect.gen(function* () {
        const filename = yield* migratedBefore("0013")
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* insertOp(1, "invoice:INV-2")
          yield* insertOp(2, "bill:B-7")
          yield* insertOp(3, "invoice:INV-1")
          for (const c of olderCheckpoints) yield* sql`INSERT INTO checkpoints ${sql.insert(c)}`
        }).pipe(Effect.provide(SqliteClient.layer({ filename })))

        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          assert.deepStrictEqual(yield* storedOrder, [
            "invoice:INV-2",
            "bill:B-7",
            "invoice:INV-1",
            "contact:Gone"
          ])
          const rows =
            yield* sql`SELECT key, status, resource_id, attempts, body_hash, error, updated_at, origin
            FROM checkpoints ORDER BY key`
          assert.deepStrictEqual(
            rows,
            [...olderCheckpoints].sort((x, y) => (x.key < y.key ? -1 : 1))
          )
          // Still one checkpoint per key: ensure adds none for the plan's operations, a second row is refused.
          yield* Checkpoints.ensure
          assert.strictEqual((yield* storedOrder).length, 4)
          const again = yield* Effect.either(
            sql`INSERT INTO checkpoints (key, status, body_hash, updated_at) VALUES ('bill:B-7', 'pending', 'h', 'x')`
          )
          assert.isTrue(again._tag === "Left")
          // The loader finds a checkpoint by key through the unique index, not by reading the table.
          const plan = yield* sql<{ detail: string }>`
            EXPLAIN QUERY PLAN SELECT status FROM checkpoints WHERE key IN (${"bill:B-7"}, ${"invoice:INV-1"})`
          assert.isTrue(plan.some((p) => /USING INDEX sqlite_autoindex_checkpoints/.test(p.detail)))
        }).pipe(Effect.provide(StagingDb.layer(filename)))
      })
  )
})
