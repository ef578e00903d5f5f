/**
 * The thread that writes the plan's scratch (`PlanScratch`) while the plan is built (plain JavaScript, so that
 * it starts without a TypeScript loader): its own better-sqlite3 connection to the scratch file, making each
 * operation's row (`PlanRows.opRow`: its body hashed, its texts serialised) and inserting it, while the
 * building thread goes on to the next operations. The SQL is the scratch's, handed over in `workerData`.
 *
 * `workerData`: `{ filename, pragmas, setup, insert, columns, seal, control, at, replies }`: `setup` runs once
 * (the table, the transaction begun), `insert` takes each operation's place, sort key and key (as UTF-16
 * big-endian blobs) and its row's `columns`, `seal` runs at the end (the load order written, the transaction
 * committed). `control` is a SharedArrayBuffer of two counters the building thread waits on, `at` where
 * each is and what the end says (`PlanScratch`'s `CONTROL`): the batches written, and the end (sealed or
 * failed). `replies` is a MessagePort the building thread reads without
 * waiting for its event loop: `{ error }` when it failed.
 *
 * Messages in: `{ ops }` (a batch of operations as `PlanScratch`'s `Batch`: `{ texts, lengths, numbers }`, each
 * operation's numbers `[place, dependencies, lineage entries]` and its texts `sortKey, key, phase, kind,
 * naturalKey, json, listing, ...dependsOn, ...lineage`; the listing "" in a scratch that keeps none),
 * `{ seal: true }`. The first failure is kept and told at the seal; batches after it are
 * counted, not written.
 */
import { parentPort, workerData } from "node:worker_threads"
import { opRow } from "./PlanRows.mjs"

const {
  filename,
  pragmas,
  setup,
  insert: insertSql,
  columns,
  seal,
  control: shared,
  at,
  replies
} = workerData
const control = new Int32Array(shared)

/** A text's UTF-16 code units as big-endian bytes: blobs of these compare as the texts do in JavaScript. */
const utf16be = (text) => Buffer.from(text, "utf16le").swap16()

const reason = (e) => (e instanceof Error ? e.message : String(e))

/** @type {string | undefined} */
let failed
/** @type {import("better-sqlite3").Database | undefined} */
let db
/** @type {import("better-sqlite3").Statement | undefined} */
let insert
try {
  // Imported here, not at the top: a module that cannot be loaded is a failure told at the seal like any
  // other, not a thread that stops while the building thread waits on it.
  const { default: Database } = await import("better-sqlite3")
  db = new Database(filename)
  for (const p of pragmas) db.pragma(p)
  for (const s of setup) db.exec(s)
  insert = db.prepare(insertSql)
} catch (e) {
  failed = reason(e)
}

/** The numbers of an operation in a batch. */
const NUMBERS = 3

const write = ({ texts, lengths, numbers }) => {
  let at = 0
  let t = 0
  const next = () => texts.slice(at, (at += lengths[t++]))
  const list = (n) => {
    const out = new Array(n)
    for (let i = 0; i < n; i++) out[i] = next()
    return out
  }
  for (let n = 0; n < numbers.length; n += NUMBERS) {
    const [sortKey, key, phase, kind, naturalKey, json, listing] = list(7)
    const dependsOn = list(numbers[n + 1])
    const lineage = list(numbers[n + 2])
    const row = opRow(key, phase, kind, naturalKey, json, dependsOn, lineage)
    insert.run(numbers[n], utf16be(sortKey), utf16be(key), ...columns.map((c) => row[c]), listing)
  }
  if (at !== texts.length)
    throw new Error(`a batch's texts ran ${texts.length - at} characters past its lengths`)
}

parentPort.on("message", (m) => {
  if (m.ops !== undefined) {
    if (failed === undefined) {
      try {
        write(m.ops)
      } catch (e) {
        failed = reason(e)
      }
    }
    Atomics.add(control, at.written, 1)
    Atomics.notify(control, at.written)
  } else if (m.seal === true) {
    if (failed === undefined) {
      try {
        for (const s of seal) db.exec(s)
      } catch (e) {
        failed = reason(e)
      }
    }
    try {
      db?.close()
    } catch (e) {
      failed ??= reason(e)
    }
    if (failed !== undefined) replies.postMessage({ error: failed })
    Atomics.store(control, at.end, failed === undefined ? at.sealed : at.failed)
    Atomics.notify(control, at.end)
    parentPort.close()
  }
})
