/**
 * What reading the sheets of a workbook needs besides the sheets themselves: the archive's entries, the
 * declared sheets, the shared strings, which cell styles are dates, and the date system (1900, or 1904 for
 * `workbookPr date1904`).
 */
import * as SharedStrings from "./SharedStrings.js"
import * as Styles from "./Styles.js"
import * as Xml from "./Xml.js"
import * as Zip from "./Zip.js"

/** A sheet as the workbook declares it: its name and its part in the archive. */
export interface Sheet {
  readonly name: string
  readonly part: string
}

/** A workbook opened for reading its sheets. */
export interface Workbook {
  readonly path: string
  readonly entries: ReadonlyMap<string, Zip.Entry>
  /** The declared sheets whose parts the archive holds, in workbook order. */
  readonly sheets: ReadonlyArray<Sheet>
  readonly strings: ReadonlyArray<string>
  /** By cell style index (`s`): whether a number in that style is a date. */
  readonly dateStyles: ReadonlyArray<boolean>
  readonly date1904: boolean
}

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag)
  return m === null ? undefined : Xml.decodeEntities(m[1] ?? m[2] ?? "")
}

/** The workbook part's relationships: the related parts by id and by type (the last segment of its URI). */
const related = (rels: string) => {
  const byId = new Map<string, string>()
  const byType = new Map<string, string>()
  for (const tag of rels.match(/<(?:[\w.-]+:)?Relationship\b[^>]*>/g) ?? []) {
    const id = attr(tag, "Id")
    const type = attr(tag, "Type")?.split("/").pop()
    const target = attr(tag, "Target")
    if (target === undefined) continue
    const part = target.startsWith("/") ? target.slice(1) : `xl/${target}`
    if (id !== undefined) byId.set(id, part)
    if (type !== undefined && !byType.has(type)) byType.set(type, part)
  }
  return { byId, byType }
}

/** Opens the workbook at `path`: reads its shared strings, styles and date system. */
export const read = async (path: string): Promise<Workbook> => {
  const entries = await Zip.entries(path)
  const workbook = entries.get("xl/workbook.xml")
  if (workbook === undefined) throw new Error("not an XLSX workbook (no xl/workbook.xml)")
  const relsEntry = entries.get("xl/_rels/workbook.xml.rels")
  const parts = related(relsEntry === undefined ? "" : await Zip.text(path, relsEntry))
  const part = (type: string, standard: string) => entries.get(parts.byType.get(type) ?? standard)
  const stringsEntry = part("sharedStrings", "xl/sharedStrings.xml")
  const stylesEntry = part("styles", "xl/styles.xml")
  const xml = await Zip.text(path, workbook)
  const sheets: Array<Sheet> = []
  for (const tag of xml.match(/<(?:[\w.-]+:)?sheet\b[^>]*>/g) ?? []) {
    const name = attr(tag, "name")
    const id = /\s[\w.-]+:id\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(tag)
    const sheetPart = id === null ? undefined : parts.byId.get(Xml.decodeEntities(id[1] ?? id[2] ?? ""))
    if (name !== undefined && sheetPart !== undefined && entries.has(sheetPart))
      sheets.push({ name, part: sheetPart })
  }
  const workbookPr = /<(?:[\w.-]+:)?workbookPr\b[^>]*>/.exec(xml)?.[0] ?? ""
  const date1904 = attr(workbookPr, "date1904")
  return {
    path,
    entries,
    sheets,
    strings: stringsEntry === undefined ? [] : await SharedStrings.read(path, stringsEntry),
    dateStyles: stylesEntry === undefined ? [] : Styles.dateStyles(await Zip.text(path, stylesEntry)),
    date1904: date1904 === "1" || date1904 === "true"
  }
}
