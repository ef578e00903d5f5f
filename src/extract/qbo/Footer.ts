/** QuickBooks Online's report footers, in both forms, recorded as skipped `footer` lines. */
import type { SkipReason } from "../Profile.js"

/**
 * `Accrual Basis Monday, March 02, 2026 08:01 PM GMTZ` and `Monday, Mar 02, 2026 12:01:05 PM GMT-8 - Accrual
 * Basis` (Cash Basis likewise), matched on the first filled cell of a line.
 */
export const skips: ReadonlyArray<readonly [RegExp, SkipReason]> = [
  [/^(accrual|cash) basis\b/i, "footer"],
  [/\b(accrual|cash) basis$/i, "footer"],
  [/^(mon|tues|wednes|thurs|fri|satur|sun)day,\s+\w+\.?\s+\d{1,2},\s+\d{4}\b/i, "footer"]
]
