/**
 * The Xero Singapore GST rates the sample uses, by their Xero display names, with their percentages.
 * Amounts are tax exclusive: tax = round2(line amount × rate / 100).
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "./Money.js"

/** GST on standard-rated sales. */
export const STANDARD_SUPPLIES = "Standard-Rated Supplies"
/** Exports of goods and international services. */
export const ZERO_RATED_SUPPLIES = "Zero-Rated Supplies"
/** Exempt supplies (financial services, residential property). */
export const EXEMPT_SUPPLIES = "Exempt Supplies"
/** Supplies outside the scope of GST. */
export const OUT_OF_SCOPE_SUPPLIES = "Out Of Scope Supplies"
/** GST on standard-rated purchases. */
export const STANDARD_PURCHASES = "Standard-Rated Purchases"
/** No GST (purchases without GST, journals, balance-sheet accounts). */
export const NO_GST = "No GST"
/** What Xero puts on an overpayment's line (coded to the control account). */
export const TAX_EXEMPT = "Tax Exempt"

/** Every tax rate name with its percentage. */
export const RATES: ReadonlyMap<string, number> = new Map([
  [STANDARD_SUPPLIES, 9],
  [ZERO_RATED_SUPPLIES, 0],
  [EXEMPT_SUPPLIES, 0],
  [OUT_OF_SCOPE_SUPPLIES, 0],
  [STANDARD_PURCHASES, 9],
  [NO_GST, 0],
  [TAX_EXEMPT, 0]
])

/** The tax on a tax-exclusive line amount under a named rate. */
export const taxOn = (taxType: string, lineAmount: BigDecimal.BigDecimal): BigDecimal.BigDecimal => {
  const percent = RATES.get(taxType)
  if (percent === undefined) throw new Error(`unknown tax type: ${taxType}`)
  return Money.round2(BigDecimal.multiply(lineAmount, Money.units(percent, 2)))
}
