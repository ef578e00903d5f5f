/**
 * How documents get paid: the payment state of each document, its 1–3 payments after the document date
 * within the year, and each payment's bank amount. A foreign-currency document is paid from an SGD bank:
 * bank amount = round2(document-currency portion × that month's rate), so the portion is recoverable as
 * round2(bank amount ÷ rate) because every rate is above 1; a USD document may instead be paid through the
 * USD bank, in USD. What credits already settled (`credited`) is not paid again.
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as BigDecimalOps from "effect/BigDecimal"
import type * as CalendarDate from "./CalendarDate.js"
import { BANK } from "./Chart.js"
import { LAST_DAY } from "./Company.js"
import type { Currency } from "./Contacts.js"
import * as ExchangeRates from "./ExchangeRates.js"
import * as Money from "./Money.js"
import type { Prng } from "./Prng.js"

/** Where a document stands at year end. */
export type State = "paid" | "partial" | "unpaid" | "draft" | "voided"

/** One payment of a document. */
export interface Payment {
  readonly day: CalendarDate.Day
  /** Index into `Chart.BANKS`. */
  readonly bank: number
  /** The portion of the document settled, in the document's currency. */
  readonly documentAmount: BigDecimal.BigDecimal
  /** The money that moved, in the bank's currency. */
  readonly bankAmount: BigDecimal.BigDecimal
}

/** The state of an approved document dated `day`: older documents are more likely to be settled. */
export const drawState = (rng: Prng, day: CalendarDate.Day): State => {
  if (day >= LAST_DAY) return "unpaid"
  const age = (LAST_DAY - day) / 365
  return rng.weighted<State>([
    ["paid", 55 * (0.4 + 1.2 * age)],
    ["partial", 15],
    ["unpaid", 30 * (1.6 - 1.2 * age)]
  ])
}

/** The Xero status shown for a state. */
export const statusOf = (state: State): string => {
  switch (state) {
    case "paid":
      return "Paid"
    case "partial":
    case "unpaid":
      return "Awaiting Payment"
    case "draft":
      return "Draft"
    case "voided":
      return "Voided"
  }
}

/** Splits `amount` cents into `parts` instalments of roughly equal size (each at least one cent). */
const splitCents = (rng: Prng, amount: number, parts: number): Array<number> => {
  const count = Math.max(1, Math.min(parts, amount))
  const bounds = [0]
  for (let j = 1; j < count; j++) {
    const previous = bounds[j - 1] ?? 0
    const target = Math.round((amount * (j * 100 + rng.int(-25, 25))) / (count * 100))
    bounds.push(Math.min(amount - (count - j), Math.max(previous + 1, target)))
  }
  bounds.push(amount)
  return bounds.slice(1).map((b, i) => b - (bounds[i] ?? 0))
}

/**
 * The bank money for a document in `currency` goes through: for USD, often the USD bank (half the money
 * coming in, a fifth of what goes out, so the account stays in funds); else mostly DBS, sometimes OCBC.
 */
export const bankFor = (rng: Prng, currency: Currency, inflow: boolean): number =>
  currency === "USD" && rng.chance(inflow ? 0.5 : 0.2) ? BANK.usd : rng.chance(0.8) ? BANK.dbs : BANK.ocbc

/** The money that moves through `bank` for `amount` of a document in `currency` on `day`. */
export const bankAmount = (
  rates: ExchangeRates.RateTable,
  bank: number,
  amount: BigDecimal.BigDecimal,
  currency: Currency,
  day: CalendarDate.Day
): BigDecimal.BigDecimal =>
  currency === "SGD" || bank === BANK.usd
    ? amount
    : Money.round2(BigDecimalOps.multiply(amount, ExchangeRates.rateOn(rates, currency, day)))

/**
 * The payments of a document of `total` in `currency`, dated `day` and due `dueDay`, in `state`, of which
 * `credited` is settled by credits: a paid document's payments cover the rest, a part-paid one's some of it.
 * `inflow`: the payments are money coming in (an invoice's) rather than going out (a bill's).
 */
export const settle = (
  rng: Prng,
  rates: ExchangeRates.RateTable,
  state: State,
  total: BigDecimal.BigDecimal,
  currency: Currency,
  day: CalendarDate.Day,
  dueDay: CalendarDate.Day,
  credited: BigDecimal.BigDecimal,
  inflow: boolean
): Array<Payment> => {
  if (state !== "paid" && state !== "partial") return []
  const totalCents = Number(Money.toCents(total) - Money.toCents(credited))
  if (totalCents <= 0 || (state === "partial" && totalCents < 2)) return []
  const paidCents =
    state === "paid"
      ? totalCents
      : Math.max(1, Math.min(totalCents - 1, Math.round(totalCents * rng.int(20, 80) * 0.01)))
  const parts =
    state === "paid"
      ? rng.weighted([
          [1, 70],
          [2, 22],
          [3, 8]
        ])
      : rng.weighted([
          [1, 75],
          [2, 25]
        ])
  const last = Math.max(day + 1, Math.min(LAST_DAY, dueDay + 45))
  const days = Array.from({ length: parts }, () => rng.int(day + 1, last)).sort((a, b) => a - b)
  return splitCents(rng, paidCents, parts).map((cents, i) => {
    const payDay = days[i] ?? last
    const documentAmount = Money.cents(cents)
    const bank = bankFor(rng, currency, inflow)
    return {
      day: payDay,
      bank,
      documentAmount,
      bankAmount: bankAmount(rates, bank, documentAmount, currency, payDay)
    }
  })
}
