/**
 * The payments received and made through the bank accounts, kept as compact records bucketed by bank and
 * day so they come out in date order (ties in the order recorded) without sorting, then written as Xero's
 * Account Transactions report (`AccountTransactions.csv`).
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as BigDecimalOps from "effect/BigDecimal"
import * as CalendarDate from "./CalendarDate.js"
import { BANKS } from "./Chart.js"
import { FIRST_DAY, LAST_DAY, ORGANISATION, YEAR } from "./Company.js"
import { CsvFile } from "./CsvFile.js"
import * as Money from "./Money.js"

/** One bank row: a customer receipt (money in) or a supplier payment (money out). */
export interface BankEntry {
  readonly kind: "Receivable Payment" | "Payable Payment"
  readonly contactName: string
  readonly documentNumber: string
  readonly amount: BigDecimal.BigDecimal
}

/** The header row of the report body. */
export const HEADER = [
  "Date",
  "Source",
  "Description",
  "Reference",
  "Debit",
  "Credit",
  "Running Balance"
] as const

/** Bank entries of the year, in date order per bank. */
export class BankLedger {
  private readonly days: Array<Array<Array<BankEntry>>> = BANKS.map(() => [])
  private count = 0

  /** Records an entry on `day` in the bank with index `bank`. */
  add(bank: number, day: CalendarDate.Day, entry: BankEntry): void {
    const buckets = this.days[bank]
    if (buckets === undefined || day < FIRST_DAY || day > LAST_DAY)
      throw new Error("payment outside the ledger")
    const bucket = (buckets[day - FIRST_DAY] ??= [])
    bucket.push(entry)
    this.count++
  }

  /** How many entries were recorded. */
  get size(): number {
    return this.count
  }

  /** Writes the Account Transactions report; returns the number of payment rows. */
  write(path: string): number {
    const file = new CsvFile(path)
    file.row(["Account Transactions"])
    file.row([ORGANISATION])
    file.row([`For the period 1 January ${YEAR} to 31 December ${YEAR}`])
    file.raw("")
    file.row(HEADER)
    BANKS.forEach((account, b) => {
      if (b > 0) file.raw("")
      file.row([account.name, "", "", "", "", "", ""])
      file.row(["", "Opening Balance", "", "", "", "", "0.00"])
      let debits = Money.zero
      let credits = Money.zero
      for (const [offset, bucket] of (this.days[b] ?? []).entries()) {
        for (const entry of bucket ?? []) {
          const inflow = entry.kind === "Receivable Payment"
          if (inflow) debits = BigDecimalOps.sum(debits, entry.amount)
          else credits = BigDecimalOps.sum(credits, entry.amount)
          file.row([
            CalendarDate.format(FIRST_DAY + offset),
            entry.kind,
            `${entry.contactName} - Payment: ${entry.documentNumber}`,
            entry.documentNumber,
            inflow ? Money.format2(entry.amount) : "",
            inflow ? "" : Money.format2(entry.amount),
            Money.format2(BigDecimalOps.subtract(debits, credits))
          ])
        }
      }
      file.row([`Total ${account.name}`, "", "", "", Money.format2(debits), Money.format2(credits), ""])
    })
    file.close()
    return this.count
  }
}
