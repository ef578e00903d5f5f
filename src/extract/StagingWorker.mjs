/**
 * The extract's staging writer thread (plain JavaScript, so that it starts without a TypeScript loader): its
 * own better-sqlite3 connection to the staging file, writing the run's rows under a new generation while the
 * main thread reads and classifies the next records. It commits every `chunkRows` staged rows, so that
 * SQLite's WAL checkpoints overlap the reading instead of all coming at the end; what readers see changes
 * only when the run is published, in one transaction (see `StagingSql.mjs`).
 *
 * Messages in: `{ staged, ack }` (a batch of staged rows, `StagedBatch` in StagingTarget.ts: each inserted
 * into `src_rows` under its file's part, with the sha256 of its text), `{ table, rows, ack }` (`src_shapes`,
 * `skipped` or `rejects` rows; `src_files` rows are kept for the publication), `{ publish: true }`,
 * `{ end: true }`.
 * Messages out: `{ ack }`, `{ published: true }`, `{ error }` (the first failure; every later message but
 * `end` is then ignored).
 */
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { parentPort, workerData } from "node:worker_threads"
import * as Sql from "./StagingSql.mjs"

/** @type {{ filename: string, pragmas: ReadonlyArray<string>, chunkRows: number }} */
const { filename, pragmas, chunkRows } = workerData
const db = new Database(filename, { fileMustExist: true })
/** @type {string | undefined} */
let failed
/** @type {number | undefined} */
let gen
let published = false
let uncommitted = 0
/** @type {Array<ReadonlyArray<string | number>>} */
const files = []

/** True when process `pid` is gone (its unpublished run can be discarded). */
const gone = (pid) => {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return false
  } catch (e) {
    return e.code === "ESRCH"
  }
}

const inTransaction = (fn) => {
  db.exec("BEGIN IMMEDIATE")
  try {
    fn()
    db.exec("COMMIT")
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK")
    throw e
  }
}

const fail = (e) => {
  failed = String(e instanceof Error ? e.message : e)
  parentPort?.postMessage({ error: failed })
}

/** @type {Record<string, import("better-sqlite3").Statement>} */
let insert = {}
/** @type {Map<string, number>} each file's part number in this run (`Sql.PART_SIZE`) */
const parts = new Map()

/** The first row id of `file`'s part in this run. */
const baseOf = (file) => {
  let part = parts.get(file)
  if (part === undefined) {
    part = db.prepare(Sql.PART).get(file, gen).part
    parts.set(file, part)
  }
  return part * Sql.PART_SIZE
}

try {
  for (const p of pragmas) db.pragma(p)
  insert = Object.fromEntries(Object.entries(Sql.INSERT).map(([table, sql]) => [table, db.prepare(sql)]))
  insert.src_rows = db.prepare(Sql.INSERT_ROW)
  inTransaction(() => {
    for (const run of db.prepare(Sql.UNPUBLISHED).all())
      if (gone(run.pid)) for (const sql of Sql.DISCARD) db.prepare(sql).run({ gen: run.gen })
    gen = db.prepare(Sql.NEXT_GEN).get().gen
    db.prepare(Sql.REGISTER).run(gen, process.pid)
  })
  db.exec("BEGIN IMMEDIATE")
} catch (e) {
  fail(e)
}

parentPort?.on("message", (m) => {
  if (failed !== undefined) return
  try {
    if (m.staged !== undefined) {
      const { file, lines, shapes, data } = m.staged
      const texts = Sql.unpackTexts(data)
      const base = baseOf(file)
      for (let i = 0; i < texts.length; i++) {
        const text = texts[i]
        insert.src_rows.run(base + lines[i], shapes[i], text, createHash("sha256").update(text).digest())
      }
      uncommitted += texts.length
      if (uncommitted >= chunkRows) {
        db.exec("COMMIT")
        db.exec("BEGIN IMMEDIATE")
        uncommitted = 0
      }
      parentPort?.postMessage({ ack: m.ack })
    } else if (m.table !== undefined) {
      if (m.table === "src_files") files.push(...m.rows)
      else for (const row of m.rows) insert[m.table].run(gen, ...row)
      parentPort?.postMessage({ ack: m.ack })
    } else if (m.publish === true) {
      for (const row of files) {
        for (const sql of Sql.PUBLISH) db.prepare(sql).run({ file: row[0], gen })
        db.prepare(Sql.PUBLISH_FILE).run(gen, ...row)
      }
      for (const sql of Sql.FORGET) db.prepare(sql).run({ gen })
      db.exec("COMMIT")
      published = true
      parentPort?.postMessage({ published: true })
    }
  } catch (e) {
    fail(e)
  }
})

/**
 * `{ end: true }` (also after a failure): roll back what is not committed, remove an unpublished run's
 * committed rows (or leave them, registered, to the next run when that fails too), close, let the thread end.
 */
parentPort?.on("message", (m) => {
  if (m.end !== true) return
  try {
    if (db.inTransaction) db.exec("ROLLBACK")
    if (!published && gen !== undefined)
      inTransaction(() => {
        for (const sql of Sql.DISCARD) db.prepare(sql).run({ gen })
      })
  } catch {
    // the run stays registered in extract_runs: the next extract discards it
  } finally {
    db.close()
    parentPort?.close()
  }
})
