/**
 * The source system's own Trial Balance of the sample company, computed from its general ledger and
 * written in Xero's export layout (`TrialBalance.csv`): title rows (`Trial Balance`, the organisation,
 * `As at 31 December 2025`), the header `Account,Debit,Credit,YTD Debit,YTD Credit`, the sections Revenue,
 * Expenses, Assets, Liabilities and Equity each closed by its `Total` row, and a grand `Total`. An account
 * shows as "Name (Code)"; Debit/Credit are its net movement in the report's month, YTD Debit/YTD Credit its
 * balance as at the report date (profit and loss accounts from the start of the financial year, which is
 * the first year of the books, so no opening balances); an account with neither is left out.
 */
import * as CalendarDate from "./CalendarDate.js"
import { ACCOUNTS, type Account } from "./Chart.js"
import { ORGANISATION } from "./Company.js"
import { CsvFile } from "./CsvFile.js"
import type { LedgerView } from "./GeneralLedger.js"
import * as Money from "./Money.js"

/** The report's header row. */
export const HEADER = ["Account", "Debit", "Credit", "YTD Debit", "YTD Credit"] as const

/** Xero's Trial Balance sections in report order, with the account types each holds. */
export const SECTIONS: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["Revenue", ["Revenue", "Sales", "Other Income"]],
  ["Expenses", ["Direct Costs", "Expense", "Overhead", "Depreciation"]],
  ["Assets", ["Bank", "Current Asset", "Prepayment", "Inventory", "Fixed Asset", "Non-current Asset"]],
  ["Liabilities", ["Current Liability", "Liability", "Non-current Liability"]],
  ["Equity", ["Equity"]]
]

/** What the written report holds: account rows and the grand totals, in cents. */
export interface Written {
  readonly accounts: number
  readonly debit: bigint
  readonly credit: bigint
  readonly ytdDebit: bigint
  readonly ytdCredit: bigint
}

/** The four amounts of a row: a signed movement and a signed balance, each split into debit and credit. */
const amounts = (month: bigint, ytd: bigint): [bigint, bigint, bigint, bigint] => [
  month > 0n ? month : 0n,
  month < 0n ? -month : 0n,
  ytd > 0n ? ytd : 0n,
  ytd < 0n ? -ytd : 0n
]

const cells = (values: ReadonlyArray<bigint>): Array<string> =>
  values.map((v) => (v === 0n ? "" : Money.formatReport(v)))

const nameOf = (a: Account): string => (a.code === "" ? a.name : `${a.name} (${a.code})`)

/** Writes `TrialBalance.csv` as at the ledger's report date; returns what it holds. */
export const write = (path: string, ledger: LedgerView): Written => {
  const sectionOf = new Map(SECTIONS.flatMap(([section, types]) => types.map((t) => [t, section] as const)))
  for (const a of ACCOUNTS)
    if (!sectionOf.has(a.type)) throw new Error(`account ${a.code}: no Trial Balance section for ${a.type}`)
  const file = new CsvFile(path)
  file.row(["Trial Balance"])
  file.row([ORGANISATION])
  file.row([`As at ${CalendarDate.formatLong(ledger.asAt)}`])
  file.raw("")
  file.row(HEADER)
  const grand = [0n, 0n, 0n, 0n]
  let accounts = 0
  for (const [section] of SECTIONS) {
    const rows = ACCOUNTS.filter((a) => sectionOf.get(a.type) === section)
      .map((a) => [a, amounts(ledger.monthMovement(a.code), ledger.balance(a.code))] as const)
      .filter(([, values]) => values.some((v) => v !== 0n))
    if (rows.length === 0) continue
    const totals = [0n, 0n, 0n, 0n]
    file.row([section])
    for (const [a, values] of rows) {
      file.row([nameOf(a), ...cells(values)])
      values.forEach((v, i) => (totals[i] = (totals[i] ?? 0n) + v))
      accounts++
    }
    file.row([`Total ${section}`, ...cells(totals)])
    file.raw("")
    totals.forEach((v, i) => (grand[i] = (grand[i] ?? 0n) + v))
  }
  file.row(["Total", ...cells(grand)])
  file.close()
  const [debit = 0n, credit = 0n, ytdDebit = 0n, ytdCredit = 0n] = grand
  if (debit !== credit || ytdDebit !== ytdCredit) throw new Error("the trial balance does not balance")
  return { accounts, debit, credit, ytdDebit, ytdCredit }
}
