/**
 * Where an extract run writes: its own better-sqlite3 connection to the staging file, holding the whole run
 * in one transaction and inserting through prepared statements; or, for an in-memory database (which a second
 * connection cannot see) or any other SqlClient, the SqlClient itself with multi-row INSERTs.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import Database from "better-sqlite3"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"

/** The staging tables an extract writes, with their columns in insert order. */
export const COLUMNS = {
  src_rows: ["file", "line", "kind", "row_hash", "data"],
  skipped: ["file", "line", "reason", "raw"],
  rejects: ["file", "line", "stage", "reason", "raw"],
  src_files: ["file", "source", "kind", "confidence", "sha256", "lines", "staged", "skipped", "rejected"]
} as const

/** A staging table an extract writes. */
export type Table = keyof typeof COLUMNS

/** One row's values, in the table's column order. */
export type Row = ReadonlyArray<string | number>

/** The writes of an extract run. */
export interface Target {
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
  "DELETE FROM skipped WHERE file = ?",
  "DELETE FROM rejects WHERE file = ? AND stage = 'extract'",
  "DELETE FROM src_files WHERE file = ?"
]

const ROWS_PER_STATEMENT = 200

const insertSql = (table: Table, rows: number) => {
  const columns = COLUMNS[table]
  const tuple = `(${columns.map(() => "?").join(",")})`
  return `INSERT INTO ${table} (${columns.join(",")}) VALUES ${Array.from({ length: rows }, () => tuple).join(",")}`
}

/** Writes through the SqlClient: 200-row INSERT statements, its transactions. */
export const viaClient = (sql: SqlClient.SqlClient): Target => ({
  insert: (table, rows) =>
    Effect.gen(function* () {
      for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(at, at + ROWS_PER_STATEMENT)
        yield* sql.unsafe(insertSql(table, chunk.length), chunk.flat()).raw
      }
    }),
  clear: (file) => Effect.forEach(CLEAR, (statement) => sql.unsafe(statement, [file]).raw, { discard: true }),
  atomically: (effect) => sql.withTransaction(effect)
})

const attempt = <A>(message: string, f: () => A): Effect.Effect<A, SqlError> =>
  Effect.try({ try: f, catch: (cause) => new SqlError({ cause, message }) })

/** Writes through `db` (inside the transaction `run` holds): one prepared statement a table, savepoints. */
export const direct = (db: Database.Database): Target => {
  const inserts = new Map<Table, Database.Statement>()
  const prepared = (table: Table) => {
    let statement = inserts.get(table)
    if (statement === undefined) inserts.set(table, (statement = db.prepare(insertSql(table, 1))))
    return statement
  }
  const clears = CLEAR.map((s) => db.prepare(s))
  return {
    insert: (table, rows) =>
      attempt("Failed to execute statement", () => {
        const statement = prepared(table)
        for (const row of rows) statement.run(row)
      }),
    clear: (file) =>
      attempt("Failed to execute statement", () => {
        for (const statement of clears) statement.run(file)
      }),
    atomically: (effect) =>
      Effect.acquireUseRelease(
        attempt("Failed to begin a savepoint", () => db.exec("SAVEPOINT extract_file")),
        () => effect,
        (_, exit) =>
          Effect.orDie(
            attempt("Failed to end a savepoint", () =>
              db.exec(
                Exit.isSuccess(exit)
                  ? "RELEASE extract_file"
                  : "ROLLBACK TO extract_file; RELEASE extract_file"
              )
            )
          )
      )
  }
}

/** Connection settings for the bulk load, on this connection only (it is closed at the end of the run). */
const PRAGMAS = ["synchronous = NORMAL", "cache_size = -32768", "temp_store = MEMORY"]

/**
 * Runs `effect` with the run's target, all of its writes in one transaction: committed when it succeeds,
 * rolled back when it fails. A file-backed SQLite staging database gets a connection of the run's own.
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
      attempt("Failed to open the staging database", () => {
        const db = new Database(filename, { fileMustExist: true })
        for (const p of PRAGMAS) db.pragma(p)
        db.exec("BEGIN IMMEDIATE")
        return db
      }),
      (db) =>
        Effect.provideService(effect, StagingTarget, direct(db)).pipe(
          Effect.tap(() => attempt("Failed to commit the extract", () => db.exec("COMMIT")))
        ),
      (db) =>
        Effect.sync(() => {
          try {
            if (db.inTransaction) db.exec("ROLLBACK")
          } finally {
            db.close()
          }
        })
    )
  })
