/**
 * Generates the QuickBooks Online sample company: draws the year's transactions (sales, purchases, banking
 * and journal entries) from a seeded generator, numbers them as QuickBooks does (sales forms from 1001, checks
 * from 1101, journal entries from 1), posts every one to the sample's own ledger in date order, and writes
 * the lists, the Journal report and the reports computed from the ledger, plus a README with the figures.
 * The same seed and size always give byte-identical files.
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { Prng } from "../Prng.js"
import { bankingTxns, OPENING_CHECKING, openingEntry } from "./Banking.js"
import { ACC } from "./Chart.js"
import { Ledger, type Txn } from "./Ledger.js"
import { purchaseTxns } from "./Purchases.js"
import * as Readme from "./Readme.js"
import * as Reports from "./Reports.js"
import { salesTxns } from "./Sales.js"

export interface QboOptions {
  readonly out: string
  readonly invoices: number
  readonly seed: number
}

/** The files the generator writes, README included. */
export const FILES = [
  "AccountList.csv",
  "Customers.csv",
  "Vendors.csv",
  "ProductsAndServices.csv",
  "Journal.csv",
  "TrialBalance.csv",
  "ARAgingDetail.csv",
  "APAgingDetail.csv",
  "UnpaidBills.csv",
  "README.md"
] as const

/** What was generated, with the report figures in cents. */
export interface QboSummary {
  readonly seed: number
  readonly transactions: number
  readonly journalLines: number
  readonly byType: Readonly<Record<string, number>>
  readonly accounts: number
  readonly customers: number
  readonly vendors: number
  readonly products: number
  readonly trialBalanceAccounts: number
  readonly trialBalanceTotal: bigint
  readonly receivable: bigint
  readonly payable: bigint
  readonly undeposited: bigint
  readonly arItems: number
  readonly apItems: number
  readonly unpaidBills: number
  readonly unpaidBillsTotal: bigint
  /** Invoices and bills open at the year end, and how many of them are part-paid. */
  readonly openInvoices: number
  readonly partPaidInvoices: number
  readonly openBills: number
  readonly partPaidBills: number
}

/**
 * Checking's opening balance: `OPENING_CHECKING`, or more, in whole thousands, so that its running balance
 * over the year never falls below $2,000.00.
 */
const openingChecking = (year: ReadonlyArray<Txn>): bigint => {
  let balance = OPENING_CHECKING
  let lowest = balance
  for (const t of year)
    for (const l of t.lines)
      if (l.account === ACC.checking) {
        balance += l.debit - l.credit
        if (balance < lowest) lowest = balance
      }
  const short = 200_000n - lowest
  return short <= 0n ? OPENING_CHECKING : OPENING_CHECKING + ((short + 99_999n) / 100_000n) * 100_000n
}

/** The year's transactions in Journal order (date, then as generated), numbered. */
export const transactions = (invoices: number, seed: number): Array<Txn> => {
  const sales = salesTxns(Prng.make(seed, "qbo.sales"), invoices)
  const purchases = purchaseTxns(Prng.make(seed, "qbo.purchases"), invoices)
  const banking = bankingTxns(Prng.make(seed, "qbo.banking"), [...sales, ...purchases])
  const year = [...sales, ...purchases, ...banking]
    .map((t, i) => [t, i] as const)
    .sort(([a, i], [b, j]) => a.day - b.day || i - j)
    .map(([t]) => t)
  const all = [openingEntry(openingChecking(year)), ...year]
    .map((t, i) => [t, i] as const)
    .sort(([a, i], [b, j]) => a.day - b.day || i - j)
    .map(([t]) => t)
  let check = 1101
  let entry = 1
  return all.map((t) =>
    t.type === "Check" || t.type === "Bill Payment (Check)"
      ? { ...t, num: String(check++) }
      : t.type === "Journal Entry"
        ? { ...t, num: String(entry++) }
        : t
  )
}

const openAndPartPaid = (ledger: Ledger) => {
  const of = (side: "AR" | "AP", type: string) => ledger.outstanding(side).filter((o) => o.item.type === type)
  const [invoices, bills] = [of("AR", "Invoice"), of("AP", "Bill")]
  return {
    openInvoices: invoices.length,
    partPaidInvoices: invoices.filter((o) => o.cents !== o.item.cents).length,
    openBills: bills.length,
    partPaidBills: bills.filter((o) => o.cents !== o.item.cents).length
  }
}

/** Writes the sample to `options.out` (created if missing) and returns what it holds. */
export const generateQbo = (options: QboOptions): QboSummary => {
  if (!Number.isInteger(options.invoices) || options.invoices < 40 || options.invoices > 5000)
    throw new Error(`--invoices must be an integer from 40 to 5000: ${options.invoices}`)
  const txns = transactions(options.invoices, options.seed)
  const ledger = new Ledger()
  for (const t of txns) ledger.post(t)
  NodeFs.mkdirSync(options.out, { recursive: true })
  const at = (name: (typeof FILES)[number]) => NodePath.join(options.out, name)
  const accounts = Reports.accountList(at("AccountList.csv"), ledger)
  const [customers, vendors] = Reports.contactLists(at("Customers.csv"), at("Vendors.csv"))
  const products = Reports.productList(at("ProductsAndServices.csv"))
  const journal = Reports.journal(at("Journal.csv"), txns)
  const tb = Reports.trialBalance(at("TrialBalance.csv"), ledger)
  const ar = Reports.agingDetail(at("ARAgingDetail.csv"), ledger, "AR")
  const ap = Reports.agingDetail(at("APAgingDetail.csv"), ledger, "AP")
  const unpaid = Reports.unpaidBills(at("UnpaidBills.csv"), ledger)
  if (ar.open !== ledger.balance(ACC.ar) || ap.open !== -ledger.balance(ACC.ap))
    throw new Error("the aging reports disagree with the ledger's Accounts Receivable or Payable")
  const byType: Record<string, number> = {}
  for (const t of txns) byType[t.type] = (byType[t.type] ?? 0) + 1
  const summary: QboSummary = {
    seed: options.seed,
    transactions: txns.length,
    journalLines: journal.lines,
    byType,
    accounts,
    customers,
    vendors,
    products,
    trialBalanceAccounts: tb.accounts,
    trialBalanceTotal: tb.debit,
    receivable: ar.open,
    payable: ap.open,
    undeposited: ledger.balance(ACC.undeposited),
    arItems: ar.items,
    apItems: ap.items,
    unpaidBills: unpaid.bills,
    unpaidBillsTotal: unpaid.open,
    ...openAndPartPaid(ledger)
  }
  NodeFs.writeFileSync(at("README.md"), Readme.text(options, summary, txns))
  return summary
}
