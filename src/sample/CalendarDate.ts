/**
 * Calendar dates of the sample as whole days since 1970-01-01 (UTC arithmetic only, no clock or time zone),
 * written the Singapore way as DD/MM/YYYY in exports and as `31 December 2025` or `05 Feb 2025` in reports.
 */

/** Days since 1970-01-01. */
export type Day = number

const MS_PER_DAY = 86_400_000

/** The day of a calendar date (`month` 1–12). */
export const make = (year: number, month: number, day: number): Day =>
  Date.UTC(year, month - 1, day) / MS_PER_DAY

/** The calendar parts of a day. */
export const parts = (day: Day): { readonly year: number; readonly month: number; readonly day: number } => {
  const d = new Date(day * MS_PER_DAY)
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
}

/** The day written as DD/MM/YYYY. */
export const format = (day: Day): string => {
  const p = parts(day)
  return `${String(p.day).padStart(2, "0")}/${String(p.month).padStart(2, "0")}/${p.year}`
}

/** Parses DD/MM/YYYY. */
export const parse = (text: string): Day => {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text)
  if (match === null) throw new Error(`not a DD/MM/YYYY date: ${text}`)
  return make(Number(match[3]), Number(match[2]), Number(match[1]))
}

/** The last day of a month. */
export const endOfMonth = (year: number, month: number): Day => make(year, month + 1, 1) - 1

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
] as const

/** The English name of a month (1–12). */
export const monthName = (month: number): string => MONTH_NAMES[month - 1] ?? `Month ${month}`

/** The day as Xero's report titles write it: `31 December 2025`. */
export const formatLong = (day: Day): string => {
  const p = parts(day)
  return `${p.day} ${monthName(p.month)} ${p.year}`
}

/** The day as Xero's report rows write it: `05 Feb 2025`. */
export const formatShort = (day: Day): string => {
  const p = parts(day)
  return `${String(p.day).padStart(2, "0")} ${monthName(p.month).slice(0, 3)} ${p.year}`
}

/**
 * Whole calendar months from `from` to `to` (negative when `to` is earlier): 15 Jan → 14 Feb is 0,
 * 15 Jan → 15 Feb is 1.
 */
export const monthsBetween = (from: Day, to: Day): number => {
  const a = parts(from)
  const b = parts(to)
  return (b.year - a.year) * 12 + (b.month - a.month) - (b.day < a.day ? 1 : 0)
}
