/**
 * Reads a generated sample back from disk with csv-parse, independently of the generator's own types,
 * so the tests check the files a migration would actually read.
 */
import { parse } from "csv-parse/sync"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

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

/** Parses `TrialBalance.csv` by its layout: titles, blank, header, then sections and a grand total. */
export const trialBalance = (dir: string): TrialBalanceReport => {
  const all = records(dir, "TrialBalance.csv")
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
