/**
 * The monthly exchange rates the user supplies for foreign-currency documents (not a Xero export): SGD per
 * unit of USD and EUR on the 1st of each month of the financial year, a gently drifting series always above 1.
 * A document or payment dated in a month uses that month's rate.
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as CalendarDate from "./CalendarDate.js"
import { BASE_CURRENCY, YEAR } from "./Company.js"
import type { Currency } from "./Contacts.js"
import { CsvFile } from "./CsvFile.js"
import * as Money from "./Money.js"
import type { Prng } from "./Prng.js"

/** The foreign currencies of the sample. */
export const FOREIGN: ReadonlyArray<Exclude<Currency, "SGD">> = ["USD", "EUR"]

/** Rates in ten-thousandths of SGD per unit, one per month (January first). */
export type RateTable = Readonly<Record<Exclude<Currency, "SGD">, ReadonlyArray<number>>>

const series = (rng: Prng, start: number, step: number, lo: number, hi: number): Array<number> => {
  const rates = [start]
  for (let m = 1; m < 12; m++) {
    const previous = rates[m - 1] ?? start
    rates.push(Math.min(hi, Math.max(lo, previous + rng.int(-step, step))))
  }
  return rates
}

/** Draws the year's rates: USD around 1.34 and EUR around 1.46. */
export const generate = (rng: Prng): RateTable => ({
  USD: series(rng, 13412, 90, 13000, 13800),
  EUR: series(rng, 14580, 120, 14100, 15200)
})

/** SGD per unit of the currency in the month of `day` (1 for SGD). */
export const rateOn = (
  table: RateTable,
  currency: Currency,
  day: CalendarDate.Day
): BigDecimal.BigDecimal => {
  if (currency === "SGD") return Money.units(1, 0)
  const { year, month } = CalendarDate.parts(day)
  if (year !== YEAR) throw new Error(`no exchange rate outside ${YEAR}: ${CalendarDate.format(day)}`)
  const rate = table[currency][month - 1]
  if (rate === undefined) throw new Error(`no ${currency} rate for month ${month}`)
  return Money.units(rate, 4)
}

/** The header of `ExchangeRates.csv`. */
export const HEADER = ["Date", "Currency", "Base Currency", "Base per Unit"] as const

/** Writes `ExchangeRates.csv`; returns the number of data rows. */
export const write = (path: string, table: RateTable): number => {
  const file = new CsvFile(path)
  file.row(HEADER)
  for (let month = 1; month <= 12; month++) {
    for (const currency of FOREIGN) {
      const day = CalendarDate.make(YEAR, month, 1)
      file.row([
        CalendarDate.format(day),
        currency,
        BASE_CURRENCY,
        Money.formatFixed(rateOn(table, currency, day), 4)
      ])
    }
  }
  return file.close() - 1
}
