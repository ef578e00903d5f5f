import { assert, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Amount from "../../src/extract/Amount.js"
import * as DateOrder from "../../src/extract/DateOrder.js"
import * as Extract from "../../src/extract/Extract.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { dirOf, inputDir, rejectedLines, stagedRows } from "./support.js"

const amount = (s: string, decimal: Amount.DecimalSeparator = ".") =>
  Option.map(Amount.parse(s, decimal), Amount.show).pipe(Option.getOrElse(() => "none"))

describe("Amount", () => {
  it("reads every accountant's spelling of an amount exactly", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["1,234.56", "1234.56"],
      ["(500.00)", "-500"],
      ["$(250.00)", "-250"],
      ["-$12.00", "-12"],
      ["\u22125.00", "-5"],
      ["5.00-", "-5"],
      ["", "0"],
      ["-", "0"],
      ["USD 1,000.10", "1000.1"],
      ["0.1", "0.1"],
      ["1,23", "none"],
      ["12abc", "none"]
    ]
    for (const [text, want] of cases) assert.strictEqual(amount(text), want, text)
    assert.strictEqual(amount("1.234,56", ","), "1234.56")
    assert.strictEqual(amount("1 234,5", ","), "1234.5")
    assert.strictEqual(amount("(1.000,00)", ","), "-1000")
    const sum = BigDecimal.sum(Option.getOrThrow(Amount.parse("0.1")), Option.getOrThrow(Amount.parse("0.2")))
    assert.isTrue(BigDecimal.equals(sum, Option.getOrThrow(Amount.parse("0.3"))))
  })

  it("detects a column's decimal separator, or says it cannot", () => {
    assert.deepStrictEqual(Amount.detectDecimal(["1,234", "1.234,56"]), { _tag: "Decided", decimal: "," })
    assert.deepStrictEqual(Amount.detectDecimal(["12,5", "3"]), { _tag: "Decided", decimal: "," })
    assert.deepStrictEqual(Amount.detectDecimal(["1,234.56", "7"]), { _tag: "Decided", decimal: "." })
    assert.deepStrictEqual(Amount.detectDecimal(["1,234", "2,000"]), { _tag: "Unneeded" })
    assert.deepStrictEqual(Amount.detectDecimal(["1.5", "2,5"]), {
      _tag: "Conflict",
      evidence: '"1.5" has a decimal point, "2,5" a decimal comma'
    })
  })
})

describe("DateOrder", () => {
  it("decides the order from the whole column, whatever the other formats beside it", () => {
    assert.deepStrictEqual(DateOrder.detect(["03/04/2025", "2025-11-10", "15 Mar 2025", "30/11/2025"]), {
      _tag: "Decided",
      order: "DMY",
      evidence: "day > 12 on line 4"
    })
    assert.deepStrictEqual(DateOrder.detect(["03/04/2025", "04/15/2025"]), {
      _tag: "Decided",
      order: "MDY",
      evidence: "day > 12 on line 2"
    })
    assert.deepStrictEqual(DateOrder.detect(["03/04/2025", "04/05/2025"]), {
      _tag: "Ambiguous",
      evidence: "2 numeric dates, none with a part above 12"
    })
    assert.deepStrictEqual(DateOrder.detect(["13/01/2025", "01/13/2025"]), {
      _tag: "Conflict",
      evidence: "day first on line 1, month first on line 2"
    })
    assert.deepStrictEqual(DateOrder.detect(["2025-01-31", "Mar 15, 2025"]), { _tag: "Unneeded" })
  })

  it("reads dates under an order and refuses impossible ones", () => {
    const ymd = (s: string, o: DateOrder.Order) =>
      Option.map(DateOrder.parse(s, o), (d) => `${d.year}-${d.month}-${d.day}`).pipe(
        Option.getOrElse(() => "none")
      )
    assert.strictEqual(ymd("03/04/2025", "DMY"), "2025-4-3")
    assert.strictEqual(ymd("03/04/2025", "MDY"), "2025-3-4")
    assert.strictEqual(ymd("30/6/15", "DMY"), "2015-6-30")
    assert.strictEqual(ymd("15 Mar 2025", "MDY"), "2025-3-15")
    assert.strictEqual(ymd("Mar 15, 2025", "DMY"), "2025-3-15")
    assert.strictEqual(ymd("29/02/2023", "DMY"), "none")
    assert.strictEqual(ymd("2023-02-29", "DMY"), "none")
    assert.strictEqual(ymd("31/04/2025", "DMY"), "none")
  })
})

describe("formats in the extract summary", () => {
  it.scoped("mixed date formats in one column: the order is decided, values staged as read", () =>
    Effect.gen(function* () {
      const dir = yield* dirOf("hostile", ["Bank-mixed-dates.csv"])
      const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        [summary?.kind, summary?.dateOrder, summary?.decimal, summary?.warnings],
        ["xero.bank_statement", "DMY", ".", []]
      )
      assert.deepStrictEqual(
        (yield* stagedRows("Bank-mixed-dates.csv")).map((r) => [r.line, r.data["Date"], r.data["Amount"]]),
        [
          [2, "2025-11-10", "1,250.00"],
          [3, "30/11/2025", "-45.50"],
          [4, "15 Mar 2025", "(12.00)"],
          [5, "03/04/2025", "$(250.00)"]
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "a file whose dates never show their order is staged with a warning asking for a profile setting",
    () =>
      Effect.gen(function* () {
        const dir = yield* dirOf("hostile", ["Bank-ambiguous-dates.csv"])
        const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.strictEqual(summary?.staged, 2)
        assert.isUndefined(summary?.dateOrder)
        assert.deepStrictEqual(summary?.warnings, [
          "Bank-ambiguous-dates.csv: the date order cannot be told from the file (2 numeric dates, none with a " +
            "part above 12; 03/04/2025 could be 3 April or March 4): set the date order in a column profile"
        ])
        const conflicting = yield* inputDir({ "b.csv": 'Date,Amount\n13/01/2025,1.5\n01/13/2025,"2,5"\n' })
        const [c] = yield* Extract.run({ source: "xero", inputDir: conflicting })
        assert.deepStrictEqual(c?.warnings, [
          "b.csv: dates disagree on their order (day first on line 2, month first on line 3): fix the export or set the order in a profile",
          'b.csv: amounts disagree on their decimal separator ("1.5" has a decimal point, "2,5" a decimal comma): set it in a profile'
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "a file whose dates never show their order takes the order the rest of the export set agrees on",
    () =>
      Effect.gen(function* () {
        const dir = yield* dirOf("hostile", ["Bank-ambiguous-dates.csv", "Bank-mixed-dates.csv"])
        const summaries = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.deepStrictEqual(
          summaries.map((s) => [s.file, s.dateOrder, s.warnings]),
          [
            [
              "Bank-ambiguous-dates.csv",
              "DMY",
              [
                "Bank-ambiguous-dates.csv: its dates never show their order; DMY taken from Bank-mixed-dates.csv"
              ]
            ],
            ["Bank-mixed-dates.csv", "DMY", []]
          ]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "a date that is no calendar date in either order is a reject with file:line; other text is left alone",
    () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(
          [
            "29/02/2023",
            "2025-02-30",
            "31/31/2025",
            "31 Apr 2025",
            "29/02/2024",
            "04/15/2025",
            "N/A",
            "45731",
            ""
          ].map(DateOrder.impossible),
          [true, true, true, true, false, false, false, false, false]
        )
        const dir = yield* inputDir({
          "Bank.csv": "*Date,*Amount,Payee\n15/01/2025,10.00,A\n29/02/2023,20.00,B\nN/A,30.00,C\n"
        })
        const [s] = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.deepStrictEqual(
          [s?.lines, s?.staged, s?.skipped, s?.rejected, s?.dateOrder],
          [4, 2, 1, 1, "DMY"]
        )
        assert.deepStrictEqual(yield* rejectedLines("Bank.csv"), [
          {
            line: 3,
            stage: "extract",
            reason:
              'impossible date at Bank.csv:3: Date "29/02/2023" is no calendar date in either day/month order; ' +
              "correct it in the source system, export again and extract again",
            raw: "29/02/2023,20.00,B"
          }
        ])
        assert.deepStrictEqual(
          (yield* stagedRows("Bank.csv")).map((r) => [r.line, r.data["Date"]]),
          [
            [2, "15/01/2025"],
            [4, "N/A"]
          ]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
