/**
 * Generates the whole Xero export set of the sample company into a directory, deterministically from an
 * invoice count and a seed, streaming invoices and bills (with the credit notes, overpayments and
 * prepayments drawn alongside them) so memory stays flat at benchmark sizes; then the year's Spend and
 * Receive Money and bank transfers, the bank report and the manual journals. Everything approved also posts
 * to the company's own general ledger, from which the source's reports are written as at the year end (and at
 * any earlier dates asked for, cut-over dates for an opening position): the Trial Balance and the Aged
 * Receivables / Payables Detail (see `Postings.ts` and `CreditPostings.ts` for the
 * rules, `TrialBalance.ts` and `AgedReports.ts` for the layouts).
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as AgedReports from "./AgedReports.js"
import { AllocationsFile } from "./AllocationsFile.js"
import { BankLedger } from "./BankLedger.js"
import * as CalendarDate from "./CalendarDate.js"
import * as CashBook from "./CashBook.js"
import * as Chart from "./Chart.js"
import * as Company from "./Company.js"
import * as Contacts from "./Contacts.js"
import * as CreditPlan from "./CreditPlan.js"
import { CreditNumbers } from "./Credits.js"
import { DocumentFile } from "./DocumentFile.js"
import * as Documents from "./Documents.js"
import * as DocumentStream from "./DocumentStream.js"
import type { CreditCounts, DocumentCounts } from "./DocumentStream.js"
import * as ExchangeRates from "./ExchangeRates.js"
import { GeneralLedger } from "./GeneralLedger.js"
import * as Items from "./Items.js"
import * as Journals from "./Journals.js"
import * as Money from "./Money.js"
import { OpenItems } from "./OpenItems.js"
import * as Postings from "./Postings.js"
import { Prng } from "./Prng.js"
import * as TrialBalance from "./TrialBalance.js"

export type { CreditCounts, DocumentCounts } from "./DocumentStream.js"

/** What to generate. */
export interface Options {
  readonly invoices: number
  readonly seed: number
  readonly out: string
  /** Earlier dates (YYYY-MM-DD, within the year) to write the Trial Balance and aged reports at as well. */
  readonly alsoAt?: ReadonlyArray<string>
}

/** Lines of one export: all of them, those with a discount and those with tracking. */
export interface LineCounts {
  readonly rows: number
  readonly discounted: number
  readonly tracked: number
}

/** What was generated: data rows per file, counts of every kind, and the reports' totals (in SGD). */
export interface Summary {
  readonly files: Record<string, number>
  readonly invoices: DocumentCounts
  readonly bills: DocumentCounts
  readonly salesCredits: CreditCounts
  readonly billCredits: CreditCounts
  readonly salesLines: LineCounts
  readonly billLines: LineCounts
  readonly journals: number
  readonly trackedJournalLines: number
  readonly spendMoney: number
  readonly receiveMoney: number
  readonly transfers: number
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
  "Allocations.csv",
  "AccountTransactions.csv",
  "ManualJournals.csv",
  "TrialBalance.csv",
  "AgedReceivablesDetail.csv",
  "AgedPayablesDetail.csv"
] as const

/** The source's own reports as at an earlier date (`Options.alsoAt`), named by that date. */
export const reportsAt = (date: string) =>
  [`TrialBalance-${date}.csv`, `AgedReceivablesDetail-${date}.csv`, `AgedPayablesDetail-${date}.csv`] as const

/** Writes every file of the sample company into `out` (created if missing) and summarises it. */
export const generateCompany = (options: Options): Summary => {
  const { invoices, seed, out } = options
  if (!Number.isInteger(invoices) || invoices < 1)
    throw new Error(`invoices must be a positive integer: ${invoices}`)
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer: ${seed}`)
  NodeFs.mkdirSync(out, { recursive: true })
  const path = (name: string) => NodePath.join(out, name)
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
  const earlier = (options.alsoAt ?? []).map((d) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d)
    const day = m ? CalendarDate.make(Number(m[1]), Number(m[2]), Number(m[3])) : Number.NaN
    if (!m || !(day >= Company.FIRST_DAY && day < Company.LAST_DAY))
      throw new Error(`--also-at must be a date of the year before its last day: ${d}`)
    return { date: d, day }
  })
  const books = new GeneralLedger(
    Company.LAST_DAY,
    earlier.map((e) => e.day)
  )
  const open = new OpenItems(books)
  const allocations = new AllocationsFile(path("Allocations.csv"))
  const numbers = new CreditNumbers()
  const creditRng = Prng.make(seed, "credits")
  const picks = Prng.make(seed, "specials")
  const tail = Math.floor(size.invoices * 0.85)
  const drafts = new Set(picks.distinct(size.draftInvoices, tail, size.invoices - 1))
  const voided = new Set(picks.distinct(size.voidedInvoices, 0, tail - 1).filter((i) => !drafts.has(i)))
  const draftBills = new Set(picks.distinct(size.draftBills, Math.floor(size.bills * 0.85), size.bills - 1))
  const planRng = Prng.make(seed, "credit-plan")
  const invoicePlan = CreditPlan.plan(planRng, size.invoices, new Set([...drafts, ...voided]), {
    creditNotes: size.creditNotes,
    voidedCreditNotes: size.voidedCreditNotes,
    overpayments: size.overpayments,
    prepayments: size.prepayments
  })
  const billPlan = CreditPlan.plan(planRng, size.bills, draftBills, {
    creditNotes: size.billCreditNotes,
    voidedCreditNotes: 0,
    overpayments: size.billOverpayments,
    prepayments: size.billPrepayments
  })
  let serial = 0
  const sinks = (file: DocumentFile) => ({
    file,
    bank: ledger,
    items: open,
    rates,
    allocations,
    counts: DocumentStream.emptyCounts(),
    credits: DocumentStream.emptyCreditCounts(),
    numbers,
    rng: creditRng
  })

  const invoiceRng = Prng.make(seed, "invoices")
  const sales = sinks(new DocumentFile(path("SalesInvoices.csv")))
  for (let i = 0; i < size.invoices; i++) {
    const special = drafts.has(i) ? "draft" : voided.has(i) ? "voided" : undefined
    const planned = invoicePlan.get(i)
    const draft = Documents.invoice(invoiceRng, ctx, i, size.invoices, planned?.currency)
    const state = Documents.stateOf(invoiceRng, draft, special)
    DocumentStream.emit(sales, invoiceRng, ctx, draft, state, planned, serial++)
  }
  const salesLines = sales.file.close()
  files["SalesInvoices.csv"] = salesLines.rows

  const billRng = Prng.make(seed, "bills")
  const billNumbers = new Documents.BillNumbers()
  const purchases = sinks(new DocumentFile(path("Bills.csv")))
  for (let i = 0; i < size.bills; i++) {
    const planned = billPlan.get(i)
    const draft = Documents.bill(billRng, ctx, billNumbers, i, size.bills, planned?.currency)
    const state = Documents.stateOf(billRng, draft, draftBills.has(i) ? "draft" : undefined)
    DocumentStream.emit(purchases, billRng, ctx, draft, state, planned, serial++)
  }
  const billLines = purchases.file.close()
  files["Bills.csv"] = billLines.rows
  files["Allocations.csv"] = allocations.close()

  const cash = CashBook.generate(Prng.make(seed, "cash"), contacts, rates, {
    spend: size.spendMoney,
    receive: size.receiveMoney,
    transfers: size.transfers
  })
  for (const e of [...cash.spend, ...cash.receive]) {
    CashBook.record(ledger, e)
    Postings.cashEntry(books, e)
  }
  for (const t of cash.transfers) {
    CashBook.recordTransfer(ledger, t)
    Postings.transfer(books, t)
  }
  const journals = Journals.generate(Prng.make(seed, "journals"), size.journals)
  files["ManualJournals.csv"] = Journals.write(path("ManualJournals.csv"), journals)
  for (const j of journals) {
    Postings.journal(books, j)
    Journals.recordBankLines(ledger, j)
  }
  files["AccountTransactions.csv"] = ledger.write(path("AccountTransactions.csv"))

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
  for (const { date, day } of earlier) {
    const view = books.at(day)
    const [tbName, arName, apName] = reportsAt(date)
    files[tbName] = TrialBalance.write(path(tbName), view).accounts
    files[arName] = AgedReports.write(path(arName), view, "AR").documents
    files[apName] = AgedReports.write(path(apName), view, "AP").documents
  }
  return {
    files,
    invoices: sales.counts,
    bills: purchases.counts,
    salesCredits: sales.credits,
    billCredits: purchases.credits,
    salesLines,
    billLines,
    journals: journals.length,
    trackedJournalLines: journals.reduce(
      (n, j) => n + j.lines.filter((l) => l.tracking.length > 0).length,
      0
    ),
    spendMoney: cash.spend.length,
    receiveMoney: cash.receive.length,
    transfers: cash.transfers.length,
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
