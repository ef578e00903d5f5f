/**
 * QuickBooks Online's Journal report: `,Transaction date,Transaction type,Num,Name,Description,Account Name,
 * Debit,Credit`, date/type/num only on a transaction's first line, each transaction closed by a line holding
 * only its Debit and Credit totals, then a final `TOTAL`. Lines are staged with the first line's date, type and
 * num carried down and `Transaction` = the first line's number, so the transform can group them.
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Amount from "../Amount.js"
import * as Headers from "../Headers.js"
import * as P from "../Profile.js"
import { cell, isBlank } from "../SourceRecord.js"
import * as Table from "../Table.js"
import * as Footer from "./Footer.js"

/** The staged kind. */
export const KIND = "qbo.journal"

const REQUIRED = ["Transaction date", "Transaction type", "Num", "Account Name", "Debit", "Credit"]
const KNOWN = ["Name", "Description", "Memo/Description", "Created on", "Created by", "Account"]
const CARRIED = ["Transaction date", "Transaction type", "Num"]

const reader = (file: string, headerIndex: number, headerCells: ReadonlyArray<string>): P.RowReader => {
  const header = Headers.trimTrailing(headerCells)
  const keys = Headers.keys(header)
  const at = (name: string) => keys.findIndex((k) => Headers.fold(k) === Headers.fold(name))
  const [debitAt, creditAt, accountAt, dateAt] = [
    at("Debit"),
    at("Credit"),
    at("Account Name"),
    at("Transaction date")
  ]
  const carriedAt = CARRIED.map((k) => [keys[at(k)]!, at(k)] as const)
  const zero = BigDecimal.fromBigInt(0n)
  const warnings: Array<string> = []
  let index = 0
  let open:
    | {
        line: number
        values: ReadonlyArray<string>
        debit: BigDecimal.BigDecimal
        credit: BigDecimal.BigDecimal
      }
    | undefined
  let grand = { debit: zero, credit: zero }
  const amount = (cells: ReadonlyArray<string>, i: number) => Amount.parse(cell(cells, i))

  return {
    read: (record) => {
      const i = index++
      const cells = record.cells
      if (isBlank(cells)) return P.skipped("blank")
      if (i < headerIndex) return P.skipped("title")
      if (i === headerIndex || Table.isHeaderAgain(header, cells)) return P.skipped("header")
      const first = cells.map((c) => c.trim()).find((c) => c !== "") ?? ""
      for (const [pattern, reason] of Footer.skips) if (pattern.test(first)) return P.skipped(reason)
      const filled = cells.flatMap((c, j) => (c.trim() === "" ? [] : [j]))
      const onlyAmounts = filled.every((j) => j === debitAt || j === creditAt)
      if (/^total$/i.test(first) || onlyAmounts) {
        const [d, c] = [amount(cells, debitAt), amount(cells, creditAt)]
        const sums = /^total$/i.test(first) ? grand : open
        const label = /^total$/i.test(first)
          ? `"${first}"`
          : `the total line of the transaction on line ${open?.line}`
        if (sums !== undefined && Option.isSome(d) && Option.isSome(c))
          if (!BigDecimal.equals(sums.debit, d.value) || !BigDecimal.equals(sums.credit, c.value))
            warnings.push(
              `${file}:${record.line}: ${label} says Debit ${Amount.show(d.value)} Credit ${Amount.show(c.value)} ` +
                `but the staged lines sum to Debit ${Amount.show(sums.debit)} Credit ${Amount.show(sums.credit)}`
            )
        open = undefined
        return P.skipped("total")
      }
      const wide = Table.tooManyCells(file, record, keys.length)
      if (wide !== undefined) return P.rejected(wide)
      if (cell(cells, dateAt) !== "")
        open = {
          line: record.line,
          values: carriedAt.map(([, j]) => cell(cells, j)),
          debit: zero,
          credit: zero
        }
      if (open === undefined || cell(cells, accountAt) === "")
        return P.rejected(
          `journal line outside any transaction at ${file}:${record.line}: no Transaction date on it or above ` +
            `it since the last total line; export the Journal report unmodified and extract again`
        )
      const data = Table.toData(keys, cells)
      carriedAt.forEach(([k], j) => (data[k] = open!.values[j]!))
      data["Transaction"] = String(open.line)
      const [d, c] = [amount(cells, debitAt), amount(cells, creditAt)]
      if (Option.isSome(d) && Option.isSome(c)) {
        open.debit = BigDecimal.sum(open.debit, d.value)
        open.credit = BigDecimal.sum(open.credit, c.value)
        grand = { debit: BigDecimal.sum(grand.debit, d.value), credit: BigDecimal.sum(grand.credit, c.value) }
      }
      return P.staged(data)
    },
    finish: () => warnings
  }
}

/** Recognised by its column header (first column blank); the `Journal` title makes it sure. */
export const profile: P.Profile = {
  kinds: [KIND],
  expects: `title "Journal", then a header row with ${REQUIRED.join(", ")}`,
  recognise: (head, file) => {
    const match = Table.findHeader(head, REQUIRED, KNOWN)
    if (match === undefined) return []
    const titled = head.slice(0, match.index).some((r) => /^journal$/i.test(cell(r.cells, 0)))
    const headerCells = head[match.index]!.cells
    return [
      {
        kind: KIND,
        confidence: titled ? 1 : match.coverage * 0.85,
        evidence: `${titled ? "title and " : ""}header on line ${head[match.index]!.line}`,
        reader: () => reader(file, match.index, headerCells)
      }
    ]
  }
}
