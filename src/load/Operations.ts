/**
 * How each kind of planned operation reaches the target: the canonical schema its resolved body must
 * decode through, the request that creates it, and the natural-key lookup that finds it if it already
 * exists (after an in-doubt send, a crash, or in a target that already holds it).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Bodies from "../transform/Bodies.js"
import { decoderOf, encoderOf } from "../transform/CompiledEncoder.js"
import type { OpKind } from "../transform/Plan.js"
import type { RefEntity } from "../transform/Refs.js"
import { lookupUnderParents } from "./ParentLookups.js"
import { TargetApi } from "./TargetApi.js"
import type { TargetError } from "./TargetErrors.js"
import { append } from "../Multimap.js"

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
  "bill-payment": Bodies.Payments,
  tag: Bodies.Tag,
  "customer-credit-note": Bodies.CreditNote,
  "supplier-credit-note": Bodies.CreditNote,
  "cash-in": Bodies.CashEntry,
  "cash-out": Bodies.CashEntry,
  "cash-transfer": Bodies.CashTransfer,
  "invoice-credit": Bodies.CreditApplications,
  "bill-credit": Bodies.CreditApplications,
  "customer-refund": Bodies.Refunds,
  "supplier-refund": Bodies.Refunds
}

const canonicalisers = new Map<OpKind, (body: unknown) => Either.Either<Record<string, unknown>, string>>()

/**
 * A resolved body of `kind` decoded through its canonical schema and encoded back (invariant 3: nothing is
 * sent that does not decode), or why it does not decode. One compiled decoder and encoder per kind: the
 * loader canonicalises every body it sends.
 */
export const canonicalBody = (
  kind: OpKind,
  body: unknown
): Either.Either<Record<string, unknown>, string> => {
  let canonicalise = canonicalisers.get(kind)
  if (canonicalise === undefined) {
    const schema = schemas[kind] as Schema.Schema<unknown, unknown>
    const decode = decoderOf(schema)
    const encode = encoderOf(schema)
    canonicalise = (b) =>
      decode(b).pipe(
        Either.map((decoded) => encode(decoded) as Record<string, unknown>),
        Either.mapLeft((e) => `the resolved body does not decode: ${e.message}`)
      )
    canonicalisers.set(kind, canonicalise)
  }
  return canonicalise(body)
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
    case "tag":
      return "/tags"
    case "customer-credit-note":
      return "/customer-credit-notes"
    case "supplier-credit-note":
      return "/supplier-credit-notes"
    case "cash-in":
      return "/cash-in-entries"
    case "cash-out":
      return "/cash-out-entries"
    case "cash-transfer":
      return "/cash-transfers"
    case "invoice-credit":
      return `/invoices/${String(body.resourceId)}/credits`
    case "bill-credit":
      return `/bills/${String(body.resourceId)}/credits`
    case "customer-refund":
      return `/customer-credit-notes/${String(body.resourceId)}/refunds`
    case "supplier-refund":
      return `/supplier-credit-notes/${String(body.resourceId)}/refunds`
  }
}

const str = (v: unknown) => (typeof v === "string" ? v : "")

const chunks = <A>(xs: ReadonlyArray<A>, n: number): Array<Array<A>> => {
  const out: Array<Array<A>> = []
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n))
  return out
}

/** How many lookup requests run at once (batches of 100 keys, or per-parent reads). */
export const lookupConcurrency = 8

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
    case "customer-credit-note":
      return findBy("/customer-credit-notes/search", "reference", keys, notVoid)
    case "supplier-credit-note":
      return findBy("/supplier-credit-notes/search", "reference", keys, notVoid)
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
  journal: "journal",
  "customer-credit-note": "customer-credit-note",
  "supplier-credit-note": "supplier-credit-note"
}

/** The cashflow-transaction type of each cash-entry kind. */
const cashTypes: Partial<Record<OpKind, string>> = {
  "cash-in": "JOURNAL_DIRECT_CASH_IN",
  "cash-out": "JOURNAL_DIRECT_CASH_OUT",
  "cash-transfer": "JOURNAL_CASH_TRANSFER"
}

/**
 * Cash entries of `type` by reference: `POST /cashflow-transactions/search` on `businessTransactionReference`
 * (batches of 100), reference → the `parentEntityResourceId` (what create returns and DELETE takes; a
 * transfer's two legs share it). Voided entries do not count.
 */
const findCash = (type: string, references: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const found = new Map<string, string>()
    yield* Effect.forEach(
      chunks([...new Set(references)], 100),
      (batch) =>
        Effect.map(
          api.searchAll("/cashflow-transactions/search", {
            filter: { businessTransactionReference: { in: batch }, businessTransactionType: { in: [type] } },
            sort: { sortBy: ["businessTransactionReference"], order: "ASC" }
          }),
          ({ rows }) => {
            for (const r of rows)
              if (str(r.transactionStatus) !== "VOID" && typeof r.parentEntityResourceId === "string")
                found.set(str(r.businessTransactionReference), r.parentEntityResourceId)
          }
        ),
      { concurrency: lookupConcurrency, discard: true }
    )
    return found
  })

/**
 * Finds which of `ops` already exist in the target, by natural key: op key → resourceId. Documents, credit
 * notes, accounts, contacts, items and tags are searched in batches of 100 keys, cash entries and transfers
 * through the cashflow-transaction search by reference; rates, payments, credit applications and refunds are
 * read once per parent (see ParentLookups).
 */
export const lookupOps = (
  ops: ReadonlyArray<LookupOp>
): Effect.Effect<Map<string, string>, TargetError, TargetApi> =>
  Effect.gen(function* () {
    const found = new Map<string, string>()
    const byEntity = new Map<RefEntity, Array<LookupOp>>()
    const perParent: Array<LookupOp> = []
    const byReference = new Map<OpKind, Array<LookupOp>>()
    for (const op of ops) {
      const entity = entityOf[op.kind]
      if (entity) append(byEntity, entity, op)
      else if (op.kind in cashTypes || op.kind === "tag") append(byReference, op.kind, op)
      else perParent.push(op)
    }
    yield* lookupUnderParents(perParent, found)
    for (const [kind, group] of byReference) {
      const keys = group.map((o) => o.naturalKey)
      const ids =
        kind === "tag"
          ? yield* findBy("/tags/search", "tagName", keys)
          : yield* findCash(cashTypes[kind]!, keys)
      for (const o of group) {
        const id = ids.get(o.naturalKey)
        if (id !== undefined) found.set(o.key, id)
      }
    }
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
