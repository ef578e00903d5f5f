import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../../src/extract/Extract.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import { dirOf, inputDir, read, rejectedLines, skippedLines, stagedRows, zip } from "../support.js"

const extractOne = (name: string) =>
  Effect.gen(function* () {
    const dir = yield* dirOf("xero", [name])
    const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
    assert.strictEqual(summary!.lines, summary!.staged + summary!.skipped + summary!.rejected)
    assert.deepStrictEqual(yield* rejectedLines(name), [])
    return summary!
  })

const AGED_AR = [
  "Invoice Date",
  "Due Date",
  "Expected Date",
  "Invoice Number",
  "Invoice Reference",
  "< 1 Month",
  "1 Month",
  "2 Months",
  "3 Months",
  "Older",
  "Column11",
  "Total",
  "Outstanding Tax",
  "Contact",
  "As At"
]

describe("Xero grouped reports", () => {
  it.scoped(
    "Trial Balance: sections carried down as Section, its date as As At, the grand total staged",
    () =>
      Effect.gen(function* () {
        const summary = yield* extractOne("TrialBalance.csv")
        assert.deepStrictEqual(
          [
            summary.kind,
            summary.confidence,
            summary.lines,
            summary.staged,
            summary.skipped,
            summary.warnings
          ],
          ["xero.trial_balance", 1, 15, 4, 11, []]
        )
        const keys = ["Account", "Debit", "Credit", "YTD Debit", "YTD Credit", "Section", "As At"]
        const row = (line: number, values: ReadonlyArray<string>) => ({
          line,
          kind: "xero.trial_balance",
          data: zip(keys, [...values, "2025-03-31"])
        })
        assert.deepStrictEqual(yield* stagedRows("TrialBalance.csv"), [
          row(7, ["Sales (200)", "", "1,500.00", "", "1,500.00", "Revenue"]),
          row(11, ["Business Bank Account (090)", "1,454.50", "", "1,454.50", "", "Assets"]),
          row(12, ["Accounts Receivable (610)", "45.50", "", "45.50", "", "Assets"]),
          row(15, ["Total", "1,500.00", "1,500.00", "1,500.00", "1,500.00", ""])
        ])
        assert.deepStrictEqual(yield* skippedLines("TrialBalance.csv"), [
          [1, "title"],
          [2, "title"],
          [3, "title"],
          [4, "blank"],
          [5, "header"],
          [6, "heading"],
          [8, "total"],
          [9, "blank"],
          [10, "heading"],
          [13, "total"],
          [14, "blank"]
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "Aged Receivables Detail: contact carried down as Contact; totals, percentage row, empty header",
    () =>
      Effect.gen(function* () {
        const summary = yield* extractOne("AgedReceivables.csv")
        assert.deepStrictEqual(
          [summary.kind, summary.lines, summary.staged, summary.skipped, summary.warnings],
          ["xero.aged_receivables", 16, 3, 13, []]
        )
        const row = (line: number, values: ReadonlyArray<string>) => ({
          line,
          kind: "xero.aged_receivables",
          data: zip(AGED_AR, values)
        })
        assert.deepStrictEqual(yield* stagedRows("AgedReceivables.csv"), [
          row(8, [
            "10 Feb 2025",
            "24 Feb 2025",
            "",
            "INV-0002",
            "",
            "",
            "330.00",
            "",
            "",
            "",
            "",
            "330.00",
            "30.00",
            "City Agency",
            "2025-03-31"
          ]),
          row(9, [
            "15 Mar 2025",
            "29 Mar 2025",
            "",
            "CN-0003",
            "",
            "-55.00",
            "",
            "",
            "",
            "",
            "",
            "-55.00",
            "-5.00",
            "City Agency",
            "2025-03-31"
          ]),
          row(12, [
            "03 Jan 2025",
            "17 Jan 2025",
            "",
            "INV-0001",
            "P/O 9876",
            "",
            "",
            "1,320.00",
            "",
            "",
            "",
            "1,320.00",
            "120.00",
            "Ridgeway University",
            "2025-03-31"
          ])
        ])
        assert.deepStrictEqual(yield* skippedLines("AgedReceivables.csv"), [
          [1, "title"],
          [2, "title"],
          [3, "title"],
          [4, "title"],
          [5, "blank"],
          [6, "header"],
          [7, "heading"],
          [10, "total"],
          [11, "heading"],
          [13, "total"],
          [14, "blank"],
          [15, "total"],
          [16, "percentage"]
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "Aged Payables Detail without an Invoice Number column, CRLF; a wrong grand total is a warning",
    () =>
      Effect.gen(function* () {
        const summary = yield* extractOne("AgedPayables.csv")
        assert.deepStrictEqual(
          [summary.kind, summary.lines, summary.staged, summary.skipped, summary.warnings],
          ["xero.aged_payables", 13, 2, 11, []]
        )
        assert.deepStrictEqual(
          (yield* stagedRows("AgedPayables.csv")).map((r) => [
            r.line,
            r.data["Invoice Reference"],
            r.data["Total"],
            r.data["Contact"],
            r.data["As At"]
          ]),
          [
            [8, "RPT-772", "-11.00", "Melrose Parking", "2025-03-31"],
            [9, "RPT-790", "99.00", "Melrose Parking", "2025-03-31"]
          ]
        )
        const text = (yield* read("xero", "AgedPayables.csv")).toString("utf8")
        const dir = yield* inputDir({
          "AgedPayables.csv": text.replace("\r\nTotal,,,,99.00", "\r\nTotal,,,,98.00")
        })
        const [wrong] = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.deepStrictEqual(wrong?.warnings, [
          'AgedPayables.csv:12: "Total" says < 1 Month 98 1 Month 0 2 Months -11 3 Months 0 Older 0 Total 88 ' +
            "but the staged rows it covers sum to < 1 Month 99 1 Month 0 2 Months -11 3 Months 0 Older 0 Total 88"
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("an aged report without its title is ambiguous between receivables and payables", () =>
    Effect.gen(function* () {
      const text = (yield* read("xero", "AgedReceivables.csv"))
        .toString("utf8")
        .split("\n")
        .slice(5)
        .join("\n")
      const dir = yield* inputDir({ "aged.csv": text })
      const error = yield* Effect.flip(Extract.run({ source: "xero", inputDir: dir }))
      assert.strictEqual(error.what, "ambiguous file")
      assert.strictEqual(
        error.why,
        "candidates: xero.aged_payables (85%: no title; header on line 1); " +
          "xero.aged_receivables (85%: no title; header on line 1)"
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("any row whose values are all percentages is skipped as percentage, whatever its label", () =>
    Effect.gen(function* () {
      const text = (yield* read("xero", "AgedReceivables.csv")).toString("utf8")
      const dir = yield* inputDir({
        "AgedReceivables.csv": text.replace("Percentage of total,", "% of total,")
      })
      const [s] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual([s?.staged, s?.skipped, s?.rejected], [3, 13, 0])
      assert.deepStrictEqual((yield* skippedLines("AgedReceivables.csv")).at(-1), [16, "percentage"])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
