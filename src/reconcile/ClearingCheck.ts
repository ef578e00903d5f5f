/**
 * The clearing and suspense accounts a migration posts through (listed by the plan) must end at zero: each
 * one's balance in the target's trial balance at every compared date, and a difference for any that is not.
 */
import { normalizeName } from "../transform/Mappings.js"
import * as Money from "../transform/Money.js"
import type { ClearingAccount, Difference } from "./Model.js"
import type { TargetTrialBalance } from "./TargetBooks.js"

export const checkClearing = (
  accounts: ReadonlyArray<string>,
  trialBalances: ReadonlyArray<TargetTrialBalance>
): { readonly clearing: Array<ClearingAccount>; readonly differences: Array<Difference> } => {
  const differences: Array<Difference> = []
  const clearing = accounts.map((account) => ({
    account,
    balances: trialBalances.map((tb) => {
      const balance =
        tb.rows.find((r) => normalizeName(r.accountName) === normalizeName(account))?.balance ?? Money.zero
      if (!Money.isZero(balance))
        differences.push({
          class: "clearing-not-zero",
          area: "Clearing accounts",
          asAt: tb.asAt,
          subject: account,
          source: "0.00",
          target: Money.toFixed(balance),
          difference: Money.toFixed(balance),
          fix: "A clearing account carries the opening balances across and must end at zero: an opening item or the transfer journal is missing or differs. Compare the conversion documents with the source's aged reports.",
          candidates: [],
          lineage: []
        })
      return { asAt: tb.asAt, balance: Money.toFixed(balance) }
    })
  }))
  return { clearing, differences }
}
