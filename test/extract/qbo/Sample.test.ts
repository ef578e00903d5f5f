import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import * as Extract from "../../../src/extract/Extract.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import { inputDir, rejectedLines, stagedRows } from "../support.js"

const SAMPLE = NodePath.join(import.meta.dirname, "..", "..", "..", "samples", "qbo-demo")

const AP_AGING = [
  "Bluebonnet Landscape & Garden Co.",
  "A/P Aging Detail",
  '"As of December 31, 2025"',
  "",
  ",Date,Transaction Type,Num,Vendor,Due Date,Amount,Open Balance",
  "Current,,,,,,,",
  ',12/20/2025,Bill,HI-43847,Hill Country Nursery,01/19/2026,"1,862.49","1,862.49"',
  'Total for Current,,,,,,"$1,862.49","$1,862.49"',
  "1 - 30 days past due,,,,,,,",
  ",12/16/2025,Vendor Credit,,Hill Country Nursery,12/16/2025,-128.48,-128.48",
  ",11/20/2025,Bill,,Austin Energy,12/05/2025,210.27,86.27",
  "Total for 1 - 30 days past due,,,,,,$81.79,-$42.21",
  'TOTAL,,,,,,"$1,944.28","$1,820.28"',
  ",,,,,,,",
  '"Friday, Jan 02, 2026 10:12:44 AM GMT-6 - Accrual Basis",,,,,,,',
  ""
].join("\n")

describe("the QuickBooks Online sample (samples/qbo-demo) through extract", () => {
  it.scoped("stages every file with its own kind, no rejects and no total warnings", () =>
    Effect.gen(function* () {
      const summaries = yield* Extract.run({ source: "qbo", inputDir: SAMPLE })
      assert.deepStrictEqual(
        summaries.map((s) => [s.file, s.kind]),
        [
          ["APAgingDetail.csv", "qbo.ap_aging_detail"],
          ["ARAgingDetail.csv", "qbo.ar_aging_detail"],
          ["AccountList.csv", "qbo.accounts"],
          ["Customers.csv", "qbo.customers"],
          ["Journal.csv", "qbo.journal"],
          ["ProductsAndServices.csv", "qbo.items"],
          ["TrialBalance.csv", "qbo.trial_balance"],
          ["UnpaidBills.csv", "qbo.unpaid_bills"],
          ["Vendors.csv", "qbo.vendors"]
        ]
      )
      for (const s of summaries) {
        assert.strictEqual(s.lines, s.staged + s.skipped + s.rejected, s.file)
        assert.strictEqual(s.rejected, 0, s.file)
        assert.deepStrictEqual(yield* rejectedLines(s.file), [], s.file)
        assert.deepStrictEqual(s.warnings, [], s.file)
        assert.isAbove(s.staged, 0, s.file)
      }
      for (const file of ["TrialBalance.csv", "ARAgingDetail.csv", "APAgingDetail.csv"])
        for (const r of yield* stagedRows(file)) assert.strictEqual(r.data["As At"], "2025-12-31", file)
      const journal = summaries.find((s) => s.file === "Journal.csv")!
      assert.strictEqual(journal.dateOrder, "MDY")
      const voided = (yield* stagedRows("Journal.csv")).filter((r) => r.data["Description"] === "Voided")
      assert.strictEqual(voided.length, 1)
      assert.deepStrictEqual(
        [voided[0]!.data["Transaction type"], voided[0]!.data["Debit"]],
        ["Invoice", "0.00"]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "A/P Aging Detail: recognised by its title, buckets carried as Aging, As At from its preamble",
    () =>
      Effect.gen(function* () {
        const dir = yield* inputDir({ "APAgingDetail.csv": AP_AGING })
        const [s] = yield* Extract.run({ source: "qbo", inputDir: dir })
        assert.deepStrictEqual(
          [s!.kind, s!.confidence, s!.lines, s!.staged, s!.skipped, s!.rejected, s!.warnings],
          ["qbo.ap_aging_detail", 1, 15, 3, 12, 0, []]
        )
        assert.deepStrictEqual(
          (yield* stagedRows("APAgingDetail.csv")).map((r) => [
            r.line,
            r.data["Aging"],
            r.data["Transaction Type"],
            r.data["Vendor"],
            r.data["Open Balance"],
            r.data["As At"]
          ]),
          [
            [7, "Current", "Bill", "Hill Country Nursery", "1,862.49", "2025-12-31"],
            [10, "1 - 30 days past due", "Vendor Credit", "Hill Country Nursery", "-128.48", "2025-12-31"],
            [11, "1 - 30 days past due", "Bill", "Austin Energy", "86.27", "2025-12-31"]
          ]
        )
        const wrong = yield* inputDir({
          "APAgingDetail.csv": AP_AGING.replace("$81.79,-$42.21", "$81.79,$42.21")
        })
        const [checked] = yield* Extract.run({ source: "qbo", inputDir: wrong })
        assert.strictEqual(checked!.warnings.length, 1)
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
