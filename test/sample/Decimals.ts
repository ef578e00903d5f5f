/**
 * Exact decimal and date helpers for checking sample files, written independently of the generator.
 */
import { assert } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"

/** A plain decimal cell, asserted to be one. */
export const dec = (text: string): BigDecimal.BigDecimal => {
  assert.match(text, /^-?\d+(\.\d+)?$/, `not a plain decimal: "${text}"`)
  return BigDecimal.unsafeFromString(text)
}
/** Rounds to 2 decimals, half away from zero. */
export const r2 = (x: BigDecimal.BigDecimal) => BigDecimal.round(x, { scale: 2, mode: "half-from-zero" })
/** Asserts two decimals are equal. */
export const same = (a: BigDecimal.BigDecimal, b: BigDecimal.BigDecimal, what: string) =>
  assert.isTrue(BigDecimal.equals(a, b), `${what}: ${BigDecimal.format(a)} ≠ ${BigDecimal.format(b)}`)
/** The exact sum. */
export const total = (xs: ReadonlyArray<BigDecimal.BigDecimal>) =>
  xs.reduce(BigDecimal.sum, BigDecimal.fromBigInt(0n))
/** A 2-dp amount cell, asserted to be one. */
export const money = (text: string) => {
  assert.match(text, /^-?\d+\.\d{2}$/, `not a 2-dp amount: "${text}"`)
  return dec(text)
}
/** Days since 1970 of a DD/MM/YYYY cell, asserted to be one. */
export const dayOf = (dmy: string): number => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(dmy)
  assert.isNotNull(m, `not DD/MM/YYYY: "${dmy}"`)
  return Date.UTC(Number(m?.[3]), Number(m?.[2]) - 1, Number(m?.[1])) / 86_400_000
}
/** The first and last day of 2025. */
export const Y2025 = [Date.UTC(2025, 0, 1) / 86_400_000, Date.UTC(2025, 11, 31) / 86_400_000] as const
/** A report amount cell (`1,234.50`, `-0.05`), asserted to be one; blank is zero. */
export const reportMoney = (text: string) => {
  if (text === "") return BigDecimal.fromBigInt(0n)
  assert.match(text, /^-?\d{1,3}(,\d{3})*\.\d{2}$/, `not a report amount: "${text}"`)
  return dec(text.replace(/,/g, ""))
}
/** Days since 1970 of a report date such as `05 Feb 2025`, asserted to be one. */
export const reportDayOf = (text: string): number => {
  const m = /^(\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4})$/.exec(text)
  assert.isNotNull(m, `not a report date: "${text}"`)
  const month = "JanFebMarAprMayJunJulAugSepOctNovDec".indexOf(m?.[2] ?? "") / 3
  return Date.UTC(Number(m?.[3]), month, Number(m?.[1])) / 86_400_000
}
/**
 * What `amount` moved through a bank in `bankCurrency` settles of a document in `currency`: the amount
 * itself when the currencies agree, else (an SGD bank paying a foreign document) round2(amount ÷ rate),
 * asserted to convert back to the amount exactly (every rate is above 1, so one portion does).
 */
export const settled = (
  amount: BigDecimal.BigDecimal,
  bankCurrency: string,
  currency: string,
  rate: BigDecimal.BigDecimal,
  what: string
): BigDecimal.BigDecimal => {
  if (bankCurrency === currency) return amount
  assert.strictEqual(bankCurrency, "SGD", `${what}: a foreign bank moves only its own currency`)
  const portion = r2(BigDecimal.unsafeDivide(amount, rate))
  same(r2(BigDecimal.multiply(portion, rate)), amount, `${what}: bank amount round-trips`)
  return portion
}
