/** Account classifications, the chart of accounts (create, search, update, delete, bulk upsert) and bank accounts. */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import type { FixtureClassification } from "../Fixture.js"
import { createdResource, invalid, notFound, ok } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { listing, search, type SearchSpec } from "../Search.js"

/** A chart-of-accounts entry as returned by GET. */
export interface AccountRecord {
  readonly resourceId: string
  readonly name: string
  readonly code: string | null
  readonly accountType: string
  readonly classificationType: string
  readonly accountClass: string
  readonly currencyCode: string
  readonly controlFlag: boolean
  readonly systemAccount: boolean
  readonly status: "ACTIVE" | "INACTIVE"
  readonly description: string | null
  readonly createdAt: number
  readonly updatedAt: number
}

const BANK_TYPES = new Set(["Bank Accounts", "Cash"])

/** True for an account that cash can move through (bank or cash). */
export const isBank = (a: AccountRecord): boolean => BANK_TYPES.has(a.accountType)

const spec: SearchSpec = {
  fields: {
    resourceId: "string",
    name: "string",
    code: "string",
    accountType: "string",
    classificationType: "string",
    accountClass: "string",
    controlFlag: "boolean",
    currencyCode: "string",
    status: "string",
    description: "string",
    createdAt: "datetime",
    updatedAt: "datetime"
  },
  sortMax: 10
}

/** The chart of accounts with its lookups. */
export const accounts = (org: Org) => org.store.collection<AccountRecord>("accounts")

/** An existing account referenced at `where`, or 422. */
export const accountOf = (org: Org, id: string, where: string): AccountRecord => {
  const a = accounts(org).get(id)
  if (a === undefined) throw invalid(`${where}: account ${id} does not exist`)
  return a
}

const classificationOf = (org: Org, name: string, where: string): FixtureClassification => {
  const c = org.fixture.classifications.find((x) => x.name === name)
  if (c === undefined)
    throw invalid(
      `${where}: unknown classification "${name}"; valid values: ${org.fixture.classifications.map((x) => x.name).join(", ")}`
    )
  return c
}

const checkUnique = (org: Org, name: string, code: string | null, self: string | undefined): void => {
  for (const a of accounts(org).map.values()) {
    if (a.resourceId === self) continue
    if (a.name.toLowerCase() === name.toLowerCase())
      throw invalid(`an account named "${name}" already exists`)
    if (code !== null && a.code === code) throw invalid(`an account with code "${code}" already exists`)
  }
}

/** Builds a new account from a create body (or a bulk row). */
export const newAccount = (
  org: Org,
  b: Body,
  status: "ACTIVE" | "INACTIVE",
  extra: { controlFlag?: boolean; systemAccount?: boolean } = {}
): AccountRecord => {
  const name = b.reqStr("name")
  const type = b.reqStr("classificationType", ["accountType"])
  const cls = classificationOf(org, type, b.name("classificationType"))
  const currency = (b.str("currency", ["currencyCode"]) ?? org.base).toUpperCase()
  if (!org.isEnabled(currency)) throw invalid(`${b.name("currency")}: currency ${currency} is not enabled`)
  const code = b.str("code") ?? null
  checkUnique(org, name, code, undefined)
  const now = org.now()
  return {
    resourceId: randomUUID(),
    name,
    code,
    accountType: type,
    classificationType: type,
    accountClass: cls.accountClass,
    currencyCode: currency,
    controlFlag: extra.controlFlag ?? false,
    systemAccount: extra.systemAccount ?? false,
    status: (b.str("status") as "ACTIVE" | "INACTIVE" | undefined) ?? status,
    description: b.str("description") ?? null,
    createdAt: now,
    updatedAt: now
  }
}

const updated = (org: Org, old: AccountRecord, b: Body, full: boolean): AccountRecord => {
  const name = full ? b.reqStr("name") : (b.str("name") ?? old.name)
  const type = full
    ? b.reqStr("classificationType", ["accountType"])
    : (b.str("classificationType", ["accountType"]) ?? old.accountType)
  const cls = classificationOf(org, type, b.name("classificationType"))
  if (old.systemAccount && type !== old.accountType)
    throw invalid("the classification of a system account cannot change")
  const code = b.has("code") ? (b.str("code") ?? null) : old.code
  checkUnique(org, name, code, old.resourceId)
  const status = b.str("status") ?? old.status
  if (status !== "ACTIVE" && status !== "INACTIVE") throw invalid("status must be ACTIVE or INACTIVE")
  return {
    ...old,
    name,
    code,
    accountType: type,
    classificationType: type,
    accountClass: cls.accountClass,
    status,
    description: b.has("description") ? (b.str("description") ?? null) : old.description,
    updatedAt: org.now()
  }
}

/** Registers classifications, chart of accounts and bank-account endpoints. */
export const register = (r: Router, org: Org): void => {
  const coa = accounts(org)
  const get = (id: string): AccountRecord => {
    const a = coa.get(id)
    if (a === undefined) throw notFound(`account ${id} not found`)
    return a
  }
  r.get("/account-classifications", (c) =>
    ok(
      listing(
        org.fixture.classifications.map((x) => ({ classificationType: x.name, ...x })),
        c.query,
        { fields: {} },
        org.maxRows
      )
    )
  )
  r.get("/chart-of-accounts", (c) => ok(listing(coa.values(), c.query, spec, org.maxRows)))
  r.post("/chart-of-accounts/search", (c) => ok(search(coa.values(), c.body, spec, org.maxRows)))
  r.get("/chart-of-accounts/:id", (c) => ok({ data: get(c.params["id"] ?? "") }))
  r.post("/chart-of-accounts", (c) => {
    const a = newAccount(org, Body.of(c.body), "ACTIVE")
    coa.put(a)
    return createdResource({ resourceId: a.resourceId, createdAt: a.createdAt })
  })
  r.post("/chart-of-accounts/bulk-upsert", (c) => {
    const b = Body.of(c.body)
    if (b.has("chartOfAccounts") && !b.has("accounts"))
      throw invalid("the bulk-upsert wrapper is accounts, not chartOfAccounts")
    const rows = b.objects("accounts", 500)
    if (rows === undefined || rows.length === 0)
      throw invalid("accounts must be a non-empty array (at most 500)")
    const results = rows.map((row) => {
      const id = row.str("resourceId")
      if (id === undefined) {
        const a = newAccount(org, row, "INACTIVE")
        coa.put(a)
        return { resourceId: a.resourceId, name: a.name, action: "CREATED" }
      }
      const old = coa.get(id)
      if (old === undefined) throw invalid(`${row.name("resourceId")}: account ${id} does not exist`)
      const a = updated(org, old, row, false)
      coa.put(a)
      return { resourceId: a.resourceId, name: a.name, action: "UPDATED" }
    })
    return ok({ data: { accounts: results } })
  })
  r.put("/chart-of-accounts/:id", (c) => {
    const old = get(c.params["id"] ?? "")
    const b = Body.of(c.body)
    b.requireResourceId(old.resourceId)
    const a = updated(org, old, b, true)
    coa.put(a)
    return ok({ data: a })
  })
  r.delete("/chart-of-accounts/:id", (c) => {
    const a = get(c.params["id"] ?? "")
    if (a.systemAccount || a.controlFlag) throw invalid(`${a.name} is a system account and cannot be deleted`)
    if (org.ledger.uses(a.resourceId)) throw invalid(`${a.name} has transactions and cannot be deleted`)
    coa.remove(a.resourceId)
    return ok({ data: { resourceId: a.resourceId, deleted: true } })
  })
  r.get("/bank-accounts", () => ok(coa.values().filter((a) => a.accountType === "Bank Accounts")))
  r.get("/bank-accounts/:id", (c) => {
    const a = get(c.params["id"] ?? "")
    if (a.accountType !== "Bank Accounts") throw notFound(`bank account ${a.resourceId} not found`)
    return ok({ data: a })
  })
}
