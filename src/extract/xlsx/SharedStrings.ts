/**
 * The shared-string table of a workbook (`xl/sharedStrings.xml`), read as a stream: one string per `<si>`,
 * rich-text runs joined, phonetic runs left out. The table itself is held in memory (sheets index into it).
 */
import type * as Zip from "./Zip.js"
import * as Xml from "./Xml.js"

/** The strings of the shared-string part `entry` of the workbook at `path`, in order. */
export const read = async (path: string, entry: Zip.Entry): Promise<ReadonlyArray<string>> => {
  const strings: Array<string> = []
  const x = new Xml.Scanner()
  for await (const region of Xml.regions(await Xml.open(path, entry), "si")) {
    x.reset(region)
    while (x.next()) {
      if (x.tag() !== Xml.OPEN) continue
      const si = x.named("si")
      x.skipAttrs()
      if (si) strings.push(x.selfClosing ? "" : x.richText())
    }
  }
  return strings
}
