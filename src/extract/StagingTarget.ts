/**
 * Where an extract run writes: a writer thread with its own better-sqlite3 connection to the staging file,
 * holding the whole run in one transaction and inserting through prepared statements while the main thread
 * reads on; or, for an in-memory database (which a second connection cannot see) or any other SqlClient, the
 * SqlClient itself with multi-row INSERTs.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as NodeCrypto from "node:crypto"
import * as NodeWorker from "node:worker_threads"
import { resource } from "../Resources.js"

/** The staging tables an extract writes, with the columns of the rows it is given, in insert order. */
export const COLUMNS = {
  src_shapes: ["file", "shape", "keys"],
  src_rows: ["file", "line", "shape", "data"],
  skipped: ["file", "line", "reason", "raw"],
  rejects: ["file", "line", "stage", "reason", "raw"],
  src_files: ["file", "source", "kind", "confidence", "sha256", "lines", "staged", "skipped", "rejected"]
} as const

/** A staging table an extract writes. */
export type Table = keyof typeof COLUMNS

/** One row's values, in the table's column order. */
export type Row = ReadonlyArray<string | number>

/** The column of a `src_rows` row whose sha256 hex is stored as its `row_hash` (the staged values' JSON). */
export const HASHED = 3

/**
 * Staged rows of one file, packed for a cheap hand-over to the writer thread: their lines and shapes, and
 * their values' JSON texts joined by "\n" (JSON text never holds a raw line break).
 */
export interface StagedBatch {
  readonly file: string
  readonly lines: Int32Array
  readonly shapes: Int32Array
  readonly data: string
}

/** The rows of a batch as `src_rows` rows (the `COLUMNS` order). */
const rowsOf = (batch: StagedBatch): Array<Row> => {
  const texts = batch.data.split("\n")
  return texts.map((text, i) => [batch.file, batch.lines[i]!, batch.shapes[i]!, text])
}

/** The writes of an extract run. */
export interface Target {
  /** Inserts a batch of staged rows, each with its `row_hash` (the sha256 hex of its values' JSON). */
  readonly stage: (batch: StagedBatch) => Effect.Effect<void, SqlError>
  /** Inserts `rows`; a `src_rows` row also gets its `row_hash`, the sha256 hex of its value at `HASHED`. */
  readonly insert: (table: Table, rows: ReadonlyArray<Row>) => Effect.Effect<void, SqlError>
  /** Removes everything a previous extract of `file` staged (its rows, skips, extract rejects, summary). */
  readonly clear: (file: string) => Effect.Effect<void, SqlError>
  /** Runs `effect` so that its writes all land or none do. */
  readonly atomically: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError, R>
}

/** The extract run's target, provided by `run`. */
export class StagingTarget extends Context.Tag("ledger-migrate/extract/StagingTarget")<
  StagingTarget,
  Target
>() {}

const CLEAR = [
  "DELETE FROM src_rows WHERE file = ?",
  "DELETE FROM src_shapes WHERE file = ?",
  "DELETE FROM skipped WHERE file = ?",
  "DELETE FROM rejects WHERE file = ? AND stage = 'extract'",
  "DELETE FROM src_files WHERE file = ?"
]

const ROWS_PER_STATEMENT = 200

const insertSql = (table: Table, rows: number) => {
  const columns: ReadonlyArray<string> =
    table === "src_rows" ? [...COLUMNS[table], "row_hash"] : COLUMNS[table]
  const tuple = `(${columns.map(() => "?").join(",")})`
  return `INSERT INTO ${table} (${columns.join(",")}) VALUES ${Array.from({ length: rows }, () => tuple).join(",")}`
}

const hashed = (row: Row): Row => [
  ...row,
  NodeCrypto.createHash("sha256").update(String(row[HASHED])).digest("hex")
]

/** Writes through the SqlClient: 200-row INSERT statements, its transactions. */
export const viaClient = (sql: SqlClient.SqlClient): Target => {
  const target: Target = {
    stage: (batch) => (batch.lines.length === 0 ? Effect.void : target.insert("src_rows", rowsOf(batch))),
    insert: (table, rows) =>
      Effect.gen(function* () {
        for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
          const chunk = rows
            .slice(at, at + ROWS_PER_STATEMENT)
            .map((row) => (table === "src_rows" ? hashed(row) : row))
          yield* sql.unsafe(insertSql(table, chunk.length), chunk.flat()).raw
        }
      }),
    clear: (file) =>
      Effect.forEach(CLEAR, (statement) => sql.unsafe(statement, [file]).raw, { discard: true }),
    atomically: (effect) => sql.withTransaction(effect)
  }
  return target
}

/** Batches the writer thread may hold before `insert` waits for it. */
const IN_FLIGHT = 4

/**
 * Writes through the extract's writer thread (see `StagingWorker.mjs`): `insert` posts a batch and returns
 * at once unless the thread is `IN_FLIGHT` batches behind; a failure there fails the next write or `commit`.
 */
const viaWorker = (worker: NodeWorker.Worker) => {
  let failure: unknown
  let sent = 0
  let acked = 0
  let committed = false
  let exited = false
  let wake: (() => void) | undefined
  const poke = () => {
    const w = wake
    wake = undefined
    w?.()
  }
  worker.on("message", (m: { ack?: number; error?: string; committed?: boolean }) => {
    if (m.ack !== undefined) acked = m.ack
    if (m.error !== undefined) failure ??= new Error(m.error)
    if (m.committed === true) committed = true
    poke()
  })
  worker.on("error", (e) => ((failure ??= e), poke()))
  worker.on("exit", () => ((exited = true), (failure ??= new Error("the writer thread ended")), poke()))
  const until = (ready: () => boolean): Effect.Effect<void, SqlError> =>
    Effect.async<void, SqlError>((resume) => {
      const check = () => {
        if (ready()) resume(Effect.void)
        else if (failure !== undefined)
          resume(Effect.fail(new SqlError({ cause: failure, message: "Failed to write to staging" })))
        else wake = check
      }
      check()
    })
  const post = (message: object) =>
    Effect.suspend(() => {
      if (failure !== undefined)
        return Effect.fail(new SqlError({ cause: failure, message: "Failed to write to staging" }))
      worker.postMessage(message)
      return Effect.void
    })
  const run = (sql: string, rows: ReadonlyArray<Row>, hash?: number) =>
    Effect.zipRight(
      post({ sql, rows, ack: ++sent, ...(hash === undefined ? {} : { hash }) }),
      until(() => sent - acked < IN_FLIGHT)
    )
  const target: Target = {
    stage: (batch) =>
      batch.lines.length === 0
        ? Effect.void
        : Effect.zipRight(
            post({ staged: batch, ack: ++sent }),
            until(() => sent - acked < IN_FLIGHT)
          ),
    insert: (table, rows) =>
      rows.length === 0
        ? Effect.void
        : run(insertSql(table, 1), rows, table === "src_rows" ? HASHED : undefined),
    clear: (file) => Effect.forEach(CLEAR, (statement) => run(statement, [[file]]), { discard: true }),
    atomically: (effect) =>
      Effect.acquireUseRelease(
        post({ exec: "SAVEPOINT extract_file" }),
        () => effect,
        (_, exit) =>
          Effect.ignore(
            post({
              exec: Exit.isSuccess(exit)
                ? "RELEASE extract_file"
                : "ROLLBACK TO extract_file; RELEASE extract_file"
            })
          )
      )
  }
  return {
    target,
    commit: Effect.zipRight(
      post({ commit: true }),
      until(() => committed)
    ),
    /** Rolls back anything not committed and waits for the thread to end. */
    end: Effect.async<void>((resume) => {
      if (exited) return resume(Effect.void)
      worker.once("exit", () => resume(Effect.void))
      worker.postMessage({ end: true })
    })
  }
}

/** Connection settings for the bulk load, on this connection only (it is closed at the end of the run). */
const PRAGMAS = ["synchronous = NORMAL", "temp_store = MEMORY"]

/**
 * Runs `effect` with the run's target, all of its writes in one transaction: committed when it succeeds,
 * rolled back when it fails. A file-backed SQLite staging database gets a writer thread of the run's own.
 */
export const run = <A, E, R>(
  effect: Effect.Effect<A, E, R | StagingTarget>
): Effect.Effect<A, E | SqlError, Exclude<R, StagingTarget> | SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const sqlite = yield* Effect.serviceOption(SqliteClient.SqliteClient)
    const filename = Option.match(sqlite, { onNone: () => "", onSome: (c) => c.config.filename })
    if (filename === "" || filename === ":memory:" || filename.startsWith("file:"))
      return yield* sql.withTransaction(Effect.provideService(effect, StagingTarget, viaClient(sql)))
    return yield* Effect.acquireUseRelease(
      Effect.sync(() =>
        viaWorker(
          new NodeWorker.Worker(resource("src/extract/StagingWorker.mjs"), {
            workerData: { filename, pragmas: PRAGMAS },
            execArgv: [],
            resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 }
          })
        )
      ),
      (writer) =>
        Effect.provideService(effect, StagingTarget, writer.target).pipe(Effect.tap(() => writer.commit)),
      (writer) => writer.end
    )
  })
