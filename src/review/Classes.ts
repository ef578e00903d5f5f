/**
 * What kind of account a classification is (asset, liability, equity, revenue, expense; bank or not), and the
 * system roles an account plays (receivables, payables, tax control, exchange gains, rounding, retained
 * earnings). The platform's API does not say an account's role: it is read from the control flag and the
 * name, for the target's chart and the source's alike.
 */
import type { SourceAccount } from "../transform/SourceModel.js"
import type { TargetAccount } from "../transform/TargetSnapshot.js"
import { normalise } from "./Similarity.js"

export type AccountClass = "Asset" | "Liability" | "Equity" | "Revenue" | "Expense"

/** The platform's classifications by class (the shipped organisation's list). */
const CLASSES: Record<string, AccountClass> = {
  "bank accounts": "Asset",
  cash: "Asset",
  "current asset": "Asset",
  inventory: "Asset",
  "fixed asset": "Asset",
  "non-current asset": "Asset",
  "current liability": "Liability",
  "non-current liability": "Liability",
  "shareholders equity": "Equity",
  "operating revenue": "Revenue",
  "other revenue": "Revenue",
  "direct costs": "Expense",
  "operating expense": "Expense",
  "other expense": "Expense"
}

/** The class of a classification; by its words when it is not one of the platform's known names. */
export const classOf = (classificationType: string): AccountClass | undefined => {
  const t = classificationType.trim().toLowerCase()
  const known = CLASSES[t]
  if (known) return known
  if (/asset|bank|cash|receivable|inventory/.test(t)) return "Asset"
  if (/liabilit|payable/.test(t)) return "Liability"
  if (/equity|capital/.test(t)) return "Equity"
  if (/revenue|income|sales/.test(t)) return "Revenue"
  if (/expense|cost|overhead|depreciation/.test(t)) return "Expense"
  return undefined
}

export const isBank = (classificationType: string): boolean =>
  /^(bank accounts|cash)$/i.test(classificationType.trim())

/**
 * Whether an account of one classification may become an account of another: the same class (revenue never
 * becomes an asset), and a bank account only a bank account. Unknown classes are compatible with nothing.
 */
export const compatible = (from: string, to: string): boolean => {
  const a = classOf(from)
  return a !== undefined && a === classOf(to) && isBank(from) === isBank(to)
}

export type Role = "AR" | "AP" | "TAX" | "FX" | "ROUNDING" | "RETAINED_EARNINGS"

const byName: ReadonlyArray<readonly [Role, RegExp]> = [
  ["AR", /^(accounts receivable|trade debtors|debtors( control)?|trade receivables)$/],
  ["AP", /^(accounts payable|trade creditors|creditors( control)?|trade payables)$/],
  ["TAX", /^(gst|vat|hst|sales tax)( control| payable| account| liability)?$/],
  [
    "FX",
    /^((realised|realized|unrealised|unrealized) )?(foreign )?(currency|exchange|fx|forex)( exchange)? (gains?|loss(es)?|gains? and loss(es)?|gain loss)$|^bank revaluations?$/
  ],
  ["ROUNDING", /^rounding( adjustments?| differences?)?$/],
  ["RETAINED_EARNINGS", /^retained (earnings|profits?)$|^accumulated (profits?|earnings)$/]
]

const nameRole = (name: string): Role | undefined => {
  const n = normalise(name)
  return byName.find(([, re]) => re.test(n))?.[0]
}

/** The role of a target account: receivables and payables by their control flag, the others by name. */
export const targetRole = (a: TargetAccount): Role | undefined => {
  if (a.controlFlag) {
    const c = classOf(a.accountType)
    return c === "Asset" ? "AR" : c === "Liability" ? "AP" : undefined
  }
  const r = nameRole(a.name)
  return r === "AR" || r === "AP" ? undefined : r
}

/** The role of a source account, by its name (source exports do not flag system accounts). */
export const sourceRole = (a: Pick<SourceAccount, "name">): Role | undefined => nameRole(a.name)
