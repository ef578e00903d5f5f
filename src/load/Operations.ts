/**
 * How each kind of planned operation reaches the target: the canonical schema its resolved body must
 * decode through, the request that creates it, and the natural-key lookup that finds it if it already
 * exists (after an in-doubt send, a crash, or in a target that already holds it).
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import * as Bodies from "../transform/Bodies.js"
import { fromEpochMs } from "../transform/Dates.js"
import type { OpKind } from "../transform/Plan.js"
import type { RefEntity } from "../transform/Refs.js"
import { TargetApi, unwrap } from "./TargetApi.js"
import type { TargetError } from "./TargetErrors.js"

type AnySchema = Schema.Schema<any, any, never>

/** The canonical schema of each kind's body (invariant 3: nothing is sent that does not decode). */
export const schemas: Record<OpKind, AnySchema> = {
  currency: Bodies.EnableCurrencies,
  rate: Bodies.CurrencyRate,
  account: Bodies.Account,
  contact: Bodies.Contact,
  item: Bodies.Item,
  invoice: Bodies.Document,
  bill: Bodies.Document,
  journal: Bodies.Journal,
  "invoice-payment": Bodies.Payments,
  "bill-payment": Bodies.Payments
}

type Body = Record<string, unknown>

/** The path a resolved body is POSTed to. */
export const createPath = (kind: OpKind, body: Body): string => {
  switch (kind) {
    case "currency":
      return "/organization/currencies"
    case "rate":
      return `/organization-currencies/${String(body.currencyCode)}/rates`
    case "account":
      return "/chart-of-accounts"
    case "contact":
      return "/contacts"
    case "item":
      return "/items"
    case "invoice":
      return "/invoices"
    case "bill":
      return "/bills"
    case "journal":
      return "/journals"
    case "invoice-payment":
      return `/invoices/${String(body.resourceId)}/payments`
    case "bill-payment":
      return `/bills/${String(body.resourceId)}/payments`
  }
}

const str = (v: unknown) => (typeof v === "string" ? v : "")

const chunks = <A>(xs: ReadonlyArray<A>, n: number): Array<Array<A>> => {
  const out: Array<Array<A>> = []
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n))
  return out
}

/** How many lookup requests run at once (batches of 100 keys, or per-parent reads). */
const lookupConcurrency = 8

/** Searches `path` for records whose `field` is one of `values` (batches of 100, several at once), keyed by that field. */
const findBy = (
  path: string,
  field: string,
  values: ReadonlyArray<string>,
  live: (r: Body) => boolean = () => true
) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const found = new Map<string, string>()
    yield* Effect.forEach(
      chunks([...new Set(values)], 100),
      (batch) =>
        Effect.map(
          api.searchAll(path, {
            filter: { [field]: { in: batch } },
            sort: { sortBy: [field], order: "ASC" }
          }),
          ({ rows }) => {
            for (const r of rows)
              if (live(r) && typeof r.resourceId === "string") found.set(str(r[field]), r.resourceId)
          }
        ),
      { concurrency: lookupConcurrency, discard: true }
    )
    return found
  })

const notVoid = (r: Body) => !["VOID", "VOIDED"].includes(str(r.status))

/** Looks up existing records of a reference entity by natural key: natural key → resourceId. */
export const lookupEntity = (
  entity: RefEntity,
  keys: ReadonlyArray<string>
): Effect.Effect<Map<string, string>, TargetError, TargetApi> => {
  switch (entity) {
    case "account":
      return findBy("/chart-of-accounts/search", "name", keys)
    case "taxProfile":
      return findBy("/tax-profiles/search", "name", keys)
    case "contact":
      return findBy("/contacts/search", "name", keys)
    case "item":
      return findBy("/items/search", "itemCode", keys)
    case "invoice":
      return findBy("/invoices/search", "reference", keys, notVoid)
    case "bill":
      return findBy("/bills/search", "reference", keys, notVoid)
    case "journal":
      return findBy("/journals/search", "reference", keys, notVoid)
    case "currency":
      return Effect.gen(function* () {
        const api = yield* TargetApi
        const body = (yield* api.read("GET", "/organization/currencies?limit=1000&offset=0")) as {
          data?: Array<Body>
        }
        const enabled = new Set((body.data ?? []).map((c) => str(c.currencyCode)))
        return new Map(keys.filter((k) => enabled.has(k)).map((k) => [k, k]))
      })
  }
}

/** A planned operation as the lookup needs it: its kind, natural key and resolved body. */
export interface LookupOp {
  readonly key: string
  readonly kind: OpKind
  readonly naturalKey: string
  readonly body: Body
}

const entityOf: Partial<Record<OpKind, RefEntity>> = {
  currency: "currency",
  account: "account",
  contact: "contact",
  item: "item",
  invoice: "invoice",
  bill: "bill",
  journal: "journal"
}

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

/** The payments recorded on one document. */
const paymentsOf = (kind: OpKind, documentId: string) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const doc = unwrap(
      yield* api.read("GET", `/${kind === "invoice-payment" ? "invoices" : "bills"}/${documentId}`)
    )
    return Array.isArray(doc.paymentRecords) ? (doc.paymentRecords as Array<Body>) : []
  })

const samePayment = (record: Body, want: Body) =>
  str(record.reference) === want.reference &&
  Number(record.transactionAmount) === want.transactionAmount &&
  (typeof record.valueDate === "number" ? fromEpochMs(record.valueDate) : str(record.valueDate)) ===
    want.valueDate

/**
 * Rates and payments are found under their parent: one read per currency or per document, however many
 * operations share it (after a crash, a whole window of them may be in doubt).
 */
const lookupUnderParents = (ops: ReadonlyArray<LookupOp>, found: Map<string, string>) => {
  const parents = new Map<string, Array<LookupOp>>()
  for (const op of ops) {
    const parent =
      op.kind === "rate" ? `rate:${str(op.body.currencyCode)}` : `${op.kind}:${str(op.body.resourceId)}`
    parents.set(parent, [...(parents.get(parent) ?? []), op])
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
        } else {
          const records = yield* paymentsOf(first.kind, str(first.body.resourceId))
          for (const op of group) {
            const hit = records.find((r) => samePayment(r, (op.body.payments as Array<Body>)[0]!))
            if (typeof hit?.resourceId === "string") found.set(op.key, hit.resourceId)
          }
        }
      }),
    { concurrency: lookupConcurrency, discard: true }
  )
}

/**
 * Finds which of `ops` already exist in the target, by natural key: op key → resourceId. Documents,
 * accounts, contacts and items are searched in batches of 100; rates and payments are read once per parent.
 */
export const lookupOps = (
  ops: ReadonlyArray<LookupOp>
): Effect.Effect<Map<string, string>, TargetError, TargetApi> =>
  Effect.gen(function* () {
    const found = new Map<string, string>()
    const byEntity = new Map<RefEntity, Array<LookupOp>>()
    const perParent: Array<LookupOp> = []
    for (const op of ops) {
      const entity = entityOf[op.kind]
      if (entity) byEntity.set(entity, [...(byEntity.get(entity) ?? []), op])
      else perParent.push(op)
    }
    yield* lookupUnderParents(perParent, found)
    for (const [entity, group] of byEntity) {
      const ids = yield* lookupEntity(
        entity,
        group.map((o) => o.naturalKey)
      )
      for (const o of group) {
        const id = ids.get(o.naturalKey)
        if (id !== undefined) found.set(o.key, id)
      }
    }
    return found
  })
