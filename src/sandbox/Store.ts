/** The sandbox's state: SQLite (file or memory) as the durable store, with every resource cached in memory. */
import Database from "better-sqlite3"

/** A stored record; every resource has a `resourceId`. */
export interface Record0 {
  readonly resourceId: string
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (kind TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ledger (
  seq INTEGER PRIMARY KEY, txId TEXT NOT NULL, txType TEXT NOT NULL, reference TEXT, docId TEXT,
  accountId TEXT NOT NULL, contactId TEXT, valueDate INTEGER NOT NULL, amount INTEGER NOT NULL,
  currency TEXT NOT NULL, sourceAmount INTEGER NOT NULL, description TEXT, active INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS ledger_tx ON ledger (txId, active);
CREATE INDEX IF NOT EXISTS ledger_doc ON ledger (docId, accountId);
-- What the balances and open items are summed from, without reading the lines (Ledger.BALANCES, OPEN_ITEMS).
CREATE INDEX IF NOT EXISTS ledger_balance ON ledger (accountId, valueDate, amount, contactId, currency, sourceAmount);
`

/** One kind of resource: an insertion-ordered map mirrored to the `docs` table. */
export class Collection<T extends Record0> {
  readonly map = new Map<string, T>()
  private version = 0

  constructor(
    readonly kind: string,
    private readonly store: Store
  ) {}

  get(id: string): T | undefined {
    return this.map.get(id)
  }

  get size(): number {
    return this.map.size
  }

  /** Bumped on every write, for caches of derived data. */
  get stamp(): number {
    return this.version
  }

  values(): T[] {
    return Array.from(this.map.values())
  }

  put(doc: T): void {
    const before = this.map.get(doc.resourceId)
    this.store.remember(() => {
      if (before === undefined) this.map.delete(doc.resourceId)
      else this.map.set(doc.resourceId, before)
    })
    this.map.set(doc.resourceId, doc)
    this.version++
    this.store.write(this.kind, doc.resourceId, JSON.stringify(doc))
  }

  remove(id: string): void {
    const before = this.map.get(id)
    if (before === undefined) return
    this.store.remember(() => this.map.set(id, before))
    this.map.delete(id)
    this.version++
    this.store.erase(this.kind, id)
  }

  /** Loads rows persisted by an earlier run. */
  hydrate(id: string, doc: T): void {
    this.map.set(id, doc)
  }
}

/** The database and the collections over it; `tx` makes a write atomic in SQLite and in memory. */
export class Store {
  readonly db: Database.Database
  private readonly collections = new Map<string, Collection<Record0>>()
  private undo: Array<() => void> | undefined
  private seq = 0
  readonly fresh: boolean
  private readonly stmts
  private readonly runner: (fn: () => unknown) => unknown

  constructor(path: string | undefined) {
    this.db = new Database(path ?? ":memory:")
    this.db.pragma("journal_mode = WAL")
    this.db.pragma("synchronous = NORMAL")
    const existed = this.db.prepare("SELECT name FROM sqlite_master WHERE name = 'meta'").get() !== undefined
    this.db.exec(SCHEMA)
    this.fresh = !existed || this.getMeta("fixture") === undefined
    this.stmts = {
      write: this.db.prepare(
        "INSERT INTO docs (kind, id, seq, body) VALUES (?, ?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body"
      ),
      erase: this.db.prepare("DELETE FROM docs WHERE kind = ? AND id = ?"),
      getMeta: this.db.prepare("SELECT value FROM meta WHERE key = ?"),
      setMeta: this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
    }
    this.runner = this.db.transaction((fn: () => unknown) => fn())
    const max = this.db.prepare("SELECT MAX(seq) AS m FROM docs").get() as { m: number | null }
    this.seq = max.m ?? 0
  }

  collection<T extends Record0>(kind: string): Collection<T> {
    let c = this.collections.get(kind)
    if (c === undefined) {
      c = new Collection<Record0>(kind, this)
      this.collections.set(kind, c)
    }
    return c as unknown as Collection<T>
  }

  /** Fills every registered collection from the database. */
  load(): void {
    const rows = this.db.prepare("SELECT kind, id, body FROM docs ORDER BY seq").all() as Array<{
      kind: string
      id: string
      body: string
    }>
    for (const r of rows) this.collection(r.kind).hydrate(r.id, JSON.parse(r.body) as Record0)
  }

  write(kind: string, id: string, body: string): void {
    this.stmts.write.run(kind, id, ++this.seq, body)
  }

  erase(kind: string, id: string): void {
    this.stmts.erase.run(kind, id)
  }

  remember(restore: () => void): void {
    this.undo?.push(restore)
  }

  getMeta(key: string): string | undefined {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as
      { value: string } | undefined
    return row?.value
  }

  setMeta(key: string, value: string): void {
    this.stmts.setMeta.run(key, value)
  }

  /** Runs `fn` in one SQLite transaction; on a throw both the database and the memory cache roll back. */
  tx<R>(fn: () => R): R {
    if (this.undo !== undefined) return fn()
    const undo: Array<() => void> = []
    this.undo = undo
    try {
      return this.runner(fn) as R
    } catch (e) {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]?.()
      throw e
    } finally {
      this.undo = undefined
    }
  }

  close(): void {
    this.db.close()
  }
}
