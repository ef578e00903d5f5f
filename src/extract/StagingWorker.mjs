/**
 * The extract's staging writer thread (plain JavaScript, so that it starts without a TypeScript loader): its
 * own better-sqlite3 connection to the staging file, holding the run's one transaction, running the
 * statements the main thread posts in order while the main thread reads and classifies the next records.
 *
 * Messages in: `{ exec }` (SQL text), `{ staged, ack }` (a batch of staged rows: `file`, `lines` and
 * `shapes` as Int32Arrays, `data` their JSON texts joined by "\n"; each inserted into `src_rows` with the
 * sha256 hex of its text), `{ sql, rows, ack, hash? }` (a prepared statement run once a row,
 * the sha256 hex of the row's value at index `hash` appended to it first; `ack` answers `{ ack }` when
 * done), `{ commit: true }`, `{ end: true }`. Messages out: `{ ack }`,
 * `{ committed: true }`, `{ error }` (the first failure; every later message but `end` is then ignored).
 */
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { parentPort, workerData } from "node:worker_threads"

/** @type {{ filename: string, pragmas: ReadonlyArray<string> }} */
const { filename, pragmas } = workerData
const db = new Database(filename, { fileMustExist: true })
/** @type {Map<string, import("better-sqlite3").Statement>} */
const statements = new Map()
/** @type {string | undefined} */
let failed
/** @type {import("better-sqlite3").Statement | undefined} */
let stage

try {
  for (const p of pragmas) db.pragma(p)
  db.exec("BEGIN IMMEDIATE")
} catch (e) {
  failed = String(e instanceof Error ? e.message : e)
  parentPort?.postMessage({ error: failed })
}

parentPort?.on("message", (m) => {
  if (failed !== undefined) return
  try {
    if (m.exec !== undefined) db.exec(m.exec)
    else if (m.staged !== undefined) {
      const { file, lines, shapes, data } = m.staged
      stage ??= db.prepare("INSERT INTO src_rows (file, line, shape, data, row_hash) VALUES (?, ?, ?, ?, ?)")
      const texts = data.split("\n")
      for (let i = 0; i < texts.length; i++) {
        const text = texts[i]
        stage.run(file, lines[i], shapes[i], text, createHash("sha256").update(text).digest("hex"))
      }
      parentPort?.postMessage({ ack: m.ack })
    } else if (m.sql !== undefined) {
      let statement = statements.get(m.sql)
      if (statement === undefined) statements.set(m.sql, (statement = db.prepare(m.sql)))
      if (m.hash !== undefined)
        for (const row of m.rows) row.push(createHash("sha256").update(row[m.hash]).digest("hex"))
      for (const row of m.rows) statement.run(row)
      if (m.ack !== undefined) parentPort?.postMessage({ ack: m.ack })
    } else if (m.commit === true) {
      db.exec("COMMIT")
      parentPort?.postMessage({ committed: true })
    }
  } catch (e) {
    failed = String(e instanceof Error ? e.message : e)
    parentPort?.postMessage({ error: failed })
  }
})

/** `{ end: true }` (also after a failure): roll back whatever is not committed, close, and let the thread end. */
parentPort?.on("message", (m) => {
  if (m.end !== true) return
  try {
    if (db.inTransaction) db.exec("ROLLBACK")
  } finally {
    db.close()
    parentPort?.close()
  }
})
