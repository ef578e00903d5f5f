/**
 * What a rollback removes and how: which records this workspace created (load checkpoint `done` with
 * origin `created`; an `adopted` record existed before the load and is never touched), the request that
 * removes each one permanently, the order (the load's phases reversed) and, for each operation, the
 * operations that refer to it and so must be gone before it can go.
 */
import type * as Checkpoints from "../staging/Checkpoints.js"
import type { StoredOp } from "../staging/PlanStore.js"
import { phases, type OpKind, type Phase } from "../transform/Plan.js"
import * as Refs from "../transform/Refs.js"
import { append } from "../Multimap.js"

/**
 * The load's phases in reverse: settlements (payments, refunds, credit applications) → transactions →
 * items → contacts → accounts → rates → currencies → tags.
 */
export const rollbackPhases: ReadonlyArray<Phase> = [...phases].reverse()

/**
 * How a record is removed: a DELETE, or left in place for a stated reason. `again`: a DELETE that may only
 * void the record (cash entries) is followed by another, which removes the voided record; 404 then means
 * the first one already removed it.
 */
export type Removal =
  | { readonly _tag: "Delete"; readonly path: string; readonly again?: boolean }
  | { readonly _tag: "Leave"; readonly reason: string }

const del = (path: string, again = false): Removal => ({ _tag: "Delete", path, ...(again ? { again } : {}) })

const field = (body: unknown, name: string): string => {
  const v = (body as Record<string, unknown> | null)?.[name]
  return encodeURIComponent(typeof v === "string" ? v : "")
}

/**
 * The request that removes a created record (`body`: its planned body with references resolved). Invoices,
 * bills, credit notes and journals are deleted with `force=true`: without it an active one is only voided
 * and stays in the target. Payments and refunds go by their own id, rates under their currency, a credit
 * application under its document. A cash entry or transfer goes by `DELETE /cashflow-journals/{id}`, where
 * the id is its `parentEntityResourceId` (what its create returns and its checkpoint holds), sent again to
 * remove what the first one voided.
 */
export const removal = (kind: OpKind, resourceId: string, body: unknown): Removal => {
  const id = encodeURIComponent(resourceId)
  switch (kind) {
    case "currency":
      return {
        _tag: "Leave",
        reason: "an enabled currency cannot be disabled: the platform has no request for it"
      }
    case "rate": {
      const code = (body as { currencyCode?: unknown } | null)?.currencyCode
      return del(`/organization-currencies/${encodeURIComponent(String(code))}/rates/${id}`)
    }
    case "account":
      return del(`/chart-of-accounts/${id}`)
    case "contact":
      return del(`/contacts/${id}`)
    case "item":
      return del(`/items/${id}`)
    case "invoice":
      return del(`/invoices/${id}?force=true`)
    case "bill":
      return del(`/bills/${id}?force=true`)
    case "journal":
      return del(`/journals/${id}?force=true`)
    case "invoice-payment":
    case "bill-payment":
    case "customer-refund":
    case "supplier-refund":
      return del(`/payments/${id}`)
    case "tag":
      return del(`/tags/${id}`)
    case "customer-credit-note":
      return del(`/customer-credit-notes/${id}?force=true`)
    case "supplier-credit-note":
      return del(`/supplier-credit-notes/${id}?force=true`)
    case "cash-in":
    case "cash-out":
    case "cash-transfer":
      return del(`/cashflow-journals/${id}`, true)
    case "invoice-credit":
      return del(`/invoices/${field(body, "resourceId")}/credits/${id}`)
    case "bill-credit":
      return del(`/bills/${field(body, "resourceId")}/credits/${id}`)
  }
}

/** Where a record is read back (to see whether a record this workspace did not create refers to one it did). */
export const readPath = (kind: OpKind, resourceId: string, body: unknown): string => {
  const id = encodeURIComponent(resourceId)
  switch (kind) {
    case "currency":
      return `/organization/currencies/${id}`
    case "rate": {
      const code = (body as { currencyCode?: unknown } | null)?.currencyCode
      return `/organization-currencies/${encodeURIComponent(String(code))}/rates/${id}`
    }
    case "account":
      return `/chart-of-accounts/${id}`
    case "contact":
      return `/contacts/${id}`
    case "item":
      return `/items/${id}`
    case "invoice":
      return `/invoices/${id}`
    case "bill":
      return `/bills/${id}`
    case "journal":
      return `/journals/${id}`
    case "invoice-payment":
    case "bill-payment":
    case "customer-refund":
    case "supplier-refund":
      return `/payments/${id}`
    case "tag":
      return `/tags/${id}`
    case "customer-credit-note":
      return `/customer-credit-notes/${id}`
    case "supplier-credit-note":
      return `/supplier-credit-notes/${id}`
    case "cash-in":
    case "cash-out":
    case "cash-transfer":
      // No GET takes the parent id: a 404 here reads as "refers to nothing", which holds because an entry
      // that existed before the load cannot refer to a record the load created.
      return `/cash-in-journals/${id}`
    case "invoice-credit":
      return `/invoices/${field(body, "resourceId")}/credits`
    case "bill-credit":
      return `/bills/${field(body, "resourceId")}/credits`
  }
}

/** True when this workspace's own request made the record: the only records a rollback removes. */
export const isCreated = (cp: Checkpoints.Checkpoint | undefined): boolean =>
  cp?.status === "done" && cp.origin === "created"

/**
 * For each operation key, the plan operations that refer to it (its declared dependencies and every
 * symbolic reference in its body): while one of them is still in the target, the record cannot go.
 */
export const dependents = (ops: ReadonlyArray<StoredOp>): Map<string, ReadonlyArray<string>> => {
  const keys = new Set(ops.map((o) => o.key))
  const out = new Map<string, Array<string>>()
  for (const op of ops) {
    const on = new Set([...op.dependsOn, ...Refs.collect(op.body).map((r) => r.key)])
    for (const d of on) {
      if (d === op.key || !keys.has(d)) continue
      append(out, d, op.key)
    }
  }
  return out
}

/**
 * Splits a phase's operations into waves: each wave holds the operations that no other operation of the
 * phase still waiting refers to, so a wave can be removed concurrently after the waves before it.
 */
export const waves = (
  phaseOps: ReadonlyArray<StoredOp>,
  dependentsOf: Map<string, ReadonlyArray<string>>
): Array<Array<StoredOp>> => {
  const out: Array<Array<StoredOp>> = []
  let waiting = [...phaseOps]
  while (waiting.length > 0) {
    const keys = new Set(waiting.map((o) => o.key))
    const ready = waiting.filter((o) => !(dependentsOf.get(o.key) ?? []).some((d) => keys.has(d)))
    const wave = ready.length > 0 ? ready : waiting
    out.push(wave)
    const taken = new Set(wave.map((o) => o.key))
    waiting = waiting.filter((o) => !taken.has(o.key))
  }
  return out
}
