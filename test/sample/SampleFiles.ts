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
