/** Contacts (`name` is the billing name; a `billingName` filter matches nothing) and contact groups. */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import { ApiError, createdResource, invalid, notFound, ok } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { recordRoutes } from "./RecordRoutes.js"
import { search, type SearchSpec } from "../Search.js"

/** A contact as returned by GET (inside `data`). */
export interface ContactRecord {
  readonly resourceId: string
  readonly name: string
  readonly billingName: string
  readonly customer: boolean
  readonly supplier: boolean
  readonly status: "ACTIVE" | "INACTIVE"
  readonly email: string | null
  readonly phone: string | null
  readonly currencyCode: string | null
  readonly taxId: string | null
  readonly registrationId: string | null
  readonly website: string | null
  readonly notes: string | null
  readonly billingAddress: unknown
  readonly createdAt: number
  readonly updatedAt: number
}

/** A contact group. */
export interface ContactGroupRecord {
  readonly resourceId: string
  readonly name: string
  readonly associatedContacts: ReadonlyArray<{ readonly name: string; readonly resourceId: string }>
  readonly createdAt: number
  readonly updatedAt: number
}

const spec: SearchSpec = {
  fields: {
    resourceId: "string",
    name: "string",
    billingName: { type: "string", get: () => undefined },
    email: "string",
    customer: "boolean",
    supplier: "boolean",
    status: "string",
    taxId: "string",
    registrationId: "string",
    notes: "string",
    website: "string",
    currencyCode: "string",
    createdAt: "datetime",
    updatedAt: "datetime"
  },
  sortMax: 14
}

const groupSpec: SearchSpec = { fields: { resourceId: "string", name: "string" } }

const E164 = /^\+[1-9]\d{6,14}$/

/** The contacts collection. */
export const contacts = (org: Org) => org.store.collection<ContactRecord>("contacts")

/** An existing contact referenced at `where`, or 422. */
export const contactOf = (org: Org, id: string, where: string): ContactRecord => {
  const c = contacts(org).get(id)
  if (c === undefined) throw invalid(`${where}: contact ${id} does not exist`)
  return c
}

const read = (org: Org, b: Body, old: ContactRecord | undefined): ContactRecord => {
  const name = b.str("name") ?? b.str("billingName") ?? old?.name
  if (name === undefined || name.trim() === "") throw invalid("name is required")
  for (const c of contacts(org).map.values())
    if (c.resourceId !== old?.resourceId && c.name.toLowerCase() === name.toLowerCase())
      throw invalid(`a contact named "${name}" already exists`)
  if (b.has("isCustomer") || b.has("isSupplier"))
    throw invalid("use customer and supplier, not isCustomer/isSupplier")
  const phone = b.str("phone") ?? null
  if (phone !== null && !E164.test(phone))
    throw invalid("phone must be E.164 with no spaces, e.g. +6591234567")
  const currency = b.str("currencyCode")?.toUpperCase() ?? old?.currencyCode ?? null
  if (currency !== null && !org.isEnabled(currency))
    throw invalid(`currencyCode: currency ${currency} is not enabled`)
  const now = org.now()
  return {
    resourceId: old?.resourceId ?? randomUUID(),
    name,
    billingName: name,
    customer: b.bool("customer") ?? old?.customer ?? false,
    supplier: b.bool("supplier") ?? old?.supplier ?? false,
    status: (b.str("status") as "ACTIVE" | "INACTIVE" | undefined) ?? old?.status ?? "ACTIVE",
    email: b.str("email") ?? old?.email ?? null,
    phone: phone ?? old?.phone ?? null,
    currencyCode: currency,
    taxId: b.str("taxId") ?? old?.taxId ?? null,
    registrationId: b.str("registrationId") ?? old?.registrationId ?? null,
    website: b.str("website") ?? old?.website ?? null,
    notes: b.str("notes") ?? old?.notes ?? null,
    billingAddress: b.obj("billingAddress")?.o ?? old?.billingAddress ?? null,
    createdAt: old?.createdAt ?? now,
    updatedAt: now
  }
}

/** Registers contact and contact-group endpoints. */
export const register = (r: Router, org: Org): void => {
  const all = contacts(org)
  const groups = org.store.collection<ContactGroupRecord>("contactGroups")
  const get = recordRoutes(r, org, { path: "/contacts", label: "contact", all, spec, read })
  r.delete("/contacts/:id", (c) => {
    const old = get(c.params["id"] ?? "")
    if (org.contactInUse(old.resourceId))
      throw invalid(`contact ${old.name} has transactions and cannot be deleted`)
    all.remove(old.resourceId)
    return ok({ data: { resourceId: old.resourceId, deleted: true } })
  })

  const members = (b: Body) => {
    const ids =
      b.strings("contactResourceIds") ??
      (b.objects("associatedContacts") ?? []).map((x) => x.reqStr("resourceId"))
    return ids.map((id) => {
      const ct = contactOf(org, id, "associatedContacts")
      return { name: ct.name, resourceId: ct.resourceId }
    })
  }
  r.post("/contact-groups", (c) => {
    const b = Body.of(c.body)
    const now = org.now()
    const g: ContactGroupRecord = {
      resourceId: randomUUID(),
      name: b.reqStr("name"),
      associatedContacts: members(b),
      createdAt: now,
      updatedAt: now
    }
    groups.put(g)
    return createdResource({ resourceId: g.resourceId, createdAt: now })
  })
  r.post("/contact-groups/search", (c) => ok(search(groups.values(), c.body, groupSpec, org.maxRows)))
  r.get("/contact-groups/:id", (c) => {
    const g = groups.get(c.params["id"] ?? "")
    if (g === undefined) throw notFound(`contact group ${c.params["id"]} not found`)
    return ok({ data: g })
  })
  r.put("/contact-groups/:id", () => {
    throw new ApiError(500, "internal_server_error", [
      "internal server error (known platform fault: PUT on contact groups)"
    ])
  })
  r.delete("/contact-groups/:id", (c) => {
    const g = groups.get(c.params["id"] ?? "")
    if (g === undefined) throw notFound(`contact group ${c.params["id"]} not found`)
    groups.remove(g.resourceId)
    return ok({ data: { resourceId: g.resourceId, deleted: true } })
  })
}
