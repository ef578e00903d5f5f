/**
 * QuickBooks Online's own reports as source books, the independent side of the reconciliation:
 * - the Trial Balance (`qbo.trial_balance`), one per as-at date: each row's account (`Account Name`, a full
 *   name, possibly with its number) resolved to its Account List entry, so it pairs with the migrated account;
 * - the A/R Aging Detail and the A/P Aging Detail (one per side and date), or, for payables without an A/P Aging
 *   Detail, Unpaid Bills — which QuickBooks does not date ("All Dates"): it is taken as at the latest Trial
 *   Balance's date (else the Journal's last date), which is when the export is meant to be run.
 * An aging row is also what the linking reads (`AgingRow`): the original amount and the open balance of each
 * open invoice, bill, credit memo, vendor credit or unapplied payment.
 */
import * as Option from "effect/Option"
import { where, type StagedRow } from "../../staging/SourceRows.js"
import * as Dates from "../Dates.js"
import * as Money from "../Money.js"
import type { Issue, SourceTrialBalance } from "../SourceModel.js"
import { amount, cell, date, dateOf, either, readRows, required } from "./QboCells.js"
import type { Chart } from "./QboLists.js"
import { append } from "../../Multimap.js"

const AS_AT = "As At"

const byReport = (rows: ReadonlyArray<StagedRow>): Array<ReadonlyArray<StagedRow>> => {
  const groups = new Map<string, Array<StagedRow>>()
  for (const r of rows) {
    const key = `${r.file}\u0000${cell(r, AS_AT)}`
    append(groups, key, r)
  }
  return [...groups.values()]
}

const asAtOf = (report: ReadonlyArray<StagedRow>, what: string, issues: Array<Issue>): string | undefined => {
  const text = cell(report[0]!, AS_AT)
  const asAt = Option.getOrUndefined(Dates.parseDayFirst(text)) ?? dateOf(text)
  if (asAt === undefined)
    issues.push({
      severity: "reject",
      lineage: report.map(where),
      what: `the ${what} in ${report[0]!.file}`,
      why: `its as-at date ${JSON.stringify(text)} is not a date`,
      fix: "export the report again with its title rows (As of December 31, 2025)"
    })
  return asAt
}

const isTotal = (r: StagedRow) => /^total$/i.test(cell(r, "Account Name"))

/** QuickBooks' Trial Balance reports, sorted by date (a second report of one date is left out with a warning). */
export const trialBalances = (
  rows: ReadonlyArray<StagedRow>,
  chart: Chart,
  issues: Array<Issue>
): Array<SourceTrialBalance> => {
  const out: Array<SourceTrialBalance> = []
  for (const report of byReport(rows)) {
    const asAt = asAtOf(report, "Trial Balance", issues)
    if (asAt === undefined) continue
    const earlier = out.find((t) => t.asAt === asAt)
    if (earlier !== undefined) {
      issues.push({
        severity: "warning",
        lineage: [where(report[0]!)],
        what: `the Trial Balance as at ${asAt} in ${report[0]!.file}`,
        why: `${earlier.file} is a Trial Balance as at the same date; only that one is used`,
        fix: "keep one Trial Balance per date in the input folder"
      })
      continue
    }
    const lines = readRows(
      report.filter((r) => !isTotal(r)),
      issues,
      (r) => {
        const text = required(r, "Account Name")
        const account = chart.find(text)
        return {
          accountName: account?.name ?? text,
          accountCode: account?.code ?? "",
          section: cell(r, "Section"),
          debit: amount(r, "Debit", true),
          credit: amount(r, "Credit", true),
          lineage: where(r)
        }
      }
    )
    out.push({
      asAt,
      lines,
      totalDebit: Money.sum(lines.map((l) => l.debit)),
      totalCredit: Money.sum(lines.map((l) => l.credit)),
      file: report[0]!.file
    })
  }
  return out.sort((a, b) => (a.asAt < b.asAt ? -1 : a.asAt > b.asAt ? 1 : 0))
}

/** One open item of an aging report, as the linking and the reconciliation read it. */
export interface AgingRow {
  readonly side: "AR" | "AP"
  readonly type: string
  readonly contactName: string
  readonly number: string
  readonly date: string
  readonly dueDate: string | undefined
  /** The original amount (0 when the report has no Amount column). */
  readonly amount: Money.Money
  /** The open balance, negative for credits and unapplied payments. */
  readonly open: Money.Money
  readonly lineage: string
}

export interface Aging {
  readonly side: "AR" | "AP"
  readonly asAt: string
  readonly file: string
  readonly rows: ReadonlyArray<AgingRow>
}

const agingRow =
  (side: "AR" | "AP") =>
  (r: StagedRow): AgingRow => {
    const due = either(r, "Due Date", "Due date")
    const amountText = either(r, "Amount")
    const open = either(r, "Open Balance", "Open balance")
    const type = either(r, "Transaction Type", "Transaction type")
    const read = (key: string, text: string) => amount({ ...r, data: { ...r.data, [key]: text } }, key)
    return {
      side,
      type,
      contactName:
        side === "AR" ? required(r, "Customer") : either(r, "Vendor", "Supplier") || required(r, "Vendor"),
      number: cell(r, "Num"),
      date: date(r, "Date"),
      dueDate: due === "" ? undefined : dateOf(due),
      amount: amountText === "" ? Money.zero : read("Amount", amountText),
      open: read("Open Balance", open),
      lineage: where(r)
    }
  }

/**
 * The aging reports: A/R Aging Detail per date; A/P Aging Detail per date, or else Unpaid Bills as at
 * `undatedAsAt`. Sorted by side then date.
 */
export const agings = (
  staged: {
    readonly ar: ReadonlyArray<StagedRow>
    readonly ap: ReadonlyArray<StagedRow>
    readonly unpaidBills: ReadonlyArray<StagedRow>
  },
  undatedAsAt: string | undefined,
  issues: Array<Issue>
): Array<Aging> => {
  const out: Array<Aging> = []
  const add = (
    side: "AR" | "AP",
    report: ReadonlyArray<StagedRow>,
    asAt: string | undefined,
    what: string
  ) => {
    if (asAt === undefined) return
    if (out.some((a) => a.side === side && a.asAt === asAt)) {
      issues.push({
        severity: "warning",
        lineage: [where(report[0]!)],
        what: `the ${what} as at ${asAt} in ${report[0]!.file}`,
        why: `another ${side} aging report as at the same date is used instead`,
        fix: `keep one ${what} per date in the input folder`
      })
      return
    }
    out.push({ side, asAt, file: report[0]!.file, rows: readRows(report, issues, agingRow(side)) })
  }
  for (const report of byReport(staged.ar))
    add("AR", report, asAtOf(report, "A/R Aging Detail", issues), "A/R Aging Detail")
  for (const report of byReport(staged.ap))
    add("AP", report, asAtOf(report, "A/P Aging Detail", issues), "A/P Aging Detail")
  if (!out.some((a) => a.side === "AP"))
    for (const report of byReport(staged.unpaidBills)) {
      if (undatedAsAt === undefined) {
        issues.push({
          severity: "warning",
          lineage: [where(report[0]!)],
          what: `Unpaid Bills in ${report[0]!.file}`,
          why: "QuickBooks does not date it and there is no Trial Balance or Journal to date it by",
          fix: "export the A/P Aging Detail as at the migration's end date instead"
        })
        continue
      }
      add("AP", report, undatedAsAt, "Unpaid Bills")
    }
  return out.sort((a, b) =>
    a.side < b.side ? -1 : a.side > b.side ? 1 : a.asAt < b.asAt ? -1 : a.asAt > b.asAt ? 1 : 0
  )
}
