/**
 * Xero's own reports read into source books: Trial Balances per as-at date with names, codes, sections
 * and their total checked; aged receivables and payables items with their lineage.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Money from "../../src/transform/Money.js"
import type { SourceBooks } from "../../src/transform/SourceModel.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { inputDir, read } from "../extract/support.js"

const text = (name: string) => Effect.map(read("xero", name), (b) => b.toString("utf8"))

const CHART = [
  "*Code,*Name,*Type,*Tax Code,Description,Dashboard,Expense Claims,Enable Payments,Balance",
  "090,Business Bank Account,Bank,,,Yes,No,No,",
  "200,Sales,Revenue,,,No,No,No,",
  "610,Accounts Receivable,Current Asset,,,No,No,No,",
  "900,Loan (Director),Non-current Liability,,,No,No,No,",
  ",Petty Cash (SGD),Bank,,,No,No,No,"
].join("\n")

/** A December Trial Balance whose accounts have parentheses in their names; `total` is its grand total row. */
const december = (total: string) =>
  [
    "Trial Balance",
    "Demo Company (AU)",
    "As at 31 Dec 2025",
    "",
    "Account,Debit,Credit,YTD Debit,YTD Credit",
    "Assets",
    'Business Bank Account (090),"1,000.00",,"2,000.00",',
    "Petty Cash (SGD),,,50.00,",
    'Total Assets,"1,000.00",,"2,050.00",',
    "",
    "Liabilities",
    'Loan (Director) (900),,"1,000.00",,"2,050.00"',
    'Total Liabilities,,"1,000.00",,"2,050.00"',
    "",
    total
  ].join("\n")

const fmt = (m: Money.Money) => Money.toFixed(m)

const booksOf = (files: Record<string, string>) =>
  Effect.gen(function* () {
    const dir = yield* inputDir(files)
    yield* Extract.run({ source: "xero", inputDir: dir })
    return yield* XeroSource.read
  })

const tbView = (books: SourceBooks) =>
  books.trialBalances.map((tb) => ({
    asAt: tb.asAt,
    file: tb.file,
    total: [fmt(tb.totalDebit), fmt(tb.totalCredit)],
    lines: tb.lines.map((l) => [
      l.accountName,
      l.accountCode,
      l.section,
      fmt(l.debit),
      fmt(l.credit),
      l.lineage
    ])
  }))

describe("Xero's own reports in the source books", () => {
  it.scoped("Trial Balances: one per as-at date, names and codes split, YTD balances, sections, totals", () =>
    Effect.gen(function* () {
      const books = yield* booksOf({
        "ChartOfAccounts.csv": CHART,
        "TrialBalance.csv": yield* text("TrialBalance.csv"),
        "TB-December.csv": december('Total,"1,000.00","1,000.00","2,050.00","2,050.00"')
      })
      assert.deepStrictEqual(tbView(books), [
        {
          asAt: "2025-03-31",
          file: "TrialBalance.csv",
          total: ["1500.00", "1500.00"],
          lines: [
            ["Sales", "200", "Revenue", "0.00", "1500.00", "TrialBalance.csv:7"],
            ["Business Bank Account", "090", "Assets", "1454.50", "0.00", "TrialBalance.csv:11"],
            ["Accounts Receivable", "610", "Assets", "45.50", "0.00", "TrialBalance.csv:12"]
          ]
        },
        {
          asAt: "2025-12-31",
          file: "TB-December.csv",
          total: ["2050.00", "2050.00"],
          lines: [
            ["Business Bank Account", "090", "Assets", "2000.00", "0.00", "TB-December.csv:7"],
            ["Petty Cash (SGD)", "", "Assets", "50.00", "0.00", "TB-December.csv:8"],
            ["Loan (Director)", "900", "Liabilities", "0.00", "2050.00", "TB-December.csv:12"]
          ]
        }
      ])
      assert.deepStrictEqual(books.issues, [])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "a total row that disagrees with the lines is a warning naming it; a second TB at a date is left out",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf({
          "ChartOfAccounts.csv": CHART,
          "A.csv": december('Total,"1,000.00","1,000.00","2,050.00","2,060.00"'),
          "B.csv": december('Total,"1,000.00","1,000.00","2,050.00","2,050.00"')
        })
        assert.deepStrictEqual(
          books.trialBalances.map((tb) => [tb.file, tb.asAt, fmt(tb.totalDebit), fmt(tb.totalCredit)]),
          [["A.csv", "2025-12-31", "2050.00", "2060.00"]]
        )
        assert.deepStrictEqual(
          books.issues.map((i) => [i.severity, i.lineage, i.what, i.why]),
          [
            [
              "warning",
              ["A.csv:15"],
              "the Trial Balance total at A.csv:15",
              "it says debit 2050.00, credit 2060.00 but the report's account rows sum to debit 2050.00, credit 2050.00"
            ],
            [
              "warning",
              ["B.csv:7"],
              "the Trial Balance as at 2025-12-31 in B.csv",
              "A.csv is a Trial Balance as at the same date; only that one is used"
            ]
          ]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "an aged report's unreadable row is a reject; a second report at its date is left out with its rows, whose problems are not told",
    () =>
      Effect.gen(function* () {
        const aged = (rows: ReadonlyArray<string>) =>
          [
            "Aged Receivables Detail",
            "Demo Company (AU)",
            "As at 31 March 2025",
            "Ageing by due date",
            "",
            "Invoice Date,Due Date,Expected Date,Invoice Number,Invoice Reference,< 1 Month,1 Month,2 Months,3 Months,Older,,Total,Outstanding Tax",
            "City Agency",
            ...rows,
            "Total City Agency,,,,,0.00,330.00,0.00,0.00,0.00,,330.00,30.00"
          ].join("\n")
        const good = "10 Feb 2025,24 Feb 2025,,INV-0002,,,330.00,,,,,330.00,30.00"
        const bad = "10 Feb 2025,24 Feb 2025,,INV-0009,,,330.00,,,,,lots,30.00"
        const books = yield* booksOf({
          "ChartOfAccounts.csv": CHART,
          "A.csv": aged([good, bad]),
          "B.csv": aged([bad, good])
        })
        assert.deepStrictEqual(
          books.agedReports.map((r) => [r.file, r.asAt, Array.from(r.items, (i) => [i.number, i.lineage])]),
          [["A.csv", "2025-03-31", [["INV-0002", "A.csv:8"]]]]
        )
        assert.deepStrictEqual(
          books.issues.map((i) => [i.severity, i.lineage, i.what]),
          [
            ["reject", ["A.csv:9"], 'Total "lots" is not an amount'],
            ["warning", ["B.csv:8"], "the Aged Receivables Detail as at 2025-03-31 in B.csv"]
          ]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("aged receivables and payables: items with contact, number, reference, dates, outstanding", () =>
    Effect.gen(function* () {
      const books = yield* booksOf({
        "AgedReceivables.csv": yield* text("AgedReceivables.csv"),
        "AgedPayables.csv": yield* text("AgedPayables.csv")
      })
      const view = books.agedReports.map((r) => ({
        side: r.side,
        asAt: r.asAt,
        file: r.file,
        items: Array.from(r.items, (i) => [
          i.contactName,
          i.number,
          i.reference,
          i.date,
          i.dueDate,
          fmt(i.outstanding),
          i.currency,
          i.lineage
        ])
      }))
      assert.deepStrictEqual(view, [
        {
          side: "AR",
          asAt: "2025-03-31",
          file: "AgedReceivables.csv",
          items: [
            [
              "City Agency",
              "INV-0002",
              "",
              "2025-02-10",
              "2025-02-24",
              "330.00",
              undefined,
              "AgedReceivables.csv:8"
            ],
            [
              "City Agency",
              "CN-0003",
              "",
              "2025-03-15",
              "2025-03-29",
              "-55.00",
              undefined,
              "AgedReceivables.csv:9"
            ],
            [
              "Ridgeway University",
              "INV-0001",
              "P/O 9876",
              "2025-01-03",
              "2025-01-17",
              "1320.00",
              undefined,
              "AgedReceivables.csv:12"
            ]
          ]
        },
        {
          side: "AP",
          asAt: "2025-03-31",
          file: "AgedPayables.csv",
          items: [
            [
              "Melrose Parking",
              "",
              "RPT-772",
              "2025-01-06",
              "2025-01-06",
              "-11.00",
              undefined,
              "AgedPayables.csv:8"
            ],
            [
              "Melrose Parking",
              "",
              "RPT-790",
              "2025-03-20",
              "2025-04-03",
              "99.00",
              undefined,
              "AgedPayables.csv:9"
            ]
          ]
        }
      ])
      assert.deepStrictEqual(books.issues, [])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
