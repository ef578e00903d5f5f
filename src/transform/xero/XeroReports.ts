/**
 * Xero's own balance reports read into source books — the independent side of the reconciliation:
 * - the Trial Balance, one per as-at date (staged as `As At` from the report's title rows): each account row
 *   "Name (Code)" split into name and code (a text that is a chart account's whole name is kept whole), its
 *   section carried; the amounts are `YTD Debit`/`YTD Credit` when the report has them — the balance as at
 *   the date, since Xero's `Debit`/`Credit` are then the movement of the report's month — else
 *   `Debit`/`Credit`; the grand `Total` row is checked against the sum of the lines;
 * - the Aged Receivables / Payables Detail, one per side and date: each document row an item with its
 *   contact, number, reference, dates and outstanding amount (the `Total` column), in the base currency as
 *   Xero shows it by default.
 * A second report of the same kind and date is left out with a warning; a row that cannot be read is a reject.
 */
import { heldAgedItems, type AgedItemsKept } from "../BooksSpill.js"
import * as Option from "effect/Option"
import { where, type StagedRow } from "../../staging/SourceRows.js"
import { groupBy } from "../../Multimap.js"
import * as Dates from "../Dates.js"
import { normalizeName } from "../Mappings.js"
import * as Money from "../Money.js"
import type {
  Issue,
  SourceAccount,
  SourceAgedItem,
  SourceAgedReport,
  SourceTrialBalance,
  SourceTrialBalanceLine
} from "../SourceModel.js"
import { amount, cell, date, readRow, readRows, required } from "./StagedCells.js"

/** The staged key of a report's as-at date (see the extract's `ReportDate`). */
const AS_AT = "As At"

/** The report a staged row belongs to: its file and as-at date. */
const reportKey = (row: StagedRow): string => `${row.file}\u0000${cell(row, AS_AT)}`

/** Staged rows grouped by report (`reportKey`), in file order. */
const reports = (rows: ReadonlyArray<StagedRow>): Array<ReadonlyArray<StagedRow>> => [
  ...groupBy(rows, reportKey).values()
]

/** What the as-at check reads of a report: its file, its first row's as-at text, and its rows' places. */
interface ReportHeading {
  readonly file: string
  readonly text: string
  readonly lineage: () => ReadonlyArray<string>
}

const headingOfRows = (report: ReadonlyArray<StagedRow>): ReportHeading => ({
  file: report[0]!.file,
  text: cell(report[0]!, AS_AT),
  lineage: () => report.map(where)
})

/**
 * The report's as-at date, unless it is unreadable or a report of the same kind already has that date
 * (`seen`, as-at → file): then an issue, and undefined.
 */
const asAtOf = (
  { file, text, lineage }: ReportHeading,
  what: string,
  seen: Map<string, string>,
  issues: Array<Issue>
): string | undefined => {
  const asAt = Option.getOrUndefined(Dates.parseDayFirst(text))
  if (asAt === undefined) {
    issues.push({
      severity: "reject",
      lineage: lineage(),
      what: `the ${what} in ${file}`,
      why: `its as-at date ${JSON.stringify(text)} is not a date`,
      fix: "extract the report again: its title rows give the date (As at 31 December 2025)"
    })
    return undefined
  }
  const earlier = seen.get(asAt)
  if (earlier !== undefined) {
    issues.push({
      severity: "warning",
      lineage: lineage().slice(0, 1),
      what: `the ${what} as at ${asAt} in ${file}`,
      why: `${earlier} is a ${what} as at the same date; only that one is used`,
      fix: `keep one ${what} per date in the input folder`
    })
    return undefined
  }
  seen.set(asAt, file)
  return asAt
}

const NAME_AND_CODE = /^(.*\S)\s*\(([^()]+)\)$/

/** Splits "Name (Code)" into name and code, unless the whole text is an account's name. */
const splitAccount = (text: string, whole: ReadonlySet<string>, codeColumn: string) => {
  if (codeColumn !== "") {
    const suffix = ` (${codeColumn})`
    return {
      accountName: text.endsWith(suffix) ? text.slice(0, -suffix.length) : text,
      accountCode: codeColumn
    }
  }
  const m = NAME_AND_CODE.exec(text)
  return m === null || whole.has(normalizeName(text))
    ? { accountName: text, accountCode: "" }
    : { accountName: m[1]!, accountCode: m[2]!.trim() }
}

const isGrandTotal = (row: StagedRow) => /^total$/i.test(cell(row, "Account")) && cell(row, "Section") === ""

/** Xero's Trial Balance reports, one per as-at date, sorted by date. */
export const trialBalances = (
  rows: ReadonlyArray<StagedRow>,
  accounts: ReadonlyArray<SourceAccount>,
  issues: Array<Issue>
): Array<SourceTrialBalance> => {
  const whole = new Set(accounts.map((a) => normalizeName(a.name)))
  const seen = new Map<string, string>()
  const out: Array<SourceTrialBalance> = []
  for (const report of reports(rows)) {
    const asAt = asAtOf(headingOfRows(report), "Trial Balance", seen, issues)
    if (asAt === undefined) continue
    const ytd = report.some((r) => "YTD Debit" in r.data || "YTD Credit" in r.data)
    const [debitKey, creditKey] = ytd ? ["YTD Debit", "YTD Credit"] : ["Debit", "Credit"]
    const read = (r: StagedRow) => ({ debit: amount(r, debitKey, true), credit: amount(r, creditKey, true) })
    const totalRows = report.filter(isGrandTotal)
    const lines = readRows(
      report.filter((r) => !isGrandTotal(r)),
      issues,
      (r): SourceTrialBalanceLine => ({
        ...splitAccount(required(r, "Account"), whole, cell(r, "Account Code")),
        section: cell(r, "Section"),
        ...read(r),
        lineage: where(r)
      })
    )
    const sums = {
      debit: Money.sum(lines.map((l) => l.debit)),
      credit: Money.sum(lines.map((l) => l.credit))
    }
    const [total] = readRows(totalRows.slice(-1), issues, read)
    const totals = total ?? sums
    if (total !== undefined) {
      const at = where(totalRows[totalRows.length - 1]!)
      const show = (t: typeof sums) => `debit ${Money.toFixed(t.debit)}, credit ${Money.toFixed(t.credit)}`
      if (!Money.equals(total.debit, sums.debit) || !Money.equals(total.credit, sums.credit))
        issues.push({
          severity: "warning",
          lineage: [at],
          what: `the Trial Balance total at ${at}`,
          why: `it says ${show(total)} but the report's account rows sum to ${show(sums)}`,
          fix: "export the report again: a row is missing, unreadable or edited"
        })
      else if (!Money.equals(total.debit, total.credit))
        issues.push({
          severity: "warning",
          lineage: [at],
          what: `the Trial Balance total at ${at}`,
          why: `its debits and credits differ (${show(total)})`,
          fix: "export the report again from the source system"
        })
    }
    out.push({
      asAt,
      lines,
      totalDebit: totals.debit,
      totalCredit: totals.credit,
      file: report[0]!.file
    })
  }
  return out.sort((a, b) => (a.asAt < b.asAt ? -1 : a.asAt > b.asAt ? 1 : 0))
}

const readItem = (row: StagedRow): SourceAgedItem => {
  const due = cell(row, "Due Date")
  return {
    contactName: required(row, "Contact"),
    number: cell(row, "Invoice Number"),
    reference: cell(row, "Invoice Reference"),
    date: date(row, "Invoice Date"),
    dueDate: due === "" ? undefined : date(row, "Due Date"),
    outstanding: amount(row, "Total"),
    currency: undefined,
    lineage: where(row)
  }
}

/** One report's items as its rows stream past, with the rows' places and what could not be read of them. */
interface AgedGroup {
  readonly heading: ReportHeading
  readonly lines: Array<number>
  readonly items: AgedItemsKept
  readonly issues: Array<Issue>
}

/**
 * Xero's Aged Receivables (`AR`) or Payables (`AP`) Detail reports, read as their rows stream past (`add`, in
 * file and line order), one per file and as-at date: each row is read into its item when it comes, so that
 * no row is held. At 100,000 invoices the reports are 79,000 rows, collected at the end of the read on top
 * of the books before; their items go where `keep` says (the books' spill, for a plan of the books spilled),
 * and the reports hold only that.
 */
export class AgedReports {
  private readonly groups = new Map<string, AgedGroup>()

  /** `keep`: where each report's items go as they are read (the books' spill, when the books are spilled). */
  constructor(
    readonly side: "AR" | "AP",
    private readonly keep: () => AgedItemsKept = heldAgedItems
  ) {}

  readonly add = (row: StagedRow): void => {
    const key = reportKey(row)
    let group = this.groups.get(key)
    if (group === undefined) {
      const lines: Array<number> = []
      const file = row.file
      group = {
        heading: {
          file,
          text: cell(row, AS_AT),
          lineage: () => lines.map((line) => where({ file, line }))
        },
        lines,
        items: this.keep(),
        issues: []
      }
      this.groups.set(key, group)
    }
    group.lines.push(row.line)
    const item = readRow(row, group.issues, readItem)
    if (item !== undefined) group.items.add(item)
  }

  /**
   * The reports, sorted by date: a report whose as-at date cannot be read, or whose date an earlier file's
   * report of the side has, is an issue and left out, and so are the issues of its rows.
   */
  reports(issues: Array<Issue>): Array<SourceAgedReport> {
    const what = this.side === "AR" ? "Aged Receivables Detail" : "Aged Payables Detail"
    const seen = new Map<string, string>()
    const out: Array<SourceAgedReport> = []
    for (const group of this.groups.values()) {
      const asAt = asAtOf(group.heading, what, seen, issues)
      if (asAt === undefined) continue
      issues.push(...group.issues)
      out.push({ side: this.side, asAt, items: group.items.items, file: group.heading.file })
    }
    this.groups.clear()
    return out.sort((a, b) => (a.asAt < b.asAt ? -1 : a.asAt > b.asAt ? 1 : 0))
  }
}
