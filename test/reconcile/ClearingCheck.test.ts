/** The clearing accounts the plan lists end at zero, or each balance left is a difference; none listed, none shown. */
import { assert, describe, it } from "@effect/vitest"
import { checkClearing } from "../../src/reconcile/ClearingCheck.js"
import { agreeing, targetTb } from "./Synthetic.js"

describe("clearing accounts", () => {
  it("reports none when the plan uses none", () => {
    assert.deepStrictEqual(checkClearing([], [targetTb(agreeing)]), { clearing: [], differences: [] })
  })

  it("passes a clearing account at zero and names one left with a balance", () => {
    const tb = targetTb({
      ...agreeing,
      "Conversion Clearing (AR)": "0.00",
      "Conversion Clearing (AP)": "-12.34"
    })
    const { clearing, differences } = checkClearing(
      ["Conversion Clearing (AR)", "conversion clearing (ap)"],
      [tb]
    )
    assert.deepStrictEqual(clearing, [
      { account: "Conversion Clearing (AR)", balances: [{ asAt: "2025-12-31", balance: "0.00" }] },
      { account: "conversion clearing (ap)", balances: [{ asAt: "2025-12-31", balance: "-12.34" }] }
    ])
    assert.deepStrictEqual(
      differences.map((d) => [d.class, d.subject, d.target]),
      [["clearing-not-zero", "conversion clearing (ap)", "-12.34"]]
    )
  })
})
