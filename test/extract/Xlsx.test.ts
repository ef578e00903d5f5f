import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import ExcelJS from "exceljs"
import * as NodePath from "node:path"
import * as Extract from "../../src/extract/Extract.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { dirOf, fileRow, inputDir, read, rejectedLines, skippedLines, stagedRows } from "./support.js"

/** Writes a workbook built by `build` into a fresh input directory as `name`. */
const workbookDir = (name: string, build: (wb: ExcelJS.Workbook) => void) =>
  Effect.gen(function* () {
    const dir = yield* inputDir({})
    const wb = new ExcelJS.Workbook()
    build(wb)
    yield* Effect.promise(() => wb.xlsx.writeFile(NodePath.join(dir, name)))
    return dir
  })

const reports = (wb: ExcelJS.Workbook) => {
  wb.addWorksheet("Sheet1")
  const chart = wb.addWorksheet("Chart")
  chart.addRows([
    ["*Code", "*Name", "*Type", "*Tax Code"],
    ["090", "Business Bank Account", "Bank", "Tax Exempt"],
    [
      200,
      { richText: [{ text: "Sales, " }, { text: "services", font: { bold: true } }] },
      "Revenue",
      "GST on Income"
    ]
  ])
  const gl = wb.addWorksheet("GL")
  gl.addRows([
    ["Account Transactions"],
    ["Demo Company (AU)"],
    ["For the period 1 January 2025 to 31 March 2025"],
    [],
    ["Date", "Source", "Description", "Reference", "Debit", "Credit", "Running Balance"],
    ["Business Bank Account"],
    [null, "Opening Balance", null, null, null, null, 0],
    [
      new Date(Date.UTC(2025, 2, 15)),
      "Receive Money",
      "Ridgeway University - Deposit",
      "RM-1",
      4500,
      null,
      4500
    ],
    ["16 Mar 2025", "Spend Money", "Melrose Parking - Parking", null, null, 45.5, 4454.5],
    ["Total Business Bank Account", null, null, null, 4500, 45.5, 4454.5]
  ])
  gl.mergeCells("A1:G1")
  gl.getCell("A8").numFmt = "dd mmm yyyy"
  gl.getCell("E8").value = { formula: "4500.00" } as ExcelJS.CellFormulaValue
}

describe("XLSX workbooks", () => {
  it.scoped(
    "one staged file per non-empty sheet; real dates, rich text, literal formulas, merged titles",
    () =>
      Effect.gen(function* () {
        const dir = yield* workbookDir("Reports.xlsx", reports)
        const summaries = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.deepStrictEqual(
          summaries.map((s) => [s.file, s.kind, s.lines, s.staged, s.skipped, s.rejected, s.warnings]),
          [
            ["Reports.xlsx#Chart", "xero.accounts", 3, 2, 1, 0, []],
            ["Reports.xlsx#GL", "xero.account_transactions", 10, 2, 8, 0, []]
          ]
        )
        assert.isUndefined(yield* fileRow("Reports.xlsx#Sheet1"))
        assert.deepStrictEqual(
          (yield* stagedRows("Reports.xlsx#Chart")).map((r) => [r.line, r.data]),
          [
            [2, { Code: "090", Name: "Business Bank Account", Type: "Bank", "Tax Code": "Tax Exempt" }],
            [3, { Code: "200", Name: "Sales, services", Type: "Revenue", "Tax Code": "GST on Income" }]
          ]
        )
        assert.deepStrictEqual(
          (yield* stagedRows("Reports.xlsx#GL")).map((r) => [r.line, r.data]),
          [
            [
              8,
              {
                Date: "2025-03-15",
                Source: "Receive Money",
                Description: "Ridgeway University - Deposit",
                Reference: "RM-1",
                Debit: "4500.00",
                Credit: "",
                "Running Balance": "4500",
                Account: "Business Bank Account"
              }
            ],
            [
              9,
              {
                Date: "16 Mar 2025",
                Source: "Spend Money",
                Description: "Melrose Parking - Parking",
                Reference: "",
                Debit: "",
                Credit: "45.5",
                "Running Balance": "4454.5",
                Account: "Business Bank Account"
              }
            ]
          ]
        )
        assert.deepStrictEqual(yield* skippedLines("Reports.xlsx#GL"), [
          [1, "title"],
          [2, "title"],
          [3, "title"],
          [4, "blank"],
          [5, "header"],
          [6, "heading"],
          [7, "opening-balance"],
          [10, "total"]
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("a formula with no cached value is a reject naming its cell; row gaps count as blank lines", () =>
    Effect.gen(function* () {
      const dir = yield* workbookDir("Journals.xlsx", (wb) => {
        const ws = wb.addWorksheet("Journals")
        ws.getRow(1).values = ["*Narration", "*Date", "*AccountCode", "*Amount"]
        ws.getRow(2).values = ["Accrual", "30/06/2024", "800", -250]
        ws.getRow(4).values = ["Accrual", "30/06/2024", "412", 250]
        ws.getCell("D4").value = { formula: "SUM(D2:D3)*-1" } as ExcelJS.CellFormulaValue
      })
      const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        [summary?.file, summary?.kind, summary?.lines, summary?.staged, summary?.skipped, summary?.rejected],
        ["Journals.xlsx#Journals", "xero.manual_journals", 4, 1, 2, 1]
      )
      assert.deepStrictEqual(yield* skippedLines("Journals.xlsx#Journals"), [
        [1, "header"],
        [3, "blank"]
      ])
      assert.deepStrictEqual(yield* rejectedLines("Journals.xlsx#Journals"), [
        {
          line: 4,
          stage: "extract",
          reason:
            "formula without a cached value in cell Journals.xlsx#Journals!D4 (=SUM(D2:D3)*-1): the workbook " +
            "was saved without calculating it; open it in Excel, let it recalculate, save, and extract again",
          raw: "Accrual,30/06/2024,412,=SUM(D2:D3)*-1"
        }
      ])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("a sheet stored before the workbook part keeps its declared name", () =>
    Effect.gen(function* () {
      const dir = yield* dirOf("xlsx", ["SheetBeforeWorkbook.xlsx"])
      const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        [summary?.file, summary?.kind, summary?.lines, summary?.staged],
        ["SheetBeforeWorkbook.xlsx#Accounts", "xero.accounts", 6, 5]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("exceljs returning no rows for a valid sheet fails the whole run loudly, staging nothing", () =>
    Effect.gen(function* () {
      const dir = yield* inputDir({
        "ChartOfAccounts.csv": yield* read("xero", "ChartOfAccounts.csv"),
        "PrefixedRows.xlsx": yield* read("xlsx", "PrefixedRows.xlsx")
      })
      const error = yield* Effect.flip(Extract.run({ source: "xero", inputDir: dir }))
      assert.deepStrictEqual(
        [error.what, error.where, error.why],
        [
          "incomplete read of the sheet",
          "PrefixedRows.xlsx#Accounts",
          "the streaming reader returned 0 rows but the sheet holds 6 (it can stop early without an error on some valid files)"
        ]
      )
      assert.isUndefined(yield* fileRow("PrefixedRows.xlsx#Accounts"))
      assert.isUndefined(yield* fileRow("ChartOfAccounts.csv"), "the run is one transaction: nothing staged")
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
