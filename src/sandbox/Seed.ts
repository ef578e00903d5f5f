/** Applies an organization fixture to a new state database: currencies, system accounts, banks, tax profiles. */
import { randomUUID } from "node:crypto"
import type { AccountRole, OrganizationFixture } from "./Fixture.js"
import type { Org } from "./Org.js"
import { accounts, type AccountRecord } from "./resources/Accounts.js"
import { taxProfiles } from "./resources/TaxProfiles.js"

/** Seeds a fresh organization from its fixture (once per state database). */
export const seed = (org: Org, f: OrganizationFixture): void => {
  org.store.tx(() => {
    const now = org.now()
    for (const code of f.enabledCurrencies ?? [])
      if (code !== f.baseCurrency)
        org.currencies.put({ resourceId: code, currencyCode: code, baseCurrency: false, createdAt: now })
    const roles: Partial<Record<AccountRole, string>> = {}
    const add = (a: {
      name: string
      classificationType: string
      code?: string
      controlFlag?: boolean
      role?: AccountRole
      currencyCode?: string
    }) => {
      const cls = f.classifications.find((c) => c.name === a.classificationType)
      if (cls === undefined)
        throw new Error(`fixture account ${a.name}: unknown classification ${a.classificationType}`)
      const rec: AccountRecord = {
        resourceId: randomUUID(),
        name: a.name,
        code: a.code ?? null,
        accountType: a.classificationType,
        classificationType: a.classificationType,
        accountClass: cls.accountClass,
        currencyCode: a.currencyCode ?? f.baseCurrency,
        controlFlag: a.controlFlag ?? false,
        systemAccount: a.role !== undefined,
        status: "ACTIVE",
        description: null,
        createdAt: now,
        updatedAt: now
      }
      accounts(org).put(rec)
      if (a.role !== undefined) roles[a.role] = rec.resourceId
    }
    for (const a of f.accounts) add(a)
    for (const b of f.bankAccounts ?? []) add({ ...b, classificationType: "Bank Accounts" })
    for (const t of f.taxProfiles)
      taxProfiles(org).put({
        resourceId: randomUUID(),
        name: t.name,
        description: t.description ?? t.name,
        taxTypeCode: t.taxTypeCode ?? t.name,
        taxTypeName: t.description ?? t.name,
        vatValue: t.vatValue,
        withholdingValue: 0,
        appliesToSale: t.appliesToSale,
        appliesToPurchase: t.appliesToPurchase,
        appliesToSaleCreditNote: t.appliesToSale,
        appliesToPurchaseCreditNote: t.appliesToPurchase,
        isDefault: false,
        isShipping: false,
        status: "ACTIVE"
      })
    for (const role of ["AR", "AP", "TAX", "FX", "ROUNDING"] as const)
      if (roles[role] === undefined) throw new Error(`the fixture has no account with role ${role}`)
    org.setRoles(roles)
    org.store.setMeta(
      "fixture",
      JSON.stringify({ name: f.name, baseCurrency: f.baseCurrency, timeZone: f.timeZone })
    )
  })
}
