import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import ExcelJS from "exceljs"
import * as NodePath from "node:path"
import * as Extract from "../../src/extract/Extract.js"
import * as Profiles from "../../src/extract/Profiles.js"
import * as StagingTarget from "../../src/extract/StagingTarget.js"
import * as XlsxFile from "../../src/extract/XlsxFile.js"
import * as SheetReader from "../../src/extract/xlsx/SheetReader.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Xlsx from "./xlsx/support.js"
import { dirOf, fileRow, inputDir, rejectedLines, skippedLines, stagedRows } from "./support.js"

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

  it.scoped(
    "workbooks holding only empty sheets are nothing to extract: an error, and no run published",
    () =>
      Effect.gen(function* () {
        const dir = yield* workbookDir("Empty.xlsx", (wb) => {
          wb.addWorksheet("Sheet1")
          wb.addWorksheet("Sheet2")
        })
        const error = yield* Effect.flip(Extract.run({ source: "xero", inputDir: dir }))
        assert.deepStrictEqual([error.what, error.where], ["no export files found", dir])
        assert.match(error.why, /^Its workbooks hold only empty sheets \(Empty\.xlsx\)\. Extract looks for /)
        assert.isUndefined(yield* fileRow("Empty.xlsx#Sheet1"))
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

  it.scoped("a sheet written with a namespace prefix (<x:row>, which exceljs read as empty) is read", () =>
    Effect.gen(function* () {
      const dir = yield* dirOf("xlsx", ["PrefixedRows.xlsx"])
      const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        [summary?.file, summary?.kind, summary?.lines, summary?.staged, summary?.skipped],
        ["PrefixedRows.xlsx#Accounts", "xero.accounts", 6, 5, 1]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("rows out of order in the sheet's XML fail the extract loudly", () =>
    Effect.gen(function* () {
      const cells = (r: number, code: string) =>
        `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>${code}</t></is></c>` +
        `<c r="B${r}" t="inlineStr"><is><t>Account ${code}</t></is></c></row>`
      const dir = yield* inputDir({
        "Unordered.xlsx": Xlsx.xlsx({
          sheets: [["Accounts", Xlsx.sheet(`${cells(1, "*Code")}${cells(3, "200")}${cells(2, "090")}`)]]
        })
      })
      const error = yield* Effect.flip(Extract.run({ source: "xero", inputDir: dir }))
      assert.deepStrictEqual(
        [error.what, error.where, error.why],
        [
          "cannot read the sheet",
          "Unordered.xlsx#Accounts",
          "row 2 comes after row 3 (rows must be in ascending order)"
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("a sheet reader stopping early fails the whole extract loudly, staging nothing", () =>
    Effect.gen(function* () {
      const dir = yield* workbookDir("Book.xlsx", (wb) => {
        wb.addWorksheet("Chart").addRows([
          ["*Code", "*Name", "*Type", "*Tax Code"],
          ["090", "Business Bank Account", "Bank", "Tax Exempt"]
        ])
        const accounts = wb.addWorksheet("Accounts")
        accounts.addRow(["*Code", "*Name", "*Type", "*Tax Code"])
        for (let i = 0; i < 5; i++) accounts.addRow([`${200 + i}`, `Sales ${i}`, "Revenue", "GST on Income"])
      })
      // The real reader for "Chart"; for "Accounts", its first 3 rows and then an end without an error.
      const stopsEarly: SheetReader.Read = async function* (book, part, where) {
        let left = where.endsWith("#Accounts") ? 3 : Infinity
        for await (const batch of SheetReader.read(book, part, where)) {
          yield batch.slice(0, left)
          left -= batch.length
          if (left <= 0) return
        }
      }
      const path = NodePath.join(dir, "Book.xlsx")
      const extract = XlsxFile.extract(path, "Book.xlsx", "xero", Profiles.forSource("xero"), stopsEarly)
      const error = yield* Effect.flip(
        StagingTarget.run(extract).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      assert.deepStrictEqual(
        [error.what, error.where, error.why],
        [
          "incomplete read of the sheet",
          "Book.xlsx#Accounts",
          "the streaming reader returned 3 rows but the sheet holds 6 (it can stop early without an error on some valid files)"
        ]
      )
      assert.isUndefined(yield* fileRow("Book.xlsx#Accounts"))
      assert.isUndefined(yield* fileRow("Book.xlsx#Chart"), "the extract is one transaction: nothing staged")
      const whole = yield* StagingTarget.run(
        XlsxFile.extract(path, "Book.xlsx", "xero", Profiles.forSource("xero"))
      )
      assert.deepStrictEqual(
        whole.map((r) => [r.file, r.counts.staged]),
        [
          ["Book.xlsx#Chart", 1],
          ["Book.xlsx#Accounts", 5]
        ],
        "the same workbook read whole extracts"
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
