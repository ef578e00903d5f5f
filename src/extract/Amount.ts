/**
 * Recognition of amounts as accountants' exports write them — `1,234.56`, `1.234,56`, `(500.00)`,
 * `$(250.00)`, `-$12.00`, `−5.00`, `5.00-`, blank or `-` for zero — into exact decimals. The extract uses
 * it to check report totals and to detect a file's decimal separator; converting staged cells is the
 * transform's job.
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"

/** The decimal separator of a file's amounts (the other of `.`/`,` is then a thousands separator). */
export type DecimalSeparator = "." | ","

const ZERO = /^[-–—]?$/
const CURRENCY = /^(?:[A-Z]{3}\s*)?[$€£¥₹]?|[$€£¥₹]?(?:\s*[A-Z]{3})?$/g
const GROUPING = /[\s\u00a0\u202f']/g

/**
 * The exact value of an amount cell, or `None` when it is not an amount. `decimal` says which separator
 * is decimal; the other one is accepted as a thousands separator only in groups of three digits.
 */
export const parse = (
  text: string,
  decimal: DecimalSeparator = "."
): Option.Option<BigDecimal.BigDecimal> => {
  let s = text.trim().replace(/\u2212/g, "-")
  if (ZERO.test(s)) return Option.some(BigDecimal.fromBigInt(0n))
  let negative = false
  const flip = () => (negative = !negative)
  if (s.startsWith("-")) (flip(), (s = s.slice(1).trim()))
  s = s.replace(CURRENCY, "").trim()
  if (s.startsWith("-")) (flip(), (s = s.slice(1).trim()))
  if (s.endsWith("-")) (flip(), (s = s.slice(0, -1).trim()))
  if (s.startsWith("(") && s.endsWith(")")) (flip(), (s = s.slice(1, -1).trim()))
  s = s.replace(CURRENCY, "").trim()
  if (s.startsWith("-")) (flip(), (s = s.slice(1).trim()))
  const thousands = decimal === "." ? "," : "."
  const [whole = "", fraction, extra] = s.replace(GROUPING, "").split(decimal)
  if (extra !== undefined) return Option.none()
  const groups = whole.split(thousands)
  if (groups.length > 1 && !groups.slice(1).every((g) => /^\d{3}$/.test(g))) return Option.none()
  const digits = groups.join("")
  if (!/^\d+$/.test(digits) && !(digits === "" && fraction !== undefined)) return Option.none()
  if (fraction !== undefined && !/^\d+$/.test(fraction)) return Option.none()
  const value = BigDecimal.unsafeFromString(`${negative ? "-" : ""}${digits || "0"}.${fraction ?? "0"}`)
  return Option.some(BigDecimal.normalize(value))
}

/** An amount's canonical decimal string (`-1234.5`), for messages. */
export const show = (n: BigDecimal.BigDecimal): string => BigDecimal.format(BigDecimal.normalize(n))
