/**
 * Sales invoices and bills as whole documents: contact, numbering, dates, lines, totals, status and
 * payments, drawn one at a time so any number of them can be streamed to disk. A document is drawn in two
 * steps — its draft (contact, dates, lines), then its settlement — so that a credit note or an advance drawn
 * from the draft can settle part of it before its payments are drawn.
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as BigDecimalOps from "effect/BigDecimal"
import type * as CalendarDate from "./CalendarDate.js"
import { FIRST_DAY, LAST_DAY } from "./Company.js"
import type { Contact, Currency } from "./Contacts.js"
import * as Contacts from "./Contacts.js"
import { PROFILES } from "./BillCategories.js"
import type { RateTable } from "./ExchangeRates.js"
import type { Item } from "./Items.js"
import type { Line } from "./Lines.js"
import * as Lines from "./Lines.js"
import * as Money from "./Money.js"
import type { Prng } from "./Prng.js"
import type { Payment, State } from "./Settlement.js"
import * as Settlement from "./Settlement.js"
import * as Tracking from "./Tracking.js"

/** A sales invoice or a bill before its settlement is drawn. */
export interface Draft {
  readonly kind: "invoice" | "bill"
  readonly number: string
  readonly reference: string
  readonly contact: Contact
  readonly day: CalendarDate.Day
  readonly dueDay: CalendarDate.Day
  readonly currency: Currency
  readonly lines: ReadonlyArray<Line>
  readonly taxTotal: BigDecimal.BigDecimal
  readonly total: BigDecimal.BigDecimal
}

/** A sales invoice or a bill with its state, payments and what credits settled of it. */
export interface Document extends Draft {
  readonly state: State
  readonly payments: ReadonlyArray<Payment>
  /** What credit notes, overpayments and prepayments allocated to it settle, in its currency. */
  readonly credited: BigDecimal.BigDecimal
  /** Payments and credits together (Xero's InvoiceAmountPaid). */
  readonly amountPaid: BigDecimal.BigDecimal
}

/** Which contacts may receive documents in each currency, with relative weights. */
type Pools = Readonly<Record<Currency, ReadonlyArray<readonly [Contact, number]>>>

/** What drawing documents needs. */
export interface Context {
  readonly items: ReadonlyArray<Item>
  readonly rates: RateTable
  readonly customers: Pools
  readonly suppliers: Pools
}

const CURRENCY_MIX: ReadonlyArray<readonly [Currency, number]> = [
  ["SGD", 77],
  ["USD", 15],
  ["EUR", 8]
]

const pools = (contacts: ReadonlyArray<Contact>, weight: (c: Contact) => number): Pools => {
  const of = (currency: Currency) =>
    contacts.filter((c) => c.currency === currency).map((c) => [c, weight(c)] as const)
  return { SGD: of("SGD"), USD: of("USD"), EUR: of("EUR") }
}

/** The drawing context for a company's contacts, items and rates. */
export const context = (
  contacts: ReadonlyArray<Contact>,
  items: ReadonlyArray<Item>,
  rates: RateTable
): Context => ({
  items,
  rates,
  customers: pools(contacts.filter(Contacts.isCustomer), () => 1),
  suppliers: pools(contacts.filter(Contacts.isSupplier), (c) =>
    c.category ? PROFILES[c.category].frequency : 1
  )
})

/** A contact in a currency drawn from the mix, or in `forced` when given (SGD when none deals in it). */
const pickContact = (rng: Prng, pools: Pools, forced: Currency | undefined): Contact => {
  const drawn = rng.weighted(CURRENCY_MIX)
  const currency = forced ?? drawn
  const pool = pools[currency].length > 0 ? pools[currency] : pools.SGD
  return rng.weighted(pool)
}

/** The `index`-th of `count` document dates: spread over the year, never decreasing. */
export const dayOf = (rng: Prng, index: number, count: number): CalendarDate.Day =>
  FIRST_DAY +
  Math.min(LAST_DAY - FIRST_DAY, Math.floor(((index + rng.next()) * (LAST_DAY - FIRST_DAY + 1)) / count))

const draft = (
  base: Pick<Draft, "kind" | "number" | "reference" | "contact" | "day" | "dueDay">,
  lines: ReadonlyArray<Line>
): Draft => {
  const taxTotal = Money.sum(lines.map((l) => l.taxAmount))
  const total = BigDecimalOps.sum(Money.sum(lines.map((l) => l.lineAmount)), taxTotal)
  return { ...base, currency: base.contact.currency, lines, taxTotal, total }
}

/** The state a document is in: `special` when forced, else drawn from its date. */
export const stateOf = (rng: Prng, d: Draft, special: "draft" | "voided" | undefined): State =>
  special ?? Settlement.drawState(rng, d.day)

/** The document `d` in `state` (paid if credits settle all of it), `credited` by credits, with its payments. */
export const settle = (
  rng: Prng,
  ctx: Context,
  d: Draft,
  state: State,
  credited: BigDecimal.BigDecimal = Money.zero
): Document => {
  const settled =
    (state === "partial" || state === "unpaid") && BigDecimalOps.equals(credited, d.total) ? "paid" : state
  const inflow = d.kind === "invoice"
  const payments = Settlement.settle(
    rng,
    ctx.rates,
    settled,
    d.total,
    d.currency,
    d.day,
    d.dueDay,
    credited,
    inflow
  )
  return {
    ...d,
    state: settled,
    payments,
    credited,
    amountPaid: BigDecimalOps.sum(Money.sum(payments.map((p) => p.documentAmount)), credited)
  }
}

/** Sales invoice number `index` (0-based) of `count`, to a customer in `currency` when given. */
export const invoice = (
  rng: Prng,
  ctx: Context,
  index: number,
  count: number,
  currency?: Currency
): Draft => {
  const contact = pickContact(rng, ctx.customers, currency)
  const day = dayOf(rng, index, count)
  const lines = Lines.sales(rng, ctx.items, contact.currency, day, Tracking.forSale(rng))
  const base = {
    kind: "invoice" as const,
    number: `INV-${String(index + 1).padStart(4, "0")}`,
    reference: rng.chance(0.45) ? `PO-${rng.int(1000, 99999)}` : "",
    contact,
    day,
    dueDay: day + contact.salesTermDays
  }
  return draft(base, lines)
}

/** Issues supplier invoice numbers in each supplier's own style, unique across the file. */
export class BillNumbers {
  private readonly next = new Map<string, number>()
  private own = 0

  /** The next number for a bill from `supplier`. */
  take(rng: Prng, supplier: Contact): string {
    if (supplier.billStyle === 2) return `BILL-${String(++this.own).padStart(4, "0")}`
    const seen = this.next.get(supplier.billPrefix)
    const n = seen === undefined ? (supplier.billStyle === 0 ? rng.int(10, 89) * 1000 : 1) : seen + 1
    this.next.set(supplier.billPrefix, n)
    return supplier.billStyle === 0
      ? `${supplier.billPrefix}-${n}`
      : `${supplier.billPrefix}/25/${String(n).padStart(4, "0")}`
  }
}

/** Bill number `index` (0-based) of `count`, from a supplier in `currency` when given. */
export const bill = (
  rng: Prng,
  ctx: Context,
  numbers: BillNumbers,
  index: number,
  count: number,
  currency?: Currency
): Draft => {
  const contact = pickContact(rng, ctx.suppliers, currency)
  const day = dayOf(rng, index, count)
  const category = contact.category ?? "office"
  const lines = Lines.bill(rng, ctx.items, category, contact.currency, day, Tracking.forBill(rng))
  const base = {
    kind: "bill" as const,
    number: numbers.take(rng, contact),
    reference: rng.chance(0.3) ? `Order ${rng.int(1000, 9999)}` : "",
    contact,
    day,
    dueDay: day + contact.billTermDays
  }
  return draft(base, lines)
}
