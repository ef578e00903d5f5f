/**
 * The QuickBooks Online exports of the sample, in QuickBooks' own layouts: the Account List, the customer,
 * vendor and product lists, the Journal report, and the Trial Balance, A/R and A/P Aging Detail and Unpaid
 * Bills computed from the sample's ledger. Reports have a preamble (company, title, period), a heading row
 * whose first column is blank, group headings, `Total for X` rows, a final `TOTAL` and a footer; dates are
 * MM/DD/YYYY; detail amounts are written `1,234.50` / `-1,234.50` and totals `$1,234.50` / `-$1,234.50`.
 */
import * as CalendarDate from "../CalendarDate.js"
import { CsvFile } from "../CsvFile.js"
import * as Money from "../Money.js"
import { type Account, ACCOUNTS, isBalanceSheet, isCreditNature } from "./Chart.js"
import { COMPANY, LAST_DAY, RUN_DAY } from "./Company.js"
import { CUSTOMERS, VENDORS } from "./Contacts.js"
import { PRODUCTS } from "./Products.js"
import type { Ledger, Outstanding, Side, Txn } from "./Ledger.js"

/** The footer in QuickBooks' two forms. */
export const FOOTER_LONG = "Accrual Basis Friday, January 02, 2026 08:01 PM GMTZ"
export const FOOTER_SHORT = "Friday, Jan 02, 2026 10:12:44 AM GMT-6 - Accrual Basis"

const plain = (cents: bigint): string => Money.formatReport(cents)
const dollars = (cents: bigint): string =>
  cents < 0n ? `-$${Money.formatReport(-cents)}` : `$${Money.formatReport(cents)}`
const parenthesised = (cents: bigint): string =>
  cents < 0n ? `(${Money.formatReport(-cents)})` : Money.formatReport(cents)

/** MM/DD/YYYY. */
export const mdy = (day: CalendarDate.Day): string => {
  const p = CalendarDate.parts(day)
  return `${String(p.month).padStart(2, "0")}/${String(p.day).padStart(2, "0")}/${p.year}`
}

/** `December 31, 2025`. */
const long = (day: CalendarDate.Day): string => {
  const p = CalendarDate.parts(day)
  return `${CalendarDate.monthName(p.month)} ${p.day}, ${p.year}`
}

const preamble = (file: CsvFile, title: string, period: string) => {
  for (const text of [COMPANY, title, period]) file.row([text])
  file.raw("")
}

const footer = (file: CsvFile, text: string, width: number) => {
  file.row(Array<string>(width).fill(""))
  file.row([text, ...Array<string>(width - 1).fill("")])
}

/** An account's own balance plus its sub-accounts' (QuickBooks rolls a parent's balance up). */
const rolledUp = (ledger: Ledger, a: Account): bigint =>
  ACCOUNTS.filter((x) => x.full === a.full || x.full.startsWith(`${a.full}:`)).reduce(
    (s, x) => s + ledger.balance(x.full),
    0n
  )

/** `AccountList.csv`; returns the number of accounts. */
export const accountList = (path: string, ledger: Ledger): number => {
  const file = new CsvFile(path)
  file.row([COMPANY])
  file.row(["Account List"])
  file.raw("")
  file.row(["Account #", "Full name", "Type", "Detail type", "Description", "Balance"])
  for (const a of ACCOUNTS) {
    const balance = rolledUp(ledger, a) * (isCreditNature(a.type) ? -1n : 1n)
    file.row([
      a.number,
      a.full,
      a.type,
      a.detail,
      a.description,
      isBalanceSheet(a.type) ? parenthesised(balance) : ""
    ])
  }
  file.raw("")
  file.row([FOOTER_LONG])
  file.close()
  return ACCOUNTS.length
}

/** `Customers.csv` and `Vendors.csv`: the contact lists (no preamble, as QuickBooks exports them). */
export const contactLists = (customersPath: string, vendorsPath: string): [number, number] => {
  const header = ["Phone numbers", "Email", "Full name", "Billing address", "Account #"]
  const customers = new CsvFile(customersPath)
  customers.row(["Customer", ...header])
  for (const c of CUSTOMERS) customers.row([c.name, c.phone, c.email, c.person, c.address, c.accountNo])
  customers.close()
  const vendors = new CsvFile(vendorsPath)
  vendors.row(["Vendor", ...header])
  for (const v of VENDORS) vendors.row([v.name, v.phone, v.email, v.person, v.address, v.accountNo])
  vendors.close()
  return [CUSTOMERS.length, VENDORS.length]
}

const price = (cents: number): string =>
  cents % 100 === 0 ? String(cents / 100) : Money.format2(Money.cents(cents))

/** `ProductsAndServices.csv`. */
export const productList = (path: string): number => {
  const file = new CsvFile(path)
  file.row([
    "Name",
    "SKU",
    "Type",
    "Sales Description",
    "Sales Price/Rate",
    "Income Account",
    "Purchase Description",
    "Purchase Cost",
    "Expense Account",
    "Qty on hand",
    "As of date",
    "Inventory Asset Account",
    "Taxable"
  ])
  for (const p of PRODUCTS)
    file.row([
      p.name,
      p.sku,
      p.type,
      p.description,
      price(p.priceCents),
      p.income,
      p.purchase?.description ?? "",
      p.purchase !== undefined ? price(p.purchase.costCents) : "",
      p.purchase?.expense ?? "",
      "",
      "",
      "",
      p.taxable ? "Yes" : "No"
    ])
  file.close()
  return PRODUCTS.length
}

/** `Journal.csv`: every transaction in date order, each closed by its totals line; returns the totals. */
export const journal = (path: string, txns: ReadonlyArray<Txn>): { debit: bigint; lines: number } => {
  const file = new CsvFile(path)
  const width = 9
  preamble(file, "Journal", "January 1 - December 31, 2025")
  file.row([
    "",
    "Transaction date",
    "Transaction type",
    "Num",
    "Name",
    "Description",
    "Account Name",
    "Debit",
    "Credit"
  ])
  let total = 0n
  let count = 0
  for (const t of txns) {
    let debit = 0n
    let credit = 0n
    t.lines.forEach((l, i) => {
      const first = i === 0
      file.row([
        "",
        first ? mdy(t.day) : "",
        first ? t.type : "",
        first ? t.num : "",
        l.name,
        l.description,
        l.account,
        l.debit !== 0n ? plain(l.debit) : l.zeroSide === "debit" ? "0.00" : "",
        l.credit !== 0n ? plain(l.credit) : l.zeroSide === "credit" ? "0.00" : ""
      ])
      debit += l.debit
      credit += l.credit
      count++
    })
    file.row(["", "", "", "", "", "", "", dollars(debit), dollars(credit)])
    file.row(Array<string>(width).fill(""))
    total += debit
  }
  file.row(["TOTAL", "", "", "", "", "", "", dollars(total), dollars(total)])
  footer(file, FOOTER_LONG, width)
  file.close()
  return { debit: total, lines: count }
}

/** `TrialBalance.csv` as at the year end: every account with a balance; returns its rows and total. */
export const trialBalance = (
  path: string,
  ledger: Ledger
): { accounts: number; debit: bigint; credit: bigint } => {
  const file = new CsvFile(path)
  preamble(file, "Trial Balance", `As of ${long(LAST_DAY)}`)
  file.row(["", "Debit", "Credit"])
  let debit = 0n
  let credit = 0n
  let accounts = 0
  for (const a of ACCOUNTS) {
    const b = ledger.balance(a.full)
    if (b === 0n) continue
    file.row([a.full, b > 0n ? plain(b) : "", b < 0n ? plain(-b) : ""])
    if (b > 0n) debit += b
    else credit -= b
    accounts++
  }
  file.row(["TOTAL", dollars(debit), dollars(credit)])
  footer(file, FOOTER_SHORT, 3)
  file.close()
  if (debit !== credit) throw new Error("the trial balance does not balance")
  return { accounts, debit, credit }
}

/** QuickBooks' aging buckets by days past due at the report date. */
export const BUCKETS = [
  "Current",
  "1 - 30 days past due",
  "31 - 60 days past due",
  "61 - 90 days past due",
  "91 or more days past due"
] as const

const bucketOf = (o: Outstanding, asAt: CalendarDate.Day): (typeof BUCKETS)[number] => {
  const late = asAt - o.item.dueDay
  return late <= 0
    ? BUCKETS[0]
    : late <= 30
      ? BUCKETS[1]
      : late <= 60
        ? BUCKETS[2]
        : late <= 90
          ? BUCKETS[3]
          : BUCKETS[4]
}

const byDate = (a: Outstanding, b: Outstanding) =>
  a.item.day - b.item.day || a.item.num.localeCompare(b.item.num) || a.item.key.localeCompare(b.item.key)

/** `ARAgingDetail.csv` or `APAgingDetail.csv` as at the year end; returns its items and open total. */
export const agingDetail = (path: string, ledger: Ledger, side: Side): { items: number; open: bigint } => {
  const file = new CsvFile(path)
  preamble(file, side === "AR" ? "A/R Aging Detail" : "A/P Aging Detail", `As of ${long(LAST_DAY)}`)
  const who = side === "AR" ? "Customer" : "Vendor"
  file.row(["", "Date", "Transaction Type", "Num", who, "Due Date", "Amount", "Open Balance"])
  const open = ledger.outstanding(side).sort(byDate)
  const totals = { amount: 0n, open: 0n }
  for (const bucket of BUCKETS) {
    const rows = open.filter((o) => bucketOf(o, LAST_DAY) === bucket)
    if (rows.length === 0) continue
    file.row([bucket, "", "", "", "", "", "", ""])
    let amount = 0n
    let balance = 0n
    for (const o of rows) {
      const i = o.item
      file.row(["", mdy(i.day), i.type, i.num, i.name, mdy(i.dueDay), plain(i.cents), plain(o.cents)])
      amount += i.cents
      balance += o.cents
    }
    file.row([`Total for ${bucket}`, "", "", "", "", "", dollars(amount), dollars(balance)])
    totals.amount += amount
    totals.open += balance
  }
  file.row(["TOTAL", "", "", "", "", "", dollars(totals.amount), dollars(totals.open)])
  footer(file, side === "AR" ? FOOTER_LONG : FOOTER_SHORT, 8)
  file.close()
  return { items: open.length, open: totals.open }
}

/** `UnpaidBills.csv`: the open bills by vendor ("All Dates", past due counted to the run date). */
export const unpaidBills = (path: string, ledger: Ledger): { bills: number; open: bigint } => {
  const file = new CsvFile(path)
  preamble(file, "Unpaid Bills", "All Dates")
  file.row(["", "Date", "Transaction type", "Num", "Due date", "Past due", "Amount", "Open balance"])
  const bills = ledger.outstanding("AP").filter((o) => o.item.type === "Bill")
  const vendors = [...new Set(bills.map((o) => o.item.name))].sort((a, b) => a.localeCompare(b))
  const total = { amount: 0n, open: 0n }
  for (const vendor of vendors) {
    file.row([vendor, "", "", "", "", "", "", ""])
    let amount = 0n
    let open = 0n
    for (const o of bills.filter((x) => x.item.name === vendor).sort(byDate)) {
      const i = o.item
      file.row([
        "",
        mdy(i.day),
        "Bill",
        i.num,
        mdy(i.dueDay),
        String(RUN_DAY - i.dueDay),
        plain(i.cents),
        plain(o.cents)
      ])
      amount += i.cents
      open += o.cents
    }
    file.row([`Total for ${vendor}`, "", "", "", "", "", dollars(amount), dollars(open)])
    total.amount += amount
    total.open += open
  }
  file.row(["TOTAL", "", "", "", "", "", dollars(total.amount), dollars(total.open)])
  footer(file, FOOTER_SHORT, 8)
  file.close()
  return { bills: bills.length, open: total.open }
}
