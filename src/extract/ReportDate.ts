/**
 * The as-at date of a balance report (trial balance, aged receivables or payables), read from its title
 * rows: Xero writes `As at 31 December 2025` or `As at 31 Dec 2025`, QuickBooks `As of December 31, 2025`.
 * A numeric date (`As at 31/12/2025`) is read only when one day/month order alone makes it a real date.
 * Reports are staged keyed by this date (`YYYY-MM-DD`), so one input may hold the same report at several
 * dates.
 */
import * as Option from "effect/Option"
import * as DateOrder from "./DateOrder.js"

/** The `data` key a dated report's rows carry their as-at date under. */
export const KEY = "As At"

/** What a report's title rows said about its date. */
export type Found =
  | { readonly _tag: "Dated"; readonly date: string; readonly line: number }
  | { readonly _tag: "Unreadable"; readonly text: string; readonly line: number }
  | { readonly _tag: "Missing" }

const AS_AT = /^as\s+(?:at|of)\b[\s:]*(.*)$/i

const pad = (n: number, width = 2) => String(n).padStart(width, "0")
const iso = (d: DateOrder.Ymd) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`

/** The date of an `As at …` title, `undefined` when the text is not such a title, `None` when unreadable. */
export const parse = (title: string): Option.Option<string> | undefined => {
  const m = AS_AT.exec(title.trim())
  if (m === null) return undefined
  const text = m[1]!.trim()
  const dmy = Option.map(DateOrder.parse(text, "DMY"), iso)
  const mdy = Option.map(DateOrder.parse(text, "MDY"), iso)
  if (Option.isSome(dmy) && Option.isSome(mdy) && dmy.value !== mdy.value) return Option.none()
  return Option.orElse(dmy, () => mdy)
}

/** Watches a report's title rows, in order; the first `As at …` title decides. */
export const watcher = () => {
  let found: Found = { _tag: "Missing" }
  return {
    title: (line: number, text: string): void => {
      if (found._tag !== "Missing") return
      const date = parse(text)
      if (date === undefined) return
      found = Option.match(date, {
        onNone: () => ({ _tag: "Unreadable", text: text.trim(), line }),
        onSome: (d) => ({ _tag: "Dated", date: d, line })
      })
    },
    found: (): Found => found
  }
}

/** The reject reason for a row of `file` at `line` when the report's titles gave no date. */
export const missing = (file: string, line: number, found: Found, headerLine: number): string =>
  `no as-at date for the row at ${file}:${line}: ` +
  (found._tag === "Unreadable"
    ? `the title at ${file}:${found.line} ("${found.text}") is not a readable date`
    : `the report's title rows above its header (${file}:${headerLine}) have no "As at <date>" line`) +
  `; export the report again with its title rows, or write the date above the header as ` +
  `"As at 31 December 2025" (Xero) or "As of December 31, 2025" (QuickBooks), and extract again`
