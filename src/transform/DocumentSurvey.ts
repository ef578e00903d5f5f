/**
 * What the plan needs to know of all the invoices and bills, and of all the payments, gathered in one pass as
 * each record is read: the matching's uses of accounts, tax codes, contacts and items, the tags on migrating
 * lines, the currencies and contacts that migrate, the voided documents, and the first and last dates. Made
 * while the books are read (`BooksSpill`), so that a plan holds this and not the documents; or from books
 * held whole (`surveyOf`). Each consumer reads here what it once gathered itself by walking the documents,
 * and gets the same answer: the same first names, first rows and counts, in the documents' order.
 */
import { normalizeName } from "./Mappings.js"
import { tagName } from "./Lines.js"
import type { Records } from "./Records.js"
import { migrates } from "./RecordIdentity.js"
import type { SourceDocument, SourcePayment } from "./SourceModel.js"

/** A tax code's uses on document lines (`Matching`'s tax uses, before credits and items add theirs). */
export interface TaxUse {
  /** The code as first written (trimmed), and where: its document's place and the line's. */
  code: string
  first: readonly [place: number, line: number]
  sale: number
  purchase: number
  /** The least of its lines' rows (as text). */
  where: string
  /** The places of the documents with a line of this code, each once, in order. */
  readonly documents: Array<number>
}

/** A contact's uses on migrating documents: its name and row as first met, and how many documents. */
export interface ContactUse {
  readonly name: string
  readonly where: string
  uses: number
}

/** The roles a contact plays on migrating documents (`MasterDataPlanner.planContacts`). */
export interface ContactRoles {
  /** The name as first met, and the first row of its first document. */
  readonly name: string
  readonly lineage: string
  customer: boolean
  supplier: boolean
}

/** The rows of a tag's first uses: at most this many, the least as text. */
export const TAG_ROWS = 20

/** The earliest of two dates as `BooksSpan` takes it ("" when none yet). */
const earlier = (m: string, d: string) => (m === "" || d < m ? d : m)
const later = (m: string, d: string) => (d > m ? d : m)

/** Puts `row` into `rows` (sorted, distinct, at most `TAG_ROWS`) when it is among the least. */
const keepLeast = (rows: Array<string>, row: string): void => {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (rows[mid]! < row) lo = mid + 1
    else hi = mid
  }
  if (rows[lo] === row) return
  if (lo >= TAG_ROWS) return
  rows.splice(lo, 0, row)
  if (rows.length > TAG_ROWS) rows.pop()
}

export class DocumentSurvey {
  /** How many documents, migrating or not. */
  count = 0
  /** The first and last document dates ("" when none). */
  firstDate = ""
  lastDate = ""
  /** The first and last payment dates ("" when none). */
  firstPaymentDate = ""
  lastPaymentDate = ""
  /** Lines of every document per account code, and payments per bank account (by normalised name). */
  readonly accountUses = new Map<string, number>()
  /** Every document's lines per tax code (by normalised code), in the order first met. */
  readonly taxUses = new Map<string, TaxUse>()
  /** Migrating documents per contact (by normalised name, blank names left out), in the order first met. */
  readonly contactUses = new Map<string, ContactUse>()
  /** Lines of every document per item code. */
  readonly itemUses = new Map<string, number>()
  /** The least `TAG_ROWS` rows of each tag's uses on migrating documents' lines. */
  readonly tags = new Map<string, Array<string>>()
  /** The currencies of migrating documents ("" left out). */
  readonly currencies = new Set<string>()
  /** The roles of each contact of migrating documents, in the order first met. */
  readonly roles = new Map<string, ContactRoles>()
  /** The contact names of every document, each once, in the order met. */
  readonly contactNames = new Set<string>()
  /** The places of the voided documents, in order. */
  readonly voided: Array<number> = []

  /** Takes the document at `place` (the next one). */
  document(d: SourceDocument, place: number): void {
    this.count++
    this.firstDate = earlier(this.firstDate, d.date)
    this.lastDate = later(this.lastDate, d.date)
    this.contactNames.add(d.contactName)
    const migrating = migrates(d)
    if (!migrating) this.voided.push(place)
    this.lines(d, place, 0)
    if (!migrating) return
    if (d.currency !== "") this.currencies.add(d.currency)
    if (d.contactName.trim() === "") return
    const k = normalizeName(d.contactName)
    const first = d.lineage[0]
    const use = this.contactUses.get(k)
    if (use === undefined) this.contactUses.set(k, { name: d.contactName, where: first ?? "", uses: 1 })
    else use.uses++
    const roles = this.roles.get(k)
    const customer = d.kind === "invoice"
    if (roles === undefined)
      this.roles.set(k, { name: d.contactName, lineage: first!, customer, supplier: !customer })
    else if (customer) roles.customer = true
    else roles.supplier = true
  }

  /**
   * Takes the lines of the document at `place` from its `from`th on: lines that came after the document was
   * taken (a reader's rows of one document that lay apart). The survey is the same as if they had come with
   * it: a tax code's first spelling is its first line's in the documents' order, wherever it was taken.
   */
  moreLines(d: SourceDocument, place: number, from: number): void {
    this.lines(d, place, from)
  }

  private lines(d: SourceDocument, place: number, from: number): void {
    const side = d.kind === "invoice" ? "sale" : "purchase"
    const migrating = migrates(d)
    for (let i = from; i < d.lines.length; i++) {
      const l = d.lines[i]!
      this.account(l.accountCode)
      if (l.itemCode) this.itemUses.set(l.itemCode, (this.itemUses.get(l.itemCode) ?? 0) + 1)
      if (l.taxType.trim() !== "") {
        const k = normalizeName(l.taxType)
        let u = this.taxUses.get(k)
        if (u === undefined) {
          u = {
            code: l.taxType.trim(),
            sale: 0,
            purchase: 0,
            where: l.lineage,
            documents: [],
            first: [place, i]
          }
          this.taxUses.set(k, u)
        } else if (place < u.first[0] || (place === u.first[0] && i < u.first[1])) {
          u.code = l.taxType.trim()
          u.first = [place, i]
        }
        u[side]++
        if (l.lineage < u.where) u.where = l.lineage
        if (!u.documents.includes(place, from === 0 ? u.documents.length - 1 : 0)) u.documents.push(place)
      }
      if (migrating)
        for (const t of l.tracking ?? []) {
          if (t.category.trim() === "" || t.option.trim() === "") continue
          const name = tagName(t)
          let rows = this.tags.get(name)
          if (rows === undefined) this.tags.set(name, (rows = []))
          keepLeast(rows, l.lineage)
        }
    }
  }

  /** Takes a payment. */
  payment(p: SourcePayment): void {
    this.firstPaymentDate = earlier(this.firstPaymentDate, p.date)
    this.lastPaymentDate = later(this.lastPaymentDate, p.date)
    this.account(p.bankAccountName)
  }

  private account(name: string): void {
    const key = normalizeName(name)
    if (key !== "") this.accountUses.set(key, (this.accountUses.get(key) ?? 0) + 1)
  }
}

/** Documents that come with their survey (`BooksSpill`'s). */
export interface Surveyed {
  readonly survey: DocumentSurvey
}

/** Whether `x` came with its survey. */
export const isSurveyed = (x: object): x is Surveyed => "survey" in x && x.survey instanceof DocumentSurvey

/** The survey made of each collection of documents and of payments (held whole), by documents then payments. */
const made = new WeakMap<object, WeakMap<object, DocumentSurvey>>()

/**
 * The survey of `books`' documents and payments: the one their documents came with (`BooksSpill`), else made
 * once for each collection of documents and payments by walking them.
 */
export const surveyOf = (books: {
  readonly documents: Records<SourceDocument>
  readonly payments: Records<SourcePayment>
}): DocumentSurvey => {
  if (isSurveyed(books.documents)) return books.documents.survey
  let byPayments = made.get(books.documents)
  if (byPayments === undefined) made.set(books.documents, (byPayments = new WeakMap()))
  const known = byPayments.get(books.payments)
  if (known !== undefined) return known
  const s = new DocumentSurvey()
  let place = 0
  for (const d of books.documents) s.document(d, place++)
  for (const p of books.payments) s.payment(p)
  byPayments.set(books.payments, s)
  return s
}

/**
 * The first and last dates of `books`' documents and of their payments ("" when there are none): the survey's
 * when the documents came with one (their payments are surveyed with them), else read from each.
 */
export const datesOf = (books: {
  readonly documents: Records<SourceDocument>
  readonly payments: Records<{ readonly date: string }>
}): {
  readonly first: string
  readonly last: string
  readonly firstPayment: string
  readonly lastPayment: string
} => {
  if (isSurveyed(books.documents)) {
    const s = books.documents.survey
    return {
      first: s.firstDate,
      last: s.lastDate,
      firstPayment: s.firstPaymentDate,
      lastPayment: s.lastPaymentDate
    }
  }
  let first = ""
  let last = ""
  for (const d of books.documents) {
    first = earlier(first, d.date)
    last = later(last, d.date)
  }
  let firstPayment = ""
  let lastPayment = ""
  for (const p of books.payments) {
    firstPayment = earlier(firstPayment, p.date)
    lastPayment = later(lastPayment, p.date)
  }
  return { first, last, firstPayment, lastPayment }
}
