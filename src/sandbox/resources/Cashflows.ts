/** The cashflow-transaction rows (cash entries and payments/refunds) and `POST /cashflow-transactions/search`. */
import { isObj } from "../Body.js"
import { ok } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { search, type SearchSpec } from "../Search.js"
import { accounts } from "./Accounts.js"
import type { CashEntryRecord } from "./CashEntries.js"
import type { PaymentRecord } from "./Payments.js"

/** A cashflow transaction as LIST, GET and search return it (no `journalEntries`). */
export interface CashflowRow {
  readonly resourceId: string
  readonly parentEntityResourceId: string
  readonly businessTransactionResourceId: string
  readonly businessTransactionType: string
  readonly businessTransactionReference: string
  readonly transactionReference: string
  readonly transactionStatus: "ACTIVE" | "VOID"
  readonly valueDate: number
  readonly direction: "PAYIN" | "PAYOUT"
  readonly organizationAccountResourceId: string
  readonly account: {
    readonly resourceId: string
    readonly name: string
    readonly bankName: string
    readonly code: string | null
    readonly accountType: string
    readonly currencyCode: string
  } | null
  readonly totalAmount: number
  readonly currencyCode: string
  readonly contactResourceId: string | null
  readonly createdAt: number
  readonly updatedAt: number
}

/** Search fields of cashflow transactions. */
export const cashflowSpec: SearchSpec = {
  fields: {
    resourceId: "string",
    parentEntityResourceId: "string",
    businessTransactionResourceId: "string",
    businessTransactionReference: "string",
    businessTransactionType: "string",
    businessTransactionStatus: {
      type: "string",
      get: (r) => (isObj(r) ? r["transactionStatus"] : undefined)
    },
    transactionReference: "string",
    transactionStatus: "string",
    direction: "string",
    organizationAccountResourceId: "string",
    account: { resourceId: "string", name: "string", code: "string", accountType: "string" },
    contactResourceId: "string",
    valueDate: "date",
    totalAmount: "number",
    createdAt: "datetime"
  },
  sortMax: 13,
  groups: true
}

const accountView = (org: Org, id: string) => {
  const a = accounts(org).get(id)
  return a === undefined
    ? null
    : {
        resourceId: a.resourceId,
        name: a.name,
        bankName: a.name,
        code: a.code,
        accountType: a.accountType,
        currencyCode: a.currencyCode
      }
}

const caches = new WeakMap<Org, { key: string; rows: CashflowRow[] }>()

const PAYIN = new Set(["SALE", "PURCHASE_CREDIT_NOTE"])

/** Every cash-entry leg as a cashflow row. */
export const cashRows = (org: Org): CashflowRow[] =>
  org.store
    .collection<CashEntryRecord>("cashEntries")
    .values()
    .flatMap((e) =>
      e.legs.map((leg) => ({
        resourceId: leg.resourceId,
        parentEntityResourceId: e.resourceId,
        businessTransactionResourceId: e.businessTransactionResourceId,
        businessTransactionType: e.businessTransactionType,
        businessTransactionReference: e.reference,
        transactionReference: e.reference,
        transactionStatus: e.transactionStatus,
        valueDate: e.valueDate,
        direction: leg.direction,
        organizationAccountResourceId: leg.accountResourceId,
        account: accountView(org, leg.accountResourceId),
        totalAmount: leg.amount,
        currencyCode: accounts(org).get(leg.accountResourceId)?.currencyCode ?? org.base,
        contactResourceId: e.contactResourceId,
        createdAt: e.createdAt,
        updatedAt: e.updatedAt
      }))
    )

const paymentRows = (org: Org): CashflowRow[] =>
  org.store
    .collection<PaymentRecord>("payments")
    .values()
    .map((p) => ({
      resourceId: p.cashflowResourceId,
      parentEntityResourceId: p.resourceId,
      businessTransactionResourceId: p.businessTransactionResourceId,
      businessTransactionType: p.businessTransactionType,
      businessTransactionReference: p.businessTransactionReference,
      transactionReference: p.reference,
      transactionStatus: "ACTIVE" as const,
      valueDate: p.valueDate,
      direction: (PAYIN.has(p.businessTransactionType) ? "PAYIN" : "PAYOUT") as "PAYIN" | "PAYOUT",
      organizationAccountResourceId: p.accountResourceId,
      account: accountView(org, p.accountResourceId),
      totalAmount: p.paymentAmount,
      currencyCode: p.currencyCode,
      contactResourceId: p.contactResourceId,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt
    }))

/** All cashflow rows, cached until cash entries or payments change. */
export const allCashflows = (org: Org): CashflowRow[] => {
  const key = `${org.store.collection("cashEntries").stamp}:${org.store.collection("payments").stamp}`
  let cache = caches.get(org)
  if (cache?.key !== key) {
    cache = { key, rows: [...cashRows(org), ...paymentRows(org)] }
    caches.set(org, cache)
  }
  return cache.rows
}

/** Registers `POST /cashflow-transactions/search` (`transactionType`: ALL_CASHFLOWS default, or CASH_ENTRIES). */
export const register = (r: Router, org: Org): void => {
  r.post("/cashflow-transactions/search", (c) => {
    const only = isObj(c.body) && c.body["transactionType"] === "CASH_ENTRIES"
    return ok(search(only ? cashRows(org) : allCashflows(org), c.body, cashflowSpec, org.maxRows))
  })
}
