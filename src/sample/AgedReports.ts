/**
 * The source system's own Aged Receivables and Aged Payables Detail of the sample company, computed from the
 * open items of its general ledger and written in Xero's export layout (`AgedReceivablesDetail.csv`,
 * `AgedPayablesDetail.csv`): title rows (report name, organisation, `As at 31 December 2025`, `Ageing by due
 * date`), the header, one heading row per contact (alphabetical) with its documents by date, a `Total
 * <contact>` row, a grand `Total` and a `Percentage of total` row.
 *
 * Amounts are in the base currency (SGD), as Xero shows them by default: what the document still holds on
 * the control account, i.e. foreign documents at their own rate without revaluation — so the report's
 * grand total equals the control account in the Trial Balance of the same date. `Total` is that
 * outstanding amount, `Outstanding Tax` its share of the document's tax. A document is aged by its due
 * date in whole calendar months overdue at the report date: not yet due or under a month in `< 1 Month`,
 * then `1 Month`, `2 Months`, `3 Months`, and `Older` for four or more. A credit the contact holds (a credit
 * note or an overpayment not yet used) shows negative, without a due date, aged by its date; an
 * overpayment, which has no number, shows `Overpayment` as its reference.
 */
import * as CalendarDate from "./CalendarDate.js"
import { ORGANISATION } from "./Company.js"
import { CsvFile } from "./CsvFile.js"
import type { LedgerView, Outstanding, Side } from "./GeneralLedger.js"
import * as Money from "./Money.js"

/** The ageing buckets, oldest last. */
export const BUCKETS = ["< 1 Month", "1 Month", "2 Months", "3 Months", "Older"] as const

/** The report's header row (Xero leaves one column blank before `Total`). */
export const HEADER = [
  "Invoice Date",
  "Due Date",
  "Expected Date",
  "Invoice Number",
  "Invoice Reference",
  ...BUCKETS,
  "",
  "Total",
  "Outstanding Tax"
] as const

/** The report title of each side. */
export const TITLES: Readonly<Record<Side, string>> = {
  AR: "Aged Receivables Detail",
  AP: "Aged Payables Detail"
}

/** What a written report holds: documents, contacts and its grand total in cents. */
export interface Written {
  readonly documents: number
  readonly contacts: number
  readonly total: bigint
}

/** The bucket of a document due on `dueDay`, as at `asAt`. */
export const bucketOf = (dueDay: CalendarDate.Day, asAt: CalendarDate.Day): number =>
  Math.min(BUCKETS.length - 1, Math.max(0, CalendarDate.monthsBetween(dueDay, asAt)))

/** round(a × b / c), half away from zero, in integers. */
const mulDiv = (a: bigint, b: bigint, c: bigint): bigint => {
  const n = a * b
  const q = n / c
  const r = n % c
  const twice = (r < 0n ? -r : r) * 2n
  const up = twice >= (c < 0n ? -c : c)
  return up ? q + (n < 0n !== c < 0n ? -1n : 1n) : q
}

const text = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const order = (a: Outstanding, b: Outstanding): number =>
  text(a.item.contact.toLowerCase(), b.item.contact.toLowerCase()) ||
  text(a.item.contact, b.item.contact) ||
  a.item.day - b.item.day ||
  text(a.item.number, b.item.number)

const money = (cents: bigint, blankZero: boolean): string =>
  blankZero && cents === 0n ? "" : Money.formatReport(cents)

/** One row's amount cells: the buckets (one filled), the blank column, the total and the tax. */
const amountCells = (buckets: ReadonlyArray<bigint>, total: bigint, tax: bigint, blankZero: boolean) => [
  ...buckets.map((b) => money(b, blankZero)),
  "",
  money(total, false),
  money(tax, false)
]

const percent = (part: bigint, whole: bigint): string => {
  const hundredths = mulDiv(part, 10_000n, whole)
  const negative = hundredths < 0n
  const digits = (negative ? -hundredths : hundredths).toString().padStart(3, "0")
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}%`
}

/** Writes one side's Aged Detail report as at the ledger's report date; returns what it holds. */
export const write = (path: string, ledger: LedgerView, side: Side): Written => {
  const asAt = ledger.asAt
  const open = ledger.outstanding(side).sort(order)
  const file = new CsvFile(path)
  file.row([TITLES[side]])
  file.row([ORGANISATION])
  file.row([`As at ${CalendarDate.formatLong(asAt)}`])
  file.row(["Ageing by due date"])
  file.raw("")
  file.row(HEADER)
  const grand = BUCKETS.map(() => 0n)
  let grandTotal = 0n
  let grandTax = 0n
  let contacts = 0
  for (let i = 0; i < open.length;) {
    const contact = open[i]!.item.contact
    const buckets = BUCKETS.map(() => 0n)
    let total = 0n
    let tax = 0n
    file.row([contact])
    contacts++
    for (; i < open.length && open[i]!.item.contact === contact; i++) {
      const { item, cents } = open[i]!
      const bucket = bucketOf(item.dueDay ?? item.day, asAt)
      const rowBuckets = BUCKETS.map((_, b) => (b === bucket ? cents : 0n))
      const outstandingTax = item.totalCents === 0n ? 0n : mulDiv(item.taxCents, cents, item.totalCents)
      file.row([
        CalendarDate.formatShort(item.day),
        item.dueDay === undefined ? "" : CalendarDate.formatShort(item.dueDay),
        "",
        item.number,
        item.reference,
        ...amountCells(rowBuckets, cents, outstandingTax, true)
      ])
      buckets[bucket] = (buckets[bucket] ?? 0n) + cents
      total += cents
      tax += outstandingTax
    }
    file.row([`Total ${contact}`, "", "", "", "", ...amountCells(buckets, total, tax, false)])
    buckets.forEach((b, k) => (grand[k] = (grand[k] ?? 0n) + b))
    grandTotal += total
    grandTax += tax
  }
  file.raw("")
  file.row(["Total", "", "", "", "", ...amountCells(grand, grandTotal, grandTax, false)])
  if (grandTotal !== 0n)
    file.row([
      "Percentage of total",
      "",
      "",
      "",
      "",
      ...grand.map((b) => percent(b, grandTotal)),
      "",
      percent(grandTotal, grandTotal),
      ""
    ])
  file.close()
  return { documents: open.length, contacts, total: grandTotal }
}
