/**
 * What the plan needs to know of the target before it decides what to create: its base currency, enabled
 * currencies, chart of accounts, tax profiles, contacts and items. Read at plan time (read-only) and matched
 * by natural key, never by resource id, so the plan stays independent of the target's identifiers.
 */
export interface TargetAccount {
  readonly name: string
  readonly code: string
  readonly accountType: string
  readonly controlFlag: boolean
  readonly currencyCode: string
}

export interface TargetTaxProfile {
  readonly name: string
  readonly vatValue: number
  readonly appliesToSale: boolean
  readonly appliesToPurchase: boolean
}

export interface TargetSnapshot {
  readonly baseCurrency: string
  readonly enabledCurrencies: ReadonlyArray<string>
  readonly accounts: ReadonlyArray<TargetAccount>
  readonly taxProfiles: ReadonlyArray<TargetTaxProfile>
  readonly contactNames: ReadonlyArray<string>
  readonly itemCodes: ReadonlyArray<string>
  /** Organization rates already set, as `CODE:YYYY-MM-DD` (currency and rateApplicableFrom). */
  readonly rates: ReadonlyArray<string>
}
