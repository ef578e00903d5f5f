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
 *
 * The rows are made and written by a thread of its own (`ScratchWorker.mjs`), handed the operations a batch at
 * a time, while this thread builds the next ones: making each row (its body hashed, its texts serialised) and
 * inserting it was about 0.8 s of the 3.5 s the build took at 20,000 invoices (a CPU profile). Plan at
 * 20,000 invoices took 6.72-6.97 s against 7.63-8.05 s, its peak RSS 266-267 against 259-267 MB (three
 * interleaved runs each); at 100,000 invoices 35.5 against 42.5 s, 570 against 552 MB (one run each, the
 * same plan hashes).
 */
import Database from "better-sqlite3"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as NodeWorker from "node:worker_threads"
import { resource } from "../Resources.js"
import {
  kindCountsSql,
  phases,
  type KindCount,
  type OpRow,
  type OpSink,
  type OpSpec,
  type Phase
} from "./Plan.js"

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

/**
 * Nothing in the scratch outlives the plan: no journal, no syncing, one transaction from the start. Its rows
 * are appended, then read once in load order, which merges the runs each planner appended: pages of 16 KB and
 * a cache of 4 MB (better-sqlite3's default is 16 MB). The 384,056 operations of 100,000 invoices put and read
 * back on their own: 1.09 and 1.16 s, against 1.39-1.44 and 1.55-1.56 s with SQLite's default 4 KB pages and
 * 2 MB.
 */
const PRAGMAS = ["page_size = 16384", "journal_mode = OFF", "synchronous = OFF", "cache_size = -4000"]

/** What the writer thread runs first: the operations' table, and the one transaction begun. */
const SETUP = [
  `CREATE TABLE ops (place INTEGER NOT NULL, sort_order BLOB NOT NULL, key_order BLOB NOT NULL, ${COLUMNS.map((c) => `${c} TEXT NOT NULL`).join(", ")}, listed TEXT NOT NULL)`,
  "BEGIN"
]

/** Each operation's row: its place (its phase's), sort key and key as UTF-16 big-endian blobs, and `COLUMNS`. */
const INSERT = `INSERT INTO ops VALUES (${["?", "?", "?", ...COLUMNS.map(() => "?"), "?"].join(", ")})`

/**
 * What the writer thread runs last: the load order (`Plan.order`), `seq` from 1 and the operation's `id` in
 * `ops`, each with its phase and kind, for what counts them (`kindCounts`) without reading the operations'
 * rows, bodies and all. Sorted on the row ids alone: SQLite sorting the rows, bodies and all, took 315-433 ms
 * at 20,000 invoices against 277-280 ms.
 *
 * For a scratch that lists its operations (`listed`), the load order holds besides what the preview reads of
 * each (`listedPage`), so that the preview reads it in order instead of each operation's row, body and all,
 * by its row id: at 20,000 invoices, listings read through the row ids took 292 ms of the preview's thread
 * against 214 ms in order (one profile each).
 */
const sealOf = (listed: boolean): ReadonlyArray<string> => {
  const columns = ["phase", "kind", ...(listed ? ["key", "natural_key", "lineage", "listed"] : [])]
  return [
    `CREATE TABLE load_order (seq INTEGER PRIMARY KEY, id INTEGER NOT NULL, ${columns.map((c) => `${c} TEXT NOT NULL`).join(", ")})`,
    `INSERT INTO load_order (id, ${columns.join(", ")})
      SELECT rowid, ${columns.join(", ")} FROM ops ORDER BY place, sort_order, key_order`,
    "COMMIT"
  ]
}

/** Operations handed to the writer thread at a time, at most. */
const BATCH = 256

/**
 * The characters of a batch's texts past which it is handed over before it has `BATCH` operations: its one
 * string stays an ordinary object of V8's young generation on both threads (below 64 K two-byte characters).
 * Bigger, a string is made in the space of large objects, which only a full collection frees: at 100,000
 * invoices, batches of 256 documents' texts (several hundred KB each) raised plan's peak RSS from 244-246
 * to 252-261 MB (two runs each).
 */
const BATCH_CHARS = 32_768

/**
 * Batches handed over and not yet written before `put` waits for the writer thread: what the heap holds of
 * operations not yet in the scratch (about 2 MB at 1 KB an operation).
 */
const IN_FLIGHT = 8

/**
 * The control counters shared with the writer thread (`ScratchWorker.mjs`, which is handed these in
 * `workerData`): where each counter is (batches written; the end) and what the end says.
 */
const CONTROL = { written: 0, end: 1, writing: 0, sealed: 1, failed: 2 } as const

/**
 * The writer thread's engine limits: a young generation of 4 MB in all. It makes each operation's row and
 * drops it once inserted, and V8 grew its young generation to 16 MB semispaces, 21-22 MB of heap in all, at
 * 100,000 invoices (8 MB at 20,000); held at 4 MB its heap was at most 10 MB, in about the same time. The
 * build's RSS at 100,000 invoices peaked at 268-276 MiB against 278-284 MiB (`VmHWM`, three runs each).
 */
const WRITER_LIMITS: NodeWorker.ResourceLimits = { maxYoungGenerationSizeMb: 4 }

/** How long the building thread waits for the writer thread to move before it gives up on it (ms). */
const PATIENCE = 120_000

/**
 * A batch of operations as it is handed to the writer thread (`ScratchWorker.mjs`): their texts end to end in
 * one string, each text's length, and each operation's numbers (`NUMBERS`: its phase's place, how many
 * dependencies and lineage entries it has). Each operation's texts are its sort key, key, phase, kind,
 * natural key, canonical body and listing ("" in a scratch that keeps none), then its dependencies and its
 * lineage. One flat string crosses to the thread as one copy; the operations as arrays of the build's
 * concatenated strings were cloned text by text, each made flat on the way: at 20,000 invoices `postMessage`
 * took 233 ms of the building thread (one profile).
 */
interface Batch {
  readonly texts: string
  readonly lengths: Int32Array
  readonly numbers: Int32Array
}

/** The numbers of an operation in a `Batch`. */
const NUMBERS = 3

/** What the preview lists of an operation, from its kind, phase and body as built, as a text (`PlanScratch.open`). */
export type Listing = (kind: OpSpec["kind"], phase: Phase, body: unknown) => string

/** An operation's key fields, lineage and listing as the scratch holds them (`listedPage`). */
export interface ListedRow {
  readonly seq: number
  readonly key: string
  readonly phase: Phase
  readonly kind: OpSpec["kind"]
  readonly natural_key: string
  readonly lineage: string
  readonly listed: string
}

/** The thread that writes the scratch, the counters it moves, and the port it tells its failure on. */
interface Writer {
  readonly thread: NodeWorker.Worker
  readonly control: Int32Array
  readonly replies: NodeWorker.MessagePort
}

export class PlanScratch implements OpSink {
  private readonly counts = new Map<Phase, number>()
  private closed = false
  private texts: Array<string> = []
  private lengths: Array<number> = []
  private numbers: Array<number> = []
  private chars = 0
  private handed = 0
  private waited = 0
  /** The sealed scratch, read on this thread; undefined while the writer thread has it. */
  private db: Database.Database | undefined
  private writer: Writer | undefined

  private constructor(
    private readonly dir: string,
    /** The scratch's database file. */
    readonly file: string,
    private readonly list: Listing | undefined
  ) {}

  /**
   * A new, empty scratch (its writer thread starts with the first operations). With `list`, each operation
   * is kept with what `list` makes of its body as built (`listedPage`): the plan's preview reads that instead
   * of the bodies. At 20,000 invoices the preview read 17.4 MB of bodies back (30.0 MB with the documents'
   * lines, which SQLite dropped), to list four fields of each operation.
   */
  static open(list?: Listing): PlanScratch {
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "ledger-migrate-plan-"))
    return new PlanScratch(dir, NodePath.join(dir, "scratch.db"), list)
  }

  /** Whether each operation is kept with its listing (`open`'s `list`). */
  get lists(): boolean {
    return this.list !== undefined
  }

  /**
   * The writer thread (`ScratchWorker.mjs`), started the first time it is needed. Started with the scratch,
   * before the books were read, it raised the read's end at 100,000 invoices from 522 to 587 MB of RSS (one
   * run each), though it did nothing until the build.
   */
  private writing(): Writer {
    if (this.writer === undefined) {
      const control = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT))
      const { port1, port2 } = new NodeWorker.MessageChannel()
      const thread = new NodeWorker.Worker(resource("src/transform/ScratchWorker.mjs"), {
        workerData: {
          filename: this.file,
          pragmas: PRAGMAS,
          setup: SETUP,
          insert: INSERT,
          columns: COLUMNS,
          seal: sealOf(this.list !== undefined),
          control: control.buffer,
          at: CONTROL,
          replies: port2
        },
        transferList: [port2],
        execArgv: [],
        resourceLimits: WRITER_LIMITS
      })
      // It never keeps the process alive: it ends with the seal, or is stopped when the scratch is closed.
      thread.unref()
      this.writer = { thread, control, replies: port1 }
    }
    return this.writer
  }

  /**
   * Keeps `op`, with its canonical body `json` (handed to the writer thread a batch at a time) and, when the
   * scratch lists them, the listing of `body`, the value `json` is the text of.
   */
  put(op: OpSpec, json: string, body: unknown): void {
    this.live()
    if (this.db !== undefined)
      throw new Error("an operation was put in the plan's scratch once sealed: a defect")
    this.numbers.push(phases.indexOf(op.phase), op.dependsOn.length, op.lineage.length)
    this.text(op.sortKey)
    this.text(op.key)
    this.text(op.phase)
    this.text(op.kind)
    this.text(op.naturalKey)
    this.text(json)
    this.text(this.list === undefined ? "" : this.list(op.kind, op.phase, body))
    for (const d of op.dependsOn) this.text(d)
    for (const l of op.lineage) this.text(l)
    this.counts.set(op.phase, (this.counts.get(op.phase) ?? 0) + 1)
    scratched++
    if (this.numbers.length === BATCH * NUMBERS || this.chars >= BATCH_CHARS) this.hand()
  }

  private text(t: string): void {
    this.texts.push(t)
    this.lengths.push(t.length)
    this.chars += t.length
  }

  /** Hands the batch to the writer thread; waits while `IN_FLIGHT` batches are still to be written. */
  private hand(): void {
    const { thread, control } = this.writing()
    const batch: Batch = {
      texts: this.texts.join(""),
      lengths: Int32Array.from(this.lengths),
      numbers: Int32Array.from(this.numbers)
    }
    thread.postMessage({ ops: batch }, [
      batch.lengths.buffer as ArrayBuffer,
      batch.numbers.buffer as ArrayBuffer
    ])
    this.texts = []
    this.lengths = []
    this.numbers = []
    this.chars = 0
    this.handed++
    for (let waited = false; ; waited = true) {
      const written = Atomics.load(control, CONTROL.written)
      if (this.handed - written <= IN_FLIGHT) {
        if (waited) this.waited++
        return
      }
      this.await(control, CONTROL.written, written)
    }
  }

  /** The engine limits the writer thread runs under (undefined before it starts, or once it has ended). */
  get writerLimits(): NodeWorker.ResourceLimits | undefined {
    return this.writer?.thread.resourceLimits
  }

  /** How many batches were handed to the writer thread so far. */
  get batches(): number {
    return this.handed
  }

  /** How many batches waited to be handed over until the writer thread had caught up (`IN_FLIGHT`). */
  get waits(): number {
    return this.waited
  }

  /** Waits until the writer thread changes counter `at` from `value`; fails if it does not within `PATIENCE`. */
  private await(control: Int32Array, at: number, value: number): void {
    if (Atomics.wait(control, at, value, PATIENCE) === "timed-out")
      throw new Error(
        `the thread writing the plan's scratch (${this.file}) did nothing for ${PATIENCE / 1000} s: it has stopped`
      )
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
   * Ends the building: the writer thread writes the load order (`Plan.order`) into the scratch as `load_order`
   * (`seq`, from 1, and the operation's `id` in `ops`), commits and closes it; the scratch is read on this
   * thread from then on. Returns the scratch's file for the store to attach; fails as the writer failed.
   */
  seal(): string {
    this.live()
    if (this.db === undefined) {
      if (this.numbers.length > 0) this.hand()
      const { thread, control, replies } = this.writing()
      thread.postMessage({ seal: true })
      while (Atomics.load(control, CONTROL.end) === CONTROL.writing)
        this.await(control, CONTROL.end, CONTROL.writing)
      if (Atomics.load(control, CONTROL.end) === CONTROL.failed) {
        const told = NodeWorker.receiveMessageOnPort(replies)?.message as { error?: string } | undefined
        throw new Error(
          `the plan's scratch (${this.file}) could not be written: ${told?.error ?? "no reason told"}`
        )
      }
      this.db = new Database(this.file, { fileMustExist: true })
      this.db.pragma("cache_size = -4000")
    }
    return this.file
  }

  /**
   * The operations' lines of the plan hash in load order (sealing the scratch), read as they are iterated:
   * iterate them to the end, or leave the loop, before anything else reads the scratch.
   */
  *hashLines(): Generator<string> {
    yield* this.sealed()
      .prepare("SELECT hash_line FROM load_order JOIN ops ON ops.rowid = load_order.id ORDER BY seq")
      .pluck()
      .iterate() as IterableIterator<string>
  }

  /** The operations' rows in load order (sealing the scratch), each read as it is iterated. */
  *ordered(): Generator<OpRow> {
    const db = this.sealed()
    const ids = db.prepare("SELECT id FROM load_order ORDER BY seq").pluck().all() as Array<number>
    const row = db.prepare(`SELECT ${COLUMNS.join(", ")} FROM ops WHERE rowid = ?`)
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
    return this.sealed().prepare(kindCountsSql("load_order")).all() as Array<KindCount>
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
    return this.phaseStretch(
      phase,
      (db, from, to) =>
        db
          .prepare(
            `SELECT l.seq AS seq, ${COLUMNS.filter((c) => c !== "hash_line")
              .map((c) => (c === "body" ? `${body} AS body` : `o.${c} AS ${c}`))
              .join(", ")}
          FROM load_order l JOIN ops o ON o.rowid = l.id
          WHERE l.seq > ? AND l.seq < ? ORDER BY l.seq LIMIT ?`
          )
          .all(Math.max(afterSeq, from), to, limit) as Array<Omit<OpRow, "hash_line"> & { seq: number }>
    )
  }

  /**
   * What `read` gives of `phase`'s stretch of the load order (sealing the scratch), given the place before
   * its first operation and the place after its last; none when it has no operations.
   */
  private phaseStretch<A>(
    phase: Phase,
    read: (db: Database.Database, from: number, to: number) => Array<A>
  ): Array<A> {
    const db = this.sealed()
    let first = 1
    for (const [p, n] of this.phaseCounts()) {
      if (p === phase) return read(db, first - 1, first + n)
      first += n
    }
    return []
  }

  /**
   * `page` as the preview reads it when the scratch lists its operations (`open`): each row's key fields,
   * lineage and listing, no body.
   */
  listedPage(phase: Phase, afterSeq: number, limit: number): Array<ListedRow> {
    if (this.list === undefined)
      throw new Error("a listing was read from a scratch that keeps none: a defect")
    return this.phaseStretch(
      phase,
      (db, from, to) =>
        db
          .prepare(
            `SELECT seq, key, phase, kind, natural_key, lineage, listed FROM load_order
          WHERE seq > ? AND seq < ? ORDER BY seq LIMIT ?`
          )
          .all(Math.max(afterSeq, from), to, limit) as Array<ListedRow>
    )
  }

  /** Closes the scratch and removes its file; what was kept can no longer be read. */
  close(): void {
    if (this.closed) return
    this.closed = true
    try {
      this.db?.close()
      // Still writing (a plan that failed before its seal): stopped, its connection with it.
      if (this.db === undefined) void this.writer?.thread.terminate()
    } finally {
      NodeFs.rmSync(this.dir, { recursive: true, force: true })
    }
  }

  /** The scratch, sealed, as this thread reads it. */
  private sealed(): Database.Database {
    this.seal()
    return this.db!
  }

  private live(): void {
    if (this.closed) throw new Error("the plan's scratch was used after it was closed: a defect")
  }
}
