/**
 * Calendar dates: the platform's request form `YYYY-MM-DD` (real dates only: 2023-02-29 is refused),
 * its response form (epoch milliseconds of the organization-local date), and source date parsing.
 */
import * as Option from "effect/Option"
import * as DateOrder from "../extract/DateOrder.js"
import * as Schema from "effect/Schema"

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/

const pad = (n: number, w = 2) => String(n).padStart(w, "0")

/** Is `y-m-d` a real calendar date? */
export const isRealDate = (y: number, m: number, d: number): boolean => {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false
  const t = new Date(Date.UTC(y, m - 1, d))
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d
}

/** Builds `YYYY-MM-DD` when the parts form a real date. */
export const fromParts = (y: number, m: number, d: number): Option.Option<string> =>
  isRealDate(y, m, d) ? Option.some(`${pad(y, 4)}-${pad(m)}-${pad(d)}`) : Option.none()

/** A request date: `YYYY-MM-DD` naming a real calendar day. */
export const DateString = Schema.String.pipe(
  Schema.filter((s) => {
    const m = isoDate.exec(s)
    return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))
      ? undefined
      : `expected a real calendar date as YYYY-MM-DD, got ${JSON.stringify(s)}`
  })
).annotations({ identifier: "DateString" })

/** A response date (epoch ms of the organization-local day) as `YYYY-MM-DD`. */
export const fromEpochMs = (ms: number): string => {
  const t = new Date(ms)
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`
}

/** The response-date schema: a finite integer of epoch ms ↔ `YYYY-MM-DD` (NaN and fractions refused). */
export const DateFromEpochMs = Schema.transform(
  Schema.Number.pipe(Schema.int(), Schema.finite()),
  DateString,
  {
    strict: true,
    decode: fromEpochMs,
    encode: (s) => {
      const m = isoDate.exec(s)!
      return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
    }
  }
)

const monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

/**
 * A day-first source date (`31/12/2025`, `1/2/2025`, `31 Dec 2025`, `2025-12-31`) as `YYYY-MM-DD`;
 * none when it is not a real date in one of those forms.
 */
export const parseDayFirst = (text: string): Option.Option<string> => {
  const t = text.trim()
  const iso = isoDate.exec(t)
  if (iso) return fromParts(Number(iso[1]), Number(iso[2]), Number(iso[3]))
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t)
  if (dmy) return fromParts(Number(dmy[3]), Number(dmy[2]), Number(dmy[1]))
  const named = /^(\d{1,2})[ -]([A-Za-z]{3})[A-Za-z]*[ -](\d{4})$/.exec(t)
  if (named) {
    const month = monthNames.indexOf(named[2]!.toLowerCase()) + 1
    return month === 0 ? Option.none() : fromParts(Number(named[3]), month, Number(named[1]))
  }
  return Option.none()
}

/** Adds `days` to a `YYYY-MM-DD` date. */
export const addDays = (date: string, days: number): string => {
  const m = isoDate.exec(date)!
  return fromEpochMs(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + days * 86_400_000)
}

/**
 * A date cell read with its numeric parts in `order` (ISO and month-name dates whatever the order; two-digit
 * years are 20xx), as `YYYY-MM-DD`; none when it is no real date.
 */
export const inOrder = (text: string, order: DateOrder.Order): Option.Option<string> =>
  Option.flatMap(DateOrder.parse(text, order), (d) => fromParts(d.year, d.month, d.day))
