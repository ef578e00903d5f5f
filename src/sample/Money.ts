/**
 * Exact money arithmetic for the sample on effect's `BigDecimal`: two-decimal rounding half away from zero
 * (the rule the downstream emulator uses too), plain `1234.50` formatting for the exports and `1,234.50` for
 * the reports, never floating-point sums.
 */
import * as BigDecimal from "effect/BigDecimal"

/** A value with the given number of hundredths (`cents(1050n)` is 10.50). */
export const cents = (hundredths: bigint | number): BigDecimal.BigDecimal =>
  BigDecimal.make(BigInt(hundredths), 2)

/** A value from an integer count of units at a scale (`units(13412, 4)` is 1.3412). */
export const units = (value: bigint | number, scale: number): BigDecimal.BigDecimal =>
  BigDecimal.make(BigInt(value), scale)

/** Zero. */
export const zero: BigDecimal.BigDecimal = cents(0)

/** Rounds to 2 decimal places, half away from zero. */
export const round2 = (x: BigDecimal.BigDecimal): BigDecimal.BigDecimal =>
  BigDecimal.round(x, { scale: 2, mode: "half-from-zero" })

/** The value in integer hundredths after `round2`. */
export const toCents = (x: BigDecimal.BigDecimal): bigint => BigDecimal.scale(round2(x), 2).value

/** The sum of the values (exact). */
export const sum = (xs: Iterable<BigDecimal.BigDecimal>): BigDecimal.BigDecimal => {
  let total = zero
  for (const x of xs) total = BigDecimal.sum(total, x)
  return total
}

const formatScaled = (value: bigint, scale: number): string => {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0")
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale)
  return `${negative ? "-" : ""}${whole}${scale > 0 ? "." + fraction : ""}`
}

/** Formats with exactly 2 decimals after `round2`: `1234.50`, `-0.05`. */
export const format2 = (x: BigDecimal.BigDecimal): string => formatScaled(toCents(x), 2)

/** Formats with exactly `scale` decimals (the value must not need rounding). */
export const formatFixed = (x: BigDecimal.BigDecimal, scale: number): string =>
  formatScaled(BigDecimal.scale(x, scale).value, scale)

/** Formats a quantity: an integer as `3`, anything else with 2 decimals (`2.75`). */
export const formatQuantity = (x: BigDecimal.BigDecimal): string => {
  const hundredths = toCents(x)
  return hundredths % 100n === 0n ? formatScaled(hundredths / 100n, 0) : formatScaled(hundredths, 2)
}

/** `value × 10^-scale` in whole cents, rounded half away from zero (plain bigints: this runs per line). */
export const roundCents = (value: bigint, scale: number): bigint => {
  if (scale <= 2) return value * 10n ** BigInt(2 - scale)
  const d = 10n ** BigInt(scale - 2)
  const q = value / d
  const r = value % d
  return (r < 0n ? -r : r) * 2n >= d ? q + (value < 0n ? -1n : 1n) : q
}

/** Exact cents of a value that has at most two decimals (an error otherwise). */
export const exactCents = (x: BigDecimal.BigDecimal): bigint => {
  const c = roundCents(x.value, x.scale)
  if (x.scale > 2 && c * 10n ** BigInt(x.scale - 2) !== x.value)
    throw new Error(`not a whole number of cents: ${x.value}e-${x.scale}`)
  return c
}

/** Base cents of an amount at `rate` (base units per unit): round2(amount × rate). */
export const baseCents = (x: BigDecimal.BigDecimal, rate: BigDecimal.BigDecimal): bigint =>
  roundCents(x.value * rate.value, x.scale + rate.scale)

/** Parses a plain decimal written by this module. */
export const parse = (text: string): BigDecimal.BigDecimal => BigDecimal.unsafeFromString(text)

/** Formats integer cents as Xero's reports show money: thousands separated, two decimals (`-1,234.50`). */
export const formatReport = (cents: bigint): string => {
  const plain = formatScaled(cents < 0n ? -cents : cents, 2)
  const [whole = "0", fraction = "00"] = plain.split(".")
  return `${cents < 0n ? "-" : ""}${whole.replace(/\B(?=(\d{3})+$)/g, ",")}.${fraction}`
}
