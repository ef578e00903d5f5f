/**
 * Xero's Account Transactions (General Ledger) report: title rows, the column header, then per account a
 * heading row (the account's name alone), an `Opening Balance` row, detail rows, and a `Total <account>`
 * row. Detail rows are staged with the heading carried down as `Account`; each total is checked against
 * the section's staged Debit and Credit.
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Amount from "../Amount.js"
import * as Headers from "../Headers.js"
import * as P from "../Profile.js"
import { cell, filledCount, isBlank } from "../SourceRecord.js"
import * as Table from "../Table.js"

/** The staged kind. */
export const KIND = "xero.account_transactions"

const REQUIRED = ["Date", "Source", "Description", "Debit", "Credit", "Running Balance"]
const KNOWN = ["Reference", "Gross", "Tax", "Account Code", "Account", "Net", "Tax Rate", "Contact"]
const TITLES = /^(account transactions|general ledger)\b/i

type Sums = { debit: BigDecimal.BigDecimal; credit: BigDecimal.BigDecimal }
const zero = (): Sums => ({ debit: BigDecimal.fromBigInt(0n), credit: BigDecimal.fromBigInt(0n) })

const reader = (file: string, headerIndex: number, headerCells: ReadonlyArray<string>): P.RowReader => {
  const header = Headers.trimTrailing(headerCells)
  const keys = Headers.keys(header)
  const col = (name: string) => keys.findIndex((k) => Headers.fold(k) === Headers.fold(name))
  const [debitAt, creditAt] = [col("Debit"), col("Credit")]
  const accountAt = col("Account")
  const warnings: Array<string> = []
  let index = 0
  let account: string | undefined
  let section = zero()
  let grand = zero()
  let opening = zero()
  let unreadable: number | undefined

  const amountsOf = (cells: ReadonlyArray<string>): Sums | undefined => {
    const d = Amount.parse(cell(cells, debitAt))
    const c = Amount.parse(cell(cells, creditAt))
    return Option.isSome(d) && Option.isSome(c) ? { debit: d.value, credit: c.value } : undefined
  }

  const add = (a: Sums, b: Sums): Sums => ({
    debit: BigDecimal.sum(a.debit, b.debit),
    credit: BigDecimal.sum(a.credit, b.credit)
  })

  const checkTotal = (line: number, label: string, cells: ReadonlyArray<string>) => {
    const sums = /^total$/i.test(label) ? grand : section
    const total = amountsOf(cells)
    const where = `${file}:${line}`
    if (total === undefined) return warnings.push(`${where}: "${label}" has unreadable Debit/Credit amounts`)
    if (unreadable !== undefined)
      return warnings.push(`${where}: "${label}" not checked: unreadable amount on line ${unreadable}`)
    const withOpening = add(sums, opening)
    const same = (a: Sums) =>
      BigDecimal.equals(a.debit, total.debit) && BigDecimal.equals(a.credit, total.credit)
    if (!same(sums) && !same(withOpening))
      warnings.push(
        `${where}: "${label}" says Debit ${Amount.show(total.debit)} Credit ${Amount.show(total.credit)} ` +
          `but the staged rows it covers sum to Debit ${Amount.show(sums.debit)} ` +
          `Credit ${Amount.show(sums.credit)}`
      )
  }

  return {
    read: (record) => {
      const i = index++
      const cells = record.cells
      if (isBlank(cells)) return P.skipped("blank")
      if (i < headerIndex) return P.skipped("title")
      if (i === headerIndex || Table.isHeaderAgain(header, cells)) return P.skipped("header")
      const first = cells.map((c) => c.trim()).find((c) => c !== "") ?? ""
      if (/^opening balance$/i.test(first)) {
        opening = amountsOf(cells) ?? zero()
        return P.skipped("opening-balance")
      }
      if (/^closing balance$/i.test(first)) return P.skipped("closing-balance")
      if (/^total\b/i.test(first)) {
        checkTotal(record.line, first, cells)
        account = undefined
        return P.skipped("total")
      }
      if (filledCount(cells) === 1 && cell(cells, 0) !== "") {
        account = cell(cells, 0)
        section = zero()
        opening = zero()
        unreadable = undefined
        return P.skipped("heading")
      }
      const wide = Table.tooManyCells(file, record, keys.length)
      if (wide !== undefined) return P.rejected(wide)
      const data = Table.toData(keys, cells)
      const own = accountAt >= 0 ? cell(cells, accountAt) : ""
      if (own === "" && account === undefined)
        return P.rejected(
          `detail row outside any account section at ${file}:${record.line}: no account heading above it ` +
            `(or it follows a Total row); keep the report's account headings when exporting and extract again`
        )
      data["Account"] = own !== "" ? own : account!
      const amounts = amountsOf(cells)
      if (amounts === undefined) unreadable ??= record.line
      else {
        section = add(section, amounts)
        grand = add(grand, amounts)
      }
      return P.staged(data)
    },
    finish: () => warnings
  }
}

/** Recognised by its column header; a title row `Account Transactions`/`General Ledger` above it makes it sure. */
export const profile: P.Profile = {
  kinds: [KIND],
  expects: `title "Account Transactions", then a header row with ${REQUIRED.join(", ")}`,
  recognise: (head, file) => {
    const match = Table.findHeader(head, REQUIRED, KNOWN)
    if (match === undefined) return []
    const titled = head.slice(0, match.index).some((r) => TITLES.test(cell(r.cells, 0)))
    const headerCells = head[match.index]!.cells
    return [
      {
        kind: KIND,
        confidence: titled ? 1 : match.coverage * 0.95,
        evidence: `${titled ? "title and " : ""}header on line ${head[match.index]!.line}`,
        reader: () => reader(file, match.index, headerCells)
      }
    ]
  }
}
