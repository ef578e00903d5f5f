/**
 * A streamed sheet hands its rows to the workbook's zip as the zip takes them: exceljs writes without
 * backpressure, and `drained` is what keeps a large sheet (plan.xlsx's Operations) from waiting in memory.
 */
import { assert, describe, it } from "@effect/vitest"
import ExcelJS from "exceljs"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as XlsxReport from "../../src/reconcile/XlsxReport.js"
import { streamedTable, streamedWorkbook } from "../../src/reconcile/XlsxTable.js"

/** Bytes the zip has not yet taken from the sheet (the stream archiver pipes the sheet's XML into). */
const waiting = (wb: ExcelJS.stream.xlsx.WorkbookWriter): number => {
  const sheets = (
    wb as unknown as {
      _worksheets: Array<{ stream: { pipes: Array<{ _writableState: { length: number } }> } } | undefined>
    }
  )._worksheets
  const last = sheets.filter((s) => s !== undefined).at(-1)!
  return last.stream.pipes.reduce((n, p) => n + p._writableState.length, 0)
}

const PAGE = 5000

describe("streamedTable", () => {
  it("waits for the zip to take each page, and the workbook has every row", async () => {
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xlsxtable-"))
    try {
      const file = NodePath.join(dir, "t.xlsx")
      const wb = await streamedWorkbook(file)
      const before = streamedTable(wb, "Summary", [{ header: "Item", width: 10 }])
      before.add(["one"])
      before.done()
      const t = streamedTable(wb, "Operations", [
        { header: "#", width: 7 },
        { header: "Reference", width: 30 },
        { header: "Amount", width: 12, money: true },
        { header: "Source rows", width: 40 }
      ])
      const backlog: Array<number> = []
      for (let page = 0; page < 4; page++) {
        for (let i = 0; i < PAGE; i++) {
          const n = page * PAGE + i + 1
          t.add([
            n,
            `INV-${String(n).padStart(6, "0")} for a contact with a long name`,
            "123.45",
            `Invoices.csv:${n}`
          ])
        }
        // A page of rows is about 1.5 MB of XML: without waiting, all of it waits in memory.
        assert.isAbove(waiting(wb), 512 * 1024)
        await t.drained()
        backlog.push(waiting(wb))
      }
      for (const b of backlog)
        assert.isBelow(b, 128 * 1024, `left waiting after a page: ${backlog.join(", ")}`)
      t.done()
      await wb.commit()

      const read = new ExcelJS.Workbook()
      await read.xlsx.readFile(file)
      const ops = read.getWorksheet("Operations")!
      assert.strictEqual(ops.rowCount, 4 * PAGE + 1)
      assert.strictEqual(ops.getRow(4 * PAGE + 1).getCell(4).value, `Invoices.csv:${4 * PAGE}`)
      assert.strictEqual(ops.getRow(2).getCell(3).value, 123.45)
    } finally {
      NodeFs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("a report's table lets the zip take its rows as they are added", async () => {
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xlsxtable-"))
    try {
      const wb = await streamedWorkbook(NodePath.join(dir, "r.xlsx"))
      // The rows, watched as the table takes them: what waits for the zip never grows past a few pages.
      const backlog: Array<number> = []
      function* rows() {
        for (let n = 1; n <= 4 * PAGE; n++) {
          if (n % 500 === 0) backlog.push(waiting(wb))
          yield { cells: [n, `INV-${String(n).padStart(6, "0")} for a contact with a long name`, "123.45"] }
        }
      }
      await XlsxReport.table(
        wb,
        "AR",
        [
          { header: "#", width: 7 },
          { header: "Reference", width: 30 },
          { header: "Amount", width: 12, money: true }
        ],
        rows()
      )
      await wb.commit()
      // 20,000 rows are about 5 MB of XML; added without a pause, all of it waited until the last.
      assert.isBelow(Math.max(...backlog), 512 * 1024, `waiting as rows were added: ${backlog.join(", ")}`)
    } finally {
      NodeFs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
