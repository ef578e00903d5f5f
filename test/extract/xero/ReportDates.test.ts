import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Extract from "../../../src/extract/Extract.js"
import * as ReportDate from "../../../src/extract/ReportDate.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import { fileRow, inputDir, read, rejectedLines, stagedRows } from "../support.js"

const fixtureText = (name: string) => Effect.map(read("xero", name), (b) => b.toString("utf8"))

/** The fixture Trial Balance with another title date and every amount scaled by `factor`. */
const retitled = (text: string, title: string, factor = 1) =>
  text
    .replace("As at 31 March 2025", title)
    .replace(/"?(\d{1,3}(,\d{3})*\.\d{2})"?/g, (_, amount: string) => {
      const cents = Math.round(Number(amount.replace(/,/g, "")) * 100 * factor)
      return `${(cents / 100).toFixed(2)}`
    })

const asAtOf = (file: string) =>
  Effect.map(stagedRows(file), (rows) => [...new Set(rows.map((r) => r.data["As At"]))])

describe("report as-at dates", () => {
  it("reads Xero's and QuickBooks' title forms, and a numeric date only when one order makes it real", () => {
    const cases: ReadonlyArray<readonly [string, Option.Option<string> | undefined]> = [
      ["As at 31 December 2025", Option.some("2025-12-31")],
      ["As at 31 Dec 2025", Option.some("2025-12-31")],
      ["As of December 31, 2025", Option.some("2025-12-31")],
      ["as at 2025-06-30", Option.some("2025-06-30")],
      ["As at 31/12/2025", Option.some("2025-12-31")],
      ["As at 03/04/2025", Option.none()],
      ["As at 31 Febtember 2025", Option.none()],
      ["As at 30 February 2025", Option.none()],
      ["Trial Balance", undefined],
      ["Ageing by due date", undefined]
    ]
    for (const [title, expected] of cases) assert.deepStrictEqual(ReportDate.parse(title), expected, title)
  })

  it.scoped(
    "two Trial Balances at different dates in one folder are staged side by side, each with its date",
    () =>
      Effect.gen(function* () {
        const march = yield* fixtureText("TrialBalance.csv")
        const aged = yield* fixtureText("AgedReceivables.csv")
        const dir = yield* inputDir({
          "TrialBalance.csv": march,
          "TrialBalance-June.csv": retitled(march, "As at 30 Jun 2025", 2),
          "AgedReceivables.csv": aged,
          "AgedReceivables-June.csv": aged.replace("As at 31 March 2025", "As at 30 June 2025")
        })
        const summaries = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.deepStrictEqual(
          summaries.map((s) => [s.file, s.kind, s.staged, s.rejected, s.warnings.length]),
          [
            ["AgedReceivables-June.csv", "xero.aged_receivables", 3, 0, 0],
            ["AgedReceivables.csv", "xero.aged_receivables", 3, 0, 0],
            ["TrialBalance-June.csv", "xero.trial_balance", 4, 0, 0],
            ["TrialBalance.csv", "xero.trial_balance", 4, 0, 0]
          ]
        )
        assert.deepStrictEqual(yield* asAtOf("TrialBalance.csv"), ["2025-03-31"])
        assert.deepStrictEqual(yield* asAtOf("TrialBalance-June.csv"), ["2025-06-30"])
        assert.deepStrictEqual(yield* asAtOf("AgedReceivables.csv"), ["2025-03-31"])
        assert.deepStrictEqual(yield* asAtOf("AgedReceivables-June.csv"), ["2025-06-30"])
        const june = yield* stagedRows("TrialBalance-June.csv")
        assert.deepStrictEqual(
          june.map((r) => [r.data.Account, r.data["YTD Credit"] || r.data["YTD Debit"]]),
          [
            ["Sales (200)", "3000.00"],
            ["Business Bank Account (090)", "2909.00"],
            ["Accounts Receivable (610)", "91.00"],
            ["Total", "3000.00"]
          ],
          "the June report keeps its own rows; the March one is not replaced"
        )
        assert.strictEqual((yield* stagedRows("TrialBalance.csv"))[0]?.data["YTD Credit"], "1,500.00")
        const again = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.deepStrictEqual(
          again.map((s) => s.staged),
          summaries.map((s) => s.staged),
          "extracting the folder again gives the same staging"
        )
        assert.strictEqual((yield* fileRow("TrialBalance-June.csv"))?.staged, 4)
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("the title forms each give the report's date", () =>
    Effect.gen(function* () {
      const march = yield* fixtureText("TrialBalance.csv")
      const forms: ReadonlyArray<readonly [string, string, string]> = [
        ["long.csv", "As at 31 December 2025", "2025-12-31"],
        ["short.csv", "As at 31 Dec 2025", "2025-12-31"],
        ["qbo-style.csv", "As of December 31, 2025", "2025-12-31"],
        ["numeric.csv", "As at 30/06/2025", "2025-06-30"]
      ]
      const dir = yield* inputDir(
        Object.fromEntries(forms.map(([file, title]) => [file, retitled(march, title)]))
      )
      const summaries = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        summaries.map((s) => [s.file, s.staged, s.rejected]),
        forms.map(([file]) => [file, 4, 0]).sort()
      )
      for (const [file, , date] of forms) assert.deepStrictEqual(yield* asAtOf(file), [date], file)
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("a report without a readable as-at date: every row a reject naming file:line and the fix", () =>
    Effect.gen(function* () {
      const march = yield* fixtureText("TrialBalance.csv")
      const aged = yield* fixtureText("AgedReceivables.csv")
      const dir = yield* inputDir({
        "NoDate.csv": march.replace("As at 31 March 2025\n", "Demo Company (AU)\n"),
        "Ambiguous.csv": aged.replace("As at 31 March 2025", "As at 03/04/2025")
      })
      const summaries = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        summaries.map((s) => [s.file, s.lines, s.staged, s.skipped, s.rejected, s.warnings]),
        [
          ["Ambiguous.csv", 16, 0, 13, 3, []],
          ["NoDate.csv", 15, 0, 11, 4, []]
        ]
      )
      const noDate = yield* rejectedLines("NoDate.csv")
      assert.deepStrictEqual(
        noDate.map((r) => r.line),
        [7, 11, 12, 15]
      )
      assert.strictEqual(
        noDate[0]?.reason,
        "no as-at date for the row at NoDate.csv:7: the report's title rows above its header (NoDate.csv:5) " +
          'have no "As at <date>" line; export the report again with its title rows, or write the date above ' +
          'the header as "As at 31 December 2025" (Xero) or "As of December 31, 2025" (QuickBooks), and ' +
          "extract again"
      )
      const ambiguous = yield* rejectedLines("Ambiguous.csv")
      assert.deepStrictEqual(
        ambiguous.map((r) => [r.line, r.stage]),
        [
          [8, "extract"],
          [9, "extract"],
          [12, "extract"]
        ]
      )
      assert.include(
        ambiguous[0]?.reason ?? "",
        'the title at Ambiguous.csv:3 ("As at 03/04/2025") is not a readable date'
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
