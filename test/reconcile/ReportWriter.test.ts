/**
 * The sign-off pack read back from disk: report.json holds everything with `matches`; report.xlsx has its
 * six sheets with numbers as numbers in an accounting format, frozen and filtered headers, differences
 * highlighted; report.html shows the header, the verdict, the trial balance by class with the source's
 * spelling and thousands separators, and says plainly what could not be proved.
 */
import { assert, describe, it } from "@effect/vitest"
import ExcelJS from "exceljs"
import * as NodeFs from "node:fs"
import * as ReportWriter from "../../src/reconcile/ReportWriter.js"
import { accountingFormat } from "../../src/reconcile/XlsxReport.js"
import { tempDir } from "../support/Harness.js"
import { reconciliation } from "./Synthetic.js"

const ctx = {
  runId: "reconcile-20260101-000000-abcd",
  baseUrl: "http://127.0.0.1:1/api/v1",
  sourceSystem: "Xero",
  generatedAt: "2026-01-01 00:00 UTC"
}

describe("report files", () => {
  it("report.json holds everything, machine-readable, with matches", async () => {
    const dir = tempDir("report-json")
    const r = reconciliation()
    const paths = await ReportWriter.write(dir, r, ctx)
    const json = JSON.parse(NodeFs.readFileSync(paths.json, "utf8"))
    assert.strictEqual(json.matches, false)
    assert.strictEqual(json.verdict, "DIFFERENCES")
    assert.strictEqual(json.sourceSystem, "Xero")
    assert.deepStrictEqual(json.differences, JSON.parse(JSON.stringify(r.differences)))
    assert.strictEqual(json.trialBalances[0].sections[0].rows[0].sourceAccounts[0].name, "Sales")
  })

  it("report.xlsx: six sheets, numbers as numbers in an accounting format, frozen filtered headers, differences highlighted", async () => {
    const dir = tempDir("report-xlsx")
    const paths = await ReportWriter.write(dir, reconciliation(), ctx)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.readFile(paths.xlsx)
    assert.deepStrictEqual(
      wb.worksheets.map((w) => w.name),
      ["Summary", "Trial balance", "AR", "AP", "Documents", "Differences"]
    )
    const tb = wb.getWorksheet("Trial balance")!
    assert.deepStrictEqual(
      [tb.getCell("A1").value, tb.getCell("D1").value, tb.getCell("F1").value, tb.getCell("J1").value],
      ["As at", "Account", "Source debit", "Difference"]
    )
    const sales = tb.getRows(2, tb.rowCount - 1)!.find((r) => r.getCell(4).value === "Sales")!
    assert.strictEqual(sales.getCell(7).value, 1000, "the source credit is the number 1000")
    assert.strictEqual(sales.getCell(9).value, 1050)
    assert.strictEqual(sales.getCell(10).value, -50, "difference = target − source, debit positive")
    assert.strictEqual(sales.getCell(7).numFmt, accountingFormat)
    assert.strictEqual(
      (sales.getCell(1).fill as ExcelJS.FillPattern).fgColor?.argb,
      "FFFDE2E0",
      "a differing row is highlighted"
    )
    const rent = tb.getRows(2, tb.rowCount - 1)!.find((r) => r.getCell(4).value === "Rent")!
    assert.isUndefined(
      (rent.getCell(1).fill as ExcelJS.FillPattern | undefined)?.fgColor,
      "an agreeing row is not"
    )
    for (const ws of wb.worksheets) {
      assert.strictEqual(ws.views[0]?.state, "frozen", `${ws.name}: frozen panes`)
      assert.strictEqual(
        (ws.views[0] as ExcelJS.WorksheetViewFrozen).ySplit,
        1,
        `${ws.name}: the header row stays`
      )
      assert.isDefined(ws.autoFilter, `${ws.name}: an autofilter`)
    }
    const differences = wb.getWorksheet("Differences")!
    assert.strictEqual(differences.rowCount - 1, reconciliation().differences.length)
    const ar = wb.getWorksheet("AR")!
    assert.strictEqual(ar.getCell("B2").value, "Café Nüsantara Pte. Ltd.")
    assert.strictEqual(ar.getCell("I2").value, 54.5)
    const summary = wb.getWorksheet("Summary")!
    assert.deepStrictEqual(
      [summary.getCell("A13").value, summary.getCell("B13").value],
      ["Verdict", "DIFFERENCES"]
    )
  })

  it("report.html: header, verdict, the trial balance by class with totals, amounts with thousands separators", async () => {
    const dir = tempDir("report-html")
    const paths = await ReportWriter.write(dir, reconciliation(), ctx)
    const page = NodeFs.readFileSync(paths.html, "utf8")
    for (const text of [
      "Demo Trading Pte. Ltd.",
      "Xero",
      "Full history",
      "9f2c4e6a8b0d1f3e",
      "DIFFERENCES",
      "Trial balance as at 2025-12-31",
      "Realised Currency Gains + Unrealised Currency Gains",
      "Foreign Exchange Gain/Loss",
      "Total Revenue",
      "1,050.00",
      "Café Nüsantara Pte. Ltd.",
      "None used",
      "0.7456009544",
      "Suggested fix",
      "@media print"
    ])
      assert.include(page, text)
    assert.notInclude(page, "café nüsantara", "names are not lower-cased keys")
  })

  it("without the source's own reports: NOT PROVEN, what to export, the document comparison still there", async () => {
    const dir = tempDir("report-unproven")
    const r = reconciliation({ proven: false })
    const paths = await ReportWriter.write(dir, r, ctx)
    const page = NodeFs.readFileSync(paths.html, "utf8")
    assert.include(page, "NOT PROVEN")
    assert.include(page, "The independent comparison could not be made for")
    assert.include(page, "export the Trial Balance as at 2025-12-31")
    assert.include(page, "<h2>Documents</h2>")
    assert.strictEqual(JSON.parse(NodeFs.readFileSync(paths.json, "utf8")).matches, false)
    assert.match(ReportWriter.summary(r), /not proved: Trial balance per account/)
  })
})
