/**
 * Generates the whole Xero export set of the sample company into a directory, deterministically from an
 * invoice count and a seed, streaming invoices and bills so memory stays flat at benchmark sizes. Every
 * approved document, payment and journal also posts to the company's own general ledger, from which the
 * source's reports are written as at the year end: the Trial Balance and the Aged Receivables / Payables
 * Detail (see `Postings.ts` for the rules, `TrialBalance.ts` and `AgedReports.ts` for the layouts).
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as AgedReports from "./AgedReports.js"
import { BankLedger } from "./BankLedger.js"
import * as Chart from "./Chart.js"
import * as Company from "./Company.js"
import * as Contacts from "./Contacts.js"
import type { Currency } from "./Contacts.js"
import { DocumentFile } from "./DocumentFile.js"
import * as Documents from "./Documents.js"
import type { Document } from "./Documents.js"
import * as ExchangeRates from "./ExchangeRates.js"
import { GeneralLedger } from "./GeneralLedger.js"
import * as Items from "./Items.js"
import * as Journals from "./Journals.js"
import * as Money from "./Money.js"
import * as Postings from "./Postings.js"
import { Prng } from "./Prng.js"
import type { State } from "./Settlement.js"
import * as TrialBalance from "./TrialBalance.js"

/** What to generate. */
export interface Options {
  readonly invoices: number
  readonly seed: number
  readonly out: string
}

/** Counts of documents by currency and by state. */
export interface DocumentCounts {
  documents: number
  lines: number
  readonly byCurrency: Record<Currency, number>
  readonly byState: Record<State, number>
  payments: number
}

/** What was generated: data rows per file, document statistics and the reports' totals (in SGD). */
export interface Summary {
  readonly files: Record<string, number>
  readonly invoices: DocumentCounts
  readonly bills: DocumentCounts
  readonly journals: number
  readonly bankRows: number
  readonly trialBalance: { readonly accounts: number; readonly debit: string; readonly credit: string }
  readonly receivables: { readonly documents: number; readonly contacts: number; readonly total: string }
  readonly payables: { readonly documents: number; readonly contacts: number; readonly total: string }
}

/** The files the generator writes, in writing order. */
export const FILES = [
  "ChartOfAccounts.csv",
  "Contacts.csv",
  "InventoryItems.csv",
  "ExchangeRates.csv",
  "SalesInvoices.csv",
  "Bills.csv",
  "AccountTransactions.csv",
  "ManualJournals.csv",
  "TrialBalance.csv",
  "AgedReceivablesDetail.csv",
  "AgedPayablesDetail.csv"
] as const

const emptyCounts = (): DocumentCounts => ({
  documents: 0,
  lines: 0,
  byCurrency: { SGD: 0, USD: 0, EUR: 0 },
  byState: { paid: 0, partial: 0, unpaid: 0, draft: 0, voided: 0 },
  payments: 0
})

/** Where a document goes: its export file, the bank report, the general ledger and the counts. */
interface Sinks {
  readonly file: DocumentFile
  readonly bank: BankLedger
  readonly books: GeneralLedger
  readonly rates: ExchangeRates.RateTable
  readonly counts: DocumentCounts
}

/** Writes a document, posts it and its payments to the general ledger and the bank report, and counts it. */
const emit = ({ file, bank, books, rates, counts }: Sinks, doc: Document): void => {
  file.add(doc)
  Postings.document(books, rates, doc)
  for (const p of doc.payments) {
    bank.add(p.bank, p.day, {
      kind: doc.kind === "invoice" ? "Receivable Payment" : "Payable Payment",
      contactName: doc.contact.name,
      documentNumber: doc.number,
      amount: p.bankAmount
    })
  }
  counts.documents++
  counts.lines += doc.lines.length
  counts.payments += doc.payments.length
  counts.byCurrency[doc.currency]++
  counts.byState[doc.state]++
}

/** Writes every file of the sample company into `out` (created if missing) and summarises it. */
export const generateCompany = (options: Options): Summary => {
  const { invoices, seed, out } = options
  if (!Number.isInteger(invoices) || invoices < 1)
    throw new Error(`invoices must be a positive integer: ${invoices}`)
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer: ${seed}`)
  NodeFs.mkdirSync(out, { recursive: true })
  const path = (name: (typeof FILES)[number]) => NodePath.join(out, name)
  const size = Company.sizeFor(invoices)
  const rates = ExchangeRates.generate(Prng.make(seed, "rates"))
  const contacts = Contacts.generate(Prng.make(seed, "contacts"), size.contacts)
  const items = Items.generate(Prng.make(seed, "items"), size.items)
  const ctx = Documents.context(contacts, items, rates)
  const files: Record<string, number> = {}
  files["ChartOfAccounts.csv"] = Chart.write(path("ChartOfAccounts.csv"))
  files["Contacts.csv"] = Contacts.write(path("Contacts.csv"), contacts)
  files["InventoryItems.csv"] = Items.write(path("InventoryItems.csv"), items)
  files["ExchangeRates.csv"] = ExchangeRates.write(path("ExchangeRates.csv"), rates)

  const ledger = new BankLedger()
  const books = new GeneralLedger(Company.LAST_DAY)
  const picks = Prng.make(seed, "specials")
  const tail = Math.floor(size.invoices * 0.85)
  const drafts = new Set(picks.distinct(size.draftInvoices, tail, size.invoices - 1))
  const voided = new Set(picks.distinct(size.voidedInvoices, 0, tail - 1).filter((i) => !drafts.has(i)))
  const draftBills = new Set(picks.distinct(size.draftBills, Math.floor(size.bills * 0.85), size.bills - 1))

  const invoiceCounts = emptyCounts()
  const invoiceRng = Prng.make(seed, "invoices")
  const invoiceFile = new DocumentFile(path("SalesInvoices.csv"))
  const invoiceSinks = { file: invoiceFile, bank: ledger, books, rates, counts: invoiceCounts }
  for (let i = 0; i < size.invoices; i++) {
    const special = drafts.has(i) ? "draft" : voided.has(i) ? "voided" : undefined
    emit(invoiceSinks, Documents.invoice(invoiceRng, ctx, i, size.invoices, special))
  }
  files["SalesInvoices.csv"] = invoiceFile.close()

  const billCounts = emptyCounts()
  const billRng = Prng.make(seed, "bills")
  const billNumbers = new Documents.BillNumbers()
  const billFile = new DocumentFile(path("Bills.csv"))
  const billSinks = { file: billFile, bank: ledger, books, rates, counts: billCounts }
  for (let i = 0; i < size.bills; i++)
    emit(billSinks, Documents.bill(billRng, ctx, billNumbers, i, size.bills, draftBills.has(i)))
  files["Bills.csv"] = billFile.close()

  files["AccountTransactions.csv"] = ledger.write(path("AccountTransactions.csv"))
  const journals = Journals.generate(Prng.make(seed, "journals"), size.journals)
  files["ManualJournals.csv"] = Journals.write(path("ManualJournals.csv"), journals)
  for (const j of journals) Postings.journal(books, j)

  const tb = TrialBalance.write(path("TrialBalance.csv"), books)
  files["TrialBalance.csv"] = tb.accounts
  const aged = (name: "AgedReceivablesDetail.csv" | "AgedPayablesDetail.csv", side: "AR" | "AP") => {
    const written = AgedReports.write(path(name), books, side)
    files[name] = written.documents
    return {
      documents: written.documents,
      contacts: written.contacts,
      total: Money.format2(Money.cents(written.total))
    }
  }
  const receivables = aged("AgedReceivablesDetail.csv", "AR")
  const payables = aged("AgedPayablesDetail.csv", "AP")
  return {
    files,
    invoices: invoiceCounts,
    bills: billCounts,
    journals: journals.length,
    bankRows: ledger.size,
    trialBalance: {
      accounts: tb.accounts,
      debit: Money.format2(Money.cents(tb.ytdDebit)),
      credit: Money.format2(Money.cents(tb.ytdCredit))
    },
    receivables,
    payables
  }
}
