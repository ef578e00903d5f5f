/**
 * The all-kinds Xero fixture (`test/fixtures/extract/xero/all-kinds`) and what its load must leave in the
 * target, checked through the target's own API: every credit note, cash entry, transfer and tag exactly
 * once, each credit's applications and refunds, and the figures the source implies (AR and AP per contact,
 * bank balances in each account's own currency, the clearing account at zero).
 */
import { assert } from "@effect/vitest"
import * as NodePath from "node:path"
import type { RunningSandbox } from "../../src/sandbox/Sandbox.js"
import { call, searchAll } from "./Harness.js"

export const allKindsDir = NodePath.resolve(import.meta.dirname, "../fixtures/extract/xero/all-kinds")

interface Op {
  readonly kind: string
  readonly naturalKey: string
  readonly body: unknown
}

const counted = (label: string, actual: ReadonlyArray<string>, want: ReadonlyArray<string>) => {
  const counts = new Map<string, number>()
  for (const a of actual) counts.set(a, (counts.get(a) ?? 0) + 1)
  assert.deepStrictEqual(
    [...counts].filter(([, n]) => n > 1),
    [],
    `${label}: nothing is in the target twice`
  )
  assert.sameMembers([...counts.keys()], [...want], `${label}: exactly the planned ones`)
}

const get = async (s: RunningSandbox, path: string) => {
  const res = await call(s, "GET", path)
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`)
  return (res.body.data ?? res.body) as any
}

/** Cash entries and transfers of `type` (ACTIVE), as reference → distinct parent ids. */
const cashOf = async (s: RunningSandbox, type: string) => {
  const rows = await searchAll(s, "cashflow-transactions", "valueDate", {
    businessTransactionType: { eq: type }
  })
  const parents = new Map<string, Set<string>>()
  for (const r of rows.filter((r) => r.transactionStatus === "ACTIVE"))
    parents.set(
      r.businessTransactionReference,
      (parents.get(r.businessTransactionReference) ?? new Set()).add(r.parentEntityResourceId)
    )
  return parents
}

/**
 * Every credit note, cash entry, transfer, tag, credit application and refund the plan creates exists
 * exactly once in the target, with the planned amounts.
 */
export const assertNewKindsOnce = async (s: RunningSandbox, ops: ReadonlyArray<Op>) => {
  const planned = (kind: string) => ops.filter((o) => o.kind === kind)
  for (const [kind, resource] of [
    ["customer-credit-note", "customer-credit-notes"],
    ["supplier-credit-note", "supplier-credit-notes"]
  ] as const) {
    const rows = (await searchAll(s, resource, "reference")).filter((r) => r.status !== "VOIDED")
    counted(
      kind,
      rows.map((r) => r.reference),
      planned(kind).map((o) => o.naturalKey)
    )
    for (const r of rows) {
      const note = await get(s, `/${resource}/${r.resourceId}`)
      const applications = planned(kind === "customer-credit-note" ? "invoice-credit" : "bill-credit").filter(
        (o) => o.naturalKey.endsWith(`:${r.reference}`)
      )
      assert.deepStrictEqual(
        note.creditApplications.map((a: any) => a.amountApplied).sort(),
        applications.map((o) => (o.body as any).credits[0].amountApplied).sort(),
        `${r.reference}: its applications, once each`
      )
      const refunds = planned(kind === "customer-credit-note" ? "customer-refund" : "supplier-refund").filter(
        (o) => o.naturalKey.startsWith(`${kind}:${r.reference}:`)
      )
      assert.deepStrictEqual(
        (note.refunds ?? []).map((f: any) => [f.reference, f.refundAmount]).sort(),
        refunds
          .map((o) => [(o.body as any).refunds[0].reference, (o.body as any).refunds[0].refundAmount])
          .sort(),
        `${r.reference}: its refunds, once each`
      )
    }
  }
  for (const [kind, type] of [
    ["cash-in", "JOURNAL_DIRECT_CASH_IN"],
    ["cash-out", "JOURNAL_DIRECT_CASH_OUT"],
    ["cash-transfer", "JOURNAL_CASH_TRANSFER"]
  ] as const) {
    const parents = await cashOf(s, type)
    assert.deepStrictEqual(
      [...parents].filter(([, ids]) => ids.size > 1).map(([r]) => r),
      [],
      `${kind}: no reference is in the target twice`
    )
    assert.sameMembers(
      [...parents.keys()],
      planned(kind).map((o) => o.naturalKey),
      `${kind}: exactly the planned ones`
    )
  }
  counted(
    "tags",
    (await searchAll(s, "tags", "tagName")).map((t) => t.tagName),
    planned("tag").map((o) => o.naturalKey)
  )
}

/** Net of each account in its own currency (the general ledger's source amounts), by account name. */
export const accountNets = async (s: RunningSandbox) => {
  const res = await call(s, "POST", "/generate-reports/general-ledger", {
    startDate: "2000-01-01",
    endDate: "2099-12-31",
    groupBy: "ACCOUNT"
  })
  const nets = new Map<string, number>()
  for (const g of res.body.data.groups)
    for (const l of g.lines)
      nets.set(l.accountName, Math.round(((nets.get(l.accountName) ?? 0) + l.sourceAmount) * 100) / 100)
  return nets
}

/** Outstanding AR or AP per contact and currency in the document currency (non-zero only). */
export const aging = async (s: RunningSandbox, side: "ar" | "ap") => {
  const res = await call(s, "POST", `/generate-reports/${side}-report`, { endDate: "2099-12-31" })
  return Object.fromEntries(
    res.body.data.rows
      .filter((r: any) => r.outstandingAmount !== 0)
      .map((r: any) => [`${r.contactName} ${r.currencyCode}`, r.outstandingAmount])
  )
}
