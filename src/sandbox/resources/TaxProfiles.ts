/** Tax profiles: read only (the spec: they already exist and are never created); writes answer 422. */
import { invalid, notFound, ok } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { listing, search, type SearchSpec } from "../Search.js"

/** A tax profile as returned by GET. */
export interface TaxProfileRecord {
  readonly resourceId: string
  readonly name: string
  readonly description: string
  readonly taxTypeCode: string
  readonly taxTypeName: string
  readonly vatValue: number
  readonly withholdingValue: number
  readonly appliesToSale: boolean
  readonly appliesToPurchase: boolean
  readonly appliesToSaleCreditNote: boolean
  readonly appliesToPurchaseCreditNote: boolean
  readonly isDefault: boolean
  readonly isShipping: boolean
  readonly status: "ACTIVE"
}

const spec: SearchSpec = {
  fields: {
    resourceId: "string",
    name: "string",
    description: "string",
    status: "string",
    taxTypeCode: "string",
    taxTypeName: "string",
    vatValue: "number",
    withholdingValue: "number",
    isDefault: "boolean",
    isShipping: "boolean",
    appliesToSale: "boolean",
    appliesToPurchase: "boolean",
    appliesToSaleCreditNote: "boolean",
    appliesToPurchaseCreditNote: "boolean"
  },
  sortMax: 15
}

/** The tax profiles collection. */
export const taxProfiles = (org: Org) => org.store.collection<TaxProfileRecord>("taxProfiles")

/** A tax profile usable on the given side, or 422. */
export const taxProfileOf = (
  org: Org,
  id: string,
  side: "sale" | "purchase",
  where: string
): TaxProfileRecord => {
  const t = taxProfiles(org).get(id)
  if (t === undefined) throw invalid(`${where}: tax profile ${id} does not exist`)
  if (side === "sale" ? !t.appliesToSale : !t.appliesToPurchase)
    throw invalid(
      `${where}: tax profile ${t.name} does not apply to ${side === "sale" ? "sales" : "purchases"}`
    )
  return t
}

/** Registers the tax-profile endpoints. */
export const register = (r: Router, org: Org): void => {
  const all = taxProfiles(org)
  r.get("/tax-profiles", (c) => ok(listing(all.values(), c.query, spec, org.maxRows)))
  r.post("/tax-profiles/search", (c) => ok(search(all.values(), c.body, spec, org.maxRows)))
  r.get("/tax-profiles/:id", (c) => {
    const t = all.get(c.params["id"] ?? "")
    if (t === undefined) throw notFound(`tax profile ${c.params["id"]} not found`)
    return ok({ data: t })
  })
  const refuse = () => {
    throw invalid(
      "tax profiles are read only: they already exist in the organization and are never created or changed"
    )
  }
  r.post("/tax-profiles", refuse)
  r.put("/tax-profiles/:id", refuse)
  r.delete("/tax-profiles/:id", refuse)
}
