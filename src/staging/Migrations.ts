/**
 * The staging database schema, one migration per step, applied in order by `@effect/sql`'s Migrator.
 *
 * - `src_files`: one row per source file extracted: its recognised kind and the line accounting
 *   (`lines = staged + skipped + rejected`, invariant 1).
 * - `src_rows`: every staged source row, all values as strings, with file:line lineage and a row hash
 *   (since 0005 a JSON array of values whose keys are its shape in `src_shapes`; the file's kind, its
 *   source layout such as `xero.invoices`, is in `src_files`). The row hash is the sha256 of the values'
 *   JSON: its 32 bytes as a blob for rows staged now, 64 hex characters for rows staged before.
 * - `skipped`: report rows recognised as not-data (titles, headings, totals, blanks) with their kind.
 * - `rejects`: rows that could not be read, with the reason.
 * - `plan_ops` / `plan_meta`: the deterministic plan (one row per target write).
 * - `checkpoints`: the loader's durable intent and outcome per plan operation.
 * - `rollback_ops`: the rollback's durable intent and outcome per operation it removes.
 * - `0004_src_rows_rowid`: `src_rows` rebuilt as a rowid table (same columns, key and index).
 * - `0005_compact_rows`: `src_rows` as values + a shape number, the shapes (key lists) in `src_shapes`.
 * - `0006_extract_generations`: staged rows, shapes and skips keyed by the extract run's generation too,
 *   published through `src_files.gen`; `extract_rejects` and `extract_runs` for runs not yet published.
 * - `0007_workspace_target`: the target a workspace's checkpoints belong to.
 * - `0008_rehearsal`: the last clean rehearsal of the plan, and the last one that was not (plan and snapshot
 *   hashes, the operations rehearsed).
 * - `0009_row_ids`: `src_rows` keyed by a row id (its file generation's number in `src_parts` and its line,
 *   `StagingSql.PART_SIZE`), its values as compact text (`RowText`), the row hash the sha256 of that text;
 *   the `staged_rows` view shows them with file, generation and line.
 * - `0010_plan_books`: the books a full-history plan was made from, without the documents' lines, for
 *   reconcile (`PlanBooks`).
 * - `0011_plan_ops_by_phase`: `plan_ops` indexed by phase, for what reads the stored plan a phase at a time
 *   (`PlanStore.eachPageOf`: the loader, the preview and its projection).
 * - `0012_plan_ops_by_kind`: `plan_ops` indexed by kind, phase and key, for what counts the stored plan or
 *   reads it by kind (`Checkpoints.countsByKind` and `summary`, `PlanStore.phaseCounts`, `kindCounts`,
 *   `naturalKeys` and `opsOfKinds`: reconcile, status, the loader's closing counts and the plan's preview).
 * - `0013_checkpoints_in_load_order`: `checkpoints` kept in the order its rows were made, the plan's load
 *   order, and found by key through a unique index, instead of kept in key order (`WITHOUT ROWID`).
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as NodeCrypto from "node:crypto"
import * as StagingSql from "../extract/StagingSql.mjs"
import * as RowText from "./RowText.js"

const init = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE src_files (
    file TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    confidence REAL NOT NULL,
    sha256 TEXT NOT NULL,
    lines INTEGER NOT NULL,
    staged INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    rejected INTEGER NOT NULL
  )`
  yield* sql`CREATE TABLE src_rows (
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    kind TEXT NOT NULL,
    row_hash TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (file, line)
  ) WITHOUT ROWID`
  yield* sql`CREATE INDEX src_rows_kind ON src_rows (kind, file, line)`
  yield* sql`CREATE TABLE skipped (
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    reason TEXT NOT NULL,
    raw TEXT NOT NULL,
    PRIMARY KEY (file, line)
  ) WITHOUT ROWID`
  yield* sql`CREATE TABLE rejects (
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    stage TEXT NOT NULL,
    reason TEXT NOT NULL,
    raw TEXT NOT NULL,
    PRIMARY KEY (file, line, stage)
  ) WITHOUT ROWID`
  yield* sql`CREATE TABLE plan_ops (
    seq INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    phase TEXT NOT NULL,
    kind TEXT NOT NULL,
    natural_key TEXT NOT NULL,
    depends_on TEXT NOT NULL,
    body TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    lineage TEXT NOT NULL
  )`
  yield* sql`CREATE TABLE plan_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID`
  yield* sql`CREATE TABLE checkpoints (
    key TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    resource_id TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    body_hash TEXT NOT NULL,
    error TEXT,
    updated_at TEXT NOT NULL
  ) WITHOUT ROWID`
})

/**
 * `checkpoints.origin`: `created` when this workspace's request made the record (it may be rolled back),
 * `adopted` when the record already existed in the target before any request of ours (never touched).
 */
const checkpointOrigin = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE checkpoints ADD COLUMN origin TEXT`
})

/**
 * `rollback_ops`: per operation a rollback removes, `deleting` (intent, before each DELETE) then `deleted`,
 * `gone` (already absent), `rejected` (the platform's reason) or `skipped` (something referring to it stayed).
 */
const rollbackOps = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE rollback_ops (
    key TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    resource_id TEXT,
    path TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    updated_at TEXT NOT NULL
  ) WITHOUT ROWID`
})

/**
 * `src_rows` as a rowid table, same columns, primary key and index: a staged row's JSON is often over the
 * ~1 KB a WITHOUT ROWID row keeps in its page, and each such row then took a 4 KB overflow page (3× the
 * bytes written and 2–3× slower bulk inserts).
 */
const srcRowsRowid = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE src_rows_rowid (
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    kind TEXT NOT NULL,
    row_hash TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (file, line)
  )`
  yield* sql`INSERT INTO src_rows_rowid (file, line, kind, row_hash, data)
    SELECT file, line, kind, row_hash, data FROM src_rows ORDER BY file, line`
  yield* sql`DROP TABLE src_rows`
  yield* sql`ALTER TABLE src_rows_rowid RENAME TO src_rows`
  yield* sql`CREATE INDEX src_rows_kind ON src_rows (kind, file, line)`
})

/**
 * Compact staged rows: a row is the JSON array of its values and the number of its shape, its key list,
 * stored once per file in `src_shapes` (a wide export repeated every header name in every row: 1.45 KB a
 * row instead of 0.45 KB, and 2× slower bulk inserts); `row_hash` is the sha256 of the values' JSON. No
 * `kind` column or index on it: a file's kind is in `src_files`. Rows staged before are converted.
 */
const compactRows = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE src_shapes (
    file TEXT NOT NULL,
    shape INTEGER NOT NULL,
    keys TEXT NOT NULL,
    PRIMARY KEY (file, shape)
  ) WITHOUT ROWID`
  yield* sql`CREATE TABLE src_rows_compact (
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    shape INTEGER NOT NULL,
    data TEXT NOT NULL,
    row_hash TEXT NOT NULL,
    PRIMARY KEY (file, line)
  )`
  const shapes = new Map<string, Map<string, number>>()
  let after: readonly [string, number] = ["", -1]
  for (;;) {
    const page = yield* sql<{ file: string; line: number; data: string }>`
      SELECT file, line, data FROM src_rows WHERE (file, line) > (${after[0]}, ${after[1]})
      ORDER BY file, line LIMIT 2000`
    if (page.length === 0) break
    for (const { file, line, data } of page) {
      const row = JSON.parse(data) as Record<string, string>
      const keys = JSON.stringify(Object.keys(row))
      const values = JSON.stringify(Object.values(row))
      let ofFile = shapes.get(file)
      if (ofFile === undefined) shapes.set(file, (ofFile = new Map()))
      let shape = ofFile.get(keys)
      if (shape === undefined) {
        ofFile.set(keys, (shape = ofFile.size))
        yield* sql`INSERT INTO src_shapes (file, shape, keys) VALUES (${file}, ${shape}, ${keys})`
      }
      const hash = NodeCrypto.createHash("sha256").update(values).digest("hex")
      yield* sql`INSERT INTO src_rows_compact (file, line, shape, data, row_hash)
        VALUES (${file}, ${line}, ${shape}, ${values}, ${hash})`
    }
    const last = page[page.length - 1]!
    after = [last.file, last.line]
  }
  yield* sql`DROP TABLE src_rows`
  yield* sql`ALTER TABLE src_rows_compact RENAME TO src_rows`
})

/**
 * Extract generations: every extract run writes its rows under a new generation number (`gen`) and commits
 * as it goes, so that SQLite's checkpoints overlap the reading; the run's files are published at the end in
 * one small transaction (`src_files.gen` set, the previous generation deleted, the run's extract rejects
 * moved into `rejects`). Readers take a file's rows at its published generation, so a failed or killed run
 * changes nothing they see; `extract_runs` lists unpublished generations for the next run to discard.
 * Rows staged before are generation 0.
 */
const extractGenerations = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  /** Rebuilds `table` as `(file, gen, ...columns)` keyed by `(file, gen, key)`, its rows at generation 0. */
  const withGeneration = (table: string, columns: string, key: string, options = "") =>
    Effect.gen(function* () {
      const names = columns.split(",").map((c) => c.trim().split(" ")[0]!)
      yield* sql.unsafe(`CREATE TABLE ${table}_gen (file TEXT NOT NULL, gen INTEGER NOT NULL, ${columns},
        PRIMARY KEY (file, gen, ${key})) ${options}`)
      yield* sql.unsafe(`INSERT INTO ${table}_gen (file, gen, ${names.join(", ")})
        SELECT file, 0, ${names.join(", ")} FROM ${table} ORDER BY file, ${key}`)
      yield* sql.unsafe(`DROP TABLE ${table}`)
      yield* sql.unsafe(`ALTER TABLE ${table}_gen RENAME TO ${table}`)
    })
  yield* sql`ALTER TABLE src_files ADD COLUMN gen INTEGER NOT NULL DEFAULT 0`
  yield* withGeneration(
    "src_rows",
    "line INTEGER NOT NULL, shape INTEGER NOT NULL, data TEXT NOT NULL, row_hash TEXT NOT NULL",
    "line"
  )
  yield* withGeneration("src_shapes", "shape INTEGER NOT NULL, keys TEXT NOT NULL", "shape", "WITHOUT ROWID")
  yield* withGeneration(
    "skipped",
    "line INTEGER NOT NULL, reason TEXT NOT NULL, raw TEXT NOT NULL",
    "line",
    "WITHOUT ROWID"
  )
  yield* sql`CREATE TABLE extract_rejects (
    gen INTEGER NOT NULL,
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    reason TEXT NOT NULL,
    raw TEXT NOT NULL,
    PRIMARY KEY (gen, file, line)
  ) WITHOUT ROWID`
  yield* sql`CREATE TABLE extract_runs (gen INTEGER PRIMARY KEY, pid INTEGER NOT NULL)`
})

/** The target a workspace's checkpoints belong to (`WorkspaceTarget`): one row once a load has begun. */
const workspaceTarget = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE workspace_target (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    base_url TEXT NOT NULL,
    bound_at TEXT NOT NULL
  )`
})

/**
 * The last rehearsals of the workspace's plan (`Rehearsals`, `rehearse`): the last clean one (`clean` 1) and
 * the last that was not (`clean` 0), each replaced by the next of its kind. `ops` is the rehearsed plan's
 * operations as a JSON object of key → body hash, so that a load of another plan can name those that changed.
 */
const rehearsals = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE rehearsal (
    clean INTEGER PRIMARY KEY CHECK (clean IN (0, 1)),
    plan_hash TEXT NOT NULL,
    snapshot_hash TEXT NOT NULL,
    verdict TEXT NOT NULL,
    run_id TEXT NOT NULL,
    at TEXT NOT NULL,
    ops TEXT NOT NULL
  )`
})

/**
 * Staged rows keyed by id and stored as compact text (see `StagingSql.PART_SIZE` and `RowText`): staging was
 * 1.5× the size of `sqlite3 .import`'s database of the same files, from the file name in every row, the index
 * on (file, gen, line) beside the rowid table, and the quotes and commas of each row's JSON. Rows staged
 * before are converted, their hash recomputed from their new text.
 */
const rowIds = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE src_parts (
    part INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    gen INTEGER NOT NULL,
    UNIQUE (file, gen)
  )`
  yield* sql`INSERT INTO src_parts (file, gen) SELECT DISTINCT file, gen FROM src_rows ORDER BY file, gen`
  yield* sql`CREATE TABLE src_rows_ids (
    id INTEGER PRIMARY KEY,
    shape INTEGER NOT NULL,
    data TEXT NOT NULL,
    row_hash BLOB NOT NULL
  )`
  const parts = new Map(
    (yield* sql<{ part: number; file: string; gen: number }>`SELECT part, file, gen FROM src_parts`).map(
      (p) => [`${p.gen}:${p.file}`, p.part * StagingSql.PART_SIZE]
    )
  )
  let after: readonly [string, number, number] = ["", -1, -1]
  for (;;) {
    const page = yield* sql<{ file: string; gen: number; line: number; shape: number; data: string }>`
      SELECT file, gen, line, shape, data FROM src_rows WHERE (file, gen, line) > (${after[0]}, ${after[1]}, ${after[2]})
      ORDER BY file, gen, line LIMIT 2000`
    if (page.length === 0) break
    for (const { file, gen, line, shape, data } of page) {
      const text = RowText.encode(JSON.parse(data) as ReadonlyArray<string>)
      const hash = NodeCrypto.createHash("sha256").update(text).digest()
      yield* sql`INSERT INTO src_rows_ids (id, shape, data, row_hash)
        VALUES (${parts.get(`${gen}:${file}`)! + line}, ${shape}, ${text}, ${hash})`
    }
    const last = page[page.length - 1]!
    after = [last.file, last.gen, last.line]
  }
  yield* sql`DROP TABLE src_rows`
  yield* sql`ALTER TABLE src_rows_ids RENAME TO src_rows`
  yield* sql.unsafe(`CREATE VIEW staged_rows AS
    SELECT p.file, p.gen, r.id - p.part * ${StagingSql.PART_SIZE} AS line, r.shape, r.data, r.row_hash
    FROM ${StagingSql.PART_ROWS}`)
})

/**
 * `plan_books`: the books a full-history plan was made from, without the documents' lines, for reconcile
 * (`PlanBooks`): chunks of each collection's JSON, under the digest id the plan's meta names.
 */
const planBooks = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE plan_books (
    seq INTEGER PRIMARY KEY,
    digest TEXT NOT NULL,
    part TEXT NOT NULL,
    json TEXT NOT NULL
  )`
})

/**
 * `plan_ops` indexed by phase (its rows in `seq` order within each): the first page of each phase
 * (`PlanStore.page`) was found by scanning from the plan's first operation, past every operation of the
 * phases before it. Reading the whole stored plan a page at a time took 0.54-0.80 s at 20,000 invoices and
 * 2.4-3.0 s at 100,000, against 0.23-0.34 s and 1.8-2.4 s with the index.
 */
const planOpsByPhase = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX plan_ops_by_phase ON plan_ops (phase)`
})

/**
 * Counting the stored operations by kind or phase (and by what their checkpoints say) scanned the whole of
 * `plan_ops`, bodies and all (53 MB at 20,000 invoices), for a kind, a phase and a key; reading the operations
 * of one or two kinds scanned it too. With the index the counts read the index alone, and a kind's reads the
 * operations they ask for.
 */
const planOpsByKind = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX plan_ops_by_kind ON plan_ops (kind, phase, key)`
})

/**
 * `checkpoints` as a rowid table, its rows in the order they were made (`Checkpoints.ensure` makes them in
 * the plan's load order), found by key through a unique index. Kept in key order, the rows the loader
 * updates together (the operations in flight, neighbours in load order: invoices and bills by date) lay
 * on pages all over the table, and each group commit rewrote a page for nearly every row: at 20,000
 * invoices (c=8, no latency) its 1,258 updates took 2.94 s, against 1.43-1.46 s with the rows in load order.
 * The rows already there are copied in the stored plan's order, those of no operation in it after them.
 */
const checkpointsInLoadOrder = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE checkpoints_in_order (
    key TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    resource_id TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    body_hash TEXT NOT NULL,
    error TEXT,
    updated_at TEXT NOT NULL,
    origin TEXT
  )`
  yield* sql`INSERT INTO checkpoints_in_order (key, status, resource_id, attempts, body_hash, error, updated_at, origin)
    SELECT c.key, c.status, c.resource_id, c.attempts, c.body_hash, c.error, c.updated_at, c.origin
    FROM checkpoints c LEFT JOIN plan_ops p ON p.key = c.key
    ORDER BY p.seq IS NULL, p.seq, c.key`
  yield* sql`DROP TABLE checkpoints`
  yield* sql`ALTER TABLE checkpoints_in_order RENAME TO checkpoints`
})

/** All staging migrations by name, in order. */
export const all = {
  "0001_init": init,
  "0002_checkpoint_origin": checkpointOrigin,
  "0003_rollback_ops": rollbackOps,
  "0004_src_rows_rowid": srcRowsRowid,
  "0005_compact_rows": compactRows,
  "0006_extract_generations": extractGenerations,
  "0007_workspace_target": workspaceTarget,
  "0008_rehearsal": rehearsals,
  "0009_row_ids": rowIds,
  "0010_plan_books": planBooks,
  "0011_plan_ops_by_phase": planOpsByPhase,
  "0012_plan_ops_by_kind": planOpsByKind,
  "0013_checkpoints_in_load_order": checkpointsInLoadOrder
}

/** All staging migrations, in order. */
export const loader = Migrator.fromRecord(all)
