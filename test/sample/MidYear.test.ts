/**
 * The source's own reports at a mid-year cut-over date (30 June, `--also-at`), read back from the files: the Trial
 * Balance balances and is not the year end's; the aged reports list only items raised by then, and their
 * totals are the receivables and payables control
 * balances of the mid-year Trial Balance (which is what lets a quick conversion at that date end its
 * clearing accounts at zero).
 */
import { assert, beforeAll, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { generateCompany } from "../../src/sample/Generator.js"
import { reportDayOf, reportMoney, same, total } from "./Decimals.js"
import * as Files from "./SampleFiles.js"

const MID = Date.UTC(2025, 5, 30) / 86_400_000

describe.each([
  [150, 42],
  [900, 7]
])("the mid-year reports of a company with %i invoices (seed %i)", (invoices, seed) => {
  let dir = ""
  beforeAll(() => {
    dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xero-midyear-"))
    generateCompany({ invoices, seed, out: dir, alsoAt: ["2025-06-30"] })
    return () => NodeFs.rmSync(dir, { recursive: true, force: true })
  })

  const balance = (tb: Files.TrialBalanceReport, code: string) => {
    const row = tb.rows.find((r) => r.label.endsWith(`(${code})`))
    return row === undefined
      ? BigDecimal.fromBigInt(0n)
      : BigDecimal.subtract(reportMoney(row.amounts[2] ?? ""), reportMoney(row.amounts[3] ?? ""))
  }

  it("the Trial Balance as at 30 June balances, and differs from the year end's", () => {
    const mid = Files.trialBalance(dir, "TrialBalance-2025-06-30.csv")
    const end = Files.trialBalance(dir)
    assert.strictEqual(mid.titles[2], "As at 30 June 2025")
    same(reportMoney(mid.total[2] ?? ""), reportMoney(mid.total[3] ?? ""), "YTD debits and credits")
    const ytd = [2, 3].map((i) => total(mid.rows.map((r) => reportMoney(r.amounts[i] ?? ""))))
    same(ytd[0]!, reportMoney(mid.total[2] ?? ""), "the rows add up to the total")
    assert.isTrue(
      BigDecimal.lessThan(ytd[0]!, reportMoney(end.total[2] ?? "")),
      "half a year is less than a year"
    )
  })

  it("the aged reports as at 30 June hold items raised by then, and total the control balances", () => {
    const mid = Files.trialBalance(dir, "TrialBalance-2025-06-30.csv")
    for (const [name, code, sign] of [
      ["AgedReceivablesDetail-2025-06-30.csv", "610", 1],
      ["AgedPayablesDetail-2025-06-30.csv", "800", -1]
    ] as const) {
      const report = Files.aged(dir, name)
      assert.strictEqual(report.titles[2], "As at 30 June 2025", name)
      assert.isAbove(report.rows.length, 0, `${name} has open items`)
      for (const r of report.rows)
        assert.isAtMost(
          reportDayOf(r.cells["Invoice Date"] ?? ""),
          MID,
          `${name}: ${r.cells["Invoice Number"]}`
        )
      const items = total(report.rows.map((r) => reportMoney(r.cells["Total"] ?? "")))
      same(items, reportMoney(report.total["Total"] ?? ""), `${name}: its rows add up to its total`)
      const control = balance(mid, code)
      same(
        sign === 1 ? control : BigDecimal.negate(control),
        items,
        `${name}: the control balance of ${code}`
      )
    }
  })
})
