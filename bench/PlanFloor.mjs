/**
 * The bare floor of `plan` (issue 15: what the machine allows, measured in the same run): plain Node and
 * better-sqlite3, no Effect, no planning. In the planned workspace given as its argument it reads every staged
 * source row, as plan must, and then writes every operation the plan stored into a fresh database with the
 * same `plan_ops` table and indexes, one prepared INSERT per operation in one transaction, as plan must. The
 * operations are read back into memory before the writing is timed. Prints one JSON line: the rows read, the
 * operations written, and the seconds of each part.
 *
 * Usage: node bench/PlanFloor.mjs WORKSPACE_DIR SCRATCH_DIR
 */
import Database from "better-sqlite3"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

const [workspace, scratch] = process.argv.slice(2)
if (workspace === undefined || scratch === undefined) {
  console.error("usage: node bench/PlanFloor.mjs WORKSPACE_DIR SCRATCH_DIR")
  process.exit(2)
}
const seconds = (since) => (performance.now() - since) / 1000

const staged = new Database(NodePath.join(workspace, "staging.db"), { readonly: true })

// Reading the staged rows: every row's bytes, as plan reads them.
let started = performance.now()
let rows = 0
let bytes = 0
for (const r of staged.prepare("SELECT id, shape, data FROM src_rows ORDER BY id").raw().iterate()) {
  rows++
  bytes += r[2].length
}
const readSeconds = seconds(started)

// The operations as the plan stored them, in memory before the clock starts.
const columns = ["seq", "key", "phase", "kind", "natural_key", "depends_on", "body", "body_hash", "lineage"]
const ops = staged
  .prepare(`SELECT ${columns.join(", ")} FROM plan_ops ORDER BY seq`)
  .raw()
  .all()
const ddl = staged
  .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'plan_ops' AND sql IS NOT NULL ORDER BY type DESC")
  .pluck()
  .all()
staged.close()

const target = NodePath.join(scratch, "plan-floor.db")
for (const suffix of ["", "-wal", "-shm"]) NodeFs.rmSync(target + suffix, { force: true })
const out = new Database(target)
out.pragma("journal_mode = WAL")
for (const statement of ddl) out.exec(statement)

// Writing the operations: one transaction, one prepared INSERT each.
started = performance.now()
const insert = out.prepare(
  `INSERT INTO plan_ops (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`
)
out.transaction(() => {
  for (const op of ops) insert.run(op)
})()
const writeSeconds = seconds(started)
out.close()
for (const suffix of ["", "-wal", "-shm"]) NodeFs.rmSync(target + suffix, { force: true })

console.log(JSON.stringify({ rows, bytes, ops: ops.length, readSeconds, writeSeconds }))
