/** Bank statement records: `POST /bank-records/:accountResourceId { records }` → `{ data: { errors: [] } }`, and search. */
import { randomUUID } from "node:crypto"
import { Body, isObj } from "../Body.js"
import { ApiError, created, invalid, notFound, ok } from "../Http.js"
import { decimals } from "../Money.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { search, type SearchSpec } from "../Search.js"
import { accounts } from "./Accounts.js"

/** A bank record as search returns it. */
export interface BankRecord {
  readonly resourceId: string
  readonly accountResourceId: string
  readonly valueDate: number
  readonly netAmount: number
  readonly amount: number
  readonly description: string | null
  readonly extContactName: string | null
  readonly extReference: string | null
  readonly extAccountNumber: string | null
  readonly status: "UNRECONCILED" | "RECONCILED" | "ARCHIVED" | "POSSIBLE_DUPLICATE"
  readonly createdAt: number
}

const spec: SearchSpec = {
  fields: {
    resourceId: "string",
    valueDate: "date",
    status: "string",
    description: "string",
    extContactName: "string",
    extReference: "string",
    extAccountNumber: "string",
    netAmount: "number"
  },
  defaultSort: { field: "valueDate", order: "DESC" },
  sortMax: 9
}

const bankAccount = (org: Org, id: string) => {
  const a = accounts(org).get(id)
  if (a === undefined || a.accountType !== "Bank Accounts") throw notFound(`bank account ${id} not found`)
  return a
}

/** Registers bank-record endpoints. */
export const register = (r: Router, org: Org): void => {
  const all = org.store.collection<BankRecord>("bankRecords")
  r.post("/bank-records/:account", (c) => {
    const acct = bankAccount(org, c.params["account"] ?? "")
    const b = Body.of(c.body)
    const echo = b.str("accountResourceId")
    if (echo !== undefined && echo !== acct.resourceId)
      throw invalid("accountResourceId in the body does not match the path")
    const raw = b.o["records"]
    if (!Array.isArray(raw) || raw.length === 0) throw invalid("records must be a non-empty array")
    if (raw.length > 100) throw invalid("records accepts at most 100 items")
    const errors: Array<{ index: number; errors: string[] }> = []
    const seen = new Set(
      all
        .values()
        .filter((x) => x.accountResourceId === acct.resourceId)
        .map((x) => `${x.valueDate}|${x.amount}|${x.extReference}|${x.description}`)
    )
    raw.forEach((item, index) => {
      try {
        if (!isObj(item)) throw invalid(`records[${index}] must be an object`)
        const rb = new Body(item, `records[${index}]`)
        const amount = rb.num("amount")
        if (amount === undefined) throw invalid(`${rb.name("amount")} is required`)
        if (decimals(amount) > 2) throw invalid(`${rb.name("amount")} must have at most 2 decimal places`)
        const valueDate = rb.reqDate("transactionDate")
        const description = rb.str("description") ?? null
        const ref = rb.str("reference") ?? null
        const key = `${valueDate}|${amount}|${ref}|${description}`
        all.put({
          resourceId: randomUUID(),
          accountResourceId: acct.resourceId,
          valueDate,
          netAmount: amount,
          amount,
          description,
          extContactName: rb.str("payerOrPayee") ?? null,
          extReference: ref,
          extAccountNumber: null,
          status: seen.has(key) ? "POSSIBLE_DUPLICATE" : "UNRECONCILED",
          createdAt: org.now()
        })
        seen.add(key)
      } catch (e) {
        if (!(e instanceof ApiError)) throw e
        errors.push({ index, errors: [...e.errors] })
      }
    })
    return created({ data: { errors } })
  })
  r.post("/bank-records/:account/search", (c) => {
    const acct = bankAccount(org, c.params["account"] ?? "")
    return ok(
      search(
        all.values().filter((x) => x.accountResourceId === acct.resourceId),
        c.body,
        spec,
        org.maxRows
      )
    )
  })
}
