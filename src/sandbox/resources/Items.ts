/** Items with the spec's 422 rules (sale/purchase names, inventory fields, PUT needing itemCode + internalName). */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import { ApiError, invalid, ok } from "../Http.js"
import { amount } from "../Money.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { recordRoutes } from "./RecordRoutes.js"
import type { SearchSpec } from "../Search.js"
import { accountOf } from "./Accounts.js"
import { taxProfileOf } from "./TaxProfiles.js"

/** An item as returned by GET (`name` mirrors `internalName`). */
export interface ItemRecord {
  readonly resourceId: string
  readonly itemCode: string
  readonly internalName: string
  readonly name: string
  readonly itemCategory: "INVENTORY" | "NON_INVENTORY"
  readonly appliesToSale: boolean
  readonly appliesToPurchase: boolean
  readonly saleItemName: string | null
  readonly purchaseItemName: string | null
  readonly salePrice: number | null
  readonly purchasePrice: number | null
  readonly saleAccountResourceId: string | null
  readonly purchaseAccountResourceId: string | null
  readonly saleTaxProfileResourceId: string | null
  readonly purchaseTaxProfileResourceId: string | null
  readonly unit: string | null
  readonly costingMethod: "FIXED" | "WAC" | null
  readonly cogsResourceId: string | null
  readonly blockInsufficientDeductions: boolean | null
  readonly inventoryAccountResourceId: string | null
  readonly status: "ACTIVE" | "INACTIVE"
  readonly createdAt: number
  readonly updatedAt: number
}

const spec: SearchSpec = {
  fields: {
    resourceId: "string",
    itemCode: "string",
    internalName: "string",
    name: "string",
    saleItemName: "string",
    purchaseItemName: "string",
    itemCategory: "string",
    appliesToSale: "boolean",
    appliesToPurchase: "boolean",
    saleAccountResourceId: "string",
    purchaseAccountResourceId: "string",
    status: "string",
    createdAt: "datetime",
    updatedAt: "datetime"
  },
  sortMax: 10
}

/** The items collection. */
export const items = (org: Org) => org.store.collection<ItemRecord>("items")

const read = (org: Org, b: Body, old: ItemRecord | undefined): ItemRecord => {
  const internalName = old === undefined ? b.str("internalName", ["name"]) : b.str("internalName")
  const itemCode = b.str("itemCode")
  if (internalName === undefined || internalName.trim() === "")
    throw invalid(
      old === undefined ? "internalName (or name) is required" : "internalName is required on every item PUT"
    )
  if (itemCode === undefined || itemCode.trim() === "")
    throw invalid(old === undefined ? "itemCode is required" : "itemCode is required on every item PUT")
  for (const i of items(org).map.values())
    if (i.resourceId !== old?.resourceId && i.itemCode === itemCode)
      throw invalid(`an item with itemCode "${itemCode}" already exists`)
  const sale = b.bool("appliesToSale") ?? false
  const purchase = b.bool("appliesToPurchase") ?? false
  if (!sale && !purchase) throw invalid("at least one of appliesToSale and appliesToPurchase must be true")
  const saleItemName = b.str("saleItemName") ?? null
  const purchaseItemName = b.str("purchaseItemName") ?? null
  if (sale && (saleItemName === null || saleItemName.trim() === ""))
    throw invalid("saleItemName is required when appliesToSale is true")
  if (purchase && (purchaseItemName === null || purchaseItemName.trim() === ""))
    throw invalid("purchaseItemName is required when appliesToPurchase is true")
  const category = b.str("itemCategory") ?? "NON_INVENTORY"
  if (category !== "INVENTORY" && category !== "NON_INVENTORY")
    throw invalid("itemCategory must be INVENTORY or NON_INVENTORY")
  const account = (field: string): string | null => {
    const id = b.str(field)
    if (id === undefined) return null
    accountOf(org, id, field)
    return id
  }
  const inventory = category === "INVENTORY"
  const purchaseAccount = account("purchaseAccountResourceId")
  if (inventory) {
    const missing = [
      "unit",
      "costingMethod",
      "cogsResourceId",
      "blockInsufficientDeductions",
      "inventoryAccountResourceId"
    ].filter((f) => !b.has(f))
    if (missing.length > 0) throw invalid(...missing.map((f) => `${f} is required for inventory items`))
    const method = b.str("costingMethod")
    if (method !== "FIXED" && method !== "WAC") throw invalid("costingMethod must be FIXED or WAC")
    if (!sale || !purchase) throw invalid("an inventory item must apply to both sale and purchase")
    if (
      purchaseAccount !== null &&
      accountOf(org, purchaseAccount, "purchaseAccountResourceId").accountType !== "Inventory"
    )
      throw invalid("purchaseAccountResourceId must be a chart-of-accounts entry of Inventory type")
    const inv = account("inventoryAccountResourceId")
    if (inv !== null && accountOf(org, inv, "inventoryAccountResourceId").accountType !== "Inventory")
      throw invalid("inventoryAccountResourceId must be a chart-of-accounts entry of Inventory type")
  }
  const tax = (field: string, side: "sale" | "purchase"): string | null => {
    const id = b.str(field)
    if (id === undefined) return null
    taxProfileOf(org, id, side, field)
    return id
  }
  const now = org.now()
  return {
    resourceId: old?.resourceId ?? randomUUID(),
    itemCode,
    internalName,
    name: internalName,
    itemCategory: category,
    appliesToSale: sale,
    appliesToPurchase: purchase,
    saleItemName,
    purchaseItemName,
    salePrice: b.money("salePrice") ?? null,
    purchasePrice: b.money("purchasePrice", ["purchaseItemPrice"]) ?? null,
    saleAccountResourceId: account("saleAccountResourceId"),
    purchaseAccountResourceId: purchaseAccount,
    saleTaxProfileResourceId: tax("saleTaxProfileResourceId", "sale"),
    purchaseTaxProfileResourceId: tax("purchaseTaxProfileResourceId", "purchase"),
    unit: b.str("unit") ?? null,
    costingMethod: (b.str("costingMethod") as "FIXED" | "WAC" | undefined) ?? null,
    cogsResourceId: account("cogsResourceId"),
    blockInsufficientDeductions: b.bool("blockInsufficientDeductions") ?? null,
    inventoryAccountResourceId: account("inventoryAccountResourceId"),
    status: (b.str("status") as "ACTIVE" | "INACTIVE" | undefined) ?? old?.status ?? "ACTIVE",
    createdAt: old?.createdAt ?? now,
    updatedAt: now
  }
}

interface ItemLine {
  readonly itemResourceId?: string | null
  readonly quantity: number
  readonly lineAmount: number
}

const balance = (org: Org, item: ItemRecord) => {
  let qty = 0
  let boughtQty = 0
  let boughtCost = 0
  const scan = (kind: string, sign: number) => {
    for (const d of org.store
      .collection<{ resourceId: string; status: string; lineItems: ItemLine[] }>(kind)
      .map.values()) {
      if (d.status === "DRAFT" || d.status === "VOIDED") continue
      for (const l of d.lineItems) {
        if (l.itemResourceId !== item.resourceId) continue
        qty += sign * l.quantity
        if (sign > 0) {
          boughtQty += l.quantity
          boughtCost += Math.round(l.lineAmount * 100)
        }
      }
    }
  }
  scan("bills", 1)
  scan("invoices", -1)
  const avg = boughtQty === 0 ? (item.purchasePrice ?? 0) : amount(Math.round(boughtCost / boughtQty))
  return { itemResourceId: item.resourceId, latestAverageCostAmount: avg, baseQty: qty, baseUnit: item.unit }
}

/** Registers item and inventory-balance endpoints. */
export const register = (r: Router, org: Org): void => {
  const all = items(org)
  const get = recordRoutes(r, org, { path: "/items", label: "item", all, spec, read })
  r.delete("/items/:id", (c) => {
    const i = get(c.params["id"] ?? "")
    all.remove(i.resourceId)
    return ok({ data: { resourceId: i.resourceId, deleted: true } })
  })
  r.get("/inventory-item-balance/:id", (c) => {
    const i = get(c.params["id"] ?? "")
    if (i.itemCategory !== "INVENTORY") throw invalid(`item ${i.itemCode} is not an inventory item`)
    return ok({ data: balance(org, i) })
  })
  r.get("/inventory-balances/:status", () => {
    throw new ApiError(500, "internal_server_error", [
      "internal server error (known platform fault: GET /inventory-balances/:status)"
    ])
  })
}
