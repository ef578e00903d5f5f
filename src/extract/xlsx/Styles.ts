/**
 * Which cell formats of a workbook show numbers as dates: a number cell whose style `s` points at a
 * `cellXfs` entry with a date or time number format holds an Excel serial date, not an amount.
 */
import { decodeEntities } from "./Xml.js"

/** Built-in number formats that are dates or times (Excel's fixed ids and the East Asian locale ones). */
export const isBuiltInDate = (id: number): boolean =>
  (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58)

/**
 * True when a number format code shows a date or time: after dropping quoted text, escaped and padding
 * characters and `[...]` sections (colours, conditions, locales, elapsed `[h]`), a date or time letter
 * remains. Only the first section (positive numbers) decides.
 */
export const isDateFormat = (code: string): boolean => {
  const bare = code
    .replace(/"[^"]*"/g, "")
    .replace(/[\\_*]./g, "")
    .replace(/\[[^\]]*\]/g, "")
  const first = bare.split(";")[0] ?? ""
  return /general/i.test(first) ? false : /[ymdhsb]/i.test(first) || /^\s*\[(?:h+|m+|s+)\]/i.test(code)
}

const TAG = (name: string) => new RegExp(`<(?:[\\w.-]+:)?${name}\\b(?:[^>"']|"[^"]*"|'[^']*')*>`, "g")
const SECTION = (name: string) =>
  new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?(?<!/)>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>`)

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag)
  return m === null ? undefined : decodeEntities(m[1] ?? m[2] ?? "")
}

/** For each `cellXfs` entry of a styles part (by index, the cell attribute `s`), whether it shows a date. */
export const dateStyles = (xml: string): ReadonlyArray<boolean> => {
  const custom = new Map<number, string>()
  for (const tag of SECTION("numFmts").exec(xml)?.[1]?.match(TAG("numFmt")) ?? []) {
    const id = Number(attr(tag, "numFmtId"))
    const code = attr(tag, "formatCode")
    if (Number.isInteger(id) && code !== undefined) custom.set(id, code)
  }
  return (SECTION("cellXfs").exec(xml)?.[1]?.match(TAG("xf")) ?? []).map((tag) => {
    const id = Number(attr(tag, "numFmtId") ?? "0")
    const code = custom.get(id)
    return code !== undefined ? isDateFormat(code) : isBuiltInDate(id)
  })
}
