/**
 * Reads a generated sample back from disk with csv-parse, independently of the generator's own types,
 * so the tests check the files a migration would actually read.
 */
import { assert } from "@effect/vitest"
import { parse } from "csv-parse/sync"
import type * as BigDecimal from "effect/BigDecimal"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { dec } from "./Decimals.js"

/** One CSV data row keyed by header. */
export type Row = Record<string, string>

/** The raw text of a sample file. */
export const text = (dir: string, name: string): string =>
  NodeFs.readFileSync(NodePath.join(dir, name), "utf8")

/** The header line of a CSV file, split on commas (headers contain none). */
export const header = (dir: string, name: string): Array<string> =>
  (text(dir, name).split("\n")[0] ?? "").split(",")

/** The data rows of a tabular CSV file. */
export const rows = (dir: string, name: string): Array<Row> =>
  parse(text(dir, name), { columns: true, skip_empty_lines: false }) as Array<Row>

/** One payment row of the Account Transactions report. */
export interface BankRow {
  readonly bank: string
  readonly date: string
  readonly source: string
  readonly description: string
  readonly reference: string
  readonly debit: string
  readonly credit: string
  readonly balance: string
}

/** One bank section of the Account Transactions report. */
export interface BankSection {
  readonly name: string
  readonly opening: string
  readonly rows: Array<BankRow>
  readonly totalDebit: string
  readonly totalCredit: string
}

/** The Account Transactions report: its title lines and bank sections. */
export interface Report {
  readonly titles: Array<string>
  readonly header: Array<string>
  readonly sections: Array<BankSection>
}

/** What a bank row does for a document or a credit, by its Source: the side and what it is. */
export interface DocumentMoney {
  readonly file: DocumentsFile
  readonly what:
    | "Payment"
    | "Credit Note Refund"
    | "Overpayment"
    | "Prepayment"
    | "Overpayment Refund"
    | "Prepayment Refund"
  /** Money leaves the bank: a bill's payment or advance, a customer's refund. */
  readonly out: boolean
}

/** The document money a bank row's Source names (`Receivable Payment`, `Payable Prepayment Refund`…), if any. */
export const documentMoney = (source: string): DocumentMoney | undefined => {
  const m =
    /^(Receivable|Payable) (Payment|Credit Note Refund|Overpayment|Prepayment|Overpayment Refund|Prepayment Refund)$/.exec(
      source
    )
  if (m === null) return undefined
  const sales = m[1] === "Receivable"
  const what = m[2] as DocumentMoney["what"]
  return { file: sales ? "SalesInvoices.csv" : "Bills.csv", what, out: what.endsWith("Refund") === sales }
}

/** Parses `AccountTransactions.csv` by its layout: titles, blank, header, then heading/opening/rows/total. */
export const report = (dir: string): Report => {
  const records = parse(text(dir, "AccountTransactions.csv"), {
    relax_column_count: true,
    skip_empty_lines: false
  }) as Array<Array<string>>
  const titles = records.slice(0, 3).map((r) => r.join(","))
  const blank = records[3]
  if (blank !== undefined && blank.join("") !== "") throw new Error("expected a blank line after the titles")
  const head = records[4] ?? []
  const sections: Array<BankSection> = []
  let current: { name: string; opening: string; rows: Array<BankRow> } | undefined
  for (const r of records.slice(5)) {
    const [date = "", source = "", description = "", reference = "", debit = "", credit = "", balance = ""] =
      r
    if (r.join("") === "") continue
    if (current === undefined) {
      current = { name: date, opening: "", rows: [] }
    } else if (source === "Opening Balance") {
      current.opening = balance
    } else if (date === `Total ${current.name}`) {
      sections.push({ ...current, totalDebit: debit, totalCredit: credit })
      current = undefined
    } else {
      current.rows.push({ bank: current.name, date, source, description, reference, debit, credit, balance })
    }
  }
  if (current !== undefined) throw new Error(`section ${current.name} has no Total row`)
  return { titles, header: head, sections }
}

/** Groups rows by a key, keeping first-seen order; throws if a group's rows are not contiguous. */
export const groupContiguous = (
  list: ReadonlyArray<Row>,
  key: (r: Row) => string
): Map<string, Array<Row>> => {
  const groups = new Map<string, Array<Row>>()
  let last: string | undefined
  for (const r of list) {
    const k = key(r)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [r])
    else if (last !== k) throw new Error(`rows of ${k} are not contiguous`)
    else group.push(r)
    last = k
  }
  return groups
}

/** The `Type` of each kind of row in the two document exports. */
export const KINDS = {
  "SalesInvoices.csv": {
    document: "Sales invoice",
    creditNote: "Sales credit note",
    overpayment: "Sales overpayment",
    prepayment: "Sales prepayment"
  },
  "Bills.csv": {
    document: "Bill",
    creditNote: "Bill credit note",
    overpayment: "Bill overpayment",
    prepayment: "Bill prepayment"
  }
} as const

/** One of the two document exports. */
export type DocumentsFile = keyof typeof KINDS

/** The two document exports, sales first. */
export const DOCUMENT_FILES: ReadonlyArray<DocumentsFile> = ["SalesInvoices.csv", "Bills.csv"]

/** The key of a numbered document or credit note: its Type and number. */
export const keyOf = (type: string, number: string): string => `${type}|${number}`

/**
 * The invoices or bills of an export with the credits among them, each as its rows, in file order. A
 * numbered one (an invoice, a bill, a credit note) is keyed by `keyOf(Type, InvoiceNumber)`; an overpayment
 * or a prepayment has no number, so each is the contiguous block of rows with its Type, contact, date and
 * total, keyed `Type|#n` (the file's n-th such block). Throws if a numbered document's rows are split.
 */
export const documents = (dir: string, name: DocumentsFile): Map<string, Array<Row>> => {
  let blocks = 0
  let previous: string | undefined
  return groupContiguous(rows(dir, name), (r) => {
    if ((r.InvoiceNumber ?? "") !== "") {
      previous = undefined
      return keyOf(r.Type ?? "", r.InvoiceNumber ?? "")
    }
    const ident = [r.Type, r.ContactName, r.InvoiceDate, r.Total].join("|")
    if (ident !== previous) blocks++
    previous = ident
    return `${r.Type}|#${blocks}`
  })
}

/** Both exports' documents and credits (see `documents`), each with the file it is in. */
export const allDocuments = (
  dir: string
): Map<string, { readonly file: DocumentsFile; readonly lines: Array<Row> }> =>
  new Map(
    DOCUMENT_FILES.flatMap((file) =>
      [...documents(dir, file)].map(([k, lines]) => [k, { file, lines }] as const)
    )
  )

/** The currency of each bank account by name (`Currency` of the chart, blank for the base currency SGD). */
export const bankCurrencies = (dir: string): Map<string, string> =>
  new Map(
    rows(dir, "ChartOfAccounts.csv")
      .filter((r) => r["*Type"] === "Bank")
      .map((r) => [r["*Name"] ?? "", r.Currency === "" ? "SGD" : (r.Currency ?? "")])
  )

/** The user's monthly rates: SGD per unit of `currency` in the month of a `DD/MM/YYYY` date (1 for SGD). */
export const rates = (dir: string): ((currency: string, dmy: string) => BigDecimal.BigDecimal) => {
  const table = new Map(
    rows(dir, "ExchangeRates.csv").map((r) => [
      `${r.Currency}|${(r.Date ?? "").slice(3)}`,
      r["Base per Unit"] ?? ""
    ])
  )
  return (currency, dmy) => {
    if (currency === "SGD") return dec("1")
    const rate = table.get(`${currency}|${dmy.slice(3)}`)
    assert.isDefined(rate, `${currency} rate for ${dmy}`)
    return dec(rate ?? "")
  }
}

/** The records of a report file, every line kept (blank lines as `[""]`). */
const records = (dir: string, name: string): Array<Array<string>> =>
  parse(text(dir, name), { relax_column_count: true, skip_empty_lines: false }) as Array<Array<string>>

/** One account row of the Trial Balance report. */
export interface TrialBalanceRow {
  readonly line: number
  readonly label: string
  readonly section: string
  /** Debit, Credit, YTD Debit, YTD Credit, as written. */
  readonly amounts: ReadonlyArray<string>
}

/** The Trial Balance report: titles, header, account rows, section totals and the grand total, as written. */
export interface TrialBalanceReport {
  readonly titles: Array<string>
  readonly header: Array<string>
  readonly rows: Array<TrialBalanceRow>
  readonly sectionTotals: Map<string, ReadonlyArray<string>>
  readonly total: ReadonlyArray<string>
}

/** Parses a Trial Balance (`TrialBalance.csv` unless named) by its layout: titles, blank, header, sections, total. */
export const trialBalance = (dir: string, name = "TrialBalance.csv"): TrialBalanceReport => {
  const all = records(dir, name)
  const rows: Array<TrialBalanceRow> = []
  const sectionTotals = new Map<string, ReadonlyArray<string>>()
  let section = ""
  let total: ReadonlyArray<string> = []
  all.slice(5).forEach((r, i) => {
    const [label = "", ...amounts] = r
    if (r.join("") === "") return
    if (amounts.length === 0) section = label
    else if (label === "Total") total = amounts
    else if (label === `Total ${section}`) sectionTotals.set(section, amounts)
    else rows.push({ line: i + 6, label, section, amounts })
  })
  return {
    titles: all.slice(0, 4).map((r) => r.join(",")),
    header: all[4] ?? [],
    rows,
    sectionTotals,
    total
  }
}

/** One document row of an Aged Detail report, keyed by its header. */
export interface AgedRow {
  readonly contact: string
  readonly cells: Row
}

/** An Aged Receivables / Payables Detail report as written. */
export interface AgedReport {
  readonly titles: Array<string>
  readonly header: Array<string>
  readonly rows: Array<AgedRow>
  readonly contactTotals: Map<string, Row>
  readonly total: Row
  readonly percentages: Array<string>
}

/** Parses an Aged Detail report: titles, blank, header, contact groups, `Total`, `Percentage of total`. */
export const aged = (dir: string, name: string): AgedReport => {
  const all = records(dir, name)
  const header = all[5] ?? []
  const keyed = (r: ReadonlyArray<string>): Row =>
    Object.fromEntries(header.map((h, i) => [h === "" ? `Column${i + 1}` : h, r[i] ?? ""]))
  const rows: Array<AgedRow> = []
  const contactTotals = new Map<string, Row>()
  let contact = ""
  let total: Row = {}
  let percentages: Array<string> = []
  for (const r of all.slice(6)) {
    const label = r[0] ?? ""
    if (r.join("") === "") continue
    if (r.length === 1) contact = label
    else if (label === "Total") total = keyed(r)
    else if (label === "Percentage of total") percentages = r.slice(5)
    else if (label === `Total ${contact}`) contactTotals.set(contact, keyed(r))
    else rows.push({ contact, cells: keyed(r) })
  }
  return { titles: all.slice(0, 5).map((r) => r.join(",")), header, rows, contactTotals, total, percentages }
}
