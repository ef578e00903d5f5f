/**
 * QuickBooks Online's Journal report grouped into transactions. The extract stages each line with its
 * transaction's date, type and number carried down and `Transaction` = the line number of its first line,
 * so a transaction is the rows of one file sharing `Transaction`. A transaction is kept whole or not at all:
 * one unreadable line rejects it (every row named), as do debits that differ from credits. A voided
 * transaction (QuickBooks keeps it with zero amounts and "Voided" in its memo) is skipped with a warning.
 */
import { where, type StagedRow } from "../../staging/SourceRows.js"
import * as Money from "../Money.js"
import type { Issue } from "../SourceModel.js"
import { amount, cell, date, either, required, RowProblem } from "./QboCells.js"

export interface JournalLine {
  readonly account: string
  readonly name: string
  readonly description: string
  /** Debit − Credit. */
  readonly net: Money.Money
  readonly lineage: string
}

export interface JournalTransaction {
  readonly type: string
  readonly date: string
  readonly num: string
  /** The first name on its lines ("" when none). */
  readonly name: string
  /** The first memo on its lines ("" when none). */
  readonly description: string
  readonly lines: ReadonlyArray<JournalLine>
  readonly lineage: ReadonlyArray<string>
}

/** How a transaction is named in messages: `Invoice 1001 of 01/03/2025 (Journal.csv:6)`. */
export const label = (t: JournalTransaction): string =>
  `${t.type}${t.num ? ` ${t.num}` : ""} of ${t.date}${t.name ? ` (${t.name})` : ""} at ${t.lineage[0]}`

const description = (row: StagedRow) => either(row, "Description", "Memo/Description", "Memo")

const readLine = (row: StagedRow): JournalLine => {
  const debit = amount(row, "Debit", true)
  const credit = amount(row, "Credit", true)
  return {
    account: required(row, "Account Name"),
    name: cell(row, "Name"),
    description: description(row),
    net: Money.sub(debit, credit),
    lineage: where(row)
  }
}

const isVoided = (t: JournalTransaction) =>
  t.lines.every((l) => Money.isZero(l.net)) && t.lines.some((l) => /\bvoid(ed)?\b/i.test(l.description))

/** The staged Journal rows as balanced transactions, in file order; the rest become issues. */
export const transactions = (
  rows: ReadonlyArray<StagedRow>,
  issues: Array<Issue>
): Array<JournalTransaction> => {
  const groups = new Map<string, Array<StagedRow>>()
  for (const r of rows) {
    const key = `${r.file}\u0000${cell(r, "Transaction") || String(r.line)}`
    const g = groups.get(key)
    if (g === undefined) groups.set(key, [r])
    else g.push(r)
  }
  const out: Array<JournalTransaction> = []
  for (const group of groups.values()) {
    const head = group[0]!
    const lineage = group.map(where)
    const type = cell(head, "Transaction type")
    const named = `the ${type || "untyped"} transaction${cell(head, "Num") ? ` ${cell(head, "Num")}` : ""} at ${lineage[0]}`
    let t: JournalTransaction
    try {
      const lines = group.map((r) => {
        try {
          return readLine(r)
        } catch (e) {
          if (e instanceof RowProblem) throw new RowProblem(`${where(r)}: ${e.what}`, e.fix)
          throw e
        }
      })
      t = {
        type: required(head, "Transaction type"),
        date: date(head, "Transaction date"),
        num: cell(head, "Num"),
        name: lines.find((l) => l.name !== "")?.name ?? "",
        description: lines.find((l) => l.description !== "")?.description ?? "",
        lines,
        lineage
      }
    } catch (e) {
      if (!(e instanceof RowProblem)) throw e
      issues.push({
        severity: "reject",
        lineage,
        what: named,
        why: `a line cannot be read (${e.what}), so the transaction is not migrated`,
        fix: e.fix
      })
      continue
    }
    if (isVoided(t)) {
      issues.push({
        severity: "warning",
        lineage,
        what: `voided ${label(t)}`,
        why: "QuickBooks keeps a voided transaction with zero amounts; it has no effect on the books",
        fix: "nothing to do: it is not migrated"
      })
      continue
    }
    const debit = Money.sum(t.lines.filter((l) => !Money.isNegative(l.net)).map((l) => l.net))
    const credit = Money.negate(Money.sum(t.lines.filter((l) => Money.isNegative(l.net)).map((l) => l.net)))
    if (!Money.equals(debit, credit)) {
      issues.push({
        severity: "reject",
        lineage,
        what: named,
        why: `its debits (${Money.toFixed(debit)}) and credits (${Money.toFixed(credit)}) differ, so it cannot be posted`,
        fix: "export the Journal report again unmodified; a line of this transaction is missing or edited"
      })
      continue
    }
    out.push(t)
  }
  return out
}
