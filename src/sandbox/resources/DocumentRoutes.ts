/**
 * Endpoints of invoices, bills and credit notes: create (`{ data: { resourceId, createdAt }, appliedRate? }`,
 * the document's TransactionCreateResponse), GET (flat for invoices, as the specification says; `{ data }` for
 * the others), list, search, PUT (`{ data }`), DELETE/void, and payments or refunds (`{ data: { resourceId,
 * resourceIds } }`).
 */
import { Body } from "../Body.js"
import { createdResource, invalid, notFound, ok } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { listing, search, type SearchSpec } from "../Search.js"
import { docs, KINDS, remainingCents, settledStatus, type DocKind, type DocRecord } from "./DocKinds.js"
import { appliedRate, postDoc, readDoc } from "./Documents.js"
import { itemsOf, payments, settle, unsettle } from "./Payments.js"

const balance = { type: "number", get: (r: unknown) => remainingCents(r as DocRecord) / 100 } as const

/** Search fields shared by the four document kinds. */
export const docSpec: SearchSpec = {
  fields: {
    resourceId: "string",
    reference: "string",
    status: "string",
    contactResourceId: "string",
    contact: { name: "string", resourceId: "string" },
    currencyCode: "string",
    valueDate: "date",
    dueDate: "date",
    totalAmount: "number",
    balanceAmount: balance,
    taxInclusion: "boolean",
    tags: "string",
    createdAt: "datetime",
    updatedAt: "datetime"
  },
  sortMax: 25,
  groups: true
}

const hasSettlements = (d: DocRecord): boolean =>
  d.paymentRecords.length > 0 || (d.refunds ?? []).length > 0 || d.creditApplications.length > 0

/** Registers the endpoints of one document kind. */
export const registerKind = (r: Router, org: Org, k: DocKind): void => {
  const all = docs(org, k)
  const get = (id: string): DocRecord => {
    const d = all.get(id)
    if (d === undefined) throw notFound(`${k.label} ${id} not found`)
    return d
  }
  const settleAll = (doc: DocRecord, body: unknown, wrapper: "payments" | "refunds"): string[] => {
    let current = doc
    return itemsOf(body, wrapper).map((item) => {
      const res = settle(org, k, current, item, wrapper === "refunds" ? "REFUND" : "PAYMENT")
      current = res.doc
      return res.payment.resourceId
    })
  }
  const embedded = k.creditNote ? "refunds" : "payments"

  r.post(k.path, (c) => {
    const read = readDoc(org, k, c.body, undefined)
    const b = Body.of(c.body)
    const emb = b.objects(embedded, 200)
    if (emb !== undefined && emb.length > 0 && read.draft)
      throw invalid(`${embedded} cannot be recorded on a draft ${k.label}`)
    all.put(read.record)
    if (!read.draft) postDoc(org, k, read)
    if (emb !== undefined && emb.length > 0) settleAll(read.record, { [embedded]: b.o[embedded] }, embedded)
    return createdResource(
      { resourceId: read.record.resourceId, createdAt: read.record.createdAt },
      appliedRate(org, read.record)
    )
  })
  r.get(k.path, (c) => ok(listing(all.values(), c.query, docSpec, org.maxRows)))
  r.post(`${k.path}/search`, (c) => ok(search(all.values(), c.body, docSpec, org.maxRows)))
  r.get(`${k.path}/:id`, (c) => {
    const d = get(c.params["id"] ?? "")
    return ok(k.flat ? d : { data: d })
  })
  r.put(`${k.path}/:id`, (c) => {
    const old = get(c.params["id"] ?? "")
    const b = Body.of(c.body)
    b.requireResourceId(old.resourceId)
    if (old.status === "VOIDED") throw invalid(`${k.label} ${old.reference} is VOIDED and cannot be changed`)
    const replacing = b.objects(embedded, 200)
    if (old.status !== "DRAFT" && b.bool("saveAsDraft") === true)
      throw invalid(`a finalized ${k.label} cannot be turned back into a draft`)
    let base = old
    if (replacing !== undefined) {
      for (const p of payments(org).values())
        if (p.businessTransactionResourceId === old.resourceId) base = unsettle(org, p)
    } else if (old.status !== "DRAFT" && hasSettlements(old))
      throw invalid(`${k.label} ${old.reference} has payments or credits; remove them before editing it`)
    const read = readDoc(org, k, c.body, base)
    if (old.status !== "DRAFT") org.ledger.reverse(old.resourceId)
    if (!read.draft && read.record.lineItems.length > 0 && remainingCents(read.record) < 0)
      throw invalid(`the new total of ${k.label} ${old.reference} is below what has already been settled`)
    const record = read.draft ? read.record : { ...read.record, status: settledStatus(k, read.record) }
    all.put(record)
    if (!read.draft) postDoc(org, k, { ...read, record })
    if (replacing !== undefined && replacing.length > 0)
      settleAll(record, { [embedded]: b.o[embedded] }, embedded)
    return ok({ data: all.get(record.resourceId) ?? record })
  })
  r.delete(`${k.path}/:id`, (c) => {
    const d = get(c.params["id"] ?? "")
    const force = c.query.get("force") === "true"
    if (d.status === "DRAFT" || d.status === "VOIDED") {
      org.ledger.purge(d.resourceId)
      all.remove(d.resourceId)
      return ok({ data: { resourceId: d.resourceId, deleted: true } })
    }
    if (hasSettlements(d))
      throw invalid(
        `${k.label} ${d.reference} has payments, refunds or applied credits; delete them before voiding it`
      )
    if (force) {
      org.ledger.purge(d.resourceId)
      all.remove(d.resourceId)
    } else {
      org.ledger.reverse(d.resourceId)
      all.put({ ...d, status: "VOIDED", updatedAt: org.now() })
    }
    return ok({ data: { resourceId: d.resourceId, status: "VOIDED", deleted: force } })
  })
  if (!k.creditNote) {
    r.post(`${k.path}/:id/payments`, (c) => {
      const ids = settleAll(get(c.params["id"] ?? ""), c.body, "payments")
      return createdResource({ resourceId: ids[0] ?? "", resourceIds: ids })
    })
    r.get(`${k.path}/:id/payments`, (c) => ok({ data: get(c.params["id"] ?? "").paymentRecords }))
  } else {
    r.post(`${k.path}/:id/refunds`, (c) => {
      const ids = settleAll(get(c.params["id"] ?? ""), c.body, "refunds")
      return createdResource({ resourceId: ids[0] ?? "", resourceIds: ids })
    })
    r.get(`${k.path}/:id/refunds`, (c) => ok({ data: get(c.params["id"] ?? "").refunds ?? [] }))
  }
}

/** Registers all four document kinds. */
export const register = (r: Router, org: Org): void => {
  for (const k of Object.values(KINDS)) registerKind(r, org, k)
}
