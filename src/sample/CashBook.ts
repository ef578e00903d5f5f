/**
 * Money moved straight through the bank accounts, without an invoice or bill: Spend Money (parking, courier,
 * stationery, subscriptions, a trade fair, electricity top-ups, paid to suppliers) and Receive Money
 * (showroom cash sales, delivery charges, ex-display units, an insurance claim, from customers and an
 * insurer), each with one or two lines on distinct accounts, tax-exclusive amounts and GST where it applies,
 * all through the SGD banks; and bank transfers between the SGD banks and to and from the USD bank, whose
 * SGD amount is round2(USD amount × the month's rate), the rate the transfer implies. Spread over the year
 * in date order, each with its own reference.
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as BigDecimalOps from "effect/BigDecimal"
import type { BillCategory } from "./BillCategories.js"
import * as CalendarDate from "./CalendarDate.js"
import type { BankLedger } from "./BankLedger.js"
import { BANK, BANKS, CODES } from "./Chart.js"
import { FIRST_DAY, LAST_DAY } from "./Company.js"
import type { Contact } from "./Contacts.js"
import * as Contacts from "./Contacts.js"
import * as ExchangeRates from "./ExchangeRates.js"
import * as Money from "./Money.js"
import type { Prng } from "./Prng.js"
import * as TaxRates from "./TaxRates.js"

/** One line of a Spend or Receive Money entry: an account, its tax-exclusive amount and the tax on it. */
export interface CashLine {
  readonly account: string
  readonly net: BigDecimal.BigDecimal
  readonly taxType: string
  readonly tax: BigDecimal.BigDecimal
}

/** A Spend Money or Receive Money entry through an SGD bank. */
export interface CashEntry {
  readonly kind: "Spend Money" | "Receive Money"
  readonly day: CalendarDate.Day
  readonly bank: number
  readonly contact: Contact
  readonly reference: string
  readonly description: string
  readonly lines: ReadonlyArray<CashLine>
  /** What moved through the bank: the lines and their tax. */
  readonly gross: BigDecimal.BigDecimal
}

/** A bank transfer: `amountOut` leaves `from` (its currency), `amountIn` reaches `to` (its currency). */
export interface Transfer {
  readonly day: CalendarDate.Day
  readonly from: number
  readonly to: number
  readonly reference: string
  readonly amountOut: BigDecimal.BigDecimal
  readonly amountIn: BigDecimal.BigDecimal
}

interface Template {
  readonly description: string
  /** Who it is paid to or received from: suppliers of a category, or customers. */
  readonly who: BillCategory | "customer"
  /** Account, tax rate on SGD contacts, price range in cents. */
  readonly lines: ReadonlyArray<readonly [string, string, number, number]>
}

const SR = TaxRates.STANDARD_PURCHASES
const SPEND: ReadonlyArray<Template> = [
  { description: "Season parking {month}", who: "travel", lines: [[CODES.travel, SR, 8000, 40000]] },
  { description: "Courier charges {month}", who: "courier", lines: [[CODES.freight, SR, 1500, 18000]] },
  {
    description: "Stationery and same-day delivery",
    who: "office",
    lines: [
      [CODES.officeExpenses, SR, 2500, 30000],
      [CODES.freight, SR, 1200, 6000]
    ]
  },
  {
    description: "Annual plan, card payment",
    who: "software",
    lines: [[CODES.subscriptions, SR, 12000, 90000]]
  },
  {
    description: "Trade fair booth deposit",
    who: "advertising",
    lines: [[CODES.advertising, SR, 50000, 300000]]
  },
  {
    description: "Prepaid electricity top-up",
    who: "utilities",
    lines: [[CODES.utilities, SR, 10000, 60000]]
  }
]

const SS = TaxRates.STANDARD_SUPPLIES
const RECEIVE: ReadonlyArray<Template> = [
  { description: "Showroom cash sale", who: "customer", lines: [[CODES.sales, SS, 15000, 250000]] },
  {
    description: "Delivery charge collected",
    who: "customer",
    lines: [[CODES.serviceIncome, SS, 3500, 15000]]
  },
  { description: "Ex-display unit sold", who: "customer", lines: [[CODES.otherRevenue, SS, 20000, 120000]] },
  {
    description: "Showroom sale with delivery",
    who: "customer",
    lines: [
      [CODES.sales, SS, 30000, 400000],
      [CODES.serviceIncome, SS, 5000, 12000]
    ]
  },
  {
    description: "Claim settled for damaged stock",
    who: "insurance",
    lines: [[CODES.insurance, TaxRates.NO_GST, 20000, 150000]]
  }
]

/** The `k`-th of `count` days spread over the year, in order. */
const spread = (rng: Prng, k: number, count: number): CalendarDate.Day =>
  FIRST_DAY +
  Math.min(LAST_DAY - FIRST_DAY, Math.floor(((k + rng.next()) * (LAST_DAY - FIRST_DAY + 1)) / count))

const entries = (
  rng: Prng,
  contacts: ReadonlyArray<Contact>,
  kind: CashEntry["kind"],
  count: number,
  prefix: string
): Array<CashEntry> => {
  const customers = contacts.filter((c) => Contacts.isCustomer(c) && c.currency === "SGD")
  const suppliers = contacts.filter(Contacts.isSupplier)
  return Array.from({ length: count }, (_, k) => {
    const day = spread(rng, k, count)
    const t = rng.pick(kind === "Spend Money" ? SPEND : RECEIVE)
    const pool = t.who === "customer" ? customers : suppliers.filter((c) => c.category === t.who)
    const contact = rng.pick(pool.length > 0 ? pool : t.who === "customer" ? contacts : suppliers)
    const lines = t.lines.map(([account, rate, lo, hi]): CashLine => {
      const net = Money.cents(rng.int(lo, hi))
      const taxType = contact.currency === "SGD" ? rate : TaxRates.NO_GST
      return { account, net, taxType, tax: TaxRates.taxOn(taxType, net) }
    })
    const { month, year } = CalendarDate.parts(day)
    return {
      kind,
      day,
      bank: rng.chance(0.8) ? BANK.dbs : BANK.ocbc,
      contact,
      reference: `${prefix}-${String(k + 1).padStart(4, "0")}`,
      description: t.description.replace("{month}", `${CalendarDate.monthName(month)} ${year}`),
      lines,
      gross: Money.sum(lines.flatMap((l) => [l.net, l.tax]))
    }
  })
}

/** DBS to OCBC, DBS to USD, OCBC to DBS, USD to DBS, then again. */
const ROUTES: ReadonlyArray<readonly [number, number]> = [
  [BANK.dbs, BANK.ocbc],
  [BANK.dbs, BANK.usd],
  [BANK.ocbc, BANK.dbs],
  [BANK.usd, BANK.dbs]
]

const transfers = (rng: Prng, rates: ExchangeRates.RateTable, count: number): Array<Transfer> =>
  Array.from({ length: count }, (_, k) => {
    const day = spread(rng, k, count)
    const [from, to] = ROUTES[k % ROUTES.length]!
    const reference = `TRF-${String(k + 1).padStart(4, "0")}`
    if (from !== BANK.usd && to !== BANK.usd) {
      const amount = Money.cents(rng.int(2, 40) * 50_000)
      return { day, from, to, reference, amountOut: amount, amountIn: amount }
    }
    const usd = Money.cents((from === BANK.usd ? rng.int(5, 30) : rng.int(20, 100)) * 10_000)
    const sgd = Money.round2(BigDecimalOps.multiply(usd, ExchangeRates.rateOn(rates, "USD", day)))
    return from === BANK.usd
      ? { day, from, to, reference, amountOut: usd, amountIn: sgd }
      : { day, from, to, reference, amountOut: sgd, amountIn: usd }
  })

/** The year's Spend Money, Receive Money and transfers, each list in date order. */
export const generate = (
  rng: Prng,
  contacts: ReadonlyArray<Contact>,
  rates: ExchangeRates.RateTable,
  counts: { readonly spend: number; readonly receive: number; readonly transfers: number }
): { spend: Array<CashEntry>; receive: Array<CashEntry>; transfers: Array<Transfer> } => ({
  spend: entries(rng, contacts, "Spend Money", counts.spend, "PV"),
  receive: entries(rng, contacts, "Receive Money", counts.receive, "OR"),
  transfers: transfers(rng, rates, counts.transfers)
})

/** Records an entry in the bank report: its bank row, and a row per line (net) and for the GST in their sections. */
export const record = (ledger: BankLedger, e: CashEntry): void => {
  const row = { source: e.kind, description: `${e.contact.name} - ${e.description}`, reference: e.reference }
  const receive = e.kind === "Receive Money"
  ledger.add(e.bank, e.day, { ...row, debit: receive, amount: e.gross })
  for (const l of e.lines) ledger.addLine(l.account, e.day, { ...row, debit: !receive, amount: l.net })
  const tax = Money.sum(e.lines.map((l) => l.tax))
  if (!BigDecimalOps.isZero(tax)) ledger.addLine(CODES.gst, e.day, { ...row, debit: !receive, amount: tax })
}

/** Records a transfer in the bank report: money out of one bank's section, into the other's. */
export const recordTransfer = (ledger: BankLedger, t: Transfer): void => {
  const name = (bank: number) => BANKS[bank]?.name ?? `bank ${bank}`
  const row = { source: "Bank Transfer" as const, reference: t.reference }
  ledger.add(t.from, t.day, {
    ...row,
    description: `Bank Transfer to ${name(t.to)}`,
    debit: false,
    amount: t.amountOut
  })
  ledger.add(t.to, t.day, {
    ...row,
    description: `Bank Transfer from ${name(t.from)}`,
    debit: true,
    amount: t.amountIn
  })
}
