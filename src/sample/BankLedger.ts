/**
 * Xero's Account Transactions report of the year (`AccountTransactions.csv`), kept as compact rows bucketed
 * by account and day so they come out in date order (ties in the order recorded) without sorting. A section
 * per bank account, in the bank's own currency, holds every movement of money: invoice and bill payments,
 * credit note refunds, overpayments and prepayments received or paid and their refunds, Spend and Receive
 * Money, bank transfers, and manual journals that post to a bank. The accounts Spend and Receive Money are coded to follow, each with only those
 * entries' lines (what a migration reads there; the other postings on those accounts come from the invoice,
 * bill and journal exports): the line's net amount, and the GST account the tax.
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as BigDecimalOps from "effect/BigDecimal"
import * as CalendarDate from "./CalendarDate.js"
import { ACCOUNTS, BANKS } from "./Chart.js"
import { FIRST_DAY, LAST_DAY, ORGANISATION, YEAR } from "./Company.js"
import { CsvFile } from "./CsvFile.js"
import * as Money from "./Money.js"

/** Xero's `Source` of a report row. */
export type Source =
  | "Receivable Payment"
  | "Payable Payment"
  | "Receivable Credit Note Refund"
  | "Payable Credit Note Refund"
  | "Receivable Overpayment"
  | "Payable Overpayment"
  | "Receivable Prepayment"
  | "Payable Prepayment"
  | "Receivable Overpayment Refund"
  | "Payable Overpayment Refund"
  | "Receivable Prepayment Refund"
  | "Payable Prepayment Refund"
  | "Spend Money"
  | "Receive Money"
  | "Bank Transfer"
  | "Manual Journal"

/** One report row: a debit (`debit` true: money into a bank, or a debit on another account) or a credit. */
export interface Entry {
  readonly source: Source
  readonly description: string
  readonly reference: string
  readonly debit: boolean
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

const BANK_CODES: ReadonlySet<string> = new Set(BANKS.map((b) => b.code))

/** The report's rows of the year, by account code and day. */
export class BankLedger {
  private readonly days = new Map<string, Array<Array<Entry> | undefined>>()
  private bankRows = 0
  private lineRows = 0

  /** Records a row on `day` in the bank with index `bank` (of `Chart.BANKS`). */
  add(bank: number, day: CalendarDate.Day, entry: Entry): void {
    const account = BANKS[bank]
    if (account === undefined) throw new Error(`no bank ${bank}`)
    this.put(account.code, day, entry)
    this.bankRows++
  }

  /** Records a row on `day` in the section of the (non-bank) account `code`. */
  addLine(code: string, day: CalendarDate.Day, entry: Entry): void {
    if (BANK_CODES.has(code)) throw new Error(`account ${code} is a bank: use add`)
    this.put(code, day, entry)
    this.lineRows++
  }

  private put(code: string, day: CalendarDate.Day, entry: Entry): void {
    if (day < FIRST_DAY || day > LAST_DAY) throw new Error("a row outside the report's period")
    const buckets = this.days.get(code) ?? []
    this.days.set(code, buckets)
    ;(buckets[day - FIRST_DAY] ??= []).push(entry)
  }

  /** How many rows the bank sections hold. */
  get size(): number {
    return this.bankRows
  }

  /** How many rows the other accounts' sections hold. */
  get lines(): number {
    return this.lineRows
  }

  /** Writes the report: the banks' sections, then the other accounts' in chart order; returns the bank rows. */
  write(path: string): number {
    const file = new CsvFile(path)
    file.row(["Account Transactions"])
    file.row([ORGANISATION])
    file.row([`For the period 1 January ${YEAR} to 31 December ${YEAR}`])
    file.raw("")
    file.row(HEADER)
    const sections = ACCOUNTS.filter((a) => BANK_CODES.has(a.code) || this.days.has(a.code))
    sections.forEach((account, s) => {
      if (s > 0) file.raw("")
      file.row([account.name, "", "", "", "", "", ""])
      file.row(["", "Opening Balance", "", "", "", "", "0.00"])
      let debits = Money.zero
      let credits = Money.zero
      for (const [offset, bucket] of (this.days.get(account.code) ?? []).entries()) {
        for (const entry of bucket ?? []) {
          if (entry.debit) debits = BigDecimalOps.sum(debits, entry.amount)
          else credits = BigDecimalOps.sum(credits, entry.amount)
          file.row([
            CalendarDate.format(FIRST_DAY + offset),
            entry.source,
            entry.description,
            entry.reference,
            entry.debit ? Money.format2(entry.amount) : "",
            entry.debit ? "" : Money.format2(entry.amount),
            Money.format2(BigDecimalOps.subtract(debits, credits))
          ])
        }
      }
      file.row([`Total ${account.name}`, "", "", "", Money.format2(debits), Money.format2(credits), ""])
    })
    file.close()
    return this.bankRows
  }
}
