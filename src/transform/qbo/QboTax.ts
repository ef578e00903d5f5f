/**
 * Sales tax from the Journal: QuickBooks posts a sale's tax as one line to Sales Tax Payable, computed on the
 * sum of the taxable lines, and does not say which lines were taxable or at what rate. The rule:
 * 1. a line is taxable unless its description is the sales description (or name) of a product or service
 *    marked `Taxable: No` in Products and Services; when no rate fits those lines, every line is taxable
 *    (the rate the tax line names is tried on both before a rate is inferred on either);
 * 2. the rate is the percentage the tax line's description ends in (QuickBooks writes the rate's name there,
 *    `Austin TX 8.25%`) when, applied to the taxable lines' sum and rounded to the cent, it gives the tax
 *    exactly; else the tax ÷ that sum as a percentage with the fewest decimals (0 to 3) that does;
 * 3. the platform computes tax line by line (each rounded to the cent), which can differ from QuickBooks' one
 *    rounding by a cent or two: then, for each cent, the largest taxable line (first of equal ones) whose
 *    split can do it is split into two lines of the same account, description and total whose own roundings
 *    make up that cent (the most even such split). The ledger is unchanged (same accounts, same amounts, same tax).
 * No rate fitting: the document is rejected. The lines' tax rate name is the tax line's description when it
 * ends in the rate, else the rate (`8.25%`); the plan resolves it through `mappings/qbo/tax-codes.json`, else
 * to the target's tax profile of that rate (of that name when several).
 */
import * as Option from "effect/Option"
import { normalizeName } from "../Mappings.js"
import * as Money from "../Money.js"

const hundred = Money.fromNumber(100)
const cent = Money.fromNumber(0.01)

export interface TaxedLine {
  /** The index of the source line it is (a split line gives two). */
  readonly index: number
  readonly amount: Money.Money
  readonly taxable: boolean
  readonly tax: Money.Money
}

export interface TaxInference {
  /** The rate in percent (e.g. 8.25), or undefined when the tax is zero. */
  readonly rate: Money.Money | undefined
  readonly lines: ReadonlyArray<TaxedLine>
}

/** The tax rate name the lines carry: `8.25%`. */
export const rateName = (rate: Money.Money): string => `${Money.toFixed(rate, 3).replace(/\.?0+$/, "")}%`

/** The platform's tax on one line: amount × rate, rounded half away from zero to the cent. */
export const lineTax = (amount: Money.Money, rate: Money.Money) =>
  Money.round2(Money.div(Money.mul(amount, rate), hundred, 12))

/** The percentage a tax rate's name ends in (`Austin TX 8.25%` → 8.25), if any. */
export const namedRate = (name: string): Money.Money | undefined => {
  const m = /(?:^|\s)(\d+(?:\.\d+)?)\s*%$/.exec(name.trim())
  return m === null ? undefined : Money.parse(m[1]!).pipe(Option.getOrUndefined)
}

const rateFor = (
  base: Money.Money,
  tax: Money.Money,
  named: Money.Money | undefined
): Money.Money | undefined => {
  if (Money.isZero(base)) return undefined
  if (named !== undefined) return Money.equals(lineTax(base, named), tax) ? named : undefined
  const exact = Money.div(Money.mul(tax, hundred), base, 12)
  for (let digits = 0; digits <= 3; digits++) {
    const rate = Money.round(exact, digits)
    if (Money.greaterThan(rate, Money.zero) && Money.equals(lineTax(base, rate), tax)) return rate
  }
  return undefined
}

/** Two parts of `amount` whose taxes add up to its own tax + `step` (±1 cent), the most even such split. */
const splitFor = (amount: Money.Money, rate: Money.Money, step: Money.Money) => {
  const whole = lineTax(amount, rate)
  const cents = Number(Money.toFixed(Money.mul(amount, hundred), 0))
  // The most even split first: halves, then one cent further apart each way.
  const order = Array.from({ length: Math.max(cents - 1, 0) }, (_, i) => i + 1).sort(
    (a, b) => Math.abs(2 * a - cents) - Math.abs(2 * b - cents) || a - b
  )
  for (const c of order) {
    const first = Money.mul(Money.fromNumber(c), cent)
    const second = Money.sub(amount, first)
    if (Money.equals(Money.add(lineTax(first, rate), lineTax(second, rate)), Money.add(whole, step)))
      return [first, second] as const
  }
  return undefined
}

const attempt = (
  amounts: ReadonlyArray<Money.Money>,
  taxable: ReadonlyArray<boolean>,
  tax: Money.Money,
  named: Money.Money | undefined
) => {
  const rate = rateFor(Money.sum(amounts.filter((_, i) => taxable[i])), tax, named)
  if (rate === undefined) return undefined
  let lines: Array<TaxedLine> = amounts.map((amount, i) => ({
    index: i,
    amount,
    taxable: taxable[i]!,
    tax: taxable[i] ? lineTax(amount, rate) : Money.zero
  }))
  for (let guard = 0; guard < amounts.length * 2 + 2; guard++) {
    const gap = Money.sub(tax, Money.sum(lines.map((l) => l.tax)))
    if (Money.isZero(gap)) return { rate, lines }
    const step = Money.isNegative(gap) ? Money.negate(cent) : cent
    const order = lines
      .map((l, at) => ({ l, at }))
      .filter(({ l }) => l.taxable && Money.greaterThan(l.amount, Money.zero))
      .sort((a, b) =>
        Money.greaterThan(b.l.amount, a.l.amount)
          ? 1
          : Money.greaterThan(a.l.amount, b.l.amount)
            ? -1
            : a.at - b.at
      )
    let split = false
    for (const { l, at } of order) {
      const parts = splitFor(l.amount, rate, step)
      if (parts === undefined) continue
      lines = [
        ...lines.slice(0, at),
        ...parts.map((amount) => ({ index: l.index, amount, taxable: true, tax: lineTax(amount, rate) })),
        ...lines.slice(at + 1)
      ]
      split = true
      break
    }
    if (!split) return undefined
  }
  return undefined
}

/**
 * The rate and per-line tax of a sale whose lines (amount and description) carry `tax` in all; undefined when
 * no rate fits. `taxableByDescription` holds items' Taxable flags by normalized sales description and name.
 */
export const infer = (
  lines: ReadonlyArray<{ readonly amount: Money.Money; readonly description: string }>,
  tax: Money.Money,
  taxableByDescription: ReadonlyMap<string, boolean>,
  taxName = ""
): TaxInference | undefined => {
  const named = namedRate(taxName)
  const amounts = lines.map((l) => l.amount)
  if (Money.isZero(tax))
    return {
      rate: undefined,
      lines: amounts.map((amount, index) => ({ index, amount, taxable: false, tax: Money.zero }))
    }
  const byItem = lines.map((l) => taxableByDescription.get(normalizeName(l.description)) ?? true)
  const every = lines.map(() => true)
  // The named rate on the products' taxable lines, then on every line; then an inferred rate likewise.
  for (const rate of named === undefined ? [undefined] : [named, undefined])
    for (const taxable of byItem.every((t) => t) ? [byItem] : [byItem, every]) {
      const found = attempt(amounts, taxable, tax, rate)
      if (found !== undefined) return found
    }
  return undefined
}
