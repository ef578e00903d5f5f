/**
 * The QuickBooks sample's own double-entry ledger. A transaction is what the Journal report shows (its
 * lines, debits and credits in cents on account full names) plus what it does to open items: the invoice,
 * credit memo, bill or vendor credit it raises, and the amounts it settles on others (a payment paying two
 * invoices, a credit memo applied to an invoice, a vendor credit taken in a bill payment). Posting checks
 * that debits equal credits and that the Accounts Receivable / Payable lines move exactly what the open items
 * move, so the Trial Balance and the A/R and A/P Aging Detail reports, which are computed from here, agree.
 */
import type * as CalendarDate from "../CalendarDate.js"
import { ACC, ACCOUNTS } from "./Chart.js"

/** QuickBooks Online's transaction types the sample uses, as the Journal report names them. */
export type TxnType =
  | "Invoice"
  | "Payment"
  | "Sales Receipt"
  | "Credit Memo"
  | "Refund Receipt"
  | "Deposit"
  | "Bill"
  | "Bill Payment (Check)"
  | "Bill Payment (Credit Card)"
  | "Vendor Credit"
  | "Expense"
  | "Check"
  | "Credit Card Credit"
  | "Transfer"
  | "Journal Entry"

/** Every transaction type, in the README's order. */
export const TXN_TYPES: ReadonlyArray<TxnType> = [
  "Invoice",
  "Payment",
  "Sales Receipt",
  "Credit Memo",
  "Refund Receipt",
  "Deposit",
  "Bill",
  "Bill Payment (Check)",
  "Bill Payment (Credit Card)",
  "Vendor Credit",
  "Expense",
  "Check",
  "Credit Card Credit",
  "Transfer",
  "Journal Entry"
]

/** One Journal line: cents in Debit or Credit (at most one non-zero), the line's Name and Description. */
export interface JournalLine {
  readonly account: string
  readonly debit: bigint
  readonly credit: bigint
  readonly name: string
  readonly description: string
  /** Where a voided line's 0.00 is written (a line with an amount is written on its own side). */
  readonly zeroSide?: "debit" | "credit"
}

/** A debit line. */
export const dr = (account: string, cents: bigint, name: string, description = ""): JournalLine => ({
  account,
  debit: cents,
  credit: 0n,
  name,
  description
})

/** A credit line. */
export const cr = (account: string, cents: bigint, name: string, description = ""): JournalLine => ({
  account,
  debit: 0n,
  credit: cents,
  name,
  description
})

/** Which control account an open item is on. */
export type Side = "AR" | "AP"

/** An invoice, credit memo, bill or vendor credit as the aging reports show it. */
export interface OpenItem {
  readonly side: Side
  readonly key: string
  readonly type: "Invoice" | "Credit Memo" | "Bill" | "Vendor Credit"
  readonly num: string
  readonly name: string
  readonly day: CalendarDate.Day
  readonly dueDay: CalendarDate.Day
  /** The amount as raised, owed positive (a credit memo or vendor credit is negative). */
  readonly cents: bigint
}

/** A change to what is owed on an open item (negative: settled). */
export interface Settlement {
  readonly key: string
  readonly cents: bigint
}

/** One transaction of the Journal report. */
export interface Txn {
  readonly day: CalendarDate.Day
  readonly type: TxnType
  readonly num: string
  readonly name: string
  readonly lines: ReadonlyArray<JournalLine>
  readonly raises?: OpenItem
  readonly settles?: ReadonlyArray<Settlement>
  /** A voided transaction: every line 0.00 and "Voided" in its description. */
  readonly voided?: boolean
}

const KNOWN = new Set(ACCOUNTS.map((a) => a.full))
const CONTROL: Record<Side, string> = { AR: ACC.ar, AP: ACC.ap }

/** An open item and what is still owed on it. */
export interface Outstanding {
  readonly item: OpenItem
  readonly cents: bigint
}

/** The ledger of the sample's year: balances by account full name and the open items. */
export class Ledger {
  private readonly balances = new Map<string, bigint>()
  private readonly items = new Map<string, { item: OpenItem; cents: bigint }>()
  readonly posted: Array<Txn> = []

  /** Posts one transaction; throws naming it when it does not balance or its control lines disagree. */
  post(txn: Txn): void {
    const what = `${txn.type} ${txn.num} of ${txn.name}`
    let debit = 0n
    let credit = 0n
    const control: Record<Side, bigint> = { AR: 0n, AP: 0n }
    for (const l of txn.lines) {
      if (!KNOWN.has(l.account)) throw new Error(`${what} posts to ${l.account}, not in the chart`)
      if (l.debit < 0n || l.credit < 0n || (l.debit !== 0n && l.credit !== 0n))
        throw new Error(`${what}: a line has a negative or two-sided amount`)
      debit += l.debit
      credit += l.credit
      if (l.account === CONTROL.AR) control.AR += l.debit - l.credit
      if (l.account === CONTROL.AP) control.AP += l.credit - l.debit
    }
    if (debit !== credit) throw new Error(`${what} does not balance: ${debit} ≠ ${credit} cents`)
    const moves: Record<Side, bigint> = { AR: 0n, AP: 0n }
    // what each item would hold after the transaction; nothing changes unless every check passes
    const after = new Map<string, { item: OpenItem; cents: bigint }>()
    if (txn.raises !== undefined) {
      if (this.items.has(txn.raises.key)) throw new Error(`${what} raises ${txn.raises.key} twice`)
      after.set(txn.raises.key, { item: txn.raises, cents: txn.raises.cents })
      moves[txn.raises.side] += txn.raises.cents
    }
    for (const s of txn.settles ?? []) {
      const open = after.get(s.key) ?? this.items.get(s.key)
      if (open === undefined) throw new Error(`${what} settles ${s.key}, which is not raised before it`)
      const left = open.cents + s.cents
      const owed = open.item.cents > 0n
      if (owed ? left < 0n || s.cents > 0n : left > 0n || s.cents < 0n)
        throw new Error(`${what} settles ${s.key} beyond what is open on it`)
      after.set(s.key, { item: open.item, cents: left })
      moves[open.item.side] += s.cents
    }
    for (const side of ["AR", "AP"] as const)
      if (moves[side] !== control[side])
        throw new Error(`${what}: its ${side} lines move ${control[side]} but its open items ${moves[side]}`)
    for (const [key, open] of after) this.items.set(key, open)
    for (const l of txn.lines)
      this.balances.set(l.account, (this.balances.get(l.account) ?? 0n) + l.debit - l.credit)
    this.posted.push(txn)
  }

  /** An account's balance, debit positive. */
  balance(account: string): bigint {
    return this.balances.get(account) ?? 0n
  }

  /** What is still owed on an open item (0 when unknown). */
  openCents(key: string): bigint {
    return this.items.get(key)?.cents ?? 0n
  }

  /** The open items of one side with something still owed (credits negative). */
  outstanding(side: Side): Array<Outstanding> {
    return [...this.items.values()]
      .filter((o) => o.item.side === side && o.cents !== 0n)
      .map(({ item, cents }) => ({ item, cents }))
  }
}
