/**
 * Calendar dates of the sample as whole days since 1970-01-01 (UTC arithmetic only, no clock or time zone),
 * written the Singapore way as DD/MM/YYYY.
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
