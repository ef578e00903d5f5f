/**
 * Payments on invoices and bills and refunds of credit notes: validation, the bank / control / FX posting
 * (realized gain or loss when the cash's base value differs from the settled part of the document), and the
 * per-record GET, PUT and DELETE endpoints.
 */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import { invalid, notFound, ok } from "../Http.js"
import { toBase } from "../Money.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { accountOf, isBank } from "./Accounts.js"
import {
  docs,
  KINDS,
  remainingCents,
  settledStatus,
  type DocKind,
  type DocRecord,
  type PaymentEntry
} from "./DocKinds.js"

/** The payment methods the platform accepts (also for refunds). */
export const PAYMENT_METHODS = new Set([
  "CASH",
  "CREDIT_CARD",
  "BANK_TRANSFER",
  "E_WALLET",
  "CHEQUE",
  "WITHHOLDING_TAX_CERTIFICATE",
  "CLEARING_SETTLEMENT",
  "DEBT_WRITE_OFF",
  "INTER_COMPANY",
  "OTHER",
  "PAYMENT_GATEWAY"
])

/** A payment or refund record, stored as GET /payments/:id returns it. */
export interface PaymentRecord {
  readonly resourceId: string
  readonly kind: "PAYMENT" | "REFUND"
  readonly documentKind: DocKind["kind"]
  readonly businessTransactionResourceId: string
  readonly businessTransactionType: DocKind["txType"]
  readonly businessTransactionReference: string
  readonly contactResourceId: string | null
  readonly paymentAmount: number
  readonly transactionAmount: number
  readonly accountResourceId: string
  readonly paymentMethod: string
  readonly reference: string
  readonly valueDate: number
  readonly currencyCode: string
  readonly transactionCurrencyCode: string
  readonly exchangeRate: number | null
  readonly status: "ACTIVE"
  readonly cashflowResourceId: string
  readonly createdAt: number
  readonly updatedAt: number
}

/** The payments collection. */
export const payments = (org: Org) => org.store.collection<PaymentRecord>("payments")

const c100 = (n: number) => Math.round(n * 100)

const listOf = (d: DocRecord, kind: PaymentRecord["kind"]): ReadonlyArray<PaymentEntry> =>
  kind === "REFUND" ? (d.refunds ?? []) : d.paymentRecords

const withList = (
  k: DocKind,
  d: DocRecord,
  kind: PaymentRecord["kind"],
  list: ReadonlyArray<PaymentEntry>,
  now: number
): DocRecord => {
  const next =
    kind === "REFUND"
      ? { ...d, refunds: list, updatedAt: now }
      : { ...d, paymentRecords: list, updatedAt: now }
  return { ...next, status: settledStatus(k, next) }
}

/** Reads one payment (or refund) item, applying the aliases of its kind. */
const readItem = (org: Org, b: Body, kind: PaymentRecord["kind"], old: PaymentRecord | undefined) => {
  const refund = kind === "REFUND"
  const amountField = refund ? "refundAmount" : "paymentAmount"
  const methodField = refund ? "refundMethod" : "paymentMethod"
  const alias = refund ? { amount: ["paymentAmount"], method: ["paymentMethod"] } : { amount: [], method: [] }
  const need = <T>(v: T | undefined, field: string): T => {
    if (v === undefined) throw invalid(`${b.name(field)} is required`)
    return v
  }
  const paymentAmount = need(b.money(amountField, alias.amount) ?? old?.paymentAmount, amountField)
  const transactionAmount = need(b.money("transactionAmount") ?? old?.transactionAmount, "transactionAmount")
  const accountId = need(
    b.str("accountResourceId", refund ? [] : ["bankAccountResourceId"]) ?? old?.accountResourceId,
    "accountResourceId"
  )
  const method = need(b.str(methodField, alias.method) ?? old?.paymentMethod, methodField)
  if (!PAYMENT_METHODS.has(method))
    throw invalid(`${b.name(methodField)} must be one of ${[...PAYMENT_METHODS].join(", ")}`)
  const reference = need(b.str("reference") ?? old?.reference, "reference")
  const valueDate = need(b.date("valueDate", refund ? [] : ["paymentDate"]) ?? old?.valueDate, "valueDate")
  const account = accountOf(org, accountId, b.name("accountResourceId"))
  if (!isBank(account))
    throw invalid(`${b.name("accountResourceId")}: ${account.name} is not a bank or cash account`)
  if (transactionAmount <= 0 || paymentAmount <= 0)
    throw invalid(`${b.name("transactionAmount")} and ${b.name(amountField)} must be greater than 0`)
  const rate = b.obj("currency")?.num("exchangeRate") ?? null
  return { paymentAmount, transactionAmount, account, method, reference, valueDate, rate }
}

/** Records one payment or refund against an active document and posts it; returns the updated document. */
export const settle = (
  org: Org,
  k: DocKind,
  doc: DocRecord,
  b: Body,
  kind: PaymentRecord["kind"],
  old?: PaymentRecord
): { doc: DocRecord; payment: PaymentRecord } => {
  if (doc.status === "DRAFT" || doc.status === "VOIDED")
    throw invalid(`${k.label} ${doc.reference} is ${doc.status}; only a finalized ${k.label} can be settled`)
  const it = readItem(org, b, kind, old)
  const tx = c100(it.transactionAmount)
  const left = remainingCents(doc)
  if (tx > left)
    throw invalid(
      `${b.name("transactionAmount")} ${it.transactionAmount} exceeds the remaining balance ${left / 100} of ${k.label} ${doc.reference}`
    )
  const bankCur = it.account.currencyCode
  if (bankCur === doc.currencyCode && it.paymentAmount !== it.transactionAmount)
    throw invalid(
      `${b.name("paymentAmount")} must equal transactionAmount when the bank account and the ${k.label} share a currency`
    )
  const control = org.role(k.control)
  const c = -k.lineSign
  const open = org.ledger.docBalance(doc.resourceId, control)
  const settledBase =
    tx === left ? c * open.base : doc.currencyCode === org.base ? tx : toBase(tx, doc.exchangeRate)
  const pay = c100(it.paymentAmount)
  const cashBase =
    bankCur === org.base ? pay : toBase(pay, it.rate ?? org.rateFor(bankCur, it.valueDate).rate)
  const now = org.now()
  const payment: PaymentRecord = {
    resourceId: old?.resourceId ?? randomUUID(),
    kind,
    documentKind: k.kind,
    businessTransactionResourceId: doc.resourceId,
    businessTransactionType: k.txType,
    businessTransactionReference: doc.reference,
    contactResourceId: doc.contactResourceId,
    paymentAmount: it.paymentAmount,
    transactionAmount: it.transactionAmount,
    accountResourceId: it.account.resourceId,
    paymentMethod: it.method,
    reference: it.reference,
    valueDate: it.valueDate,
    currencyCode: bankCur,
    transactionCurrencyCode: doc.currencyCode,
    exchangeRate: it.rate,
    status: "ACTIVE",
    cashflowResourceId: old?.cashflowResourceId ?? randomUUID(),
    createdAt: old?.createdAt ?? now,
    updatedAt: now
  }
  const common = { contactId: doc.contactResourceId, docId: doc.resourceId }
  org.ledger.post({
    txId: payment.resourceId,
    txType: kind === "REFUND" ? `${k.txType}_REFUND` : `${k.txType}_PAYMENT`,
    reference: it.reference,
    valueDate: it.valueDate,
    lines: [
      {
        ...common,
        accountId: it.account.resourceId,
        amount: c * cashBase,
        sourceAmount: c * pay,
        currency: bankCur
      },
      {
        ...common,
        accountId: control,
        amount: -c * settledBase,
        sourceAmount: -c * tx,
        currency: doc.currencyCode
      },
      {
        ...common,
        accountId: org.role("FX"),
        amount: -c * (cashBase - settledBase),
        sourceAmount: -c * (cashBase - settledBase),
        currency: org.base
      }
    ]
  })
  payments(org).put(payment)
  const entry: PaymentEntry = {
    resourceId: payment.resourceId,
    paymentAmount: payment.paymentAmount,
    transactionAmount: payment.transactionAmount,
    accountResourceId: payment.accountResourceId,
    paymentMethod: payment.paymentMethod,
    reference: payment.reference,
    valueDate: payment.valueDate
  }
  const view =
    kind === "REFUND"
      ? { ...entry, refundAmount: entry.paymentAmount, refundMethod: entry.paymentMethod }
      : entry
  const next = withList(k, doc, kind, [...listOf(doc, kind), view], now)
  docs(org, k).put(next)
  return { doc: next, payment }
}

/** Reverses a payment's posting and takes it off its document. */
export const unsettle = (org: Org, p: PaymentRecord): DocRecord => {
  const k = KINDS[p.documentKind]
  const doc = docs(org, k).get(p.businessTransactionResourceId)
  if (doc === undefined) throw new Error(`payment ${p.resourceId} has no document`)
  org.ledger.reverse(p.resourceId)
  payments(org).remove(p.resourceId)
  const next = withList(
    k,
    doc,
    p.kind,
    listOf(doc, p.kind).filter((e) => e.resourceId !== p.resourceId),
    org.now()
  )
  docs(org, k).put(next)
  return next
}

/** The `payments` (or `refunds`) wrapper: an array, or a flat object wrapped automatically. */
export const itemsOf = (body: unknown, wrapper: "payments" | "refunds"): Body[] => {
  const b = Body.of(body)
  if (wrapper === "refunds" && b.has("payments") && !b.has("refunds"))
    throw invalid("refunds are sent as { refunds: [...] }, not payments")
  const list = b.objects(wrapper, 200)
  if (list !== undefined) {
    if (list.length === 0) throw invalid(`${wrapper} must not be empty`)
    return list
  }
  return [b]
}

/** The view of a payment record (refunds also carry refundAmount and refundMethod). */
export const paymentView = (p: PaymentRecord) =>
  p.kind === "REFUND" ? { ...p, refundAmount: p.paymentAmount, refundMethod: p.paymentMethod } : p

/** Registers `GET/PUT/DELETE /payments/:id`. */
export const register = (r: Router, org: Org): void => {
  const get = (id: string): PaymentRecord => {
    const p = payments(org).get(id)
    if (p === undefined) throw notFound(`payment ${id} not found`)
    return p
  }
  r.get("/payments/:id", (c) => ok({ data: paymentView(get(c.params["id"] ?? "")) }))
  r.put("/payments/:id", (c) => {
    const old = get(c.params["id"] ?? "")
    const b = Body.of(c.body)
    b.requireResourceId(old.resourceId)
    const doc = unsettle(org, old)
    const { payment } = settle(org, KINDS[old.documentKind], doc, b, old.kind, old)
    return ok({ data: paymentView(payment) })
  })
  r.delete("/payments/:id", (c) => {
    const old = get(c.params["id"] ?? "")
    unsettle(org, old)
    org.ledger.purge(old.resourceId)
    return ok({ data: { resourceId: old.resourceId, deleted: true } })
  })
}
