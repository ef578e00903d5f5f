/**
 * The sample company's own double-entry general ledger: every generated transaction posts balanced lines
 * here (base-currency SGD cents, debit positive, on account codes of the chart), and the source system's
 * reports — the Trial Balance and the Aged Receivables / Payables Detail — are computed from it, never from
 * what a migration makes of the exports. A line on a control account (Accounts Receivable, Accounts
 * Payable) names the open item it raises or settles, so the aged reports follow from the same postings:
 * an invoice or bill is an open item, and so is a credit the contact holds (a credit note, an overpayment),
 * whose outstanding amount is negative. Every kind of transaction only posts its lines here for every report
 * to follow.
 */
import * as CalendarDate from "./CalendarDate.js"
import { ACCOUNTS, CODES } from "./Chart.js"

/** Which control account an open item sits on. */
export type Side = "AR" | "AP"

/** The control account of each side. */
export const CONTROL: Readonly<Record<Side, string>> = {
  AR: CODES.accountsReceivable,
  AP: CODES.accountsPayable
}

/** A document or credit as the aged reports show it; `key` is unique across the ledger. */
export interface OpenItem {
  readonly side: Side
  readonly key: string
  readonly contact: string
  /** The document or credit note number; "" for an overpayment. */
  readonly number: string
  readonly reference: string
  readonly day: CalendarDate.Day
  /** The due date; undefined for a credit, which is aged by its date. */
  readonly dueDay: CalendarDate.Day | undefined
  /** The total and its tax in base cents as raised, signed as the item's outstanding amount. */
  readonly totalCents: bigint
  readonly taxCents: bigint
}

/** One ledger line: base cents on an account code, debit positive; control-account lines name their item. */
export interface LedgerLine {
  readonly account: string
  readonly cents: bigint
  readonly item?: OpenItem
}

/** An open item with what is still outstanding on it, in base cents (receivable or payable positive). */
export interface Outstanding {
  readonly item: OpenItem
  readonly cents: bigint
}

const KNOWN: ReadonlySet<string> = new Set(ACCOUNTS.map((a) => a.code))
const SIDE_OF: ReadonlyMap<string, Side> = new Map([
  [CONTROL.AR, "AR"],
  [CONTROL.AP, "AP"]
])

/** What a report reads of a ledger as at one date: balances, the month's movements and the open items. */
export interface LedgerView {
  readonly asAt: CalendarDate.Day
  /** The account's balance as at the report date (debit positive). */
  balance(account: string): bigint
  /** The account's net movement in the report's month (debit positive). */
  monthMovement(account: string): bigint
  /** What is outstanding on the open item `key`, in base cents (receivable or payable positive; 0 if none). */
  openCents(key: string): bigint
  /** The open items on one side with their outstanding base cents, in no particular order. */
  outstanding(side: Side): Array<Outstanding>
}

/** The postings dated on or before one report date. */
class View implements LedgerView {
  private readonly balances = new Map<string, bigint>()
  private readonly monthMoves = new Map<string, bigint>()
  private readonly items = new Map<string, { item: OpenItem; cents: bigint }>()
  private readonly monthStart: CalendarDate.Day

  constructor(readonly asAt: CalendarDate.Day) {
    const { year, month } = CalendarDate.parts(asAt)
    this.monthStart = CalendarDate.make(year, month, 1)
  }

  apply(day: CalendarDate.Day, lines: ReadonlyArray<LedgerLine>): void {
    if (day > this.asAt) return
    for (const l of lines) {
      if (l.cents === 0n) continue
      this.balances.set(l.account, (this.balances.get(l.account) ?? 0n) + l.cents)
      if (day >= this.monthStart)
        this.monthMoves.set(l.account, (this.monthMoves.get(l.account) ?? 0n) + l.cents)
      if (l.item !== undefined) this.settle(l.item, l.cents)
    }
  }

  private settle(item: OpenItem, cents: bigint): void {
    const open = this.items.get(item.key)
    const left = (open?.cents ?? 0n) + (item.side === "AR" ? cents : -cents)
    if (left === 0n) this.items.delete(item.key)
    else this.items.set(item.key, { item: open?.item ?? item, cents: left })
  }

  balance(account: string): bigint {
    return this.balances.get(account) ?? 0n
  }

  monthMovement(account: string): bigint {
    return this.monthMoves.get(account) ?? 0n
  }

  openCents(key: string): bigint {
    return this.items.get(key)?.cents ?? 0n
  }

  outstanding(side: Side): Array<Outstanding> {
    return [...this.items.values()]
      .filter((o) => o.item.side === side)
      .map(({ item, cents }) => ({ item, cents }))
  }
}

/**
 * The ledger of one financial year, reporting as at `asAt` (its month is the report's month), and as at each
 * of `also` (earlier report dates, such as a mid-year cut-over): `at(day)` reads the postings up to one of
 * them. Transactions may be posted in any order.
 */
export class GeneralLedger implements LedgerView {
  private readonly main: View
  private readonly views: ReadonlyArray<View>

  constructor(
    readonly asAt: CalendarDate.Day,
    also: ReadonlyArray<CalendarDate.Day> = []
  ) {
    this.main = new View(asAt)
    this.views = [this.main, ...also.map((d) => new View(d))]
  }

  /** Posts one transaction on `day`; its lines must sum to zero. `what` names it in errors. */
  post(day: CalendarDate.Day, what: string, lines: ReadonlyArray<LedgerLine>): void {
    if (day > this.asAt) throw new Error(`${what} is dated after the ledger's report date`)
    let sum = 0n
    for (const l of lines) {
      if (!KNOWN.has(l.account)) throw new Error(`${what} posts to account ${l.account}, not in the chart`)
      const side = SIDE_OF.get(l.account)
      if ((side === undefined) !== (l.item === undefined) || (l.item !== undefined && l.item.side !== side))
        throw new Error(`${what}: a control-account line needs its open item, and only such a line has one`)
      sum += l.cents
    }
    if (sum !== 0n) throw new Error(`${what} does not balance: off by ${sum} cents`)
    for (const v of this.views) v.apply(day, lines)
  }

  /** The ledger as at one of its report dates. */
  at(day: CalendarDate.Day): LedgerView {
    const v = this.views.find((x) => x.asAt === day)
    if (v === undefined) throw new Error(`the ledger does not report as at ${day}`)
    return v
  }

  balance(account: string): bigint {
    return this.main.balance(account)
  }

  monthMovement(account: string): bigint {
    return this.main.monthMovement(account)
  }

  openCents(key: string): bigint {
    return this.main.openCents(key)
  }

  outstanding(side: Side): Array<Outstanding> {
    return this.main.outstanding(side)
  }
}
