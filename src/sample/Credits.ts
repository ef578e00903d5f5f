/**
 * The credits contacts hold, each drawn with the document it belongs to so nothing has to wait for a later
 * one: a credit note (sales or bill) returns part of a document's lines after its date, in its currency; an
 * overpayment or a prepayment is money a customer paid us, or we paid a supplier, ahead of a document, in
 * SGD (Xero keeps prepayments in the base currency only). Its fate says what became of it: allocated to that
 * document in full or in part, refunded in cash, left open as the contact's credit, or (a credit note)
 * voided. A prepayment is used up by the year end in the fates drawn here; one still open at an earlier
 * report date (`--also-at`) sits on its line's account, as Xero holds it (the migration keeps it there too).
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as BigDecimalOps from "effect/BigDecimal"
import type * as CalendarDate from "./CalendarDate.js"
import { BANK, CODES } from "./Chart.js"
import { FIRST_DAY, LAST_DAY } from "./Company.js"
import type { Contact, Currency } from "./Contacts.js"
import type { Draft } from "./Documents.js"
import type { RateTable } from "./ExchangeRates.js"
import * as Lines from "./Lines.js"
import type { Line } from "./Lines.js"
import * as Money from "./Money.js"
import type { Prng } from "./Prng.js"
import * as Settlement from "./Settlement.js"
import * as TaxRates from "./TaxRates.js"

/** What kind of credit it is. */
export type Origin = "credit-note" | "overpayment" | "prepayment"

/** What became of a credit by the year end. */
export type Fate = "allocated" | "allocated-refunded" | "allocated-open" | "refunded" | "open" | "voided"

/** Money paid back: `amount` of the credit (its currency), `bankAmount` through the bank (the bank's). */
export interface Refund {
  readonly day: CalendarDate.Day
  readonly bank: number
  readonly amount: BigDecimal.BigDecimal
  readonly bankAmount: BigDecimal.BigDecimal
}

/** A credit note, overpayment or prepayment with what became of it. */
export interface Credit {
  /** The side: with sales invoices (a customer's credit) or with bills (a supplier's). */
  readonly kind: "invoice" | "bill"
  readonly origin: Origin
  /** The credit note number; "" for overpayments and prepayments, which have none. */
  readonly number: string
  readonly reference: string
  readonly contact: Contact
  readonly day: CalendarDate.Day
  readonly currency: Currency
  readonly lines: ReadonlyArray<Line>
  readonly taxTotal: BigDecimal.BigDecimal
  /** Positive, in the credit's currency. */
  readonly total: BigDecimal.BigDecimal
  readonly voided: boolean
  /** An overpayment's or prepayment's bank, which received or paid its total on its day. */
  readonly bank: number | undefined
  /** What was allocated to the document it was drawn with (zero if nothing), on `allocationDay`. */
  readonly allocated: BigDecimal.BigDecimal
  readonly allocationDay: CalendarDate.Day
  readonly refunds: ReadonlyArray<Refund>
  /** Allocated and refunded together (Xero's InvoiceAmountPaid of a credit). */
  readonly used: BigDecimal.BigDecimal
}

/** Issues credit note numbers: `CN-0001` for sales, `SCN-0001` for bills. */
export class CreditNumbers {
  private sales = 0
  private bills = 0

  /** The next number on a side. */
  take(kind: Credit["kind"]): string {
    return kind === "invoice"
      ? `CN-${String(++this.sales).padStart(4, "0")}`
      : `SCN-${String(++this.bills).padStart(4, "0")}`
  }
}

/** Between `lo` and `hi` percent of `total`, at least a cent and at most all of it. */
const share = (rng: Prng, total: BigDecimal.BigDecimal, lo: number, hi: number): BigDecimal.BigDecimal => {
  const cents = Money.toCents(total)
  const part = (cents * BigInt(rng.int(lo, hi)) + 50n) / 100n
  return Money.cents(part < 1n ? 1n : part > cents ? cents : part)
}

/** A part of `total` to allocate when the rest is refunded or left open (all of it if it cannot split). */
const allocatedPart = (rng: Prng, total: BigDecimal.BigDecimal): BigDecimal.BigDecimal =>
  Money.toCents(total) < 2n ? total : share(rng, total, 30, 70)

/** A credit note line for a document line: items returned, or a price adjustment on anything else. */
const returned = (rng: Prng, l: Line): Line => {
  const quantity = Money.toCents(l.quantity)
  if (l.itemCode !== "" && quantity % 100n === 0n) {
    const back = Money.units(rng.int(1, Number(quantity / 100n)), 0)
    return Lines.line(
      l.itemCode,
      l.description,
      back,
      l.unitAmount,
      l.accountCode,
      l.taxType,
      l.discount,
      l.tracking
    )
  }
  const unit = share(rng, l.lineAmount, 10, 50)
  const one = Money.units(1, 0)
  const text = `Price adjustment: ${l.description}`
  return Lines.line("", text, one, unit, l.accountCode, l.taxType, undefined, l.tracking)
}

/** A refund of `amount` from `from` on: money back to a customer, or from a supplier (`inflow`). */
const refundOn = (
  rng: Prng,
  rates: RateTable,
  currency: Currency,
  from: CalendarDate.Day,
  amount: BigDecimal.BigDecimal,
  inflow: boolean
): Refund => {
  const day = rng.int(Math.min(from, LAST_DAY), Math.min(LAST_DAY, from + 30))
  const bank = Settlement.bankFor(rng, currency, inflow)
  return { day, bank, amount, bankAmount: Settlement.bankAmount(rates, bank, amount, currency, day) }
}

const totals = (lines: ReadonlyArray<Line>) => {
  const taxTotal = Money.sum(lines.map((l) => l.taxAmount))
  return { taxTotal, total: BigDecimalOps.sum(Money.sum(lines.map((l) => l.lineAmount)), taxTotal) }
}

/** What a fate allocates and refunds of `total`, from `from` on. */
const settleFate = (
  rng: Prng,
  rates: RateTable,
  kind: Credit["kind"],
  fate: Fate,
  total: BigDecimal.BigDecimal,
  allocated: BigDecimal.BigDecimal,
  currency: Currency,
  from: CalendarDate.Day
) => {
  const rest = BigDecimalOps.subtract(total, allocated)
  const refunds =
    (fate === "refunded" || fate === "allocated-refunded") && BigDecimalOps.isPositive(rest)
      ? [refundOn(rng, rates, currency, from, rest, kind === "bill")]
      : []
  return { allocated, refunds, used: BigDecimalOps.sum(allocated, Money.sum(refunds.map((r) => r.amount))) }
}

/** A credit note for `doc` (approved), dated after it, with `fate`. */
export const creditNote = (
  rng: Prng,
  rates: RateTable,
  numbers: CreditNumbers,
  doc: Draft,
  fate: Fate
): Credit => {
  const day = doc.day >= LAST_DAY ? LAST_DAY : rng.int(doc.day + 1, Math.min(LAST_DAY, doc.day + 60))
  const picks = rng.distinct(rng.int(1, Math.min(2, doc.lines.length)), 0, doc.lines.length - 1)
  const lines = picks.map((i) => returned(rng, doc.lines[i]!))
  const { taxTotal, total } = totals(lines)
  const allocated =
    fate === "allocated" ? total : fate.startsWith("allocated-") ? allocatedPart(rng, total) : Money.zero
  return {
    kind: doc.kind,
    origin: "credit-note",
    number: numbers.take(doc.kind),
    reference: doc.number,
    contact: doc.contact,
    day,
    currency: doc.currency,
    lines,
    taxTotal,
    total,
    voided: fate === "voided",
    bank: undefined,
    allocationDay: day,
    ...settleFate(rng, rates, doc.kind, fate, total, allocated, doc.currency, day)
  }
}

/** An overpayment or prepayment (SGD) from `doc`'s contact before its date, with `fate` (`doc` is SGD). */
export const advance = (
  rng: Prng,
  rates: RateTable,
  doc: Draft,
  origin: "overpayment" | "prepayment",
  fate: Fate
): Credit => {
  if (doc.currency !== "SGD") throw new Error(`an ${origin} for ${doc.number} must be in SGD`)
  const day = rng.int(Math.max(FIRST_DAY, doc.day - 40), Math.max(FIRST_DAY, doc.day - 1))
  const allocates = fate.startsWith("allocated")
  const allocated = !allocates
    ? Money.zero
    : origin === "prepayment"
      ? share(rng, doc.total, 30, 60)
      : share(rng, doc.total, 40, 100)
  const total =
    fate === "allocated"
      ? allocated
      : BigDecimalOps.sum(allocated, Money.cents((allocates ? rng.int(20, 500) : rng.int(100, 3000)) * 100))
  const sales = doc.kind === "invoice"
  const [description, account, tax] =
    origin === "overpayment"
      ? ["Overpayment", sales ? CODES.accountsReceivable : CODES.accountsPayable, TaxRates.TAX_EXEMPT]
      : [
          sales ? "Deposit received on order" : "Deposit paid on order",
          sales ? CODES.customerDeposits : CODES.prepayments,
          TaxRates.NO_GST
        ]
  const one = Money.units(1, 0)
  return {
    kind: doc.kind,
    origin,
    number: "",
    reference: "",
    contact: doc.contact,
    day,
    currency: "SGD",
    lines: [Lines.line("", description, one, total, account, tax)],
    taxTotal: Money.zero,
    total,
    voided: false,
    bank: rng.chance(0.8) ? BANK.dbs : BANK.ocbc,
    allocationDay: doc.day,
    ...settleFate(rng, rates, doc.kind, fate, total, allocated, "SGD", Math.max(day, doc.day))
  }
}
