/** The organization a sandbox starts from: base currency, time zone, classifications, system accounts, tax profiles. */
import { readFileSync } from "node:fs"
import { resource } from "../Resources.js"

/** A system role an account plays in postings. */
export type AccountRole = "AR" | "AP" | "TAX" | "FX" | "ROUNDING" | "RETAINED_EARNINGS"

/** An account classification (`classificationType` / `accountType` value). */
export interface FixtureClassification {
  readonly name: string
  readonly accountClass: "Asset" | "Liability" | "Equity" | "Revenue" | "Expense"
  readonly normalBalance: "DEBIT" | "CREDIT"
}

/** A chart-of-accounts entry created with the organization. */
export interface FixtureAccount {
  readonly name: string
  readonly classificationType: string
  readonly code?: string
  readonly controlFlag?: boolean
  readonly role?: AccountRole
  readonly currencyCode?: string
}

/** A read-only tax profile. */
export interface FixtureTaxProfile {
  readonly name: string
  readonly description?: string
  readonly vatValue: number
  readonly appliesToSale: boolean
  readonly appliesToPurchase: boolean
  readonly taxTypeCode?: string
}

/** The organization fixture file (`fixtures/default-organization.json` is the default). */
export interface OrganizationFixture {
  readonly name: string
  readonly baseCurrency: string
  readonly timeZone: string
  readonly enabledCurrencies?: ReadonlyArray<string>
  /** Fallback rates (foreign units per 1 base unit) when no organization rate covers a date. */
  readonly platformRates: Readonly<Record<string, number>>
  readonly classifications: ReadonlyArray<FixtureClassification>
  readonly accounts: ReadonlyArray<FixtureAccount>
  readonly bankAccounts?: ReadonlyArray<{
    readonly name: string
    readonly code?: string
    readonly currencyCode?: string
  }>
  readonly taxProfiles: ReadonlyArray<FixtureTaxProfile>
}

const DEFAULT = resource("src/sandbox/fixtures/default-organization.json")

/** Reads a fixture from a path, or returns the given object, or the shipped default. */
export const loadFixture = (fixture: string | OrganizationFixture | undefined): OrganizationFixture => {
  if (typeof fixture === "object") return fixture
  const text = readFileSync(fixture ?? DEFAULT, "utf8")
  return JSON.parse(text) as OrganizationFixture
}
