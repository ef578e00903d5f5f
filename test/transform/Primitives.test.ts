import { assert, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Dates from "../../src/transform/Dates.js"
import * as Money from "../../src/transform/Money.js"
import * as Refs from "../../src/transform/Refs.js"

const m = (s: string) => Option.getOrThrow(Money.parse(s))

describe("Dates", () => {
  it("reads day-first source dates and refuses impossible ones", () => {
    assert.deepStrictEqual(Dates.parseDayFirst("31/12/2025"), Option.some("2025-12-31"))
    assert.deepStrictEqual(Dates.parseDayFirst("1/2/2025"), Option.some("2025-02-01"))
    assert.deepStrictEqual(Dates.parseDayFirst("15 Mar 2025"), Option.some("2025-03-15"))
    assert.deepStrictEqual(Dates.parseDayFirst("2024-02-29"), Option.some("2024-02-29"))
    assert.isTrue(Option.isNone(Dates.parseDayFirst("29/02/2023")))
    assert.isTrue(Option.isNone(Dates.parseDayFirst("31/04/2025")))
    assert.isTrue(Option.isNone(Dates.parseDayFirst("2025-12-31T00:00:00Z")))
  })
  it("request dates are YYYY-MM-DD real days only", () => {
    const decode = Schema.decodeUnknownEither(Dates.DateString)
    assert.isTrue(decode("2025-01-31")._tag === "Right")
    for (const bad of ["2023-02-29", "2025-1-31", "2025-01-31T00:00:00Z", 1735603200000]) {
      assert.isTrue(decode(bad)._tag === "Left", String(bad))
    }
  })
  it("response dates: epoch ms ↔ YYYY-MM-DD, NaN and fractions refused", () => {
    const decode = Schema.decodeUnknownEither(Dates.DateFromEpochMs)
    assert.deepStrictEqual(
      Schema.decodeUnknownSync(Dates.DateFromEpochMs)(Date.UTC(2025, 11, 31)),
      "2025-12-31"
    )
    assert.isTrue(decode(Number.NaN)._tag === "Left")
    assert.isTrue(decode(1.5)._tag === "Left")
    assert.strictEqual(Schema.encodeSync(Dates.DateFromEpochMs)("2025-03-01"), Date.UTC(2025, 2, 1))
  })
})

describe("Money", () => {
  it("rounds half away from zero, exactly", () => {
    assert.strictEqual(Money.toFixed(Money.round2(m("0.125"))), "0.13")
    assert.strictEqual(Money.toFixed(Money.round2(m("-0.125"))), "-0.13")
    assert.strictEqual(
      Money.toFixed(Money.round2(m("2.675"))),
      "2.68",
      "2.675 is not 2.67499… as a float would be"
    )
    assert.strictEqual(Money.toFixed(Money.sum([m("0.1"), m("0.2")])), "0.30")
  })
  it("divides to a scale and formats", () => {
    assert.strictEqual(Money.toFixed(Money.div(m("1"), m("1.3412"), 10), 10), "0.7456009544")
    assert.strictEqual(Money.toFixed(m("-5"), 2), "-5.00")
    assert.isTrue(
      Option.isNone(Money.parse("1,234.50")),
      "plain decimals only; formats are the extractor's job"
    )
  })
  it("encodes to a JSON number only at the wire edge", () => {
    assert.strictEqual(Schema.encodeSync(Money.Amount)(m("1234.50")), 1234.5)
  })
  it("reads a number as the decimal its text shows, normalised, with or without the cents' short cut", () => {
    const edges = [
      0, -0, 0.01, -0.01, 0.1, 0.07, 1, 10, 1500, -1500, 99.99, 1234.5, 241302.13, 1e12, 9999999999999.99
    ]
    const beyond = [1e13, -1e13, 123.456, 0.001, 1e-7, 5e20, 0.1 + 0.2, 1 / 3, 12345678901234.5]
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    const amounts = Array.from(
      { length: 20_000 },
      (_, i) => (Math.round(random() * 10 ** (1 + (i % 12))) / 100) * (i % 3 === 0 ? -1 : 1)
    )
    for (const n of [...edges, ...beyond, ...amounts]) {
      const quick = Money.fromNumber(n)
      const read = Money.fromNumberText(n)
      assert.deepStrictEqual([quick.value, quick.scale], [read.value, read.scale], `${n}`)
      assert.strictEqual(BigDecimal.normalize(quick), quick, `${n} is normalised`)
    }
    assert.deepStrictEqual([Money.fromNumber(1500).value, Money.fromNumber(1500).scale], [15n, -2])
    assert.strictEqual(Money.toFixed(Money.fromNumber(0.1 + 0.2), 17), "0.30000000000000004")
  })
})

describe("Refs", () => {
  it("parses, collects and resolves symbolic references", () => {
    assert.deepStrictEqual(Refs.parse("@account:Sales: Export"), {
      entity: "account",
      naturalKey: "Sales: Export",
      key: "account:Sales: Export"
    })
    assert.isUndefined(Refs.parse("3f1c2b9a-uuid"))
    assert.isUndefined(Refs.parse("@nonsense:x"))
    const body = {
      contactResourceId: "@contact:Acme",
      lines: [{ accountResourceId: "@account:Sales" }, { accountResourceId: "id-9" }]
    }
    assert.deepStrictEqual(
      Refs.collect(body).map((r) => r.key),
      ["contact:Acme", "account:Sales"]
    )
    const { value, missing } = Refs.resolve(body, (r) => (r.key === "contact:Acme" ? "c-1" : undefined))
    assert.deepStrictEqual(value, {
      contactResourceId: "c-1",
      lines: [{ accountResourceId: "@account:Sales" }, { accountResourceId: "id-9" }]
    })
    assert.deepStrictEqual(
      missing.map((r) => r.key),
      ["account:Sales"]
    )
  })
})
