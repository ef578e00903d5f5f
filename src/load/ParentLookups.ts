/**
 * The natural-key lookups of records that live under a parent: a currency's rates, a document's payments, and
 * a credit note's applications and refunds. One read per parent, however many operations share it (after a
 * crash a whole window of them may be in doubt), each operation matched in its own list (a credit note's
 * applications and refunds come from the same read). A payment or refund is its parent's record with the planned
 * reference, amount and date; an application is the credit note's application to the planned document for
 * the planned amount (the plan makes one application per credit note and document).
 */
import * as Effect from "effect/Effect"
import { fromEpochMs } from "../transform/Dates.js"
import type { OpKind } from "../transform/Plan.js"
import type { LookupOp } from "./Operations.js"
import { TargetApi, unwrap } from "./TargetApi.js"
import { append } from "../Multimap.js"

type Body = Record<string, unknown>

const str = (v: unknown) => (typeof v === "string" ? v : "")

const lookupConcurrency = 8

/** The rates already set for one currency: rateApplicableFrom (YYYY-MM-DD) → resourceId. */
const ratesOf = (code: string) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const res = (yield* api.read("GET", `/organization-currencies/${code}/rates?limit=1000&offset=0`)) as {
      data?: Array<Body>
    }
    const byDate = new Map<string, string>()
    for (const r of res.data ?? []) {
      if (typeof r.rateApplicableFrom === "number" && typeof r.resourceId === "string") {
        byDate.set(fromEpochMs(r.rateApplicableFrom), r.resourceId)
      }
    }
    return byDate
  })

/** Where the parent of a settlement is read, and which of its lists holds the settlement. */
const parentOf = (
  kind: OpKind,
  body: Body
): { readonly path: string; readonly list: "paymentRecords" | "refunds" | "creditApplications" } => {
  const id = str(body.resourceId)
  switch (kind) {
    case "invoice-payment":
      return { path: `/invoices/${id}`, list: "paymentRecords" }
    case "bill-payment":
      return { path: `/bills/${id}`, list: "paymentRecords" }
    case "customer-refund":
      return { path: `/customer-credit-notes/${id}`, list: "refunds" }
    case "supplier-refund":
      return { path: `/supplier-credit-notes/${id}`, list: "refunds" }
    case "invoice-credit":
    case "bill-credit": {
      const note = str((body.credits as Array<Body>)[0]?.creditNoteResourceId)
      const path = kind === "invoice-credit" ? "customer-credit-notes" : "supplier-credit-notes"
      return { path: `/${path}/${note}`, list: "creditApplications" }
    }
    default:
      throw new Error(`${kind} is not looked up under a parent`)
  }
}

const dateOf = (v: unknown) => (typeof v === "number" ? fromEpochMs(v) : str(v))

/** Whether a record of the parent's list is the one `op` planned. */
const matches = (op: LookupOp, record: Body): boolean => {
  if (op.kind === "invoice-credit" || op.kind === "bill-credit") {
    const want = (op.body.credits as Array<Body>)[0]!
    const doc =
      str(record.documentResourceId) ||
      str(record.invoiceResourceId) ||
      str(record.billResourceId) ||
      str(record.businessTransactionResourceId)
    return doc === op.body.resourceId && Number(record.amountApplied) === want.amountApplied
  }
  const want = ((op.body.payments ?? op.body.refunds) as Array<Body>)[0]!
  return (
    str(record.reference) === want.reference &&
    Number(record.transactionAmount) === want.transactionAmount &&
    dateOf(record.valueDate) === want.valueDate
  )
}

/** Finds rates, payments, refunds and credit applications under their parents: op key → resourceId. */
export const lookupUnderParents = (ops: ReadonlyArray<LookupOp>, found: Map<string, string>) => {
  const parents = new Map<string, Array<LookupOp>>()
  for (const op of ops) {
    const parent = op.kind === "rate" ? `rate:${str(op.body.currencyCode)}` : parentOf(op.kind, op.body).path
    append(parents, parent, op)
  }
  return Effect.forEach(
    parents.values(),
    (group) =>
      Effect.gen(function* () {
        const first = group[0]!
        if (first.kind === "rate") {
          const byDate = yield* ratesOf(str(first.body.currencyCode))
          for (const op of group) {
            const id = byDate.get(str(op.body.rateApplicableFrom))
            if (id !== undefined) found.set(op.key, id)
          }
          return
        }
        const api = yield* TargetApi
        const parent = unwrap(yield* api.read("GET", parentOf(first.kind, first.body).path))
        for (const op of group) {
          const list = parent[parentOf(op.kind, op.body).list]
          const hit = (Array.isArray(list) ? (list as Array<Body>) : []).find((r) => matches(op, r))
          if (typeof hit?.resourceId === "string") found.set(op.key, hit.resourceId)
        }
      }),
    { concurrency: lookupConcurrency, discard: true }
  )
}
