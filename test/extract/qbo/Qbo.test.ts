import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../../src/extract/Extract.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import { dirOf, inputDir, read, rejectedLines, skippedLines, stagedRows } from "../support.js"

const extractOne = (name: string) =>
  Effect.gen(function* () {
    const dir = yield* dirOf("qbo", [name])
    const [summary] = yield* Extract.run({ source: "qbo", inputDir: dir })
    assert.strictEqual(summary!.lines, summary!.staged + summary!.skipped + summary!.rejected)
    assert.deepStrictEqual(yield* rejectedLines(name), [])
    return summary!
  })

const rows = (file: string, keys: ReadonlyArray<string>) =>
  Effect.map(stagedRows(file), (rs) => rs.map((r) => [r.line, ...keys.map((k) => r.data[k])]))

describe("QuickBooks Online exports", () => {
  it.scoped("account list: title preamble and footer skipped, Parent:Child names kept", () =>
    Effect.gen(function* () {
      const s = yield* extractOne("AccountList.csv")
      assert.deepStrictEqual([s.kind, s.lines, s.staged, s.skipped], ["qbo.accounts", 8, 2, 6])
      assert.deepStrictEqual(yield* rows("AccountList.csv", ["Account #", "Full name", "Type", "Balance"]), [
        [5, "1000", "Checking", "Bank", "1,201.00"],
        [6, "", "Landscaping Services:Job Materials:Fountains and Garden Lighting", "Income", ""]
      ])
      assert.deepStrictEqual(yield* skippedLines("AccountList.csv"), [
        [1, "title"],
        [2, "title"],
        [3, "blank"],
        [4, "header"],
        [7, "blank"],
        [8, "footer"]
      ])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "customer and vendor lists; multi-line quoted addresses (LF inside a CRLF file) keep their starting line numbers",
    () =>
      Effect.gen(function* () {
        const dir = yield* dirOf("qbo", ["Customers.csv", "Vendors.csv", "ProductsAndServices.csv"])
        const summaries = yield* Extract.run({ source: "qbo", inputDir: dir })
        assert.deepStrictEqual(
          summaries.map((s) => [s.file, s.kind, s.lines, s.staged]),
          [
            ["Customers.csv", "qbo.customers", 3, 2],
            ["ProductsAndServices.csv", "qbo.items", 3, 2],
            ["Vendors.csv", "qbo.vendors", 2, 1]
          ]
        )
        assert.deepStrictEqual(yield* rows("Customers.csv", ["Customer", "Billing address", "Account #"]), [
          [2, "Amy's Bird Sanctuary", "4581 Finch St.\nBayshore, CA 94326", ""],
          [4, "Bill's Windsurf Shop", "12 Ocean Dr.\nHalf Moon Bay, CA 94213", "C-2"]
        ])
        assert.deepStrictEqual(
          yield* rows("ProductsAndServices.csv", ["Name", "SKU", "Type", "Sales Price/Rate"]),
          [
            [2, "Gardening", "", "Service", "25"],
            [3, "Rock Fountain", "RF-01", "Inventory", "275"]
          ]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "Journal: date/type/num carried down from each transaction's first line, total lines checked",
    () =>
      Effect.gen(function* () {
        const s = yield* extractOne("Journal.csv")
        assert.deepStrictEqual(
          [s.kind, s.lines, s.staged, s.skipped, s.warnings, s.dateOrder],
          ["qbo.journal", 16, 4, 12, [], "MDY"]
        )
        const keys = [
          "Transaction",
          "Transaction date",
          "Transaction type",
          "Num",
          "Account Name",
          "Debit",
          "Credit"
        ]
        assert.deepStrictEqual(yield* rows("Journal.csv", keys), [
          [6, "6", "01/03/2025", "Invoice", "1001", "Accounts Receivable (A/R)", "$140.00", ""],
          [7, "6", "01/03/2025", "Invoice", "1001", "Services", "", "$140.00"],
          [10, "10", "01/15/2025", "Payment", "", "Undeposited Funds", "$140.00", ""],
          [11, "10", "01/15/2025", "Payment", "", "Accounts Receivable (A/R)", "", "$140.00"]
        ])
        assert.deepStrictEqual(yield* skippedLines("Journal.csv"), [
          [1, "title"],
          [2, "title"],
          [3, "title"],
          [4, "blank"],
          [5, "header"],
          [8, "total"],
          [9, "blank"],
          [12, "total"],
          [13, "blank"],
          [14, "total"],
          [15, "blank"],
          [16, "footer"]
        ])
        const text = (yield* read("qbo", "Journal.csv")).toString("utf8")
        const dir = yield* inputDir({
          "Journal.csv": text.replace(
            ",,,,,,,$140.00,$140.00\n,,,,,,,,\nTOTAL",
            ",,,,,,,$140.00,$104.00\n,,,,,,,,\nTOTAL"
          )
        })
        const [wrong] = yield* Extract.run({ source: "qbo", inputDir: dir })
        assert.deepStrictEqual(wrong?.warnings, [
          "Journal.csv:12: the total line of the transaction on line 10 says Debit 140 Credit 104 but the staged " +
            "lines sum to Debit 140 Credit 140"
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "General Ledger: account headings carried as Account, Beginning Balance, Total for, TOTAL, footer",
    () =>
      Effect.gen(function* () {
        const s = yield* extractOne("GeneralLedger.csv")
        assert.deepStrictEqual(
          [s.kind, s.lines, s.staged, s.skipped, s.warnings, s.dateOrder],
          ["qbo.general_ledger", 16, 3, 13, [], "MDY"]
        )
        assert.deepStrictEqual(
          yield* rows("GeneralLedger.csv", ["Account", "Date", "Num", "Split", "Amount"]),
          [
            [8, "Checking", "01/05/2025", "", "Undeposited Funds", "$140.00"],
            [9, "Checking", "01/17/2025", "76", "Job Materials", "($250.00)"],
            [12, "Services", "01/03/2025", "1001", "Accounts Receivable (A/R)", "140.00"]
          ]
        )
        assert.deepStrictEqual((yield* skippedLines("GeneralLedger.csv")).slice(5), [
          [6, "heading"],
          [7, "opening-balance"],
          [10, "total"],
          [11, "heading"],
          [13, "total"],
          [14, "total"],
          [15, "blank"],
          [16, "footer"]
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("Trial Balance and Unpaid Bills: blank-headed first column named, totals checked, TB dated", () =>
    Effect.gen(function* () {
      const tb = yield* extractOne("TrialBalance.csv")
      assert.deepStrictEqual([tb.kind, tb.lines, tb.staged, tb.warnings], ["qbo.trial_balance", 11, 3, []])
      assert.deepStrictEqual(
        yield* rows("TrialBalance.csv", ["Account Name", "Debit", "Credit", "Section", "As At"]),
        [
          [6, "Checking", "1,201.00", "", "", "2025-12-31"],
          [7, "Accounts Receivable (A/R)", "5,281.52", "", "", "2025-12-31"],
          [8, "Services", "", "6,482.52", "", "2025-12-31"]
        ]
      )
      const ub = yield* extractOne("UnpaidBills.csv")
      assert.deepStrictEqual([ub.kind, ub.lines, ub.staged, ub.warnings], ["qbo.unpaid_bills", 15, 3, []])
      assert.deepStrictEqual(
        yield* rows("UnpaidBills.csv", ["Vendor", "Date", "Due date", "Amount", "Open balance", "As At"]),
        [
          [7, "Brosnahan Insurance Agency", "12/15/2025", "01/14/2026", "2,000.00", "2,000.00", undefined],
          [
            10,
            "Norton Lumber and Building Materials",
            "12/20/2025",
            "01/19/2026",
            "205.00",
            "205.00",
            undefined
          ],
          [
            11,
            "Norton Lumber and Building Materials",
            "12/27/2025",
            "01/26/2026",
            "1,000.00",
            "800.00",
            undefined
          ]
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("A/R Aging Detail: aging buckets carried as Aging, Total for rows and TOTAL checked", () =>
    Effect.gen(function* () {
      const s = yield* extractOne("ARAgingDetail.csv")
      assert.deepStrictEqual(
        [s.kind, s.lines, s.staged, s.skipped, s.warnings],
        ["qbo.ar_aging_detail", 14, 2, 12, []]
      )
      assert.deepStrictEqual(
        yield* rows("ARAgingDetail.csv", ["Aging", "Num", "Customer", "Open Balance", "As At"]),
        [
          [7, "Current", "1036", "Freeman Sporting Goods", "$477.50", "2025-12-31"],
          [10, "1 - 30 days past due", "1004", "Cool Cars", "$2,369.52", "2025-12-31"]
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
