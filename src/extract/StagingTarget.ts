/**
 * Where an extract run writes: a writer thread with its own better-sqlite3 connection to the staging file,
 * committing as it goes while the main thread reads on; or, for an in-memory database (which a second
 * connection cannot see) or any other SqlClient, the SqlClient itself in one transaction. Either way the run
 * writes under a new generation and publishes its files at the end in one transaction (`StagingSql.mjs`):
 * until then readers see staging as it was, and a run that fails or is killed changes nothing they see.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as NodeCrypto from "node:crypto"
import * as NodeWorker from "node:worker_threads"
import { resource } from "../Resources.js"
import * as StagingDb from "../staging/StagingDb.js"
import * as Sql from "./StagingSql.mjs"

/**
 * The staging tables an extract writes, with the columns of the rows it is given, in insert order (the run's
 * generation comes first in each insert). `rejects` rows land in `extract_rejects` until the run is
 * published; `src_files` rows are kept and written at the publication.
 */
export const COLUMNS = {
  src_shapes: ["file", "shape", "keys"],
  skipped: ["file", "line", "reason", "raw"],
  rejects: ["file", "line", "reason", "raw"],
  src_files: ["file", "source", "kind", "confidence", "sha256", "lines", "staged", "skipped", "rejected"]
} as const

/** A table an extract run writes through `Target.insert` (staged rows go through `Target.stage`). */
export type Table = keyof typeof COLUMNS

/** One row's values, in the table's column order. */
export type Row = ReadonlyArray<string | number | Uint8Array>

/**
 * Staged rows of one file, packed for a cheap hand-over to the writer thread: their lines and shapes, and
 * their stored texts (`src/staging/RowText.ts`) joined by `StagingSql.BATCH_SEPARATOR`, which no stored
 * text holds, into pieces small enough for V8's ordinary heap (`StagingSql.packTexts`).
 */
export interface StagedBatch {
  readonly file: string
  readonly lines: Int32Array
  readonly shapes: Int32Array
  readonly data: ReadonlyArray<string>
}

/** The writes of an extract run. */
export interface Target {
  /** Inserts a batch of staged rows, each with its `row_hash` (the sha256 of its stored text, 32 bytes). */
  readonly stage: (batch: StagedBatch) => Effect.Effect<void, SqlError>
  /** Inserts `rows` into `table` (a `src_files` row is written when the run is published). */
  readonly insert: (table: Table, rows: ReadonlyArray<Row>) => Effect.Effect<void, SqlError>
}

/** The extract run's target, provided by `run`. */
export class StagingTarget extends Context.Tag("ledger-migrate/extract/StagingTarget")<
  StagingTarget,
  Target
>() {}

/** Writes through the SqlClient, inside the transaction `run` holds, under generation `gen`. */
const viaClient = (sql: SqlClient.SqlClient, gen: number, files: Array<Row>): Target => {
  const insert = (statement: string, rows: ReadonlyArray<Row>) =>
    Effect.forEach(rows, (row) => sql.unsafe(statement, [gen, ...row]).raw, { discard: true })
  return {
    stage: (batch) =>
      batch.lines.length === 0
        ? Effect.void
        : Effect.gen(function* () {
            const [part] = yield* sql.unsafe<{ part: number }>(Sql.PART, [batch.file, gen])
            const base = part!.part * Sql.PART_SIZE
            const texts = Sql.unpackTexts(batch.data)
            yield* Effect.forEach(
              texts,
              (text, i) =>
                sql.unsafe(Sql.INSERT_ROW, [
                  base + batch.lines[i]!,
                  batch.shapes[i]!,
                  text,
                  NodeCrypto.createHash("sha256").update(text).digest()
                ]).raw,
              { discard: true }
            )
          }),
    insert: (table, rows) =>
      table === "src_files" ? Effect.sync(() => void files.push(...rows)) : insert(Sql.INSERT[table], rows)
  }
}

/** Runs `effect` through the SqlClient in one transaction: a new generation, then its publication. */
const inOneTransaction = <A, E, R>(
  sql: SqlClient.SqlClient,
  effect: Effect.Effect<A, E, R | StagingTarget>
) =>
  sql.withTransaction(
    Effect.gen(function* () {
      const run = (statement: string, params: ReadonlyArray<unknown>) => sql.unsafe(statement, params).raw
      for (const { gen } of yield* sql.unsafe<{ gen: number }>(Sql.UNPUBLISHED))
        for (const statement of Sql.DISCARD) yield* run(statement, [{ gen }])
      const [next] = yield* sql.unsafe<{ gen: number }>(Sql.NEXT_GEN)
      const gen = next!.gen
      yield* run(Sql.REGISTER, [gen, process.pid])
      const files: Array<Row> = []
      const result = yield* Effect.provideService(effect, StagingTarget, viaClient(sql, gen, files))
      for (const row of files) {
        for (const statement of Sql.PUBLISH) yield* run(statement, [{ file: row[0], gen }])
        yield* run(Sql.PUBLISH_FILE, [gen, ...row])
      }
      for (const statement of Sql.FORGET) yield* run(statement, [{ gen }])
      return result
    })
  )

/** Batches the writer thread may hold before a write waits for it (enough to cover a chunk's checkpoint). */
const IN_FLIGHT = 32

/** Staged rows the writer thread commits at a time. */
export const CHUNK_ROWS = 100_000

/**
 * Writes through the extract's writer thread (see `StagingWorker.mjs`): a write posts its rows and returns
 * at once unless the thread is `IN_FLIGHT` batches behind; a failure there fails the next write or `publish`.
 */
const viaWorker = (worker: NodeWorker.Worker) => {
  let failure: unknown
  let sent = 0
  let acked = 0
  let published = false
  let exited = false
  let wake: (() => void) | undefined
  const poke = () => {
    const w = wake
    wake = undefined
    w?.()
  }
  worker.on("message", (m: { ack?: number; error?: string; published?: boolean }) => {
    if (m.ack !== undefined) acked = m.ack
    if (m.error !== undefined) failure ??= new Error(m.error)
    if (m.published === true) published = true
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
  const write = (message: object) =>
    Effect.zipRight(
      post({ ...message, ack: ++sent }),
      until(() => sent - acked < IN_FLIGHT)
    )
  const target: Target = {
    stage: (batch) => (batch.lines.length === 0 ? Effect.void : write({ staged: batch })),
    insert: (table, rows) => (rows.length === 0 ? Effect.void : write({ table, rows }))
  }
  return {
    target,
    publish: Effect.zipRight(
      post({ publish: true }),
      until(() => published)
    ),
    /** Rolls back and discards anything not published, and waits for the thread to end. */
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
 * Runs `effect` with the run's target, its writes published when it succeeds and discarded when it fails.
 * A file-backed SQLite staging database gets a writer thread of the run's own, committing every
 * `chunkRows` staged rows.
 */
export const run = <A, E, R>(
  effect: Effect.Effect<A, E, R | StagingTarget>,
  chunkRows: number = CHUNK_ROWS
): Effect.Effect<A, E | SqlError, Exclude<R, StagingTarget> | SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const file = yield* StagingDb.sharedFile
    if (Option.isNone(file)) return yield* inOneTransaction(sql, effect)
    const filename = file.value
    return yield* Effect.acquireUseRelease(
      Effect.sync(() =>
        viaWorker(
          new NodeWorker.Worker(resource("src/extract/StagingWorker.mjs"), {
            workerData: { filename, pragmas: PRAGMAS, chunkRows },
            execArgv: [],
            resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 }
          })
        )
      ),
      (writer) =>
        Effect.provideService(effect, StagingTarget, writer.target).pipe(Effect.tap(() => writer.publish)),
      (writer) => writer.end
    )
  })
