/**
 * exceljs' streaming workbook writer as a module of its own: the package's types describe only its whole
 * entry (`ExcelJS.stream.xlsx.WorkbookWriter` there), which this module's export is.
 */
declare module "exceljs/lib/stream/xlsx/workbook-writer.js" {
  import type ExcelJS from "exceljs"
  const WorkbookWriter: typeof ExcelJS.stream.xlsx.WorkbookWriter
  export default WorkbookWriter
}
