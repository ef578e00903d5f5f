import { assert, describe, it } from "@effect/vitest"
import { cr, dr, Ledger, type OpenItem, type Txn } from "../../../src/sample/qbo/Ledger.js"

const invoice: OpenItem = {
  side: "AR",
  key: "INV1",
  type: "Invoice",
  num: "1001",
  name: "Amaya Residence",
  day: 20_100,
  dueDay: 20_130,
  cents: 10_825n
}

const raise: Txn = {
  day: 20_100,
  type: "Invoice",
  num: "1001",
  name: "Amaya Residence",
  lines: [
    dr("Accounts Receivable (A/R)", 10_825n, "Amaya Residence"),
    cr("Landscaping Services:Lawn Care", 10_000n, "Amaya Residence"),
    cr("Sales Tax Payable", 825n, "Amaya Residence", "Austin TX 8.25%")
  ],
  raises: invoice
}

const payment = (cents: bigint, settled: bigint): Txn => ({
  day: 20_120,
  type: "Payment",
  num: "",
  name: "Amaya Residence",
  lines: [
    dr("Undeposited Funds", cents, "Amaya Residence"),
    cr("Accounts Receivable (A/R)", cents, "Amaya Residence")
  ],
  settles: [{ key: "INV1", cents: -settled }]
})

describe("the QuickBooks sample's ledger", () => {
  it("keeps balances and what is open on each item", () => {
    const ledger = new Ledger()
    ledger.post(raise)
    ledger.post(payment(4_000n, 4_000n))
    assert.strictEqual(ledger.balance("Accounts Receivable (A/R)"), 6_825n)
    assert.strictEqual(ledger.balance("Sales Tax Payable"), -825n)
    assert.deepStrictEqual(
      ledger.outstanding("AR").map((o) => [o.item.num, o.cents]),
      [["1001", 6_825n]]
    )
  })

  it("refuses a transaction that does not balance, moves A/R unlike its items, or settles more than is open", () => {
    const ledger = new Ledger()
    assert.throws(
      () => ledger.post({ ...raise, lines: raise.lines.slice(0, 2) }),
      /Invoice 1001 of Amaya Residence does not balance: 10825 ≠ 10000 cents/
    )
    ledger.post(raise)
    assert.throws(
      () => ledger.post(payment(4_000n, 3_000n)),
      /its AR lines move -4000 but its open items -3000/
    )
    assert.throws(() => ledger.post(payment(20_000n, 20_000n)), /settles INV1 beyond what is open on it/)
    assert.throws(
      () =>
        ledger.post({
          ...payment(100n, 100n),
          lines: [dr("Petty Cash", 100n, ""), cr("Accounts Receivable (A/R)", 100n, "")]
        }),
      /posts to Petty Cash, not in the chart/
    )
    assert.strictEqual(ledger.openCents("INV1"), 10_825n, "a refused transaction changes nothing")
    assert.strictEqual(ledger.balance("Undeposited Funds"), 0n)
  })
})
