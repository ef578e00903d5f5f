import { afterEach, describe, expect, it } from "vitest"
import { BALANCES, OPEN_ITEMS } from "../../src/sandbox/Ledger.js"
import { Store } from "../../src/sandbox/Store.js"

/**
 * The trial balance and the aged reports are sums over every ledger line up to a date. Summed from the lines
 * themselves, a 100,000-invoice company's trial balance took over a second; from the covering index, a
 * quarter of that. The plans below are SQLite's own account of how it answers each query.
 */
describe("sandbox ledger queries", () => {
  let store: Store | undefined
  afterEach(() => store?.db.close())

  const plan = (sql: string, ...args: Array<unknown>) => {
    store = new Store(undefined)
    return (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join("; ")
  }

  it("the balances per account read the covering index, never the lines", () => {
    expect(plan(BALANCES, 20251231)).toMatch(/USING COVERING INDEX ledger_balance/)
  })

  it("the open items of a control account search the covering index by account and date", () => {
    expect(plan(OPEN_ITEMS, "acc-1", 20251231)).toMatch(
      /SEARCH ledger USING COVERING INDEX ledger_balance \(accountId=\? AND valueDate<\?\)/
    )
  })
})
