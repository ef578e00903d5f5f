/**
 * A thread that writes one transaction into a workspace's staging database on a connection of its own
 * (plain JavaScript, so that it starts without a TypeScript loader): `plan` stores a big plan here while its
 * own thread writes the preview (`PlanStore.saveBuiltBeside`). Copying the operations of a big plan is
 * SQLite's work alone, seconds of it at 100,000 invoices, which the preview need not wait for.
 *
 * `workerData`: `{ filename, attach: { file, schema } | undefined, statements }`, each statement
 * `{ sql, params }`. The database at `attach.file` is attached as `attach.schema` (and detached after), then
 * every statement runs in one transaction: all of them are written, or none.
 * Message out: `{ done: true }` once committed, or `{ error }` (the transaction rolled back).
 *
 * The transaction is deferred and its first statement must write the workspace, which takes the workspace's
 * write lock (waiting up to `BUSY_TIMEOUT` for it, as an immediate transaction would): the attached file is
 * then only read, under a shared lock, for the other thread reads it while the copy runs
 * (`PlanStore.inScratch`). An immediate transaction write-locks every attached file too, and at its commit
 * SQLite locks each of them exclusively until the workspace's commit is written (seconds for a big plan): the
 * preview's page reads of the scratch failed meanwhile with "database is locked".
 */
import Database from "better-sqlite3"
import { parentPort, workerData } from "node:worker_threads"

/** @type {{ filename: string, attach: { file: string, schema: string } | undefined, statements: ReadonlyArray<{ sql: string, params: ReadonlyArray<unknown> }> }} */
const { filename, attach, statements } = workerData

/** How long to wait for another connection's lock before failing (ms). */
const BUSY_TIMEOUT = 30_000

/**
 * The page cache of each database the transaction touches, in KiB (SQLite's `-N`), instead of the 16 MB
 * better-sqlite3 compiles in: the copy reads the attached file in order and appends to the workspace's
 * tables, so a bigger cache holds pages it never reads again, resident beside the other thread's heap while
 * that thread writes the preview. Plan at 100,000 invoices, two interleaved runs each: peak RSS 283-285 MB
 * against 305-332 MB with the default (`/usr/bin/time`'s %M in MB of 1,024 KB, as the scale benchmark gives
 * it), the store taking 6.6-7.2 s against 6.9-7.2 s.
 */
const CACHE_KIB = 4000

/** @type {{ done: true } | { error: string }} */
let outcome = { done: true }
let db
try {
  db = new Database(filename, { fileMustExist: true, timeout: BUSY_TIMEOUT })
  db.pragma(`cache_size = -${CACHE_KIB}`)
  if (attach !== undefined) {
    db.prepare(`ATTACH DATABASE ? AS ${attach.schema}`).run(attach.file)
    db.pragma(`${attach.schema}.cache_size = -${CACHE_KIB}`)
  }
  db.transaction(() => {
    for (const s of statements) db.prepare(s.sql).run(...s.params)
  }).deferred()
  if (attach !== undefined) db.exec(`DETACH DATABASE ${attach.schema}`)
} catch (e) {
  outcome = { error: e instanceof Error ? e.message : String(e) }
} finally {
  // Closed before the outcome is told: the other connection writes next, with nothing of this one left open.
  db?.close()
}
parentPort.postMessage(outcome)
