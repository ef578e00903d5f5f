/**
 * Reads Xero's staged exports into source books: the chart, contacts, items, the sales-invoice and bill
 * exports (one row per line, grouped by number), the Account Transactions report's payment rows, manual
 * journals (grouped by narration and date), the exchange-rate file, and Xero's own Trial Balance and Aged
 * Receivables / Payables reports (`XeroReports.ts`). Every row either becomes part of the books or an issue
 * naming its file:line.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { BooksSpill, HeldRecords, spilledBooks, type RecordSink, type SpilledBooks } from "../BooksSpill.js"
import { eachRowOfKind, rowsOfKind, where, type StagedRow } from "../../staging/SourceRows.js"
import * as Money from "../Money.js"
import type {
  DocumentKind,
  Issue,
  SourceAccount,
  SourceBooks,
  SourceContact,
  SourceDocument,
  SourceItem,
  SourceItemSide,
  SourceJournal,
  SourceJournalLine,
  SourceLine,
  SourcePayment,
  SourceRate
} from "../SourceModel.js"
import {
  amount,
  cell,
  date,
  forgetShared,
  readRow,
  readRows,
  required,
  RowProblem,
  share,
  trackingOf
} from "./StagedCells.js"
import { stateOf } from "./XeroCredits.js"
import * as XeroKinds from "./XeroKinds.js"
import * as XeroReports from "./XeroReports.js"
import { append } from "../../Multimap.js"
import { transiently } from "../../Strings.js"

const readAccount = (row: StagedRow): SourceAccount => {
  // A bank account's own currency, when the chart has a Currency column.
  const currency = cell(row, "Currency").toUpperCase()
  return {
    code: cell(row, "Code"),
    name: required(row, "Name"),
    type: required(row, "Type"),
    taxCode: cell(row, "Tax Code"),
    description: cell(row, "Description"),
    lineage: where(row),
    ...(currency === "" ? {} : { currency })
  }
}

const readContact = (row: StagedRow): SourceContact => ({
  name: required(row, "ContactName"),
  email: cell(row, "EmailAddress"),
  phone: cell(row, "PhoneNumber"),
  taxId: cell(row, "TaxNumber"),
  lineage: where(row)
})

const itemSide = (row: StagedRow, prefix: "Sales" | "Purchases"): SourceItemSide | undefined => {
  const accountCode = cell(row, `${prefix}Account`)
  const price = cell(row, `${prefix}UnitPrice`)
  if (accountCode === "" && price === "" && cell(row, `${prefix}Description`) === "") return undefined
  return {
    description: cell(row, `${prefix}Description`),
    unitPrice: price === "" ? undefined : amount(row, `${prefix}UnitPrice`),
    accountCode,
    taxType: cell(row, `${prefix}TaxRate`)
  }
}

const readItem = (row: StagedRow): SourceItem => ({
  code: required(row, "ItemCode"),
  name: cell(row, "ItemName"),
  sale: itemSide(row, "Sales"),
  purchase: itemSide(row, "Purchases"),
  tracked: cell(row, "InventoryAssetAccount") !== "",
  lineage: where(row)
})

const documentTypes: Record<string, DocumentKind> = { "sales invoice": "invoice", bill: "bill" }

/** A document's own fields, read from its first row. */
type DocumentHead = Omit<SourceDocument, "lines" | "lineage">

const readHead = (kind: DocumentKind, head: StagedRow): DocumentHead => {
  const status = share(required(head, "Status"))
  const state = stateOf(status)
  if (state === undefined) {
    throw new RowProblem(
      `Status ${JSON.stringify(status)} is not a Xero document status`,
      "check the export's Status column"
    )
  }
  const due = cell(head, "DueDate")
  return {
    kind,
    number: cell(head, "InvoiceNumber"),
    contactName: share(required(head, "ContactName")),
    date: date(head, "InvoiceDate"),
    dueDate: due === "" ? undefined : date(head, "DueDate"),
    currency: share(cell(head, "Currency").toUpperCase()),
    state,
    status,
    total: amount(head, "Total"),
    taxTotal: amount(head, "TaxTotal", true),
    amountPaid: amount(head, "InvoiceAmountPaid", true),
    amountDue: amount(head, "InvoiceAmountDue", true)
  }
}

const readLine = (row: StagedRow): SourceLine => {
  const tracking = trackingOf(row)
  return {
    description: share(cell(row, "Description")),
    itemCode: share(cell(row, "InventoryItemCode")),
    quantity: amount(row, "Quantity"),
    unitAmount: amount(row, "UnitAmount"),
    discount: amount(row, "Discount", true),
    lineAmount: amount(row, "LineAmount"),
    accountCode: share(cell(row, "AccountCode")),
    taxType: share(cell(row, "TaxType")),
    taxAmount: amount(row, "TaxAmount", true),
    lineage: where(row),
    ...(tracking.length > 0 ? { tracking } : {})
  }
}

/**
 * A document of its head and lines, field by field: spread (`{ ...head, lines }`) gave every document a hidden
 * class of its own (V8 copies the head's shape for each object it spreads at a site that has seen several
 * shapes), 380 bytes of shape per document, 13 MB of the 113 MB a 20,000-invoice company's books hold.
 */
const documentOf = (h: DocumentHead, lines: ReadonlyArray<SourceLine>): SourceDocument => ({
  kind: h.kind,
  number: h.number,
  contactName: h.contactName,
  date: h.date,
  dueDate: h.dueDate,
  currency: h.currency,
  state: h.state,
  status: h.status,
  total: h.total,
  taxTotal: h.taxTotal,
  amountPaid: h.amountPaid,
  amountDue: h.amountDue,
  lines,
  lineage: lines.map((l) => l.lineage)
})

/**
 * Invoice and bill rows (one per line), grouped by type, number and contact as they stream past, each document
 * put in `sink` once its rows end (its first row's fields and its lines; a row that cannot be read is a reject
 * and joins no group). A document's rows are one after another in an export, almost always: rows of one that
 * come after another document's join it where the sink holds it (`RecordSink.addLines`), so that a document
 * is made of all its rows wherever they lie, in the order its first row came. A group whose first row's
 * fields cannot be read is rejected at that row, with every later row of it.
 */
/** The key a document's rows are grouped by: its kind, number and contact. */
const groupKey = (kind: DocumentKind, number: string, contact: string): string =>
  `${kind}\u0000${number}\u0000${contact}`

/** A text's 32-bit FNV-1a hash (of its UTF-16 code units). */
const hashOf = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

class DocumentGroups {
  /** The group whose rows are being read: a new one, or one the sink holds (`place`). */
  private current:
    | {
        readonly key: string
        readonly place: number | undefined
        readonly head: DocumentHead | undefined
        /** Why the first row's fields cannot be read (when `head` is undefined). */
        readonly problems: ReadonlyArray<Issue>
        readonly lines: Array<SourceLine>
      }
    | undefined
  /** The problems of the groups whose first row failed, in the order of those rows. */
  private readonly failed: Array<ReadonlyArray<Issue>> = []
  /**
   * The places of the documents put in the sink, by their keys' hashes (`hashOf`), to find the document a
   * later row of it joins: a number for each document instead of its key (at 100,000 invoices, 167,000
   * keys of kind, number and contact). A hash met again is told apart by the documents' own keys.
   */
  private readonly placed = new Map<number, number | Array<number>>()
  /** The keys of the groups whose first row failed (few). */
  private readonly failedKeys = new Set<string>()

  constructor(
    private readonly issues: Array<Issue>,
    private readonly sink: RecordSink
  ) {}

  readonly add = (row: StagedRow): void => {
    const type = cell(row, "Type")
    const kind = documentTypes[type.toLowerCase()]
    if (kind === undefined) throw new Error(`a "${type}" row was handed to the document reader`)
    const read = readRow(row, this.issues, (r) => {
      const line = readLine(r)
      return { line, number: required(r, "InvoiceNumber") }
    })
    if (read === undefined) return
    const { line, number } = read
    const key = groupKey(kind, number, cell(row, "ContactName"))
    if (this.current?.key === key) return void this.current.lines.push(line)
    this.flush()
    // A group whose first row failed takes its later rows with it.
    if (this.failedKeys.has(key)) return
    const known = this.placeOf(key)
    if (known !== undefined) {
      this.current = { key, place: known, head: undefined, problems: [], lines: [line] }
      return
    }
    const problems: Array<Issue> = []
    const head = readRow(row, problems, (r) => readHead(kind, r))
    this.current = { key, place: undefined, head, problems, lines: [line] }
  }

  /** Puts the group in hand in the sink. */
  private flush(): void {
    const group = this.current
    this.current = undefined
    if (group === undefined) return
    const { key, place, head, problems, lines } = group
    if (place !== undefined) return this.sink.addLines(place, lines)
    if (head === undefined) {
      this.failed.push(problems)
      this.failedKeys.add(key)
      return
    }
    // Copied to its length: grown a push at a time, a document's lines had room for 17 (104 bytes more than
    // two lines need), and the books held 108,273 such arrays at 100,000 invoices (18 MB).
    const at = this.sink.addDocument(documentOf(head, lines.length > 1 ? lines.slice() : lines))
    const hash = hashOf(key)
    const same = this.placed.get(hash)
    this.placed.set(hash, same === undefined ? at : [...(Array.isArray(same) ? same : [same]), at])
  }

  /** The place of the document put in the sink under `key`, if one was. */
  private placeOf(key: string): number | undefined {
    const same = this.placed.get(hashOf(key))
    if (same === undefined) return undefined
    return (Array.isArray(same) ? same : [same]).find((at) => {
      const d = this.sink.documentAt(at)
      return groupKey(d.kind, d.number, d.contactName) === key
    })
  }

  /** Ends the reading: the last group is put in the sink, and `issues` gets the groups whose first row failed. */
  end(issues: Array<Issue>): void {
    this.flush()
    for (const problems of this.failed) issues.push(...problems)
    this.failed.length = 0
    this.placed.clear()
    this.failedKeys.clear()
  }
}

const paymentSources: Record<string, DocumentKind> = {
  "receivable payment": "invoice",
  "payable payment": "bill"
}

const readPayment =
  (issues: Array<Issue>) =>
  (row: StagedRow): SourcePayment | undefined => {
    const source = cell(row, "Source")
    const kind = paymentSources[source.toLowerCase()]
    if (kind === undefined) {
      issues.push({
        severity: "reject",
        lineage: [where(row)],
        what: `a "${source}" bank transaction`,
        why: "only receivable and payable payments are migrated by this version",
        fix: "enter it as a cash entry by hand after the load"
      })
      return undefined
    }
    const debit = amount(row, "Debit", true)
    const credit = amount(row, "Credit", true)
    const moneyIn = !Money.isZero(debit)
    return {
      documentKind: kind,
      documentNumber: required(row, "Reference"),
      bankAccountName: share(required(row, "Account")),
      date: date(row, "Date"),
      amount: moneyIn ? debit : credit,
      lineage: where(row)
    }
  }

const groupJournals = (rows: ReadonlyArray<StagedRow>, issues: Array<Issue>): Array<SourceJournal> => {
  const groups = new Map<
    string,
    Array<{ readonly narration: string; readonly date: string; readonly line: SourceJournalLine }>
  >()
  const lines = readRows(rows, issues, (row) => {
    const tracking = trackingOf(row)
    return {
      narration: share(required(row, "Narration")),
      date: date(row, "Date"),
      line: {
        accountCode: share(required(row, "AccountCode")),
        description: share(cell(row, "Description")),
        amount: amount(row, "Amount"),
        lineage: where(row),
        ...(tracking.length > 0 ? { tracking } : {})
      }
    }
  })
  for (const l of lines) append(groups, `${l.narration}\u0000${l.date}`, l)
  return [...groups.values()].map((g) => ({
    narration: g[0]!.narration,
    date: g[0]!.date,
    lines: g.map(({ line }) => line),
    lineage: g.map(({ line }) => line.lineage)
  }))
}

const readRate = (row: StagedRow): SourceRate => {
  const basePerUnit = amount(row, "Base per Unit")
  if (!Money.greaterThan(basePerUnit, Money.zero))
    throw new RowProblem("Base per Unit is not positive", "correct the rate")
  return {
    currency: required(row, "Currency").toUpperCase(),
    baseCurrency: required(row, "Base Currency").toUpperCase(),
    date: date(row, "Date"),
    basePerUnit,
    lineage: where(row)
  }
}

/**
 * Reads the Xero books in the staging database, the documents and payments into `sink` as they stream past
 * (they are most of a company's rows), the rest into the books returned; the aged reports' rows are read as
 * they stream past too. The issues keep the order of the readers: document lines, the chart, contacts, items,
 * document heads, payments, then the rest.
 */
const readInto = (sink: RecordSink) =>
  Effect.gen(function* () {
    const lineIssues: Array<Issue> = []
    const paymentIssues: Array<Issue> = []
    const documents = new DocumentGroups(lineIssues, sink)
    const paymentOf = readPayment(paymentIssues)
    // The aged reports' rows are read into their items as they stream past, their issues told in the order
    // below.
    const receivables = new XeroReports.AgedReports("AR", () => sink.agedItems())
    const payables = new XeroReports.AgedReports("AP", () => sink.agedItems())
    yield* eachRowOfKind("xero.aged_receivables", receivables.add)
    yield* eachRowOfKind("xero.aged_payables", payables.add)
    // What goes to a sink that writes it out is not kept: its texts need not be made flat (`transiently`).
    const reading = sink.holds ? <A>(f: () => A): A => f() : transiently
    const more = yield* XeroKinds.staged({
      document: (row) => reading(() => documents.add(row)),
      payment: (row) =>
        reading(() => {
          const p = readRow(row, paymentIssues, paymentOf)
          if (p !== undefined) sink.addPayment(p)
        })
    })
    const issues: Array<Issue> = [...lineIssues]
    const accounts = readRows(more.accounts, issues, readAccount)
    const contacts = readRows(yield* rowsOfKind("xero.contacts"), issues, readContact)
    const items = readRows(yield* rowsOfKind("xero.items"), issues, readItem)
    documents.end(issues)
    issues.push(...paymentIssues)
    const books = XeroKinds.complete(more, issues, {
      accounts,
      contacts,
      items,
      journals: groupJournals(XeroKinds.taken(more.journals), issues),
      rates: readRows(yield* rowsOfKind("generic.exchange_rates"), issues, readRate),
      trialBalances: XeroReports.trialBalances(yield* rowsOfKind("xero.trial_balance"), accounts, issues),
      agedReports: [...receivables.reports(issues), ...payables.reports(issues)],
      issues
    })
    forgetShared()
    return books
  })

/** The Xero books in the staging database, held whole. */
export const read: Effect.Effect<SourceBooks, never, SqlClient.SqlClient> = Effect.gen(function* () {
  const held = new HeldRecords()
  const books = yield* readInto(held)
  return { ...books, documents: held.documents, payments: held.payments }
})

/**
 * The Xero books in the staging database, their documents and payments in a spill of their own (closed, and
 * its file removed, when the scope ends).
 */
export const readSpilled: Effect.Effect<SpilledBooks, never, SqlClient.SqlClient | Scope.Scope> = Effect.gen(
  function* () {
    const spill = yield* Effect.acquireRelease(Effect.sync(BooksSpill.open), (s) =>
      Effect.sync(() => s.close())
    )
    const books = yield* readInto(spill)
    return spilledBooks(books, spill.seal())
  }
)
