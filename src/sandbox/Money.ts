/** Exact decimal money arithmetic: amounts held as integer cents, rates and prices as scaled bigints. */

/** A decimal value `m / 10^s`. */
export interface Dec {
  readonly m: bigint
  readonly s: number
}

const pow10 = (s: number): bigint => 10n ** BigInt(s)

/** Parses a finite JSON number into its exact shortest decimal form. */
export const toDec = (n: number): Dec => {
  const text = Math.abs(n) < 1e-6 || Math.abs(n) >= 1e21 ? n.toFixed(20).replace(/0+$/, "") : String(n)
  const [mant = "0", expPart] = text.toLowerCase().split("e")
  const exp = expPart === undefined ? 0 : Number(expPart)
  const negative = mant.startsWith("-")
  const [int = "0", frac = ""] = mant.replace("-", "").split(".")
  let m = BigInt(int + frac)
  let s = frac.length - exp
  if (s < 0) {
    m = m * pow10(-s)
    s = 0
  }
  return { m: negative ? -m : m, s }
}

/** Number of decimal places a JSON number carries. */
export const decimals = (n: number): number => {
  const d = toDec(n)
  let { m, s } = d
  while (s > 0 && m % 10n === 0n) {
    m /= 10n
    s--
  }
  return s
}

/** Integer division rounding half away from zero. */
export const divRound = (n: bigint, d: bigint): bigint => {
  if (d < 0n) return divRound(-n, -d)
  const q = n / d
  const r = n % d
  if (r === 0n) return q
  const twice = (r < 0n ? -r : r) * 2n
  if (twice >= d) return n < 0n ? q - 1n : q + 1n
  return q
}

/** Exact cents of a number with at most two decimals (callers check `decimals` first). */
export const cents = (n: number): number => Math.round(n * 100)

/** JSON number of an amount in cents. */
export const amount = (c: number): number => c / 100

/** round2(a × b) in cents, half away from zero. */
export const mulCents = (a: number, b: number): number => {
  const x = toDec(a)
  const y = toDec(b)
  return Number(divRound(x.m * y.m * 100n, pow10(x.s + y.s)))
}

/** Tax in cents on a net line amount at `vat` percent (exclusive) or contained in it (inclusive). */
export const taxCents = (lineCents: number, vat: number, inclusive: boolean): number => {
  const v = toDec(vat)
  const hundred = 100n * pow10(v.s)
  return Number(divRound(BigInt(lineCents) * v.m, inclusive ? hundred + v.m : hundred))
}

/** Converts foreign cents to base cents with `rate` foreign units per 1 base unit. */
export const toBase = (foreignCents: number, rate: number): number => {
  const r = toDec(rate)
  return Number(divRound(BigInt(foreignCents) * pow10(r.s), r.m))
}

/** The inverse of a rate, to 10 significant decimals. */
export const invert = (rate: number): number => {
  const r = toDec(rate)
  const scaled = divRound(pow10(r.s + 12), r.m)
  return Number(scaled) / 1e12
}
