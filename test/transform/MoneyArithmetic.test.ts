import { assert, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Hash from "effect/Hash"
import * as Option from "effect/Option"
import * as Money from "../../src/transform/Money.js"

/**
 * Money's arithmetic as it was written with effect's BigDecimal functions: what the bigint arithmetic must
 * give, in value, scale and thrown errors, for every amount of a whole scale (all that effect makes).
 */
const reference = {
  parse: (text: string): Option.Option<Money.Money> => {
    const t = text.trim()
    return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t)
      ? BigDecimal.fromString(t).pipe(Option.map(BigDecimal.normalize))
      : Option.none()
  },
  round: (n: Money.Money, scale = 2) =>
    BigDecimal.normalize(BigDecimal.round(n, { scale, mode: "half-from-zero" })),
  sum: (xs: Iterable<Money.Money>) => BigDecimal.normalize(BigDecimal.sumAll(xs)),
  mul: (a: Money.Money, b: Money.Money) => BigDecimal.normalize(BigDecimal.multiply(a, b)),
  sub: (a: Money.Money, b: Money.Money) => BigDecimal.normalize(BigDecimal.subtract(a, b)),
  add: (a: Money.Money, b: Money.Money) => BigDecimal.normalize(BigDecimal.sum(a, b)),
  div: (a: Money.Money, b: Money.Money, scale: number) =>
    reference.round(BigDecimal.unsafeDivide(BigDecimal.scale(a, scale + 12), b), scale),
  negate: (n: Money.Money) => BigDecimal.normalize(BigDecimal.negate(n)),
  abs: (n: Money.Money) => BigDecimal.normalize(BigDecimal.abs(n)),
  equals: (a: Money.Money, b: Money.Money) => BigDecimal.equals(a, b),
  toFixed: (n: Money.Money, decimals = 2) => {
    const r = BigDecimal.round(n, { scale: decimals, mode: "half-from-zero" })
    const scaled = BigDecimal.scale(r, decimals)
    const neg = scaled.value < 0n
    const digits = (neg ? -scaled.value : scaled.value).toString().padStart(decimals + 1, "0")
    const body = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
    return neg ? `-${body}` : body
  },
  fromNumberText: (n: number) => BigDecimal.normalize(BigDecimal.unsafeFromNumber(n))
}

/** A seeded generator (mulberry32), so that every run draws the same inputs. */
const random = (seed: number) => {
  let s = seed
  const next = () => {
    s = (s + 0x6d2b79f5) | 0
    let t = Math.imul(s ^ (s >>> 15), 1 | s)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const digits = (n: number) => Array.from({ length: n }, (_, i) => int(i === 0 ? 1 : 0, 9)).join("")
  return { next, int, digits, pick: <A>(xs: ReadonlyArray<A>): A => xs[int(0, xs.length - 1)]! }
}
type Random = ReturnType<typeof random>

/**
 * A random amount: zero, small, cents-sized, ending in 5 (a half once rounded a place less) or huge (up to 70
 * digits); sometimes with trailing zeros, negative half the time; mostly at scales 0-15, sometimes -6 to 30;
 * half of them normalised (as effect marks its results), half as `BigDecimal.make` leaves them.
 */
const amount = (r: Random): Money.Money => {
  const kind = r.next()
  let value =
    kind < 0.08
      ? 0n
      : kind < 0.35
        ? BigInt(r.int(0, 10_000))
        : kind < 0.65
          ? BigInt(r.digits(r.int(1, 18)))
          : kind < 0.85
            ? BigInt(r.digits(r.int(1, 8))) * 10n + 5n
            : BigInt(r.digits(r.int(19, 70)))
  if (r.next() < 0.3) value *= 10n ** BigInt(r.int(1, 8))
  if (r.next() < 0.5) value = -value
  const made = BigDecimal.make(value, r.next() < 0.9 ? r.int(0, 15) : r.int(-6, 30))
  return r.next() < 0.5 ? BigDecimal.normalize(made) : made
}

/** The same number at another scale (more trailing zeros, or fewer when it has them). */
const rescaled = (r: Random, n: Money.Money): Money.Money => {
  const normal = BigDecimal.normalize(n)
  const zeros = r.int(0, 6)
  return BigDecimal.make(normal.value * 10n ** BigInt(zeros), normal.scale + zeros)
}

/** Divisors: random amounts and the ones the plan divides by (100, 100 + a VAT rate, ±1 at any scale). */
const divisor = (r: Random): Money.Money =>
  r.next() < 0.6
    ? amount(r)
    : r.pick([
        Money.fromNumber(100),
        Money.fromNumber(120),
        Money.fromNumber(105),
        Money.fromNumber(112.5),
        BigDecimal.make(120n, 0),
        BigDecimal.make(3n, 0),
        BigDecimal.make(-7n, 2),
        BigDecimal.make(13412n, 4),
        BigDecimal.make(1n, r.int(-4, 4)),
        BigDecimal.make(-1n, r.int(-4, 4)),
        BigDecimal.make(10n ** BigInt(r.int(0, 70)), r.int(-5, 15))
      ])

/** N × B + (B − 1) / 2 (B odd): divided by B, a hair below N + ½. */
const nearHalf = (n: bigint, b: bigint) => BigDecimal.make(n * b + (b - 1n) / 2n, 0)

const describeMoney = (n: Money.Money) => `make(${n.value}n, ${n.scale})`

/**
 * Runs the new and the reference function on the same inputs and returns a description of every difference:
 * in value or scale, in `BigDecimal.equals`, in hash, in whether the result is marked as its own normal form,
 * or in what is thrown (the error's class and message).
 */
const differences = (
  cases: ReadonlyArray<{
    readonly label: string
    readonly actual: () => unknown
    readonly expected: () => unknown
  }>
): ReadonlyArray<string> => {
  const attempt = (f: () => unknown) => {
    try {
      return { result: f() }
    } catch (e) {
      return { thrown: e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e) }
    }
  }
  const out: Array<string> = []
  for (const { label, actual, expected } of cases) {
    const a = attempt(actual)
    const e = attempt(expected)
    const show = (o: typeof a) =>
      "thrown" in o
        ? `throws ${o.thrown}`
        : BigDecimal.isBigDecimal(o.result)
          ? describeMoney(o.result)
          : Option.isOption(o.result)
            ? Option.match(o.result as Option.Option<Money.Money>, {
                onNone: () => "none",
                onSome: (m) => `some(${describeMoney(m)})`
              })
            : JSON.stringify(o.result)
    if ("thrown" in a || "thrown" in e) {
      if (!("thrown" in a && "thrown" in e && a.thrown === e.thrown))
        out.push(`${label}: ${show(a)}, expected ${show(e)}`)
      continue
    }
    const got = Option.isOption(a.result)
      ? Option.getOrUndefined(a.result as Option.Option<Money.Money>)
      : a.result
    const want = Option.isOption(e.result)
      ? Option.getOrUndefined(e.result as Option.Option<Money.Money>)
      : e.result
    if (BigDecimal.isBigDecimal(got) && BigDecimal.isBigDecimal(want)) {
      const same =
        Object.keys(got).join() === Object.keys(want).join() &&
        got.value === want.value &&
        got.scale === want.scale &&
        BigDecimal.equals(got, want) &&
        Hash.hash(got) === Hash.hash(want) &&
        BigDecimal.normalize(got) === got &&
        BigDecimal.normalize(want) === want
      if (!same) out.push(`${label}: ${show(a)}, expected ${show(e)}`)
    } else if (got !== want) out.push(`${label}: ${show(a)}, expected ${show(e)}`)
  }
  return out
}

const draws = 20_000

describe("Money's bigint arithmetic gives exactly what effect's BigDecimal functions give", () => {
  it("add, sub and mul", () => {
    const r = random(1)
    const cases = Array.from({ length: draws }, (_, i) => {
      const a = amount(r)
      const b = i % 5 === 0 ? rescaled(r, a) : i % 7 === 0 ? BigDecimal.negate(rescaled(r, a)) : amount(r)
      const label = `${describeMoney(a)} with ${describeMoney(b)}`
      return [
        { label: `add ${label}`, actual: () => Money.add(a, b), expected: () => reference.add(a, b) },
        { label: `sub ${label}`, actual: () => Money.sub(a, b), expected: () => reference.sub(a, b) },
        { label: `mul ${label}`, actual: () => Money.mul(a, b), expected: () => reference.mul(a, b) }
      ]
    }).flat()
    assert.deepStrictEqual(differences(cases).slice(0, 10), [])
  })

  it("negate and abs, and mul by one and minus one", () => {
    const r = random(6)
    const cases = Array.from({ length: draws }, () => {
      const a = amount(r)
      const one = BigDecimal.make(r.next() < 0.5 ? 1n : -1n, r.next() < 0.8 ? 0 : r.int(-3, 3))
      return [
        {
          label: `negate ${describeMoney(a)}`,
          actual: () => Money.negate(a),
          expected: () => reference.negate(a)
        },
        { label: `abs ${describeMoney(a)}`, actual: () => Money.abs(a), expected: () => reference.abs(a) },
        {
          label: `mul ${describeMoney(a)} by ${describeMoney(one)}`,
          actual: () => Money.mul(a, one),
          expected: () => reference.mul(a, one)
        },
        {
          label: `mul ${describeMoney(one)} by ${describeMoney(a)}`,
          actual: () => Money.mul(one, a),
          expected: () => reference.mul(one, a)
        }
      ]
    }).flat()
    assert.deepStrictEqual(differences(cases).slice(0, 10), [])
  })

  it("sum, of arrays and of one-pass iterables", () => {
    const r = random(2)
    const cases = Array.from({ length: draws / 4 }, (_, i) => {
      const xs = Array.from({ length: r.int(0, 12) }, () =>
        r.next() < 0.2 ? rescaled(r, amount(r)) : amount(r)
      )
      if (i % 3 === 0 && xs.length > 1) xs.push(BigDecimal.negate(xs[0]!))
      const label = `sum [${xs.map(describeMoney).join(", ")}]`
      function* once() {
        yield* xs
      }
      return [
        { label, actual: () => Money.sum(xs), expected: () => reference.sum(xs) },
        {
          label: `${label} (a generator)`,
          actual: () => Money.sum(once()),
          expected: () => reference.sum(once())
        }
      ]
    }).flat()
    assert.deepStrictEqual(differences(cases).slice(0, 10), [])
  })

  it("round and round2, half away from zero, on random amounts and on halves and their neighbours", () => {
    const r = random(3)
    const halves = Array.from({ length: draws / 2 }, () => {
      const scale = r.int(-3, 15)
      const below = r.int(1, 6)
      const half = BigInt(r.digits(r.int(1, 20))) * 10n ** BigInt(below) + 5n * 10n ** BigInt(below - 1)
      const n = (r.next() < 0.5 ? -1n : 1n) * (half + BigInt(r.pick([0, 0, 0, 1, -1])))
      return { n: BigDecimal.make(n, scale + below), scale }
    })
    const randoms = Array.from({ length: draws }, () => ({ n: amount(r), scale: r.int(-3, 16) }))
    const cases = [...halves, ...randoms, { n: BigDecimal.make(12345n, 3), scale: 2.5 }].flatMap(
      ({ n, scale }) => [
        {
          label: `round ${describeMoney(n)} to ${scale}`,
          actual: () => Money.round(n, scale),
          expected: () => reference.round(n, scale)
        },
        {
          label: `round2 ${describeMoney(n)}`,
          actual: () => Money.round2(n),
          expected: () => reference.round(n, 2)
        },
        {
          label: `round ${describeMoney(n)}`,
          actual: () => Money.round(n),
          expected: () => reference.round(n)
        }
      ]
    )
    assert.deepStrictEqual(differences(cases).slice(0, 10), [])
    assert.strictEqual(Money.toFixed(Money.round2(BigDecimal.make(-1005n, 3))), "-1.01")
    assert.strictEqual(Money.toFixed(Money.round2(BigDecimal.make(1005n, 3))), "1.01")
  })

  it("div at scales 0-15 and 12, with exact halves, division by zero and effect's 100 digits", () => {
    const r = random(4)
    const randoms = Array.from({ length: draws }, (_, i) => ({
      a: amount(r),
      b: i % 50 === 0 ? BigDecimal.make(0n, r.int(-2, 4)) : divisor(r),
      scale: i % 3 === 0 ? 12 : r.int(0, 15)
    }))
    // a = b × (a half at `scale + 1`): the quotient needs rounding exactly at a half.
    const halves = Array.from({ length: draws / 4 }, () => {
      const b = divisor(r)
      const scale = r.pick([0, 2, 2, 4, 12])
      const half = BigDecimal.make(
        (r.next() < 0.5 ? -1n : 1n) * (BigInt(r.int(0, 99_999)) * 10n + 5n),
        scale + 1
      )
      return { a: BigDecimal.multiply(b, half), b, scale }
    })
    const specials = [
      { a: BigDecimal.make(0n, 0), b: BigDecimal.make(0n, 0), scale: 2 },
      { a: BigDecimal.make(1n, 40), b: BigDecimal.make(3n, 0), scale: 2 },
      // effect rounds the quotient at its 100th digit, …54545 to …5, then to scale 0: one more than exactly
      { a: BigDecimal.make(10n ** 89n + 7n, 0), b: BigDecimal.make(11n, 11), scale: 0 },
      // and a quotient of 120 digits to 100 (at scale -6), short of scale 2
      { a: BigDecimal.make(10n ** 100n, 0), b: BigDecimal.make(3n, 20), scale: 2 },
      // N + (½ − 1/2B) with a 40-digit N and a 61-digit divisor B, then with a 41-digit N and a 60-digit B:
      // rounded at their 100th digit (60 and 59 decimals), both become N + ½, then N + 1
      {
        a: nearHalf(10n ** 39n + 12_345n, 10n ** 60n + 1n),
        b: BigDecimal.make(10n ** 60n + 1n, 0),
        scale: 0
      },
      {
        a: nearHalf(10n ** 40n + 12_345n, 10n ** 59n + 1n),
        b: BigDecimal.make(10n ** 59n + 1n, 0),
        scale: 0
      },
      { a: BigDecimal.make(12345n, 2), b: BigDecimal.make(7n, 0), scale: 2.5 }
    ]
    const cases = [...randoms, ...halves, ...specials].map(({ a, b, scale }) => ({
      label: `div ${describeMoney(a)} by ${describeMoney(b)} to ${scale}`,
      actual: () => Money.div(a, b, scale),
      expected: () => reference.div(a, b, scale)
    }))
    assert.deepStrictEqual(differences(cases).slice(0, 10), [])
    for (const [i, n] of [
      [4, 10n ** 39n + 12_345n],
      [5, 10n ** 40n + 12_345n]
    ] as const) {
      assert.strictEqual(Money.div(specials[i]!.a, specials[i]!.b, 0).value, n + 1n, "exactly, it would be N")
    }
    const roundedTwice = Money.div(specials[2]!.a, specials[2]!.b, 0)
    assert.strictEqual(roundedTwice.value % 1000n, 546n, "exactly, …545.45 would be …545")
    assert.deepStrictEqual(
      [
        Money.div(specials[3]!.a, specials[3]!.b, 2).value % 10n,
        Money.div(specials[3]!.a, specials[3]!.b, 2).scale
      ],
      [3n, -6]
    )
    assert.throws(() => Money.div(Money.fromNumber(1), Money.zero, 2), RangeError)
  })

  it("equals, toFixed, parse and fromNumberText", () => {
    const r = random(5)
    const pairs = Array.from({ length: draws }, (_, i) => {
      const a = amount(r)
      return { a, b: i % 2 === 0 ? rescaled(r, a) : i % 5 === 0 ? BigDecimal.negate(a) : amount(r) }
    })
    const texts = Array.from({ length: draws / 2 }, () => {
      const whole = r.next() < 0.2 ? "" : "0".repeat(r.int(0, 2)) + r.digits(r.int(1, 25))
      const fraction = r.next() < 0.3 ? "" : `.${r.digits(r.int(0, 15))}${"0".repeat(r.int(0, 3))}`
      const text = `${r.pick(["", "", "-", "+"])}${whole || (fraction ? "" : "0")}${fraction}`
      return r.next() < 0.1 ? ` ${text}\t` : text
    })
    const odd = [
      "",
      ".",
      "-",
      "+",
      "-.5",
      "+3.",
      "5.",
      ".5",
      "-0.00",
      "00012.3400",
      "1,234.50",
      "1e5",
      "--1",
      "0x10"
    ]
    const numbers = Array.from({ length: draws / 2 }, () =>
      r.pick([r.next() * 10 ** r.int(-8, 22), r.int(-1e6, 1e6) / 100, -r.next() * 1e4, 1 / r.int(1, 99)])
    )
    const cases = [
      ...pairs.flatMap(({ a, b }) => {
        const decimals = r.int(-2, 15)
        return [
          {
            label: `equals ${describeMoney(a)} ${describeMoney(b)}`,
            actual: () => Money.equals(a, b),
            expected: () => reference.equals(a, b)
          },
          {
            label: `toFixed ${describeMoney(a)} to ${decimals}`,
            actual: () => Money.toFixed(a, decimals),
            expected: () => reference.toFixed(a, decimals)
          },
          {
            label: `toFixed ${describeMoney(a)}`,
            actual: () => Money.toFixed(a),
            expected: () => reference.toFixed(a)
          }
        ]
      }),
      ...[...texts, ...odd].map((t) => ({
        label: `parse ${JSON.stringify(t)}`,
        actual: () => Money.parse(t),
        expected: () => reference.parse(t)
      })),
      ...numbers.flatMap((n) => [
        {
          label: `fromNumberText ${n}`,
          actual: () => Money.fromNumberText(n),
          expected: () => reference.fromNumberText(n)
        },
        {
          label: `fromNumber ${n}`,
          actual: () => Money.fromNumber(n),
          expected: () => reference.fromNumberText(n)
        }
      ])
    ]
    assert.deepStrictEqual(differences(cases).slice(0, 10), [])
  })
})

describe("a result equal to an operand already in its normal form is that operand, not a copy", () => {
  // The plan keeps its books' amounts while it is built: a copy of an amount the row parsed already is one
  // more object for every cash line (three, before: a subtraction, a negation and a multiplication).
  it("add, sub, mul, sum and abs give the operand itself", () => {
    const a = Option.getOrThrow(Money.parse("250.00"))
    const zero = Money.zero
    const identities = {
      "sub(a, 0)": Money.sub(a, zero),
      "add(a, 0)": Money.add(a, zero),
      "add(0, a)": Money.add(zero, a),
      "mul(a, 1)": Money.mul(a, Money.fromNumber(1)),
      "mul(1, a)": Money.mul(Money.fromNumber(1), a),
      "sum([0, a, 0])": Money.sum([zero, a, zero]),
      "abs(a)": Money.abs(a),
      "negate(negate(a)) is not a": Money.negate(Money.negate(a))
    }
    assert.deepStrictEqual(
      Object.entries(identities).map(([label, x]) => [label, x === a]),
      Object.keys(identities).map((label) => [label, !label.endsWith("is not a")])
    )
  })

  it("an operand not in its normal form gives a normal object of its own", () => {
    const made = BigDecimal.make(1250n, 3)
    for (const x of [
      Money.sub(made, Money.zero),
      Money.add(Money.zero, made),
      Money.abs(made),
      Money.sum([made])
    ]) {
      assert.notStrictEqual(x, made)
      assert.deepStrictEqual([x.value, x.scale, BigDecimal.normalize(x) === x], [125n, 2, true])
    }
  })
})
