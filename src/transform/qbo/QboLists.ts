/**
 * QuickBooks Online's lists as source books: the Account List (the `Parent:Child` full name is the account's
 * key and name, the account number its optional code, `Type` and `Detail type` its classification through
 * `mappings/qbo/account-types.json`), the customer and vendor lists (the display name is the key) and Products
 * and Services (the name is the item code). `Roles` says which accounts play the platform's system roles:
 * receivables, payables, sales tax, and the accounts that are bank accounts on the platform — Bank, Credit
 * Card (money in and out of a card is bank-like there) and Undeposited Funds (a clearing bank account:
 * payments land in it and a Deposit transfers them to the bank).
 */
import { where, type StagedRow } from "../../staging/SourceRows.js"
import { normalizeName } from "../Mappings.js"
import type { Issue, SourceAccount, SourceContact, SourceItem, SourceItemSide } from "../SourceModel.js"
import { amount, cell, either, readRows, required } from "./QboCells.js"
import { append } from "../../Multimap.js"

/** The Account List row as a source account: `Full name` is its name, `Account #` its code. */
export const readAccount = (row: StagedRow): SourceAccount => {
  const detail = cell(row, "Detail type")
  return {
    code: cell(row, "Account #"),
    name: required(row, "Full name"),
    type: required(row, "Type"),
    ...(detail === "" ? {} : { detailType: detail }),
    taxCode: "",
    description: cell(row, "Description"),
    lineage: where(row),
    ...(cell(row, "Currency") === "" ? {} : { currency: cell(row, "Currency").toUpperCase() })
  }
}

/**
 * A phone number in the platform's E.164 form: QuickBooks US companies write `(512) 555-0134`, which is
 * `+15125550134`; a number already starting with `+` keeps its digits. Anything else (an extension, several
 * numbers in one cell) is undefined.
 */
export const e164 = (text: string): string | undefined => {
  const digits = text.replace(/[^\d]/g, "")
  if (/^\s*\+/.test(text)) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : undefined
  if (/[a-z]/i.test(text)) return undefined
  if (digits.length === 10) return `+1${digits}`
  if (digits.length === 11 && digits.startsWith("1")) return `+${digits}`
  return undefined
}

export const readContact =
  (list: "Customer" | "Vendor", issues: Array<Issue>) =>
  (row: StagedRow): SourceContact => {
    const name = required(row, list)
    const phone = either(row, "Phone numbers", "Phone")
    const international = phone === "" ? "" : e164(phone)
    if (international === undefined)
      issues.push({
        severity: "warning",
        lineage: [where(row)],
        what: `the phone number ${JSON.stringify(phone)} of ${name}`,
        why: "it is not one North American or +country number, and the platform takes phone numbers in E.164 form",
        fix: "the contact is migrated without it: enter it on the platform after the load"
      })
    return { name, email: cell(row, "Email"), phone: international ?? "", taxId: "", lineage: where(row) }
  }

const side = (
  row: StagedRow,
  description: string,
  price: string,
  account: string
): SourceItemSide | undefined =>
  cell(row, account) === "" && cell(row, price) === ""
    ? undefined
    : {
        description: cell(row, description),
        unitPrice: cell(row, price) === "" ? undefined : amount(row, price),
        accountCode: cell(row, account),
        taxType: ""
      }

/**
 * A product or service. The Journal carries no items, so items are master data only; an Inventory item is
 * migrated as a non-inventory item (its quantities and costing stay behind) and said so by `items`.
 */
export const readItem = (row: StagedRow): SourceItem => ({
  code: required(row, "Name"),
  name: required(row, "Name"),
  sale: side(row, "Sales Description", "Sales Price/Rate", "Income Account"),
  purchase: side(row, "Purchase Description", "Purchase Cost", "Expense Account"),
  tracked: false,
  lineage: where(row)
})

export const items = (rows: ReadonlyArray<StagedRow>, issues: Array<Issue>): Array<SourceItem> =>
  readRows(rows, issues, (row) => {
    const item = readItem(row)
    if (/^inventory$/i.test(cell(row, "Type")))
      issues.push({
        severity: "warning",
        lineage: [where(row)],
        what: `inventory item "${item.name}"`,
        why: "it is migrated as a non-inventory item: QuickBooks' quantities on hand and costing are not migrated",
        fix: "enter its opening quantity and cost on the platform after the load if you track stock there"
      })
    return item
  })

/** Whether the Account List marks an item's sales as taxable (`Taxable` Yes/No), by sales description and name. */
export const taxableByDescription = (rows: ReadonlyArray<StagedRow>): Map<string, boolean> => {
  const out = new Map<string, boolean>()
  for (const r of rows) {
    const flag = cell(r, "Taxable")
    if (flag === "") continue
    const taxable = /^(yes|y|true|taxable)$/i.test(flag)
    for (const k of [cell(r, "Sales Description"), cell(r, "Name")])
      if (k !== "" && !out.has(normalizeName(k))) out.set(normalizeName(k), taxable)
  }
  return out
}

export type Role = "AR" | "AP" | "tax" | "bank"

/** The names QuickBooks gives its system accounts, for a Journal naming one the Account List lacks. */
const defaultRoles: ReadonlyArray<readonly [string, Role]> = [
  ["Accounts Receivable (A/R)", "AR"],
  ["Accounts Payable (A/P)", "AP"],
  ["Undeposited Funds", "bank"],
  ["Sales Tax Payable", "tax"]
]

/** The role an Account List entry plays, from its Type and Detail type. */
export const roleOf = (a: SourceAccount): Role | undefined => {
  const type = normalizeName(a.type)
  const detail = normalizeName(a.detailType ?? "")
  if (type.startsWith("accounts receivable")) return "AR"
  if (type.startsWith("accounts payable")) return "AP"
  if (type === "bank" || type === "credit card" || detail === "undeposited funds") return "bank"
  if (detail.includes("sales tax") || normalizeName(a.name) === "sales tax payable") return "tax"
  return undefined
}

/**
 * Resolves the account names the Journal writes to Account List entries: the full name, `number full name`,
 * or a leaf name (after the last `:`) that only one account has.
 */
export class Chart {
  private readonly byName = new Map<string, SourceAccount>()
  private readonly roles = new Map<string, Role>()
  constructor(readonly accounts: ReadonlyArray<SourceAccount>) {
    const leaves = new Map<string, Array<SourceAccount>>()
    for (const a of accounts) {
      const leaf = normalizeName(a.name.split(":").pop()!)
      append(leaves, leaf, a)
    }
    for (const [leaf, as] of leaves) if (as.length === 1) this.byName.set(leaf, as[0]!)
    for (const a of accounts) {
      if (a.code !== "") this.byName.set(normalizeName(`${a.code} ${a.name}`), a)
      this.byName.set(normalizeName(a.name), a)
      const role = roleOf(a)
      if (role !== undefined) this.roles.set(normalizeName(a.name), role)
    }
  }

  /** The Account List entry a Journal account name stands for. */
  find(name: string): SourceAccount | undefined {
    return this.byName.get(normalizeName(name))
  }

  /** The role of the account (by its Account List entry, else by QuickBooks' default system names). */
  role(name: string): Role | undefined {
    const a = this.find(name)
    if (a !== undefined) return this.roles.get(normalizeName(a.name))
    return defaultRoles.find(([n]) => normalizeName(n) === normalizeName(name))?.[1]
  }
}
