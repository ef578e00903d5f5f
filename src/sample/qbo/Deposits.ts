/**
 * The QuickBooks sample's bank deposits: what customers paid into Undeposited Funds is moved to Checking every
 * other Friday, one Undeposited Funds line per receipt, as QuickBooks' Deposit does.
 */
import * as CalendarDate from "../CalendarDate.js"
import { ACC } from "./Chart.js"
import { cr, dr, type Txn } from "./Ledger.js"

/** A receipt waiting in Undeposited Funds for a deposit. */
export interface Undeposited {
  readonly day: CalendarDate.Day
  readonly name: string
  readonly cents: bigint
}

/**
 * Deposits every other Friday of what waits in Undeposited Funds from before that day; receipts after the
 * last one stay there at the year end. The third deposit also carries a direct Other Income line.
 */
export const deposits = (waiting: ReadonlyArray<Undeposited>): Array<Txn> => {
  const pending = [...waiting].sort((a, b) => a.day - b.day)
  const out: Array<Txn> = []
  for (let day = CalendarDate.make(2025, 1, 10); day <= CalendarDate.make(2025, 12, 12); day += 14) {
    const batch: Array<Undeposited> = []
    while (pending.length > 0 && pending[0]!.day < day) batch.push(pending.shift()!)
    if (batch.length === 0) continue
    const extra = out.length === 2 ? [cr(ACC.otherIncome, 8550n, "", "Scrap metal recycling")] : []
    const total = batch.reduce((s, b) => s + b.cents, 0n) + extra.reduce((s, l) => s + l.credit, 0n)
    out.push({
      day,
      type: "Deposit",
      num: "",
      name: "",
      lines: [
        dr(ACC.checking, total, "", "Deposit"),
        ...batch.map((b) => cr(ACC.undeposited, b.cents, b.name)),
        ...extra
      ]
    })
  }
  return out
}
