/**
 * Reading the cells of rows staged through a column profile, as the profile says they are written: dates
 * in its date order (two-digit years are 20xx), amounts with its decimal and thousands separators, currency
 * symbols (`$57.2`, `£1,000.00`) and negatives as `-5`, `5-` or `(5)`; account codes given back the leading
 * zeros a spreadsheet dropped (Sage 50's `10` for `0010`) by the profile's code width. A cell that cannot
 * be read throws a `RowProblem` naming the column and the profile's format.
 */
import * as Option from "effect/Option"
import * as Amount from "../../extract/Amount.js"
import type { StagedRow } from "../../staging/SourceRows.js"
import type { ColumnProfile } from "../../extract/generic/ColumnProfile.js"
import * as Dates from "../Dates.js"
import * as Money from "../Money.js"
import { cell, required, RowProblem } from "../xero/StagedCells.js"

export { cell, required, RowProblem }

/** The header a field is read from, for messages ("Net Amount", or the field itself). */
export const columnOf = (profile: ColumnProfile, field: string): string => profile.columns[field] ?? field

/** A date written in `order` (ISO dates are read whatever the order; YMD takes ISO dates only), or none. */
export const parseDate = (order: "DMY" | "MDY" | "YMD", text: string): Option.Option<string> =>
  order === "YMD"
    ? /^\d{4}[-/.]/.test(text.trim())
      ? Dates.inOrder(text, "DMY")
      : Option.none()
    : Dates.inOrder(text, order)

/**
 * An amount as the profile writes it, or none (an empty text is none): `Amount.parse`, the extract's reading
 * of accountants' amounts, with the profile's decimal separator.
 */
export const parseAmount = (profile: ColumnProfile, text: string): Option.Option<Money.Money> =>
  text.trim() === ""
    ? Option.none()
    : Option.map(Amount.parse(text, profile.decimal ?? "."), (n) => Money.add(n, Money.zero))

const showFormat = (profile: ColumnProfile) =>
  `the profile's format (decimal "${profile.decimal ?? "."}", thousands "${profile.thousands ?? ","}")`

/** The field's cell as an amount; an empty cell is zero when `blankAsZero`. */
export const amount = (
  profile: ColumnProfile,
  row: StagedRow,
  field: string,
  blankAsZero = false
): Money.Money => {
  const v = cell(row, field)
  if (v === "" && blankAsZero) return Money.zero
  return Option.getOrThrowWith(
    parseAmount(profile, v),
    () =>
      new RowProblem(
        `${columnOf(profile, field)} ${JSON.stringify(v)} is not an amount in ${showFormat(profile)}`,
        `correct ${columnOf(profile, field)}, or the profile's decimal and thousands settings`
      )
  )
}

/** The field's cell as a date in the profile's date order (DMY when it says none). */
export const date = (profile: ColumnProfile, row: StagedRow, field: string): string => {
  const v = cell(row, field)
  const order = profile.dateOrder ?? "DMY"
  if (v === "")
    throw new RowProblem(`${columnOf(profile, field)} is empty`, `fill in ${columnOf(profile, field)}`)
  return Option.getOrThrowWith(
    parseDate(order, v),
    () =>
      new RowProblem(
        `${columnOf(profile, field)} ${JSON.stringify(v)} is not a real date in the profile's order ${order}`,
        `correct ${columnOf(profile, field)}, or the profile's dateOrder`
      )
  )
}

/** An account code as the chart spells it: a numeric code shorter than the profile's width is zero-padded. */
export const accountCode = (profile: ColumnProfile, text: string): string => {
  const t = text.trim()
  const width = profile.accountCodes?.width
  return width !== undefined && /^\d+$/.test(t) && t.length < width ? t.padStart(width, "0") : t
}
