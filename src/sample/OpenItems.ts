/**
 * What is left of each open item in its own currency, beside the base amount the general ledger keeps, so a
 * settlement (a payment, a refund, an allocation) knows how much base it clears from the control account:
 * round2(amount × the item's rate), except the settlement that completes the item, which clears whatever base
 * is left — so a settled item leaves nothing on the control account, however its parts were rounded (Xero's
 * rule, and the platform's). Items leave the map once settled; those open at year end stay.
 */
import type * as BigDecimal from "effect/BigDecimal"
import type { GeneralLedger, OpenItem } from "./GeneralLedger.js"
import * as Money from "./Money.js"

interface Open {
  readonly item: OpenItem
  readonly rate: BigDecimal.BigDecimal
  /** +1 for a document (outstanding positive), -1 for a credit (outstanding negative). */
  readonly sign: 1n | -1n
  left: bigint
}

/** What a settlement clears: the item and the base cents it takes off (positive). */
export interface Cleared {
  readonly item: OpenItem
  readonly base: bigint
}

/** The open items of a ledger in their own currency. */
export class OpenItems {
  private readonly open = new Map<string, Open>()

  constructor(readonly ledger: GeneralLedger) {}

  /** Registers an item just raised: `total` in its own currency, valued at `rate`. */
  raise(item: OpenItem, rate: BigDecimal.BigDecimal, total: BigDecimal.BigDecimal): void {
    if (this.open.has(item.key)) throw new Error(`open item ${item.key} raised twice`)
    const left = Money.exactCents(total)
    if (left <= 0n) throw new Error(`open item ${item.key} has no amount`)
    this.open.set(item.key, { item, rate, sign: item.totalCents < 0n ? -1n : 1n, left })
  }

  /** Settles `amount` (own currency) of the item `key`; returns the base cents that clears. Post it next. */
  clear(key: string, amount: BigDecimal.BigDecimal): Cleared {
    const o = this.open.get(key)
    if (o === undefined) throw new Error(`no open item ${key}`)
    const cents = Money.exactCents(amount)
    if (cents <= 0n || cents > o.left)
      throw new Error(`settling ${cents} cents of ${key}, which has ${o.left} left`)
    o.left -= cents
    if (o.left > 0n) return { item: o.item, base: Money.baseCents(amount, o.rate) }
    this.open.delete(key)
    return { item: o.item, base: o.sign * this.ledger.openCents(key) }
  }
}
