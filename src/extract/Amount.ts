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

/** What a column of amounts says about its decimal separator. */
export type DecimalDetection =
  | { readonly _tag: "Decided"; readonly decimal: DecimalSeparator }
  | { readonly _tag: "Conflict"; readonly evidence: string }
  | { readonly _tag: "Unneeded" }

const BOTH = /\d[.,'\s\u00a0]\d{3}([.,])\d+\)?-?$/
const ONLY_COMMA_DECIMAL = /^[^.,]*\d,\d{1,2}\)?-?$|^[^.,]*\d,\d{4,}\)?-?$/
const ONLY_DOT_DECIMAL = /^[^.,]*\d\.\d{1,2}\)?-?$|^[^.,]*\d\.\d{4,}\)?-?$/

/** The decimal separator one amount shows, if it shows one (`1,234` alone does not). */
export const decimalOf = (value: string): DecimalSeparator | undefined => {
  const v = value.trim()
  const both = BOTH.exec(v)
  if (both !== null) return both[1] as DecimalSeparator
  return ONLY_COMMA_DECIMAL.test(v) ? "," : ONLY_DOT_DECIMAL.test(v) ? "." : undefined
}

/**
 * The decimal separator of a column: `1.234,56` or `12,5` say comma, `1,234.56` or `12.5` say dot;
 * `1,234` alone says nothing. Values that disagree are a conflict; nothing telling means either works.
 */
export const detectDecimal = (values: Iterable<string>): DecimalDetection => {
  let dot: string | undefined
  let comma: string | undefined
  for (const v of values) {
    const sep = decimalOf(v)
    if (sep === ".") dot ??= v.trim()
    else if (sep === ",") comma ??= v.trim()
  }
  if (dot !== undefined && comma !== undefined)
    return { _tag: "Conflict", evidence: `"${dot}" has a decimal point, "${comma}" a decimal comma` }
  if (comma !== undefined) return { _tag: "Decided", decimal: "," }
  if (dot !== undefined) return { _tag: "Decided", decimal: "." }
  return { _tag: "Unneeded" }
}
