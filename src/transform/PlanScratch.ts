/**
 * Where `plan` keeps its operations while it builds them: a temporary SQLite database in a directory of its
 * own under the system's temporary directory (removed when the scratch is closed), one row per operation
 * with everything the store writes (`Plan.OpRow`). The
 * heap holds none of them. Before, each operation kept an object in the heap (its key, names, sort key and
 * place in a spill file of its texts) and `PlanContext` kept every key: at 100,000 invoices, the heap left
 * live once the plan was built (forced collection) fell from 366 to 284 MB, and plan's peak RSS from 733 to
 * 646-648 MB.
 *
 * Once built, the scratch is sealed (`seal`): its operations' load order is written into it, phase, then sort
 * key, then key (`Plan.order`), the keys compared as JavaScript compares strings, by UTF-16 code units. They are
 * kept as UTF-16 big-endian blobs, whose bytes sort in that order (UTF-8's bytes sort a character above U+FFFF
 * after U+E000-U+FFFF; JavaScript before). The store then attaches the sealed file to the workspace and copies
 * the rows in SQL (`copyInto`, `PlanStore.saveBuilt`): read into JavaScript a row at a time and inserted 500 at
 * a time, storing the 76,660 operations of 20,000 invoices took about 2 s of a CPU profile, against about
 * 1.4 s (0.5 s slices of one profile each).
 */
import Database from "better-sqlite3"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import {
  kindCountsSql,
  phases,
  rowOf,
  type KindCount,
  type OpRow,
  type OpSink,
  type OpSpec,
  type Phase
} from "./Plan.js"

/** A text's UTF-16 code units as big-endian bytes: blobs of these compare as the texts do in JavaScript. */
const utf16be = (text: string): Buffer => Buffer.from(text, "utf16le").swap16()

const COLUMNS = [
  "key",
  "phase",
  "kind",
  "natural_key",
  "depends_on",
  "body",
  "body_hash",
  "lineage",
  "hash_line"
] as const satisfies ReadonlyArray<keyof OpRow>

let scratched = 0

/**
 * The statement that copies a sealed scratch, attached as `schema`, into the workspace's `plan_ops` in load
 * order: `seq` from the load order, and every column of an operation's row but its line of the plan hash.
 */
export const copyInto = (schema: string): string => {
  const stored = COLUMNS.filter((c) => c !== "hash_line")
  return `INSERT INTO plan_ops (seq, ${stored.join(", ")})
    SELECT o.seq, ${stored.map((c) => `s.${c}`).join(", ")}
    FROM ${schema}.load_order o JOIN ${schema}.ops s ON s.rowid = o.id ORDER BY o.seq`
}

/** Operations every scratch of this process has taken so far (what shows that a plan was built through one). */
export const scratchedOps = (): number => scratched

export class PlanScratch implements OpSink {
  private readonly counts = new Map<Phase, number>()
  private closed = false
  private sealed = false

  private constructor(
    private readonly dir: string,
    private readonly db: Database.Database,
    private readonly insert: Database.Statement
  ) {}

  /** A new, empty scratch. */
  static open(): PlanScratch {
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "ledger-migrate-plan-"))
    let db: Database.Database | undefined
    try {
      db = new Database(NodePath.join(dir, "scratch.db"))
      // Nothing in it outlives the plan: no journal, no syncing, one transaction from the start. Its rows are
      // appended, then read once in load order, which merges the runs each planner appended: pages of 16 KB
      // and a cache of 4 MB (better-sqlite3's default is 16 MB). The 384,056 operations of 100,000 invoices
      // put and read back on their own: 1.09 and 1.16 s, against 1.39-1.44 and 1.55-1.56 s with SQLite's
      // default 4 KB pages and 2 MB.
      db.pragma("page_size = 16384")
      db.pragma("journal_mode = OFF")
      db.pragma("synchronous = OFF")
      db.pragma("cache_size = -4000")
      db.exec(
        `CREATE TABLE ops (place INTEGER NOT NULL, sort_order BLOB NOT NULL, key_order BLOB NOT NULL, ${COLUMNS.map((c) => `${c} TEXT NOT NULL`).join(", ")})`
      )
      db.exec("BEGIN")
      const insert = db.prepare(
        `INSERT INTO ops VALUES (${["?", "?", "?", ...COLUMNS.map(() => "?")].join(", ")})`
      )
      return new PlanScratch(dir, db, insert)
    } catch (e) {
      db?.close()
      NodeFs.rmSync(dir, { recursive: true, force: true })
      throw e
    }
  }

  /** Keeps `op`, with its canonical body `json`. */
  put(op: OpSpec, json: string): void {
    this.live()
    if (this.sealed) throw new Error("an operation was put in the plan's scratch once sealed: a defect")
    const row = rowOf(op, { json, dependsOn: op.dependsOn, lineage: op.lineage })
    this.insert.run(
      phases.indexOf(op.phase),
      utf16be(op.sortKey),
      utf16be(op.key),
      ...COLUMNS.map((c) => row[c])
    )
    this.counts.set(op.phase, (this.counts.get(op.phase) ?? 0) + 1)
    scratched++
  }

  /** Operations kept so far. */
  get size(): number {
    let n = 0
    for (const c of this.counts.values()) n += c
    return n
  }

  /** Operations kept so far in each phase that has any, in load order. */
  phaseCounts(): ReadonlyArray<readonly [Phase, number]> {
    return phases.flatMap((p) => {
      const n = this.counts.get(p)
      return n === undefined ? [] : [[p, n] as const]
    })
  }

  /**
   * Ends the building: writes the load order (`Plan.order`) into the scratch as `load_order` (`seq`, from 1, and
   * the operation's `id` in `ops`), commits, and returns the scratch's file for the store to attach. The order
   * is sorted on the row ids alone: SQLite sorting the rows, bodies and all, took 315-433 ms at 20,000 invoices
   * against 277-280 ms.
   */
  seal(): string {
    this.live()
    if (!this.sealed) {
      // Each operation's phase and kind beside its place, for what counts them (`kindCounts`) without
      // reading the operations' rows, bodies and all.
      this.db.exec(
        "CREATE TABLE load_order (seq INTEGER PRIMARY KEY, id INTEGER NOT NULL, phase TEXT NOT NULL, kind TEXT NOT NULL)"
      )
      this.db.exec(
        "INSERT INTO load_order (id, phase, kind) SELECT rowid, phase, kind FROM ops ORDER BY place, sort_order, key_order"
      )
      this.db.exec("COMMIT")
      this.sealed = true
    }
    return this.db.name
  }

  /**
   * The operations' lines of the plan hash in load order (sealing the scratch), read as they are iterated:
   * iterate them to the end, or leave the loop, before anything else reads the scratch.
   */
  *hashLines(): Generator<string> {
    this.seal()
    yield* this.db
      .prepare("SELECT hash_line FROM load_order JOIN ops ON ops.rowid = load_order.id ORDER BY seq")
      .pluck()
      .iterate() as IterableIterator<string>
  }

  /** The operations' rows in load order (sealing the scratch), each read as it is iterated. */
  *ordered(): Generator<OpRow> {
    this.seal()
    const ids = this.db.prepare("SELECT id FROM load_order ORDER BY seq").pluck().all() as Array<number>
    const row = this.db.prepare(`SELECT ${COLUMNS.join(", ")} FROM ops WHERE rowid = ?`)
    for (const id of ids) {
      this.live()
      yield row.get(id) as OpRow
    }
  }

  /**
   * How many operations of each phase and kind it holds, in the order of each kind's first operation in load
   * order (sealing the scratch).
   */
  kindCounts(): Array<KindCount> {
    this.seal()
    return this.db.prepare(kindCountsSql("load_order")).all() as Array<KindCount>
  }

  /**
   * Up to `limit` of `phase`'s operations after `afterSeq` in load order (sealing the scratch), each row with
   * its place in the load order as `seq`, and its body as the SQL expression `body` over the row's `body`
   * gives it. A phase's operations are a stretch of the load order, found from the counts.
   */
  page(
    phase: Phase,
    afterSeq: number,
    limit: number,
    body: string
  ): Array<Omit<OpRow, "hash_line"> & { readonly seq: number }> {
    this.seal()
    let first = 1
    for (const [p, n] of this.phaseCounts()) {
      if (p === phase)
        return this.db
          .prepare(
            `SELECT l.seq AS seq, ${COLUMNS.filter((c) => c !== "hash_line")
              .map((c) => (c === "body" ? `${body} AS body` : `o.${c} AS ${c}`))
              .join(", ")}
            FROM load_order l JOIN ops o ON o.rowid = l.id
            WHERE l.seq > ? AND l.seq < ? ORDER BY l.seq LIMIT ?`
          )
          .all(Math.max(afterSeq, first - 1), first + n, limit) as Array<
          Omit<OpRow, "hash_line"> & { seq: number }
        >
      first += n
    }
    return []
  }

  /** Closes the scratch and removes its file; what was kept can no longer be read. */
  close(): void {
    if (this.closed) return
    this.closed = true
    try {
      this.db.close()
    } finally {
      NodeFs.rmSync(this.dir, { recursive: true, force: true })
    }
  }

  private live(): void {
    if (this.closed) throw new Error("the plan's scratch was used after it was closed: a defect")
  }
}
