/**
 * Exchange rates as the source holds them (base units per 1 foreign unit, by date): the rate in force on a
 * date and the conversion of an amount between two currencies through the base currency, rounded to the
 * cent half away from zero (the platform's rounding). Amounts the ledger must value are sent in their own
 * currency; these conversions only give the other side of a settlement (a payment's or refund's document
 * amount) and the checks the plan makes.
 */
import * as Money from "./Money.js"
import type { SourceRate } from "./SourceModel.js"

/** The source rate in force on `date` (the latest one on or before it). */
export const rateOn = (
  rates: ReadonlyArray<SourceRate>,
  currency: string,
  date: string
): SourceRate | undefined => {
  let best: SourceRate | undefined
  for (const r of rates)
    if (r.currency === currency && r.date <= date && (!best || r.date > best.date)) best = r
  return best
}

/**
 * `amount` in `from` as `to` on `date`, through the base currency; undefined when a rate is missing. The
 * same currency is the same amount; a blank currency is the base.
 */
export const convert = (
  rates: ReadonlyArray<SourceRate>,
  base: string,
  amount: Money.Money,
  from: string,
  to: string,
  date: string
): Money.Money | undefined => {
  const f = from || base
  const t = to || base
  if (f === t) return amount
  let inBase = amount
  if (f !== base) {
    const r = rateOn(rates, f, date)
    if (!r) return undefined
    inBase = Money.mul(amount, r.basePerUnit)
  }
  if (t === base) return Money.round2(inBase)
  const r = rateOn(rates, t, date)
  return r ? Money.round2(Money.div(inBase, r.basePerUnit, 12)) : undefined
}

/** The currency of a source account named by name or code: its own when the export says, else the base. */
export const accountCurrency = (
  accounts: ReadonlyArray<{ readonly name: string; readonly code: string; readonly currency?: string }>,
  nameOrCode: string,
  base: string
): string => {
  const k = nameOrCode.trim().toLowerCase()
  const a =
    accounts.find((x) => x.code === nameOrCode.trim()) ??
    accounts.find((x) => x.name.trim().toLowerCase() === k)
  return a?.currency || base
}

/**
 * A bank row's amount (in its bank account's currency) as `currency` on the row's date: how a payment's or a
 * refund's document or credit side is valued. Undefined when a rate is missing.
 */
export const bankAmountIn = (
  books: {
    readonly rates: ReadonlyArray<SourceRate>
    readonly accounts: ReadonlyArray<{
      readonly name: string
      readonly code: string
      readonly currency?: string
    }>
  },
  base: string,
  row: { readonly amount: Money.Money; readonly bankAccountName: string; readonly date: string },
  currency: string
): Money.Money | undefined =>
  convert(
    books.rates,
    base,
    row.amount,
    accountCurrency(books.accounts, row.bankAccountName, base),
    currency,
    row.date
  )
