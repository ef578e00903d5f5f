/**
 * Large invoice-line exports in Xero's SalesInvoices layout for the extract benchmark: the rows of a generated
 * company repeated, each repetition with its own invoice numbers, until the wanted number of data rows.
 */
import ExcelJS from "exceljs"
import { parse } from "csv-parse/sync"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { CsvFile } from "../src/sample/CsvFile.js"
import { HEADER } from "../src/sample/DocumentFile.js"
import { generateCompany } from "../src/sample/Generator.js"
import * as Pipeline from "./Pipeline.js"

/** Data rows of a generated company's SalesInvoices.csv (header dropped). */
const templateRows = (): ReadonlyArray<ReadonlyArray<string>> => {
  const dir = Pipeline.tempDir("template")
  generateCompany({ invoices: 2_000, seed: 20_251_231, out: dir })
  const rows = parse(NodeFs.readFileSync(NodePath.join(dir, "SalesInvoices.csv"), "utf8")) as Array<
    Array<string>
  >
  NodeFs.rmSync(dir, { recursive: true, force: true })
  return rows.slice(1)
}

const NUMBER_AT = HEADER.indexOf("InvoiceNumber")
const NUMERIC = new Set(
  [
    "Total",
    "TaxTotal",
    "InvoiceAmountPaid",
    "InvoiceAmountDue",
    "Quantity",
    "UnitAmount",
    "LineAmount",
    "TaxAmount"
  ].map((h) => HEADER.indexOf(h))
)

/** The `i`-th data row: the template's rows in turn, invoice numbers made unique per repetition. */
const rows = function* (count: number): Generator<ReadonlyArray<string>> {
  const template = templateRows()
  for (let i = 0; i < count; i++) {
    const row = [...template[i % template.length]!]
    row[NUMBER_AT] = `${row[NUMBER_AT]}-${Math.floor(i / template.length)}`
    yield row
  }
}

/** Writes `SalesInvoices.csv` with `count` data rows into a new directory and returns the directory. */
export const writeCsv = (count: number): string => {
  const dir = Pipeline.tempDir("lines-csv")
  const file = new CsvFile(NodePath.join(dir, "SalesInvoices.csv"))
  file.row(HEADER)
  for (const row of rows(count)) file.row(row)
  file.close()
  return dir
}

/**
 * Writes `SalesInvoices.xlsx` (one sheet, shared strings, amounts as numbers) with `count` data rows into a
 * new directory through exceljs's streaming WorkbookWriter, and returns the directory.
 */
export const writeXlsx = async (count: number): Promise<string> => {
  const dir = Pipeline.tempDir("lines-xlsx")
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: NodePath.join(dir, "SalesInvoices.xlsx"),
    useSharedStrings: true,
    useStyles: false
  })
  const sheet = workbook.addWorksheet("Sales Invoices")
  sheet.addRow([...HEADER]).commit()
  for (const row of rows(count))
    sheet.addRow(row.map((cell, i) => (NUMERIC.has(i) && cell !== "" ? Number(cell) : cell))).commit()
  sheet.commit()
  await workbook.commit()
  return dir
}
