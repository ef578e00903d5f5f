/**
 * Who the QuickBooks Online sample company is: Bluebonnet Landscape & Garden Co., a small landscaping business
 * in Austin, Texas, reporting in USD for the calendar year 2025, and its two sales tax rates. Its chart
 * (`Chart.ts`), contacts (`Contacts.ts`) and products (`Products.ts`) are fixed too; only the transactions
 * depend on the seed.
 */
import * as CalendarDate from "../CalendarDate.js"

/** The company name of every report's preamble. */
export const COMPANY = "Bluebonnet Landscape & Garden Co."

/** The financial year. */
export const YEAR = 2025
export const FIRST_DAY: CalendarDate.Day = CalendarDate.make(YEAR, 1, 1)
export const LAST_DAY: CalendarDate.Day = CalendarDate.make(YEAR, 12, 31)
/** The day the reports were run (their footers; Unpaid Bills' "Past due" counts to it). */
export const RUN_DAY: CalendarDate.Day = CalendarDate.make(YEAR + 1, 1, 2)

/** A sales tax rate: QuickBooks writes its name on the Sales Tax Payable line of a sale. */
export interface TaxRate {
  readonly name: string
  /** The rate in basis points of a percent (8.25% = 825). */
  readonly basisPoints: number
  readonly agency: string
}

export const AGENCY = "Texas Comptroller of Public Accounts"
export const AUSTIN: TaxRate = { name: "Austin TX 8.25%", basisPoints: 825, agency: AGENCY }
export const STATE: TaxRate = { name: "Texas State 6.25%", basisPoints: 625, agency: AGENCY }
export const TAX_RATES: ReadonlyArray<TaxRate> = [AUSTIN, STATE]
