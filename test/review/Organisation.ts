/** The target snapshot plan would read from a sandbox started on an organisation file (no sandbox needed). */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import type { TargetSnapshot } from "../../src/transform/TargetSnapshot.js"

const root = NodePath.resolve(import.meta.dirname, "../..")
export const renamedChart = NodePath.join(root, "test/fixtures/organisations/renamed-chart.json")
export const defaultOrganisation = NodePath.join(root, "src/sandbox/fixtures/default-organization.json")

export const snapshotOf = (file: string): TargetSnapshot => {
  const org = JSON.parse(NodeFs.readFileSync(file, "utf8")) as {
    baseCurrency: string
    accounts: Array<{ name: string; code?: string; classificationType: string; controlFlag?: boolean }>
    taxProfiles: Array<{ name: string; vatValue: number; appliesToSale: boolean; appliesToPurchase: boolean }>
    contacts?: Array<{ name: string }>
    items?: Array<{ itemCode: string }>
  }
  return {
    baseCurrency: org.baseCurrency,
    enabledCurrencies: [org.baseCurrency],
    accounts: org.accounts.map((a) => ({
      name: a.name,
      code: a.code ?? "",
      accountType: a.classificationType,
      controlFlag: a.controlFlag === true,
      currencyCode: org.baseCurrency
    })),
    taxProfiles: org.taxProfiles.map(({ name, vatValue, appliesToSale, appliesToPurchase }) => ({
      name,
      vatValue,
      appliesToSale,
      appliesToPurchase
    })),
    contactNames: (org.contacts ?? []).map((c) => c.name),
    itemCodes: (org.items ?? []).map((i) => i.itemCode),
    rates: []
  }
}
