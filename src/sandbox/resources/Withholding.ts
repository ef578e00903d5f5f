/** Withholding tax codes: a deterministic flat list of more than 1,360 entries, answered without paging. */
import { ok } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"

/** One withholding tax code. */
export interface WithholdingCode {
  readonly code: string
  readonly description: string
  readonly taxRate: number
  readonly payeeType: "INDIVIDUAL" | "CORPORATE"
  readonly category: string
  readonly status: "ACTIVE"
}

const PREFIXES = [
  ["WI", "INDIVIDUAL", "Expanded withholding"],
  ["WC", "CORPORATE", "Expanded withholding"],
  ["WB", "CORPORATE", "Business tax withholding"],
  ["WV", "CORPORATE", "VAT withholding"],
  ["WF", "INDIVIDUAL", "Final withholding"],
  ["WG", "CORPORATE", "Final withholding"],
  ["WP", "INDIVIDUAL", "Percentage tax withholding"]
] as const
const NATURES = [
  "professional fees",
  "rentals",
  "contractors",
  "commissions",
  "management fees",
  "royalties",
  "interest",
  "dividends",
  "supplier of goods",
  "supplier of services",
  "brokers and agents",
  "talent fees"
]
const RATES = [1, 2, 5, 10, 15, 20, 25, 30, 32, 35, 0.5, 12]
const PER_PREFIX = 200

let cache: ReadonlyArray<WithholdingCode> | undefined

/** The full list, generated once (1,400 entries). */
export const withholdingList = (): ReadonlyArray<WithholdingCode> => {
  if (cache !== undefined) return cache
  const out: WithholdingCode[] = []
  for (let n = 0; n < PER_PREFIX; n++) {
    for (const [prefix, payee, category] of PREFIXES) {
      const i = out.length
      out.push({
        code: `${prefix}${String(n + 10).padStart(3, "0")}`,
        description: `${category} on ${NATURES[(n + i) % NATURES.length]} (${payee.toLowerCase()})`,
        taxRate: RATES[(n * 7 + i) % RATES.length] ?? 1,
        payeeType: payee,
        category,
        status: "ACTIVE"
      })
    }
  }
  cache = out
  return out
}

let codes: ReadonlySet<string> | undefined

/** The set of valid codes. */
export const withholdingCodes = (_org: Org): ReadonlySet<string> => {
  codes ??= new Set(withholdingList().map((c) => c.code))
  return codes
}

/** Registers `GET /withholding-tax-codes` (a plain array). */
export const register = (r: Router): void => {
  r.get("/withholding-tax-codes", () => ok(withholdingList()))
}
