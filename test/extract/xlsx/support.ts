/**
 * Test support for the XLSX readers: a tiny ZIP writer and a minimal workbook around hand-written sheet XML,
 * for what exceljs cannot write (inline strings, cells and rows without `r`, namespace prefixes, ...), and the
 * rows the sheet reader returns for a workbook's sheet.
 */
import * as NodeFs from "node:fs/promises"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as NodeZlib from "node:zlib"
import * as SheetIndex from "../../../src/extract/xlsx/SheetIndex.js"
import * as SheetReader from "../../../src/extract/xlsx/SheetReader.js"
import * as Workbook from "../../../src/extract/xlsx/Workbook.js"

/** A ZIP archive of `files` (name, content), each deflated, or stored when `stored`. */
export const zip = (files: ReadonlyArray<readonly [string, string | Buffer]>, stored = false): Buffer => {
  const locals: Array<Buffer> = []
  const centrals: Array<Buffer> = []
  let offset = 0
  for (const [name, content] of files) {
    const data = typeof content === "string" ? Buffer.from(content, "utf8") : content
    const body = stored ? data : NodeZlib.deflateRawSync(data)
    const nameBytes = Buffer.from(name, "utf8")
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(stored ? 0 : 8, 8)
    local.writeUInt32LE(NodeZlib.crc32(data), 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(stored ? 0 : 8, 10)
    central.writeUInt32LE(NodeZlib.crc32(data), 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, body)
    centrals.push(central, nameBytes)
    offset += 30 + nameBytes.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(files.length, 8)
  end.writeUInt16LE(files.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
const DECLARATION = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n`

/** A worksheet part holding `rows` (the XML inside `<sheetData>`). */
export const sheet = (rows: string): string =>
  `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${RELS}"><dimension ref="A1"/>` +
  `<sheetData>${rows}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75"/></worksheet>`

/** A shared-string part holding `items` (the XML of each `<si>`'s content). */
export const sharedStrings = (items: ReadonlyArray<string>): string =>
  `${DECLARATION}<sst xmlns="${MAIN}" count="${items.length}" uniqueCount="${items.length}">` +
  `${items.map((i) => `<si>${i}</si>`).join("")}</sst>`

/** A styles part: custom number formats `[id, code]` and the cell formats' `numFmtId`s, in `s` order. */
export const styles = (numFmts: ReadonlyArray<readonly [number, string]>, cellXfs: ReadonlyArray<number>) =>
  `${DECLARATION}<styleSheet xmlns="${MAIN}">` +
  (numFmts.length === 0
    ? ""
    : `<numFmts count="${numFmts.length}">` +
      numFmts.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code}"/>`).join("") +
      `</numFmts>`) +
  `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
  `<cellXfs count="${cellXfs.length}">` +
  cellXfs.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"/>`).join("") +
  `</cellXfs></styleSheet>`

/** What a hand-written workbook holds: its sheets (name, part XML) and optional workbook-level parts. */
export interface Parts {
  readonly sheets: ReadonlyArray<readonly [string, string]>
  readonly sharedStrings?: string
  readonly styles?: string
  /** The `<workbookPr .../>` element, e.g. with `date1904="1"`. */
  readonly workbookPr?: string
  /** Store the parts without compressing them. */
  readonly stored?: boolean
}

/** The bytes of a minimal XLSX workbook of `parts`. */
export const xlsx = (parts: Parts): Buffer => {
  const related = [
    ...parts.sheets.map((_, i) => ["worksheet", `worksheets/sheet${i + 1}.xml`] as const),
    ...(parts.sharedStrings === undefined ? [] : [["sharedStrings", "sharedStrings.xml"] as const]),
    ...(parts.styles === undefined ? [] : [["styles", "styles.xml"] as const])
  ]
  return zip(
    [
      [
        "[Content_Types].xml",
        `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          `<Default Extension="xml" ContentType="application/xml"/></Types>`
      ],
      [
        "_rels/.rels",
        `${DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          `<Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`
      ],
      [
        "xl/workbook.xml",
        `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${RELS}">${parts.workbookPr ?? ""}<sheets>` +
          parts.sheets
            .map(([name], i) => `<sheet name="${name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
            .join("") +
          `</sheets></workbook>`
      ],
      [
        "xl/_rels/workbook.xml.rels",
        `${DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          related
            .map(
              ([type, target], i) =>
                `<Relationship Id="rId${i + 1}" Type="${RELS}/${type}" Target="${target}"/>`
            )
            .join("") +
          `</Relationships>`
      ],
      ...parts.sheets.map(([, xml], i) => [`xl/worksheets/sheet${i + 1}.xml`, xml] as const),
      ...(parts.sharedStrings === undefined ? [] : [["xl/sharedStrings.xml", parts.sharedStrings] as const]),
      ...(parts.styles === undefined ? [] : [["xl/styles.xml", parts.styles] as const])
    ],
    parts.stored
  )
}

const temps: Array<string> = []

/** Writes `bytes` as `name` into a new temporary directory (see `removeTemps`) and returns its path. */
export const writeTemp = async (name: string, bytes: Buffer): Promise<string> => {
  const dir = await NodeFs.mkdtemp(NodePath.join(NodeOs.tmpdir(), "xlsx-"))
  temps.push(dir)
  const path = NodePath.join(dir, name)
  await NodeFs.writeFile(path, bytes)
  return path
}

/** Removes the directories `writeTemp` made. */
export const removeTemps = async (): Promise<void> => {
  for (const dir of temps.splice(0)) await NodeFs.rm(dir, { recursive: true, force: true })
}

/** A sheet's rows as the reader returns them, and the `<row>` elements `SheetIndex` counts independently. */
export interface Read {
  readonly rows: ReadonlyArray<SheetReader.Row>
  readonly counted: number
}

/** Reads the `n`-th sheet (0-based) of the workbook at `path` with the sheet reader. */
export const readSheet = async (path: string, n = 0): Promise<Read> => {
  const book = await Workbook.read(path)
  const declared = (await SheetIndex.read(path))[n]
  if (declared === undefined) throw new Error(`no sheet ${n} in ${path}`)
  const rows: Array<SheetReader.Row> = []
  for await (const batch of SheetReader.read(book, declared.part, `Book.xlsx#${declared.name}`))
    rows.push(...batch)
  return { rows, counted: declared.rows }
}

/** The rows of a sheet as `[number, cells]`, with the problem appended when a row has one. */
export const table = (rows: ReadonlyArray<SheetReader.Row>) =>
  rows.map((r) => (r.problem === undefined ? [r.number, r.cells] : [r.number, r.cells, r.problem]))
