/**
 * Xero's Account Transactions report beyond the invoice and bill payments: each row is in an account's
 * section (the staged `Account`). In a bank account's section (a chart account of type Bank) a row is money
 * that moved: a payment (read by XeroSource), a refund of a credit, the funding of an overpayment or
 * prepayment, Receive or Spend Money, or one side of a bank transfer. In any other section, Receive and Spend
 * Money rows are the lines of those entries (the account and its net amount); other rows there are the far
 * side of documents and journals read from their own exports, and are not read again. Rows of one Receive or
 * Spend Money transaction are grouped across the sections by date, source, reference and contact.
 */
import { where, type StagedRow } from "../../staging/SourceRows.js"
import { normalizeName } from "../Mappings.js"
import * as Money from "../Money.js"
import type {
  CreditSide,
  Issue,
  SourceCashEntry,
  SourceCreditFunding,
  SourceRefund,
  SourceTransfer
} from "../SourceModel.js"
import { amount, cell, date, readRows, required, share } from "./StagedCells.js"
import { append } from "../../Multimap.js"
import { flat } from "../../Strings.js"

/** What a row of the report is, by its `Source` and whether its section is a bank account. */
export type TransactionRow =
  "payment" | "refund" | "funding" | "cash" | "cash-line" | "transfer" | "other" | "unknown"

const SALE = /^(receivable|receive|ar|accrec|sales|customer)\b/
const PURCHASE = /^(payable|spend|ap|accpay|bill|purchase|supplier)\b/

const sourceOf = (row: StagedRow) => cell(row, "Source").toLowerCase().replace(/\s+/g, " ")

/** The bank accounts of the chart (names and codes, normalized); none means every section is read as a bank. */
export const bankAccounts = (accountRows: ReadonlyArray<StagedRow>): ReadonlySet<string> =>
  new Set(
    accountRows
      .filter((r) => cell(r, "Type").toLowerCase() === "bank")
      .flatMap((r) => [
        normalizeName(cell(r, "Name")),
        ...(cell(r, "Code") ? [normalizeName(cell(r, "Code"))] : [])
      ])
  )

/** Whether a row's section is a bank account's (`Name`, or `Name (Code)` as some report versions head it). */
export const inBank = (banks: ReadonlySet<string>, row: StagedRow): boolean => {
  if (banks.size === 0) return true
  const heading = normalizeName(cell(row, "Account"))
  if (banks.has(heading)) return true
  const m = /^(.*)\s\(([^()]+)\)$/.exec(heading)
  return m !== null && (banks.has(m[1]!.trim()) || banks.has(m[2]!.trim()))
}

/** Classifies a staged row of the report. */
export const classify = (banks: ReadonlySet<string>, row: StagedRow): TransactionRow => {
  const s = sourceOf(row)
  const bank = inBank(banks, row)
  const cash = s === "spend money" || s === "receive money"
  if (!bank) return cash ? "cash-line" : "other"
  if (s === "receivable payment" || s === "payable payment") return "payment"
  if (cash) return "cash"
  if (s === "bank transfer" || s === "transfer") return "transfer"
  if (/(credit ?note|credit|overpayment|prepayment) ?(refund|payment)$|^(ar|ap)creditpayment$|refund/.test(s))
    return "refund"
  if (/(overpayment|prepayment)$/.test(s)) return "funding"
  if (s === "manual journal") return "other"
  return "unknown"
}

/**
 * The contact of a row: the `Contact` column, else the part of the description before " - ". Each part cut
 * from the description is a string of its own, as the cells are: a slice keeps the whole description alive,
 * and a cash entry kept its contact's and its text's, two copies of the description. At 100,000 invoices,
 * at the end of the build's settlements (where plan's heap is largest), 64,733 strings (4.6 MB) were held
 * only by such slices, these and the shared texts' (`StagedCells.share`); 67 after. A contact is one text
 * for every row that names it (`share`, which keeps its own copy): the cash entries, refunds and fundings
 * held a copy each.
 */
const contactOf = (row: StagedRow) => {
  const c = cell(row, "Contact")
  if (c !== "") return share(c)
  const d = cell(row, "Description")
  const i = d.indexOf(" - ")
  return i > 0 ? share(d.slice(0, i).trim()) : ""
}

/** The description without its "Contact - " prefix (see `contactOf`). */
const textOf = (row: StagedRow) => {
  const d = cell(row, "Description")
  const c = contactOf(row)
  return c !== "" && d.startsWith(`${c} - `) ? flat(d.slice(c.length + 3).trim()) : d
}

/** Money into the bank (Debit − Credit) as a signed amount. */
const moneyIn = (row: StagedRow) => Money.sub(amount(row, "Debit", true), amount(row, "Credit", true))

/**
 * Money out of the bank (Credit − Debit), as `moneyIn` negated: the row's own amount, not a copy, when it
 * has only a credit (`Money.sub` gives its operand when the other is zero).
 */
const moneyOut = (row: StagedRow) => Money.sub(amount(row, "Credit", true), amount(row, "Debit", true))

const sideOf = (s: string, inflow: boolean): CreditSide =>
  SALE.test(s) ? "sale" : PURCHASE.test(s) ? "purchase" : inflow ? "purchase" : "sale"

/** Refunds: money back to a customer (sales credits) or from a supplier (purchase credits). */
export const readRefunds = (rows: ReadonlyArray<StagedRow>, issues: Array<Issue>): Array<SourceRefund> =>
  readRows(rows, issues, (row) => {
    const net = moneyIn(row)
    return {
      side: sideOf(sourceOf(row), Money.greaterThan(net, Money.zero)),
      creditNumber: cell(row, "Reference"),
      contactName: contactOf(row),
      bankAccountName: share(required(row, "Account")),
      date: date(row, "Date"),
      amount: Money.abs(net),
      lineage: where(row)
    }
  })

/** The bank rows that received or paid overpayments and prepayments. */
export const readFundings = (
  rows: ReadonlyArray<StagedRow>,
  issues: Array<Issue>
): Array<SourceCreditFunding> =>
  readRows(rows, issues, (row) => {
    const s = sourceOf(row)
    const net = moneyIn(row)
    return {
      side: sideOf(s, Money.greaterThan(net, Money.zero)),
      origin: /prepayment/.test(s) ? ("prepayment" as const) : ("overpayment" as const),
      contactName: contactOf(row),
      bankAccountName: share(required(row, "Account")),
      date: date(row, "Date"),
      amount: Money.abs(net),
      reference: cell(row, "Reference"),
      lineage: where(row)
    }
  })

const reject = (
  issues: Array<Issue>,
  rows: ReadonlyArray<StagedRow>,
  what: string,
  why: string,
  fix: string
) => issues.push({ severity: "reject", lineage: rows.map(where), what, why, fix })

/** Receive and Spend Money: bank rows and line rows grouped by date, source, reference and contact. */
export const readCashEntries = (
  bankRows: ReadonlyArray<StagedRow>,
  lineRows: ReadonlyArray<StagedRow>,
  issues: Array<Issue>
): Array<SourceCashEntry> => {
  const groups = new Map<string, { bank: Array<StagedRow>; lines: Array<StagedRow> }>()
  const add = (row: StagedRow, part: "bank" | "lines") => {
    const key = [
      cell(row, "Date"),
      sourceOf(row),
      cell(row, "Reference"),
      normalizeName(contactOf(row))
    ].join("\u0000")
    const g = groups.get(key) ?? { bank: [], lines: [] }
    g[part].push(row)
    groups.set(key, g)
  }
  for (const r of bankRows) add(r, "bank")
  for (const r of lineRows) add(r, "lines")
  const byHead = new Map([...groups.values()].map((g) => [g.bank[0] ?? g.lines[0]!, g]))
  return readRows([...byHead.keys()], issues, (head): SourceCashEntry | undefined => {
    const g = byHead.get(head)!
    const rows = [...g.bank, ...g.lines]
    const direction = sourceOf(head) === "receive money" ? ("in" as const) : ("out" as const)
    const what = `${cell(head, "Source")} on ${cell(head, "Date")} (${cell(head, "Description")})`
    if (g.bank.length === 0)
      return void reject(
        issues,
        rows,
        what,
        "its account rows have no bank row in the report",
        "export the Account Transactions report for the bank accounts too"
      )
    if (g.lines.length === 0)
      return void reject(
        issues,
        rows,
        what,
        "the report has only its bank row, not the accounts it was coded to",
        "export the Account Transactions report for every account, not only the bank accounts"
      )
    const banks = new Set(g.bank.map((r) => normalizeName(cell(r, "Account"))))
    if (banks.size > 1)
      return void reject(
        issues,
        rows,
        what,
        "rows with the same date, source, reference and contact are in several bank accounts, so their lines cannot be told apart",
        "give each such transaction its own reference in the source"
      )
    // An entry's amount is what came in (or went out) of the bank, and each of its lines' the opposite on its
    // account's side: the money out of the line's row for money in, and the other way about.
    const [entryAmount, lineAmount] = direction === "in" ? [moneyIn, moneyOut] : [moneyOut, moneyIn]
    // The texts its lines repeat are the entry's own: a line's lineage is the entry's, and its text, most
    // often the entry's. Each was a string of its own, three or four copies of each text an entry.
    const lineLineage = g.lines.map(where)
    const description = share(textOf(head))
    const lines = g.lines.map((r, i) => {
      const text = textOf(r)
      return {
        accountName: share(required(r, "Account")),
        amount: lineAmount(r),
        description: text === description ? description : text,
        lineage: lineLineage[i]!
      }
    })
    if (g.bank.length > 1)
      issues.push({
        severity: "warning",
        lineage: g.bank.map(where),
        what,
        why: `${g.bank.length} bank rows share its date, source, reference and contact`,
        fix: "they are migrated as one cash entry; give each its own reference in the source to keep them apart"
      })
    return {
      direction,
      bankAccountName: share(required(head, "Account")),
      date: date(head, "Date"),
      contactName: contactOf(head),
      reference: cell(head, "Reference"),
      description,
      amount: Money.sum(g.bank.map(entryAmount)),
      lines,
      lineage: [...g.bank.map(where), ...lineLineage]
    }
  })
}

/**
 * Bank transfers: the money-out row and the money-in row of one transfer share its date and reference. In a
 * group, an out row pairs with an in row of another account for the same amount, in report order; what is
 * left pairs only when exactly one out and one in row remain (a transfer between currencies); else rejected.
 */
export const readTransfers = (
  rows: ReadonlyArray<StagedRow>,
  issues: Array<Issue>
): Array<SourceTransfer> => {
  const groups = new Map<string, Array<StagedRow>>()
  for (const r of rows) {
    const key = `${cell(r, "Date")}\u0000${cell(r, "Reference")}`
    append(groups, key, r)
  }
  const pairs: Array<[StagedRow, StagedRow]> = []
  for (const group of groups.values()) {
    const outs = group.filter((r) => Money.isNegative(moneyIn(r)))
    const ins = group.filter((r) => Money.greaterThan(moneyIn(r), Money.zero))
    for (const o of [...outs]) {
      const i = ins.findIndex(
        (r) => cell(r, "Account") !== cell(o, "Account") && Money.equals(moneyIn(r), moneyOut(o))
      )
      if (i >= 0) {
        pairs.push([o, ins.splice(i, 1)[0]!])
        outs.splice(outs.indexOf(o), 1)
      }
    }
    if (outs.length === 1 && ins.length === 1 && cell(outs[0]!, "Account") !== cell(ins[0]!, "Account"))
      pairs.push([outs[0]!, ins[0]!])
    else if (outs.length + ins.length > 0)
      reject(
        issues,
        [...outs, ...ins],
        `bank transfer rows on ${cell(group[0]!, "Date")}${cell(group[0]!, "Reference") ? ` (${cell(group[0]!, "Reference")})` : ""}`,
        "their money-out and money-in sides cannot be paired (one of each, between two accounts)",
        "give each transfer its own reference in the source, or export both accounts' sections"
      )
  }
  const inOf = new Map(pairs)
  return readRows(
    pairs.map(([o]) => o),
    issues,
    (o) => {
      const i = inOf.get(o)!
      return {
        fromAccountName: share(required(o, "Account")),
        toAccountName: share(required(i, "Account")),
        date: date(o, "Date"),
        reference: cell(o, "Reference"),
        amountOut: moneyOut(o),
        amountIn: moneyIn(i),
        lineage: [where(o), where(i)]
      }
    }
  )
}
