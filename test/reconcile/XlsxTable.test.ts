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
import {
  type Cell,
  type Column,
  columnLetters,
  differs,
  excelWriter,
  frozenHeader,
  header,
  type RowStyle,
  rowStyles,
  streamedTable,
  streamedWorkbook,
  values,
  xmlText
} from "../../src/reconcile/XlsxTable.js"
import { inOwnProcess, source } from "../support/OwnProcess.js"

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

/** A table's rows written by exceljs itself: a row of cells, each given its shared style, committed. */
const exceljsTable = (wb: ExcelJS.stream.xlsx.WorkbookWriter, columns: ReadonlyArray<Column>) => {
  const ws = wb.addWorksheet("T", frozenHeader)
  header(ws, columns).commit()
  const stylesOf = rowStyles(columns)
  return {
    add: (cells: ReadonlyArray<Cell>, style: RowStyle = {}) => {
      const row = ws.addRow(values(columns, cells))
      const s = stylesOf(style)
      row.eachCell({ includeEmpty: true }, (c, i) => {
        c.style = s[i - 1] ?? c.style
      })
      row.commit()
    },
    done: () => ws.commit()
  }
}

/** The sheet's rows and the styles of a one-sheet workbook stored without compression, as written. */
const writtenXml = (file: string) => {
  const text = NodeFs.readFileSync(file, "latin1")
  const between = (open: string, close: string) => {
    const at = text.indexOf(open)
    const end = text.indexOf(close, at)
    assert.isAtLeast(at, 0, `${open} not found`)
    return text.slice(at, end + close.length)
  }
  return { rows: between("<sheetData>", "</sheetData>"), styles: between("<styleSheet", "</styleSheet>") }
}

describe("streamedTable", () => {
  it("writes each row as exceljs writes it, byte for byte, styles included", async () => {
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xlsxtable-"))
    try {
      const columns: ReadonlyArray<Column> = [
        { header: "#", width: 7 },
        { header: "Text", width: 30 },
        { header: "Amount", width: 12, money: true },
        { header: "Note", width: 20 }
      ]
      const bold = { bold: true }
      const rows: ReadonlyArray<[ReadonlyArray<Cell>, RowStyle?]> = [
        // A style first seen on an empty cell, then on a number: exceljs keeps the id of its first sight.
        [[null, "first", null, null], { fill: differs }],
        [[1, "plain", "1234.50", ""]],
        [[2, `all five <>&'" and \u0000\u0007\u000b\u001f\u007f dropped`, "-0.01", "tab\there"]],
        [[3, "line\nbreak and\r\nreturns", "0", "é € 😀"], { fill: differs }],
        [[-4.5, "", null, null], bold],
        // No value: exceljs writes no row, and the next takes the row after it.
        [[null, null, null, null]],
        [[1e21, "big", "999999999999.99", "x"], { font: { italic: true } }],
        [[0, "short row"]],
        [[5, "after", "12.3", null], bold]
      ]
      const write = async (file: string, table: "exceljs" | "ours") => {
        const WorkbookWriter = await excelWriter()
        const wb = new WorkbookWriter({
          filename: file,
          useStyles: true,
          useSharedStrings: false,
          zip: { store: true }
        })
        // Each row exceljs makes of its own (the table writes its rows without them).
        let rowsMade = 0
        const addWorksheet = wb.addWorksheet.bind(wb)
        wb.addWorksheet = (...args: Parameters<typeof addWorksheet>) => {
          const ws = addWorksheet(...args)
          const addRow = ws.addRow.bind(ws)
          ws.addRow = (...row: Parameters<typeof addRow>) => (rowsMade++, addRow(...row))
          return ws
        }
        const t = table === "exceljs" ? exceljsTable(wb, columns) : streamedTable(wb, "T", columns)
        for (const [cells, style] of rows) t.add(cells, style)
        t.done()
        await wb.commit()
        return { ...writtenXml(file), rowsMade }
      }
      const theirs = await write(NodePath.join(dir, "exceljs.xlsx"), "exceljs")
      const ours = await write(NodePath.join(dir, "ours.xlsx"), "ours")
      assert.strictEqual(theirs.rowsMade, rows.length)
      assert.strictEqual(ours.rowsMade, 0)
      assert.strictEqual(ours.rows, theirs.rows)
      assert.strictEqual(ours.styles, theirs.styles)
      // What is compared holds what it should: the rows up to 10, row 7 (no value) left out, the escapes.
      assert.include(ours.rows, '<row r="10" spans="1:4"')
      assert.notInclude(ours.rows, '<row r="7"')
      assert.include(ours.rows, "all five &lt;&gt;&amp;&apos;&quot; and  dropped")
      assert.include(ours.rows, '<row r="9" spans="1:2"')
    } finally {
      NodeFs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("names columns as a spreadsheet does and escapes text as exceljs does", () => {
    assert.deepStrictEqual([1, 2, 26, 27, 52, 53, 702, 703, 16384].map(columnLetters), [
      "A",
      "B",
      "Z",
      "AA",
      "AZ",
      "BA",
      "ZZ",
      "AAA",
      "XFD"
    ])
    assert.strictEqual(xmlText("a<b>&'\"\t\n\r\u0001\u007f"), "a&lt;b&gt;&amp;&apos;&quot;\t\n\r")
    assert.strictEqual(xmlText("plain"), "plain")
  })

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

  it("writes with exceljs' workbook writer alone, not the whole of exceljs", async () => {
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xlsxtable-"))
    try {
      const file = NodePath.join(dir, "w.xlsx")
      const { loaded: all } = inOwnProcess(`
        const { streamedTable, streamedWorkbook } = await import(${JSON.stringify(source("src/reconcile/XlsxTable.ts"))})
        const wb = await streamedWorkbook(${JSON.stringify(file)})
        const t = streamedTable(wb, "Summary", [{ header: "Item", width: 10 }, { header: "Amount", width: 12, money: true }])
        t.add(["one", "12.50"])
        t.done()
        await wb.commit()`)
      const loaded = all.filter((m) => m.includes("/node_modules/exceljs/"))
      assert.isTrue(loaded.some((m) => m.endsWith("/lib/stream/xlsx/workbook-writer.js")))
      // The whole of exceljs (its entry, its in-memory workbook and its streaming reader): three times the load.
      for (const whole of [
        "/lib/exceljs.nodejs.js",
        "/lib/doc/workbook.js",
        "/lib/stream/xlsx/workbook-reader.js"
      ])
        assert.isFalse(
          loaded.some((m) => m.endsWith(whole)),
          `${whole} loaded`
        )
      const read = new ExcelJS.Workbook()
      await read.xlsx.readFile(file)
      const summary = read.getWorksheet("Summary")!
      assert.strictEqual(summary.getRow(2).getCell(1).value, "one")
      assert.strictEqual(summary.getRow(2).getCell(2).value, 12.5)
    } finally {
      NodeFs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
