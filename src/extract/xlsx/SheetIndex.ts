/**
 * The sheets of an XLSX as the workbook declares them (name, part path), and how many `<row>` elements each
 * sheet part really holds, counted straight from the XML (a pass of its own) — the yardstick for the rows the
 * sheet reader streams.
 */
import * as Zip from "./Zip.js"

/** A declared sheet: its name, its part in the archive, and its row elements. */
export interface Sheet {
  readonly name: string
  readonly part: string
  readonly rows: number
}

const decode = (s: string): string =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, "&")

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)
  return m === null ? undefined : decode(m[1]!)
}

const ROW = /<(?:[A-Za-z_][\w.-]*:)?row[\s/>]/g
const CARRY = 64

/** Counts row elements in a sheet part without parsing it. */
const countRows = async (path: string, entry: Zip.Entry): Promise<number> => {
  let n = 0
  let carry = ""
  for await (const chunk of await Zip.open(path, entry)) {
    const s = carry + (chunk as Buffer).toString("latin1")
    const limit = s.length - CARRY
    ROW.lastIndex = 0
    for (let m = ROW.exec(s); m !== null && m.index < limit; m = ROW.exec(s)) n++
    carry = s.slice(Math.max(0, limit))
  }
  return n + (carry.match(ROW)?.length ?? 0)
}

/** The sheets of the workbook at `path`, in workbook order, each with its counted rows. */
export const read = async (path: string): Promise<ReadonlyArray<Sheet>> => {
  const zip = await Zip.entries(path)
  const workbook = zip.get("xl/workbook.xml")
  const rels = zip.get("xl/_rels/workbook.xml.rels")
  if (workbook === undefined || rels === undefined)
    throw new Error("not an XLSX workbook (no xl/workbook.xml)")
  const targets = new Map<string, string>()
  for (const tag of (await Zip.text(path, rels)).match(/<(?:\w+:)?Relationship\b[^>]*>/g) ?? []) {
    const id = attr(tag, "Id")
    const target = attr(tag, "Target")
    if (id !== undefined && target !== undefined)
      targets.set(id, target.startsWith("/") ? target.slice(1) : `xl/${target}`)
  }
  const sheets: Array<Sheet> = []
  for (const tag of (await Zip.text(path, workbook)).match(/<(?:\w+:)?sheet\b[^>]*>/g) ?? []) {
    const name = attr(tag, "name")
    const part = targets.get(attr(tag, "r:id") ?? "")
    const entry = part === undefined ? undefined : zip.get(part)
    if (name === undefined || part === undefined || entry === undefined) continue
    sheets.push({ name, part, rows: await countRows(path, entry) })
  }
  return sheets
}
