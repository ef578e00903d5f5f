/**
 * Checks a report's own totals against the rows staged from it, exactly (BigDecimal): each `Total <group>`
 * (or `Total for <group>`) row against its section, a bare `Total` against every section, with or without the opening balance.
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Amount from "./Amount.js"

/** Accumulates sums of named amount columns and collects mismatch warnings for one file. */
export interface Totals {
  readonly section: () => void
  readonly opening: (amounts: ReadonlyArray<BigDecimal.BigDecimal> | undefined) => void
  readonly add: (line: number, amounts: ReadonlyArray<BigDecimal.BigDecimal> | undefined) => void
  readonly check: (
    line: number,
    label: string,
    heading: string | undefined,
    amounts: ReadonlyArray<BigDecimal.BigDecimal> | undefined
  ) => void
  readonly warnings: () => ReadonlyArray<string>
}

const zeros = (n: number): ReadonlyArray<BigDecimal.BigDecimal> =>
  Array.from({ length: n }, () => BigDecimal.fromBigInt(0n))
const plus = (a: ReadonlyArray<BigDecimal.BigDecimal>, b: ReadonlyArray<BigDecimal.BigDecimal>) =>
  a.map((x, i) => BigDecimal.sum(x, b[i]!))
const same = (a: ReadonlyArray<BigDecimal.BigDecimal>, b: ReadonlyArray<BigDecimal.BigDecimal>) =>
  a.every((x, i) => BigDecimal.equals(x, b[i]!))

/** Totals of `columns` in `file`. */
export const make = (file: string, columns: ReadonlyArray<string>): Totals => {
  const warnings: Array<string> = []
  let section = zeros(columns.length)
  let grand = zeros(columns.length)
  let opening = zeros(columns.length)
  let sectionUnreadable: number | undefined
  let grandUnreadable: number | undefined
  const show = (values: ReadonlyArray<BigDecimal.BigDecimal>) =>
    columns.map((c, i) => `${c} ${Amount.show(values[i]!)}`).join(" ")
  return {
    section: () => {
      section = zeros(columns.length)
      opening = zeros(columns.length)
      sectionUnreadable = undefined
    },
    opening: (amounts) => {
      opening = amounts ?? zeros(columns.length)
    },
    add: (line, amounts) => {
      if (amounts === undefined) {
        sectionUnreadable ??= line
        grandUnreadable ??= line
        return
      }
      section = plus(section, amounts)
      grand = plus(grand, amounts)
    },
    check: (line, label, heading, amounts) => {
      if (columns.length === 0) return
      const bare = /^total$/i.test(label)
      const named = label.replace(/^total(\s+for)?\s+/i, "").toLowerCase()
      if (!bare && heading !== undefined && named !== heading.toLowerCase()) return
      const where = `${file}:${line}`
      if (amounts === undefined) return void warnings.push(`${where}: "${label}" has unreadable amounts`)
      const unreadable = bare ? grandUnreadable : sectionUnreadable
      if (unreadable !== undefined)
        return void warnings.push(`${where}: "${label}" not checked: unreadable amount on line ${unreadable}`)
      const sums = bare ? grand : section
      if (!same(sums, amounts) && !same(plus(sums, opening), amounts))
        warnings.push(
          `${where}: "${label}" says ${show(amounts)} but the staged rows it covers sum to ${show(sums)}`
        )
    },
    warnings: () => warnings
  }
}
