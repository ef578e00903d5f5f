/**
 * Date-order detection for a whole column: `03/04/2025` is only readable once the file has shown a
 * `15/04/2025` (day first) or a `04/15/2025` (month first). ISO and named-month dates (`15 Mar 2025`,
 * `Mar 15, 2025`) are unambiguous on their own; a column mixing them with numeric dates is fine.
 */
import * as Option from "effect/Option"

/** The order of a numeric date's parts. */
export type Order = "DMY" | "MDY"

/** What a column says about its date order. */
export type Detection =
  | { readonly _tag: "Decided"; readonly order: Order; readonly evidence: string }
  | { readonly _tag: "Ambiguous"; readonly evidence: string }
  | { readonly _tag: "Conflict"; readonly evidence: string }
  | { readonly _tag: "Unneeded" }

/** A calendar date. */
export interface Ymd {
  readonly year: number
  readonly month: number
  readonly day: number
}

const NUMERIC = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/
const ISO = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ][\d:.]+Z?)?$/
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
const DAY_NAMED = /^(\d{1,2})[\s-]+([A-Za-z]{3,9})\.?[\s-]+(\d{2}|\d{4})$/
const NAMED_DAY = /^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/

const year = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y))
const month = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1

/** Whether year/month/day is a real calendar date (2023-02-29 is not). */
export const isReal = ({ year, month, day }: Ymd): boolean => {
  if (month < 1 || month > 12 || day < 1) return false
  const d = new Date(Date.UTC(year, month - 1, day))
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day
}

/** Reads a date cell under `order`: `None` when it is not a date or not a real one. */
export const parse = (text: string, order: Order): Option.Option<Ymd> => {
  const s = text.trim()
  let ymd: Ymd | undefined
  const n = NUMERIC.exec(s)
  const iso = ISO.exec(s)
  const dn = DAY_NAMED.exec(s)
  const nd = NAMED_DAY.exec(s)
  if (n !== null) {
    const [a, b] = [Number(n[1]), Number(n[2])]
    ymd = order === "DMY" ? { year: year(n[3]!), month: b, day: a } : { year: year(n[3]!), month: a, day: b }
  } else if (iso !== null) ymd = { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) }
  else if (dn !== null) ymd = { year: year(dn[3]!), month: month(dn[2]!), day: Number(dn[1]) }
  else if (nd !== null) ymd = { year: Number(nd[3]), month: month(nd[1]!), day: Number(nd[2]) }
  return ymd !== undefined && isReal(ymd) ? Option.some(ymd) : Option.none()
}

/**
 * Whether a cell is written as a date (numeric in either order, ISO, or with a month name) but is no real
 * calendar date whichever way it is read (`29/02/2023`, `2025-02-30`, `31/31/2025`). Text that is not
 * written as a date at all is not "impossible": the transform decides what it is.
 */
export const impossible = (text: string): boolean => {
  const s = text.trim()
  const named = DAY_NAMED.exec(s) ?? NAMED_DAY.exec(s)
  if (named !== null && month(DAY_NAMED.test(s) ? named[2]! : named[1]!) === 0) return false
  const written = NUMERIC.test(s) || ISO.test(s) || named !== null
  return written && Option.isNone(parse(s, "DMY")) && Option.isNone(parse(s, "MDY"))
}

/** Accumulates a column's values; `result` decides its order from everything seen. */
export interface Detector {
  readonly add: (value: string, line: number) => void
  readonly result: () => Detection
}

const enum Class {
  None,
  DayFirst,
  MonthFirst,
  Ambiguous,
  Unreadable
}

/** What one cell says about the order: not numeric, either order, neither, or nothing (`45/45/2025`). */
const classify = (value: string): Class => {
  const n = NUMERIC.exec(value.trim())
  if (n === null) return Class.None
  const [a, b] = [Number(n[1]), Number(n[2])]
  if (a > 12 && a <= 31 && b <= 12) return Class.DayFirst
  if (b > 12 && b <= 31 && a <= 12) return Class.MonthFirst
  return a <= 12 && b <= 12 ? Class.Ambiguous : Class.Unreadable
}

/** A detector for one column (cell texts repeat: each is classified once, up to 4,096 remembered). */
export const detector = (): Detector => {
  const classes = new Map<string, Class>()
  let dayFirst: number | undefined
  let monthFirst: number | undefined
  let ambiguous = 0
  let numeric = 0
  return {
    add: (value, line) => {
      let c = classes.get(value)
      if (c === undefined) {
        if (classes.size >= 4096) classes.clear()
        classes.set(value, (c = classify(value)))
      }
      if (c === Class.None) return
      numeric++
      if (c === Class.DayFirst) dayFirst ??= line
      else if (c === Class.MonthFirst) monthFirst ??= line
      else if (c === Class.Ambiguous) ambiguous++
    },
    result: () => {
      if (dayFirst !== undefined && monthFirst !== undefined)
        return {
          _tag: "Conflict",
          evidence: `day first on line ${dayFirst}, month first on line ${monthFirst}`
        }
      if (dayFirst !== undefined)
        return { _tag: "Decided", order: "DMY", evidence: `day > 12 on line ${dayFirst}` }
      if (monthFirst !== undefined)
        return { _tag: "Decided", order: "MDY", evidence: `day > 12 on line ${monthFirst}` }
      if (ambiguous > 0)
        return { _tag: "Ambiguous", evidence: `${ambiguous} numeric dates, none with a part above 12` }
      return numeric > 0 ? { _tag: "Ambiguous", evidence: "no readable numeric date" } : { _tag: "Unneeded" }
    }
  }
}

/** The date order of a whole column of values. */
export const detect = (values: Iterable<string>): Detection => {
  const d = detector()
  let line = 0
  for (const v of values) d.add(v, ++line)
  return d.result()
}
