import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../../src/extract/Extract.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import { fileRow, inputDir, read, rejectedLines, skippedLines, stagedRows } from "../support.js"

const FILE = "AccountTransactions.csv"
const KEYS = [
  "Date",
  "Source",
  "Description",
  "Reference",
  "Debit",
  "Credit",
  "Running Balance",
  "Gross",
  "Tax"
]
const detail = (line: number, values: ReadonlyArray<string>, account: string) => ({
  line,
  kind: "xero.account_transactions",
  data: { ...Object.fromEntries(KEYS.map((k, i) => [k, values[i] ?? ""])), Account: account }
})

const extract = (content: string | Uint8Array) =>
  Effect.gen(function* () {
    const dir = yield* inputDir({ [FILE]: content })
    const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
    assert.strictEqual(summary!.lines, summary!.staged + summary!.skipped + summary!.rejected)
    return summary!
  })

describe("Xero Account Transactions report", () => {
  it.scoped("stages detail rows with the account heading carried down; everything else skipped by kind", () =>
    Effect.gen(function* () {
      const summary = yield* extract(yield* read("xero", FILE))
      assert.deepStrictEqual(summary, {
        file: FILE,
        kind: "xero.account_transactions",
        confidence: 1,
        lines: 16,
        staged: 4,
        skipped: 12,
        rejected: 0,
        warnings: [],
        decimal: "."
      })
      assert.deepStrictEqual(yield* stagedRows(FILE), [
        detail(
          8,
          [
            "03 Jan 2025",
            "Receive Money",
            "Ridgeway University - Deposit, Jan",
            "RM-1",
            "1,500.00",
            "",
            "2,500.00",
            "1,500.00",
            "0.00"
          ],
          "Business Bank Account"
        ),
        detail(
          9,
          [
            "15 Jan 2025",
            "Spend Money",
            "Melrose Parking - Parking",
            "",
            "",
            "45.50",
            "2,454.50",
            "45.50",
            "4.14"
          ],
          "Business Bank Account"
        ),
        detail(
          14,
          [
            "03 Jan 2025",
            "Receivable Invoice",
            "Ridgeway University - INV-0001",
            "INV-0001",
            "",
            "1,200.00",
            "(1,200.00)",
            "1,320.00",
            "120.00"
          ],
          "Sales"
        ),
        detail(
          15,
          [
            "10 Feb 2025",
            "Receivable Invoice",
            "City Agency - INV-0002",
            "INV-0002",
            "",
            "300.00",
            "(1,500.00)",
            "330.00",
            "30.00"
          ],
          "Sales"
        )
      ])
      assert.deepStrictEqual(yield* skippedLines(FILE), [
        [1, "title"],
        [2, "title"],
        [3, "title"],
        [4, "blank"],
        [5, "header"],
        [6, "heading"],
        [7, "opening-balance"],
        [10, "total"],
        [11, "blank"],
        [12, "heading"],
        [13, "opening-balance"],
        [16, "total"]
      ])
      assert.deepStrictEqual(yield* rejectedLines(FILE), [])
      assert.strictEqual((yield* fileRow(FILE))?.lines, 16)
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("a Total row that disagrees with its section's staged rows is a warning in the summary", () =>
    Effect.gen(function* () {
      const text = (yield* read("xero", FILE)).toString("utf8")
      const summary = yield* extract(
        text.replace('Total Sales,,,,0.00,"1,500.00"', 'Total Sales,,,,0.00,"1,400.00"')
      )
      assert.deepStrictEqual(summary.warnings, [
        `${FILE}:16: "Total Sales" says Debit 0 Credit 1400 but the staged rows it covers sum to Debit 0 Credit 1500`
      ])
      assert.strictEqual(summary.staged, 4)
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "an Account column in the export wins over the heading; a detail row with no section is rejected",
    () =>
      Effect.gen(function* () {
        const summary = yield* extract(
          [
            "Account Transactions",
            "Demo Company (AU)",
            "For the period 1 January 2025 to 31 January 2025",
            "",
            "Date,Source,Description,Reference,Debit,Credit,Running Balance,Account Code,Account",
            "05 Jan 2025,Spend Money,Stray,,,1.00,,,",
            "Sales",
            "05 Jan 2025,Receivable Invoice,A - INV-9,INV-9,,10.00,(10.00),200,",
            "06 Jan 2025,Receivable Invoice,B - INV-10,INV-10,,5.00,(15.00),260,Other Revenue",
            "Total Sales,,,,0.00,15.00,(15.00),,",
            "Total,,,,0.00,15.00,,,"
          ].join("\n")
        )
        assert.deepStrictEqual(
          [summary.lines, summary.staged, summary.skipped, summary.rejected],
          [11, 2, 8, 1]
        )
        assert.deepStrictEqual(summary.warnings, [])
        const rows = yield* stagedRows(FILE)
        assert.deepStrictEqual(
          rows.map((r) => [r.line, r.data["Account Code"], r.data["Account"]]),
          [
            [8, "200", "Sales"],
            [9, "260", "Other Revenue"]
          ]
        )
        const [reject] = yield* rejectedLines(FILE)
        assert.strictEqual(reject?.line, 6)
        assert.include(
          reject?.reason,
          `detail row outside any section at ${FILE}:6: no Account heading above it`
        )
        assert.deepStrictEqual((yield* skippedLines(FILE)).slice(5), [
          [7, "heading"],
          [10, "total"],
          [11, "total"]
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
