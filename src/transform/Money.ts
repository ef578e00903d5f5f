/**
 * Money as exact decimals (`BigDecimal`): parsing source amounts, the platform's rounding (half away from
 * zero, to the cent), and the wire schema that becomes a JSON number only when a body is encoded. The
 * arithmetic is done on the bigints (values aligned by powers of ten, scales added), giving exactly the value
 * and scale that effect's BigDecimal functions followed by `BigDecimal.normalize` give, made the way
 * `normalize` makes them; test/transform/MoneyArithmetic.test.ts proves it against those functions.
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

export type Money = BigDecimal.BigDecimal

export const zero: Money = BigDecimal.fromBigInt(0n)

const powers = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i))
const halves = powers.map((p) => p / 2n)

/** 10^e for a whole e ≥ 0 (a RangeError for a fraction, as effect's scaling throws). */
const pow10 = (e: number): bigint => powers[e] ?? 10n ** BigInt(e)

/** The zero `BigDecimal.normalize` gives for every zero. */
const normalZero = BigDecimal.normalize(BigDecimal.make(0n, 0))

/**
 * `value` × 10^-`scale` without its trailing zeros, marked (as `BigDecimal.normalize` marks what it returns)
 * as its own normal form, so that effect's later `normalize`, `equals` and hashing take it as it is.
 */
const normal = (value: bigint, scale: number): Money => {
  let v = value
  let s = scale
  if (v % 10n === 0n) {
    if (v === 0n) return normalZero
    do {
      v /= 10n
      s--
    } while (v % 10n === 0n)
  }
  const n: Money & { normalized?: Money } = BigDecimal.make(v, s)
  n.normalized = n
  return n
}

/** `n`'s value at `scale` decimals (below `n.scale`), rounded half away from zero. */
const roundedValue = (n: Money, scale: number): bigint => {
  const drop = n.scale - scale
  const half = halves[drop] ?? 5n * pow10(drop - 1)
  return (n.value < 0n ? n.value - half : n.value + half) / pow10(drop)
}

/** effect's rounding, for a `scale` that is not a whole number (which `round` leaves to it). */
const effectRound = (n: Money, scale: number): Money =>
  BigDecimal.normalize(BigDecimal.round(n, { scale, mode: "half-from-zero" }))

const plainDecimal = /^[+-]?(\d+(\.\d*)?|\.\d+)$/

/** Parses a plain decimal string (`1234.50`, `-3`, ``→ none); anything else is none. */
export const parse = (text: string): Option.Option<Money> => {
  const t = text.trim()
  if (!plainDecimal.test(t)) return Option.none()
  const dot = t.indexOf(".")
  return Option.some(
    dot < 0 ? normal(BigInt(t), 0) : normal(BigInt(t.slice(0, dot) + t.slice(dot + 1)), t.length - dot - 1)
  )
}

/** Rounds to `scale` decimals, half away from zero (the platform's and Xero's rounding). */
export const round = (n: Money, scale = 2): Money => {
  if (!Number.isInteger(scale)) return effectRound(n, scale)
  return n.scale <= scale ? normal(n.value, n.scale) : normal(roundedValue(n, scale), scale)
}

export const round2 = (n: Money): Money => round(n, 2)

/**
 * A result equal to an operand is that operand (`BigDecimal.normalize` of it: itself when it is its own normal
 * form), not an object of its own. The plan keeps its books' amounts while it is built, and a cash line's
 * amount, worked out from its debit and credit by a subtraction, a negation and a multiplication by its sign,
 * was three new objects for an amount the row had parsed already (and shared, `StagedCells`).
 */
const operand = BigDecimal.normalize

/** The sum of `xs`: the first amount that is not zero itself when the sum is that amount (`operand`). */
export const sum = (xs: Iterable<Money>): Money => {
  let value = 0n
  let scale = 0
  let first: Money | undefined
  for (const x of xs) {
    if (x.value === 0n) continue
    first ??= x
    if (value === 0n) {
      value = x.value
      scale = x.scale
    } else if (x.scale === scale) value += x.value
    else if (x.scale < scale) value += x.value * pow10(scale - x.scale)
    else {
      value = value * pow10(x.scale - scale) + x.value
      scale = x.scale
    }
  }
  return first !== undefined && value === first.value && scale === first.scale
    ? operand(first)
    : normal(value, scale)
}

/** 1 or −1 (at scale 0, as `fromNumber` makes them): a product by it is the other factor or its negation. */
const isUnit = (n: Money): boolean => n.scale === 0 && (n.value === 1n || n.value === -1n)

/** `x` times `unit`, 1 or −1 (`isUnit`). */
const byUnit = (x: Money, unit: Money): Money => (unit.value === 1n ? operand(x) : negate(x))

export const mul = (a: Money, b: Money): Money =>
  a.value === 0n || b.value === 0n
    ? normalZero
    : isUnit(b)
      ? byUnit(a, b)
      : isUnit(a)
        ? byUnit(b, a)
        : normal(a.value * b.value, a.scale + b.scale)

export const sub = (a: Money, b: Money): Money => {
  if (b.value === 0n) return operand(a)
  if (a.value === 0n) return negate(b)
  const d = a.scale - b.scale
  return d === 0
    ? normal(a.value - b.value, a.scale)
    : d > 0
      ? normal(a.value - b.value * pow10(d), a.scale)
      : normal(a.value * pow10(-d) - b.value, b.scale)
}

export const add = (a: Money, b: Money): Money => {
  if (b.value === 0n) return operand(a)
  if (a.value === 0n) return operand(b)
  const d = a.scale - b.scale
  return d === 0
    ? normal(a.value + b.value, a.scale)
    : d > 0
      ? normal(a.value + b.value * pow10(d), a.scale)
      : normal(a.value * pow10(-d) + b.value, b.scale)
}

/** effect's division: `a` to `scale + 12` decimals, divided to 100 significant digits, then `round`. */
const effectDiv = (a: Money, b: Money, scale: number): Money =>
  effectRound(BigDecimal.unsafeDivide(BigDecimal.scale(a, scale + 12), b), scale)

const quotientLimit = 10n ** 40n
const divisorLimit = 10n ** 60n

/**
 * Division to `scale` decimals, rounded half away from zero; dies on division by zero (a caller bug). The
 * result is effect's (`effectDiv`): `a` first loses any decimals past `scale + 12`, and effect rounds the
 * quotient half up at its 100th digit before `round` takes it to `scale`. Below 10^40 at `scale`, that digit
 * lies 60 or more places past `scale`, and for that first rounding to lift a quotient onto a half the divisor
 * (aligned to `a`) must be 10^60 or more; short of both, one integer division rounded half away from zero
 * gives the same. Beyond them, which no amount comes near, effect's own division does it.
 */
export const div = (a: Money, b: Money, scale: number): Money => {
  if (!Number.isInteger(scale)) return effectDiv(a, b, scale)
  if (b.value === 0n) throw new RangeError("Division by zero")
  const widest = scale + 12
  const av = a.scale > widest ? a.value / pow10(a.scale - widest) : a.value
  if (av === 0n) return normalZero
  const aScale = Math.min(a.scale, widest)
  const bv = b.value
  const shift = scale - aScale + b.scale
  if (shift >= 0 && (bv === 1n || bv === -1n)) return normal(bv === 1n ? av : -av, aScale - b.scale)
  const num = (av < 0n ? -av : av) * (shift > 0 ? pow10(shift) : 1n)
  const den = (bv < 0n ? -bv : bv) * (shift < 0 ? pow10(-shift) : 1n)
  const q = num / den
  if (q >= quotientLimit || den >= divisorLimit) return effectDiv(a, b, scale)
  const rounded = 2n * (num - q * den) >= den ? q + 1n : q
  return normal(av < 0n !== bv < 0n ? -rounded : rounded, scale)
}

/** Numerical equality, as `BigDecimal.equals`. */
export const equals = (a: Money, b: Money): boolean => {
  const d = a.scale - b.scale
  return d === 0
    ? a.value === b.value
    : d > 0
      ? a.value === b.value * pow10(d)
      : a.value * pow10(-d) === b.value
}

export const isZero = BigDecimal.isZero
export const isNegative = BigDecimal.isNegative
/** `-n`, in its normal form (effect's `negate` leaves it to be normalised again when it is compared). */
export const negate = (n: Money): Money => normal(-n.value, n.scale)

/** `|n|`, in its normal form: `n` itself when it is that already and not negative. */
export const abs = (n: Money): Money => (n.value < 0n ? negate(n) : operand(n))
export const greaterThan = BigDecimal.greaterThan

/** `1234.5` → `"1234.50"`: a fixed number of decimals, for reports and messages. */
export const toFixed = (n: Money, decimals = 2): string => {
  const value = !Number.isInteger(decimals)
    ? BigDecimal.scale(BigDecimal.round(n, { scale: decimals, mode: "half-from-zero" }), decimals).value
    : n.scale <= decimals
      ? n.value * pow10(decimals - n.scale)
      : roundedValue(n, decimals)
  const neg = value < 0n
  const digits = (neg ? -value : value).toString().padStart(decimals + 1, "0")
  const body = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
  return neg ? `-${body}` : body
}

/** A number's decimal as `BigDecimal.unsafeFromNumber` reads it (from its shortest text), normalised. */
export const fromNumberText = (n: number): Money => {
  const read = BigDecimal.unsafeFromNumber(n)
  return normal(read.value, read.scale)
}

/**
 * A number as money: the decimal its shortest text shows, normalised (`fromNumberText`), made without that
 * text when it has at most 2 decimals. Below 10^13 in size the cents are a whole number a double holds
 * exactly, and no other decimal of at most 2 places comes back to the same double, so `cents / 100 === n`
 * says the text's decimal is `cents` hundredths. The target's amounts are such numbers: 200,000 of them took
 * 94-157 ms through the text, 20-29 ms this way.
 */
export const fromNumber = (n: number): Money => {
  if (n > -1e13 && n < 1e13) {
    const cents = Math.round(n * 100)
    if (cents / 100 === n) return normal(BigInt(cents), 2)
  }
  return fromNumberText(n)
}

export const toNumber = BigDecimal.unsafeToNumber

/** A money field in a canonical body: a `BigDecimal` in memory, a JSON number on the wire. */
export const Amount = Schema.BigDecimalFromNumber.annotations({ identifier: "Amount" })

/** An amount that must be zero or more. */
export const NonNegativeAmount = Amount.pipe(Schema.nonNegativeBigDecimal()).annotations({
  identifier: "NonNegativeAmount"
})

/** An amount (or rate) that must be strictly positive. */
export const PositiveAmount = Amount.pipe(Schema.positiveBigDecimal()).annotations({
  identifier: "PositiveAmount"
})
