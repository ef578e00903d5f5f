/**
 * The invoices, bills and payments of the books a plan is built from, kept out of the heap: a SQLite
 * database in a directory of its own under the system's temporary directory (removed when the spill is
 * closed), or in memory for books already held whole. Its records are read a record at a time (`Records`),
 * each made afresh; what the plan needs of all of them at once is gathered as they are put in
 * (`DocumentSurvey`), or asked of SQLite: the documents that share a number, a document by its kind and
 * number, the payments grouped by document, each kind's documents by date.
 *
 * A document is kept as its head (everything but its lines, as the kept books hold it: `BooksCodec`), its lines
 * apart, and the fields its settlements and the kept books read as columns of their own, so that what needs
 * no lines reads none, and what needs only those fields parses nothing. A payment is its columns. Keys are
 * ordered as JavaScript compares strings (UTF-16 code units): each is kept as its UTF-16 big-endian bytes,
 * which SQLite compares in that order.
 *
 * Held in the heap, the documents and payments were most of a plan's memory: at 100,000 invoices 229 MB of
 * books were live once read, 57% of them documents and 14% payments (a heap snapshot at 20,000 invoices).
 * The aged reports' items are kept here too, each as a text (`agedItems`): read first, they were live to the
 * end of the books' read, where plan's heap is largest.
 */
import Database from "better-sqlite3"
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { asciiJson, encodeItem, recordDecoder } from "./BooksCodec.js"
import { DocumentSurvey } from "./DocumentSurvey.js"
import type { Money } from "./Money.js"
import type { Records } from "./Records.js"
import { numbering, type NumberedDocument, type Numbering } from "./RecordIdentity.js"
import type {
  Books,
  DocumentKind,
  DocumentState,
  SourceAgedItem,
  SourceBooks,
  SourceDocument,
  SourceLine,
  SourcePayment
} from "./SourceModel.js"

/** A text's UTF-16 code units as big-endian bytes: blobs of these compare as the texts do in JavaScript. */
const utf16be = (text: string): Buffer => Buffer.from(text, "utf16le").swap16()

/** The key of a document and of the payments against it: its kind and number (`DocumentPlanner`'s). */
export const documentKey = (kind: DocumentKind, number: string): string => `${kind}:${number}`

/** An amount as a column: its scale and unscaled value, `scale:value`. */
const moneyText = (m: Money): string => `${m.scale}:${m.value}`

const moneyOf = (text: string): Money => {
  const at = text.indexOf(":")
  return BigDecimal.make(BigInt(text.slice(at + 1)), Number(text.slice(0, at)))
}

/**
 * Nothing here outlives the plan: no journal, no syncing, one transaction while it is written. A cache of 2 MB:
 * its records are read in order, a page at a time; at 100,000 invoices plan peaked at 298 MB against 307 MB
 * with 8 MB (two interleaved runs each), at the same speed.
 */
const PRAGMAS = ["page_size = 4096", "journal_mode = OFF", "synchronous = OFF", "cache_size = -2000"]

/** A document's fields that its settlements read, as columns (`DocumentColumns`, in this order). */
const FIELDS = "place, kind, number, contact, date, state, currency, total, amount_due, first_row"

const SCHEMA = [
  // Every field of a document as a column of its own (`headOf`'s text besides, for the kept books), its lines
  // and rows as texts.
  `CREATE TABLE documents (place INTEGER PRIMARY KEY, key_order BLOB NOT NULL, kind TEXT NOT NULL,
    number TEXT NOT NULL, contact TEXT NOT NULL, date TEXT NOT NULL, due_date TEXT, currency TEXT NOT NULL,
    state TEXT NOT NULL, status TEXT NOT NULL, total TEXT NOT NULL, tax_total TEXT NOT NULL,
    amount_paid TEXT NOT NULL, amount_due TEXT NOT NULL, exchange_rate TEXT, first_row TEXT NOT NULL,
    lineage TEXT, lines TEXT NOT NULL, head TEXT NOT NULL)`,
  `CREATE TABLE payments (place INTEGER PRIMARY KEY, key_order BLOB NOT NULL, kind TEXT NOT NULL,
    number TEXT NOT NULL, bank TEXT NOT NULL, date TEXT NOT NULL, amount TEXT NOT NULL, lineage TEXT NOT NULL)`,
  "CREATE TABLE aged_items (place INTEGER PRIMARY KEY, item TEXT NOT NULL)"
]

/**
 * Made once the records are in (faster than keeping them up while the rows go in), each holding the columns
 * read in its order, so that reading in that order reads the index alone: the documents and the payments by
 * key (the settlements), each kind's documents (the kept books), the documents by kind and number (the aged
 * reports' items).
 */
const INDEXES = [
  `CREATE INDEX documents_by_key ON documents (key_order, ${FIELDS})`,
  "CREATE INDEX documents_by_kind ON documents (kind, place, state, number, date)",
  `CREATE INDEX documents_by_number ON documents (kind, number, ${FIELDS})`,
  "CREATE INDEX payments_by_key ON payments (key_order, place, kind, number, bank, date, amount, lineage)"
]

/** The most documents and payments a spill made of books held whole keeps in memory (`BooksSpill.of`). */
const IN_MEMORY = 20_000

/** The spill's file in its directory. */
const FILE = "books.db"

/** Records read at a time. */
const PAGE = 256

/** A document's head: everything but its lines (an empty list in their place). */
const headOf = (d: SourceDocument): SourceDocument => ({ ...d, lines: [] })

/**
 * A line as it is kept: its fields in order, amounts as `scale:value`, the tracking last when it has some.
 * Lines are read back only by the plan, which reads them field by field.
 */
const lineRow = (l: SourceLine): Array<unknown> => {
  const row: Array<unknown> = [
    l.description,
    l.itemCode,
    moneyText(l.quantity),
    moneyText(l.unitAmount),
    moneyText(l.discount),
    moneyText(l.lineAmount),
    l.accountCode,
    l.taxType,
    moneyText(l.taxAmount),
    l.lineage
  ]
  if (l.tracking !== undefined) row.push(l.tracking)
  return row
}

type LineRow = [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  SourceLine["tracking"]?
]

const lineOf = (r: LineRow): SourceLine => {
  const line: SourceLine = {
    description: r[0],
    itemCode: r[1],
    quantity: moneyOf(r[2]),
    unitAmount: moneyOf(r[3]),
    discount: moneyOf(r[4]),
    lineAmount: moneyOf(r[5]),
    accountCode: r[6],
    taxType: r[7],
    taxAmount: moneyOf(r[8]),
    lineage: r[9]
  }
  return r[10] === undefined ? line : { ...line, tracking: r[10] }
}

/** `value`'s JSON, ASCII (a character beyond it makes the whole text two bytes a character in V8). */
const textOf = (value: unknown): string => {
  const json = JSON.stringify(value)
  return /[^\x00-\x7f]/.test(json) ? asciiJson(json) : json
}

const linesText = (lines: ReadonlyArray<SourceLine>): string => textOf(lines.map(lineRow))

/** A document's rows as a text, or null when they are its lines' rows (an invoice's or bill's are). */
const lineageText = (d: SourceDocument): string | null =>
  d.lineage.length === d.lines.length && d.lineage.every((w, i) => w === d.lines[i]!.lineage)
    ? null
    : textOf(d.lineage)

/** The payments against one document, in the books' order, and the document's key. */
export interface PaymentGroup {
  readonly key: string
  readonly payments: ReadonlyArray<SourcePayment>
}

/** A document as what settles it reads it: its own fields, and its rows read from the spill when asked for. */
export interface SettledDocument extends Pick<
  SourceDocument,
  "kind" | "number" | "contactName" | "date" | "state" | "currency" | "total" | "amountDue" | "lineage"
> {}

/** `FIELDS` as a row. */
type DocumentColumns = readonly [
  place: number,
  kind: DocumentKind,
  number: string,
  contact: string,
  date: string,
  state: DocumentState,
  currency: string,
  total: string,
  amountDue: string,
  firstRow: string
]

/** Every column of a document but its head's text: `documents`' own order. */
type DocumentRow = readonly [
  place: number,
  keyOrder: Buffer,
  kind: DocumentKind,
  number: string,
  contact: string,
  date: string,
  dueDate: string | null,
  currency: string,
  state: DocumentState,
  status: string,
  total: string,
  taxTotal: string,
  amountPaid: string,
  amountDue: string,
  exchangeRate: string | null,
  firstRow: string,
  lineage: string | null,
  lines: string
]

/** The columns of a `DocumentRow`, in order. */
const ROW =
  "place, key_order, kind, number, contact, date, due_date, currency, state, status, total, tax_total, amount_paid, amount_due, exchange_rate, first_row, lineage, lines"

/** A document made of its row: its fields, its lines and rows parsed. */
const documentOf = (r: DocumentRow): SourceDocument => {
  const lines = (JSON.parse(r[17]) as Array<LineRow>).map(lineOf)
  const d: SourceDocument = {
    kind: r[2],
    number: r[3],
    contactName: r[4],
    date: r[5],
    dueDate: r[6] ?? undefined,
    currency: r[7],
    state: r[8],
    status: r[9],
    total: moneyOf(r[10]),
    taxTotal: moneyOf(r[11]),
    amountPaid: moneyOf(r[12]),
    amountDue: moneyOf(r[13]),
    lines,
    lineage: r[16] === null ? lines.map((l) => l.lineage) : (JSON.parse(r[16]) as Array<string>)
  }
  return r[14] === null ? d : { ...d, exchangeRate: moneyOf(r[14]) }
}

/** A document of a spill as its columns give it; its rows read from the spill the first time they are asked for. */
export class SpilledHead implements SettledDocument {
  readonly kind: DocumentKind
  readonly number: string
  readonly contactName: string
  readonly date: string
  readonly state: DocumentState
  readonly currency: string
  readonly total: Money
  readonly amountDue: Money
  /** Its first row ("" when it has none). */
  readonly firstRow: string
  private rows: ReadonlyArray<string> | undefined

  readonly place: number

  constructor(
    private readonly spill: BooksSpill,
    c: DocumentColumns
  ) {
    this.place = c[0]
    this.kind = c[1]
    this.number = c[2]
    this.contactName = c[3]
    this.date = c[4]
    this.state = c[5]
    this.currency = c[6]
    this.total = moneyOf(c[7])
    this.amountDue = moneyOf(c[8])
    this.firstRow = c[9]
  }

  get lineage(): ReadonlyArray<string> {
    return (this.rows ??= this.spill.headAt(this.place).lineage)
  }
}

/** A payment's row: `payments`' columns in order. */
type PaymentRow = readonly [
  place: number,
  keyOrder: Buffer,
  kind: DocumentKind,
  number: string,
  bank: string,
  date: string,
  amount: string,
  lineage: string
]

const PAYMENT = "place, key_order, kind, number, bank, date, amount, lineage"

const paymentOf = (r: PaymentRow): SourcePayment => ({
  documentKind: r[2],
  documentNumber: r[3],
  bankAccountName: r[4],
  date: r[5],
  amount: moneyOf(r[6]),
  lineage: r[7]
})

/** An aged report's item as it is kept: its fields in order, the amount as `scale:value`. */
const agedItemText = (i: SourceAgedItem): string =>
  textOf([
    i.contactName,
    i.number,
    i.reference,
    i.date,
    i.dueDate ?? null,
    moneyText(i.outstanding),
    i.currency ?? null,
    i.lineage
  ])

type AgedItemRow = readonly [string, string, string, string, string | null, string, string | null, string]

/** The item of a kept text, its fields in the order a source's reader makes them. */
const agedItemOf = (text: string): SourceAgedItem => {
  const r = JSON.parse(text) as AgedItemRow
  return {
    contactName: r[0],
    number: r[1],
    reference: r[2],
    date: r[3],
    dueDate: r[4] ?? undefined,
    outstanding: moneyOf(r[5]),
    currency: r[6] ?? undefined,
    lineage: r[7]
  }
}

/** One aged report's items, put in as they are read and read back (`Records`) once the books are read. */
export interface AgedItemsKept {
  add(item: SourceAgedItem): void
  readonly items: Records<SourceAgedItem>
}

/** Aged items kept in an array. */
export const heldAgedItems = (): AgedItemsKept => {
  const items: Array<SourceAgedItem> = []
  return { add: (item) => void items.push(item), items }
}

/**
 * Where a source's reader puts the documents and payments it reads, and the keys it groups their rows by: a
 * spill, or arrays (`HeldRecords`).
 */
export interface RecordSink {
  /** Whether it holds the records it is given as they are (in the heap), rather than writing them out. */
  readonly holds: boolean
  /** Puts the next document in; returns its place. */
  addDocument(d: SourceDocument): number
  /** The document at `place` (put in already) with `more` lines after those it has. */
  addLines(place: number, more: ReadonlyArray<SourceLine>): void
  addPayment(p: SourcePayment): void
  /** The document at `place` (put in already). */
  documentAt(place: number): SourceDocument
  /** Where to put one aged report's items. */
  agedItems(): AgedItemsKept
}

/** Documents and payments put in arrays, for books held whole. */
export class HeldRecords implements RecordSink {
  readonly holds = true
  readonly documents: Array<SourceDocument> = []
  readonly payments: Array<SourcePayment> = []

  addDocument(d: SourceDocument): number {
    return this.documents.push(d) - 1
  }

  addLines(place: number, more: ReadonlyArray<SourceLine>): void {
    const d = this.documents[place]!
    const lines = [...d.lines, ...more]
    this.documents[place] = { ...d, lines, lineage: lines.map((l) => l.lineage) }
  }

  addPayment(p: SourcePayment): void {
    this.payments.push(p)
  }

  documentAt(place: number): SourceDocument {
    return this.documents[place]!
  }

  agedItems(): AgedItemsKept {
    return heldAgedItems()
  }
}

export class BooksSpill implements RecordSink {
  readonly holds = false
  private readonly db: Database.Database
  /** The records read are short-lived: texts and amounts are not shared among them. */
  private readonly decode = recordDecoder(0)
  private sealed = false
  private closed = false
  private documentCount = 0
  private paymentCount = 0
  private agedItemCount = 0
  /** What is gathered of the documents and payments as they are put in. */
  readonly survey = new DocumentSurvey()
  private readonly put: {
    readonly document: Database.Statement
    readonly replace: Database.Statement
    readonly payment: Database.Statement
    readonly agedItem: Database.Statement
    readonly written: Database.Statement
  }
  private readonly statements = new Map<string, Database.Statement>()

  private constructor(private readonly dir: string | undefined) {
    this.db = new Database(dir === undefined ? ":memory:" : NodePath.join(dir, FILE))
    for (const p of PRAGMAS) this.db.pragma(p)
    for (const s of SCHEMA) this.db.exec(s)
    this.db.exec("BEGIN")
    this.put = {
      document: this.db.prepare(`INSERT INTO documents VALUES (${"?, ".repeat(18)}?)`),
      replace: this.db.prepare("UPDATE documents SET lines = ?, lineage = ?, head = ? WHERE place = ?"),
      payment: this.db.prepare("INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
      agedItem: this.db.prepare("INSERT INTO aged_items VALUES (?, ?)"),
      // Read while the records go in: what a reader asks of a document it has put in already.
      written: this.db.prepare(`SELECT ${ROW} FROM documents WHERE place = ?`).raw()
    }
  }

  /** A new, empty spill in a temporary file of its own. */
  static open(): BooksSpill {
    return new BooksSpill(NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "ledger-migrate-books-")))
  }

  /** A new, empty spill in memory (for books already held whole). */
  static inMemory(): BooksSpill {
    return new BooksSpill(undefined)
  }

  /**
   * `books`' documents and payments in a sealed spill: in memory for a few (`IN_MEMORY` records at most), else
   * in a temporary file.
   */
  static of(books: Pick<Books, "documents" | "payments">): BooksSpill {
    const spill =
      books.documents.length + books.payments.length <= IN_MEMORY ? BooksSpill.inMemory() : BooksSpill.open()
    try {
      for (const d of books.documents) spill.addDocument(d)
      for (const p of books.payments) spill.addPayment(p)
      return spill.seal()
    } catch (e) {
      spill.close()
      throw e
    }
  }

  addDocument(d: SourceDocument): number {
    this.writing()
    const place = this.documentCount++
    this.put.document.run(
      place,
      utf16be(documentKey(d.kind, d.number)),
      d.kind,
      d.number,
      d.contactName,
      d.date,
      d.dueDate ?? null,
      d.currency,
      d.state,
      d.status,
      moneyText(d.total),
      moneyText(d.taxTotal),
      moneyText(d.amountPaid),
      moneyText(d.amountDue),
      d.exchangeRate === undefined ? null : moneyText(d.exchangeRate),
      d.lineage[0] ?? "",
      lineageText(d),
      linesText(d.lines),
      encodeItem(headOf(d))
    )
    this.survey.document(d, place)
    return place
  }

  addLines(place: number, more: ReadonlyArray<SourceLine>): void {
    this.writing()
    const d = this.documentAt(place)
    const lines = [...d.lines, ...more]
    const whole: SourceDocument = { ...d, lines, lineage: lines.map((l) => l.lineage) }
    this.put.replace.run(linesText(lines), lineageText(whole), encodeItem(headOf(whole)), place)
    this.survey.moreLines(whole, place, d.lines.length)
  }

  addPayment(p: SourcePayment): void {
    this.writing()
    this.put.payment.run(
      this.paymentCount++,
      utf16be(documentKey(p.documentKind, p.documentNumber)),
      p.documentKind,
      p.documentNumber,
      p.bankAccountName,
      p.date,
      moneyText(p.amount),
      p.lineage
    )
    this.survey.payment(p)
  }

  /**
   * Where to put one aged report's items: each is written out as it is put in, and read from the spill
   * (once sealed) as the report's items are asked for; the report holds only their places.
   */
  agedItems(): AgedItemsKept {
    const places: Array<number> = []
    const items: Records<SourceAgedItem> = {
      get length() {
        return places.length
      },
      at: (at) => {
        if (!(at >= 0 && at < places.length)) return undefined
        for (const item of this.agedItemsAt([places[at]!])) return item
        return undefined
      },
      [Symbol.iterator]: () => this.agedItemsAt(places)
    }
    return {
      add: (item) => {
        this.writing()
        const place = this.agedItemCount++
        this.put.agedItem.run(place, agedItemText(item))
        places.push(place)
      },
      items
    }
  }

  /** The aged items at `places` (in increasing order), a page at a time. */
  private agedItemsAt(places: ArrayLike<number>): Generator<SourceAgedItem, void, undefined> {
    return this.inOrder(
      places,
      "place, item",
      (r: readonly [number, string]) => agedItemOf(r[1]),
      "aged_items"
    )
  }

  /** Ends the writing: the indexes are made; reads only from now on. */
  seal(): this {
    this.live()
    if (!this.sealed) {
      for (const s of INDEXES) this.db.exec(s)
      this.db.exec("COMMIT")
      this.sealed = true
    }
    return this
  }

  /** The documents, each read (with its lines) as it is asked for. */
  readonly documents: SpilledDocuments = new SpilledDocuments(this)

  /** The payments, each read as it is asked for. */
  readonly payments: Records<SourcePayment> = ((spill: BooksSpill) => ({
    get length() {
      return spill.paymentCount
    },
    at: (place: number) => spill.paymentAt(place),
    [Symbol.iterator]: () =>
      spill.pages(`SELECT ${PAYMENT} FROM payments WHERE place >= ? ORDER BY place LIMIT ?`, paymentOf)
  }))(this)

  private read = 0

  /**
   * How many rows the reads of records at given places (`documentsAt`, `headTextsAt`, aged items) and the
   * reads in key order (`paymentGroups`, `unpaidOpen`) have read.
   */
  get rowsRead(): number {
    return this.read
  }

  /** The spill's file (undefined for one in memory). */
  get file(): string | undefined {
    return this.dir === undefined ? undefined : NodePath.join(this.dir, FILE)
  }

  get documentsLength(): number {
    return this.documentCount
  }

  /** The document at `place`, with its lines (also while the records go in). */
  documentAt(place: number): SourceDocument {
    this.live()
    const row = (
      this.sealed ? this.statement(`SELECT ${ROW} FROM documents WHERE place = ?`) : this.put.written
    ).get(place) as DocumentRow | undefined
    if (row === undefined) throw new Error(`no document at ${place} in the books' spill: a defect`)
    return documentOf(row)
  }

  /** Every document, with its lines, in order, a page at a time. */
  allDocuments(): Generator<SourceDocument, void, undefined> {
    return this.pages(`SELECT ${ROW} FROM documents WHERE place >= ? ORDER BY place LIMIT ?`, documentOf)
  }

  /**
   * The documents at `places` (in that order), with their lines, each read as it is taken: a stretch of
   * places one after another is read a page at a time.
   */
  documentsAt(places: ArrayLike<number>): Generator<SourceDocument, void, undefined> {
    return this.inOrder(places, ROW, documentOf)
  }

  /** The document at `place` without its lines (an empty list in their place), as the kept books hold it. */
  headAt(place: number): SourceDocument {
    return this.decode(
      this.row<readonly [string]>("SELECT head FROM documents WHERE place = ?", place)[0]
    ) as SourceDocument
  }

  /** The texts of the documents at `places` without their lines, as `BooksCodec.encodeItem` wrote them. */
  headTextsAt(places: ArrayLike<number>): Generator<string, void, undefined> {
    return this.inOrder(places, "place, head", (r: readonly [number, string]) => r[1])
  }

  /**
   * Each payment's document kind and date as the JSON text `["kind","date"]`, in order: what a plan keeps of
   * the payments for reconcile (`PlanBooks`), made by SQLite from the two columns. Each payment read and made
   * an object (its amount and lineage parsed) to be written again as those two took 108-150 ms at 20,000
   * invoices (30,364 payments), these texts 34-38 ms (three rounds each, by hand).
   */
  paymentDateTexts(): Generator<string, void, undefined> {
    return this.pages(
      "SELECT place, json_array(kind, date) FROM payments WHERE place >= ? ORDER BY place LIMIT ?",
      (r: readonly [number, string]) => r[1]
    )
  }

  paymentAt(place: number): SourcePayment | undefined {
    const row = this.statement(`SELECT ${PAYMENT} FROM payments WHERE place = ?`).get(place) as
      PaymentRow | undefined
    return row === undefined ? undefined : paymentOf(row)
  }

  /** The places of the migrating (not voided) documents, in order. */
  migratingPlaces(): Iterable<number> {
    const voided = new Set(this.survey.voided)
    const count = this.documentCount
    return (function* () {
      for (let place = 0; place < count; place++) if (!voided.has(place)) yield place
    })()
  }

  /** The migrating documents that share a kind and number with another: each group's places, in order. */
  sharedNumbers(): Array<Array<number>> {
    const rows = this.statement(
      `SELECT group_concat(place) FROM documents INDEXED BY documents_by_key WHERE state <> 'voided'
       GROUP BY key_order HAVING COUNT(*) > 1 ORDER BY MIN(place)`
    ).all() as Array<readonly [string]>
    return rows.map(([r]) =>
      r
        .split(",")
        .map(Number)
        .sort((a, b) => a - b)
    )
  }

  /** The number of the document at `place`, and what orders it among those sharing it (`NumberedDocument`). */
  numbered(place: number): NumberedDocument {
    const [number, date, contactName, firstRow] = this.row<readonly [string, string, string, string]>(
      "SELECT number, date, contact, first_row FROM documents WHERE place = ?",
      place
    )
    return { number, date, contactName, firstRow }
  }

  /** The migrating documents of `kind` and `number`, in order, as their columns give them. */
  documentsOf(kind: DocumentKind, number: string): Array<SpilledHead> {
    return (
      this.statement(
        `SELECT ${FIELDS} FROM documents INDEXED BY documents_by_number
         WHERE kind = ? AND number = ? AND state <> 'voided' ORDER BY place`
      ).all(kind, number) as Array<DocumentColumns>
    ).map((c) => new SpilledHead(this, c))
  }

  /**
   * The migrating documents of `kind` and each of `numbers`, in order, as their columns give them: one query
   * for them all.
   */
  documentsOfEach(kind: DocumentKind, numbers: ReadonlyArray<string>): Map<string, Array<SpilledHead>> {
    const out = new Map<string, Array<SpilledHead>>()
    const rows = this.statement(
      `SELECT ${FIELDS} FROM documents INDEXED BY documents_by_number WHERE kind = ? AND state <> 'voided'
       AND number IN (SELECT value FROM json_each(?)) ORDER BY place`
    ).all(kind, JSON.stringify(numbers)) as Array<DocumentColumns>
    for (const c of rows) {
      const heads = out.get(c[2])
      const head = new SpilledHead(this, c)
      if (heads === undefined) out.set(c[2], [head])
      else heads.push(head)
    }
    return out
  }

  /** The places, numbers and dates of the migrating documents of `kind`, in order. */
  datesOf(
    kind: DocumentKind
  ): Array<{ readonly place: number; readonly number: string; readonly date: string }> {
    return (
      this.statement(
        `SELECT place, number, date FROM documents INDEXED BY documents_by_kind
         WHERE kind = ? AND state <> 'voided' ORDER BY place`
      ).all(kind) as Array<readonly [number, string, string]>
    ).map(([place, number, date]) => ({ place, number, date }))
  }

  /**
   * The open documents against which no payment is, by key, as their columns give them, read a page at a
   * time: read at once as the payments' phase began, at 100,000 invoices the heap in use rose from 95 to 126
   * MB in 0.3 s (`--trace-gc`), all of it live through the young generation's collections; when the heap was
   * near the build's ceiling already, plan's RSS peaked there, 20-25 MB above its other runs.
   */
  *unpaidOpen(): Generator<SpilledHead, void, undefined> {
    yield* this.byKey(
      `SELECT key_order, ${FIELDS} FROM documents d INDEXED BY documents_by_key WHERE state = 'open'
       AND (key_order, place) > (?, ?)
       AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.key_order = d.key_order) ORDER BY key_order, place LIMIT ?`,
      (r: readonly [Buffer, ...DocumentColumns]) => {
        const [, ...columns] = r
        return new SpilledHead(this, columns)
      }
    )
  }

  /**
   * The payments grouped by the document they are against, the groups by key, each group's payments in
   * order, with the migrating documents of that key (as their columns give them): the payments and the
   * documents each read in key order a page at a time (from their indexes alone), and met as they go.
   */
  *paymentGroups(): Generator<
    PaymentGroup & { readonly documents: ReadonlyArray<SpilledHead> },
    void,
    undefined
  > {
    const documents = this.byKey(
      `SELECT key_order, ${FIELDS} FROM documents INDEXED BY documents_by_key
       WHERE (key_order, place) > (?, ?) ORDER BY key_order, place LIMIT ?`,
      (r: readonly [Buffer, ...DocumentColumns]) => r
    )
    let next = documents.next()
    let group: Array<SourcePayment> = []
    let key: Buffer | undefined
    const done = (key: Buffer) => {
      while (!next.done && Buffer.compare(next.value[0], key) < 0) next = documents.next()
      const heads: Array<SpilledHead> = []
      while (!next.done && next.value[0].equals(key)) {
        const [, ...columns] = next.value
        if (columns[5] !== "voided") heads.push(new SpilledHead(this, columns))
        next = documents.next()
      }
      const first = group[0]!
      return { key: documentKey(first.documentKind, first.documentNumber), payments: group, documents: heads }
    }
    for (const r of this.byKey(
      `SELECT key_order, ${PAYMENT} FROM payments INDEXED BY payments_by_key
       WHERE (key_order, place) > (?, ?) ORDER BY key_order, place LIMIT ?`,
      (r: readonly [Buffer, ...PaymentRow]) => r
    )) {
      if (key !== undefined && !r[0].equals(key)) {
        yield done(key)
        group = []
      }
      key = r[0]
      const [, ...payment] = r
      group.push(paymentOf(payment))
    }
    if (key !== undefined) yield done(key)
  }

  /**
   * The rows of `sql` (a page query: key and place after, limit; rows that begin with their key and place)
   * made by `make`, in key order, a page at a time.
   */
  private *byKey<R extends readonly [Buffer, number, ...Array<unknown>], A>(
    sql: string,
    make: (row: R) => A
  ): Generator<A, void, undefined> {
    const page = this.statement(sql)
    let after: [Buffer, number] = [Buffer.alloc(0), -1]
    for (;;) {
      const rows = page.all(after[0], after[1], PAGE) as Array<R>
      this.read += rows.length
      for (const r of rows) yield make(r)
      const last = rows[rows.length - 1]
      if (last === undefined || rows.length < PAGE) return
      after = [last[0], last[1]]
    }
  }

  /** Closes the spill and removes its file; what it held can no longer be read. */
  close(): void {
    if (this.closed) return
    this.closed = true
    try {
      this.db.close()
    } finally {
      if (this.dir !== undefined) NodeFs.rmSync(this.dir, { recursive: true, force: true })
    }
  }

  /** Each row of `sql` (a page query: place from, limit) made into a record by `make`, a page at a time. */
  *pages<R, A>(sql: string, make: (row: R) => A): Generator<A, void, undefined> {
    const page = this.statement(sql)
    for (let from = 0; ; from += PAGE) {
      const rows = page.all(from, PAGE) as Array<R>
      for (const r of rows) yield make(r)
      if (rows.length < PAGE) return
    }
  }

  /**
   * The rows (`columns`, the place first) of the documents at `places`, in that order, made by `make`: each
   * stretch of places one after another is read a page at a time, and no row that is not asked for. (Read a
   * page from each stretch's first place, the build at 20,000 invoices read 86,029 documents for the 33,066
   * it planned.)
   */
  private *inOrder<R extends readonly [number, ...Array<unknown>], A>(
    places: ArrayLike<number>,
    columns: string,
    make: (row: R) => A,
    table: "documents" | "aged_items" = "documents"
  ): Generator<A, void, undefined> {
    const page = this.statement(`SELECT ${columns} FROM ${table} WHERE place >= ? ORDER BY place LIMIT ?`)
    let held: Array<R> = []
    let at = 0
    for (let i = 0; i < places.length; i++) {
      const place = places[i]!
      if (at >= held.length) {
        let run = 1
        while (run < PAGE && i + run < places.length && places[i + run] === place + run) run++
        held = page.all(place, run) as Array<R>
        this.read += held.length
        at = 0
      }
      const row = held[at++]
      if (row?.[0] !== place)
        throw new Error(`no record at ${place} of ${table} in the books' spill: a defect`)
      yield make(row)
    }
  }

  private statement(sql: string): Database.Statement {
    this.live()
    if (!this.sealed) throw new Error("the books' spill was read before it was sealed: a defect")
    let s = this.statements.get(sql)
    if (s === undefined) this.statements.set(sql, (s = this.db.prepare(sql).raw()))
    return s
  }

  private row<R>(sql: string, place: number): R {
    const r = this.statement(sql).get(place) as R | undefined
    if (r === undefined) throw new Error(`no document at ${place} in the books' spill: a defect`)
    return r
  }

  private writing(): void {
    this.live()
    if (this.sealed) throw new Error("a record was put in the books' spill once sealed: a defect")
  }

  private live(): void {
    if (this.closed) throw new Error("the books' spill was used after it was closed: a defect")
  }
}

/** The documents of a spill, read from it as they are asked for, with the spill's survey of them. */
export class SpilledDocuments implements Records<SourceDocument> {
  private numberingMade: Numbering | undefined

  constructor(readonly spill: BooksSpill) {}

  get length(): number {
    return this.spill.documentsLength
  }

  get survey(): DocumentSurvey {
    return this.spill.survey
  }

  /** The references of the documents (`RecordIdentity.numbering`), worked out once. */
  get numbering(): Numbering {
    return (this.numberingMade ??= numbering(this.spill, this.length))
  }

  at(place: number): SourceDocument | undefined {
    return place >= 0 && place < this.length ? this.spill.documentAt(place) : undefined
  }

  [Symbol.iterator](): Iterator<SourceDocument> {
    return this.spill.allDocuments()
  }
}

/** The books with their documents and payments kept in a spill (`BooksSpill`). */
export type SpilledBooks = Omit<SourceBooks, "documents" | "payments"> & {
  readonly documents: SpilledDocuments
  readonly payments: Records<SourcePayment>
}

/** `books` with their documents and payments read from `spill` (sealed), which holds them. */
export const spilledBooks = (
  books: Omit<SourceBooks, "documents" | "payments">,
  spill: BooksSpill
): SpilledBooks => ({
  ...books,
  documents: spill.documents,
  payments: spill.payments
})

/** Whether `books`' documents are a spill's. */
export const isSpilled = (books: { readonly documents: Records<SourceDocument> }): books is SpilledBooks =>
  books.documents instanceof SpilledDocuments

/**
 * `f` of `books` with their documents and payments in a spill: theirs, or one made in memory for `f` of books
 * held whole (and closed after it).
 */
export const withSpill = <A>(books: Books, f: (books: SpilledBooks) => A): A => {
  if (isSpilled(books)) return f(books)
  const spill = BooksSpill.of(books)
  try {
    return f(spilledBooks(books, spill))
  } finally {
    spill.close()
  }
}

/** `withSpill` of an effect: a spill made for books held whole is closed once the effect is done. */
export const withSpillOf = <A, E, R>(
  books: Books,
  f: (books: SpilledBooks) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  isSpilled(books)
    ? f(books)
    : Effect.acquireUseRelease(
        Effect.sync(() => BooksSpill.of(books)),
        (spill) => f(spilledBooks(books, spill)),
        (spill) => Effect.sync(() => spill.close())
      )

/**
 * `books` with their documents and payments put in a spill (`BooksSpill.of`; closed, and its file removed,
 * when the scope ends): the arrays are garbage once put in.
 */
export const spilled = (books: SourceBooks): Effect.Effect<SpilledBooks, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => BooksSpill.of(books)),
      (spill) => Effect.sync(() => spill.close())
    ),
    (spill) => spilledBooks(books, spill)
  )
