/**
 * Cash-in, cash-out and cash transfers. Create answers `{ data: { resourceId } }` with the parent entity ID;
 * LIST and GET answer the cashflow-transaction shape (see Cashflows.ts); DELETE /cashflow-journals/:parentId voids,
 * and a second DELETE of the voided entry removes it (as for documents).
 */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import { createdResource, invalid, notFound, ok } from "../Http.js"
import type { Line } from "../Ledger.js"
import { amount, decimals, toBase } from "../Money.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { accountOf, isBank, type AccountRecord } from "./Accounts.js"
import { cashRows, cashflowSpec } from "./Cashflows.js"
import { contactOf } from "./Contacts.js"
import { listing } from "../Search.js"

/** The kind of a cash entry. */
export type CashKind = "JOURNAL_DIRECT_CASH_IN" | "JOURNAL_DIRECT_CASH_OUT" | "JOURNAL_CASH_TRANSFER"

/** One bank leg of a cash entry (a cashflow transaction). */
export interface CashLeg {
  readonly resourceId: string
  readonly direction: "PAYIN" | "PAYOUT"
  readonly accountResourceId: string
  readonly amount: number
}

/** A cash entry (the parent entity). */
export interface CashEntryRecord {
  readonly resourceId: string
  readonly businessTransactionResourceId: string
  readonly businessTransactionType: CashKind
  readonly reference: string
  readonly valueDate: number
  readonly transactionStatus: "ACTIVE" | "VOID"
  readonly contactResourceId: string | null
  readonly legs: ReadonlyArray<CashLeg>
  readonly entries: ReadonlyArray<{
    readonly accountResourceId: string
    readonly amount: number
    readonly description: string | null
  }>
  readonly internalNotes: string | null
  readonly createdAt: number
  readonly updatedAt: number
}

/** The cash entries collection. */
export const cashEntries = (org: Org) => org.store.collection<CashEntryRecord>("cashEntries")

const bankOf = (org: Org, id: string, where: string): AccountRecord => {
  const a = accountOf(org, id, where)
  if (!isBank(a)) throw invalid(`${where}: ${a.name} is not a bank or cash account`)
  return a
}

const baseOf = (org: Org, a: AccountRecord, cents: number, date: number, rate: number | undefined): number =>
  a.currencyCode === org.base ? cents : toBase(cents, rate ?? org.rateFor(a.currencyCode, date).rate)

const cashInOut = (org: Org, body: unknown, kind: CashKind) => {
  const b = Body.of(body)
  const bank = bankOf(org, b.reqStr("accountResourceId"), "accountResourceId")
  const reference = b.reqStr("reference")
  const valueDate = b.reqDate("valueDate")
  const rate = b.obj("currency")?.num("exchangeRate")
  const list = b.objects("journalEntries", 100) ?? b.objects("lines", 100)
  if (list === undefined || list.length === 0)
    throw invalid("journalEntries must hold at least one offsetting entry")
  const sign = kind === "JOURNAL_DIRECT_CASH_IN" ? 1 : -1
  let net = 0
  const lines: Line[] = []
  const entries = list.map((e) => {
    const acc = accountOf(org, e.reqStr("accountResourceId"), e.name("accountResourceId"))
    if (acc.resourceId === bank.resourceId)
      throw invalid(`${e.name("accountResourceId")} must differ from the bank account`)
    if (acc.controlFlag)
      throw invalid(
        `${e.name("accountResourceId")}: ${acc.name} is a control account; use invoices, bills and payments`
      )
    const amt = e.num("amount")
    if (amt === undefined) throw invalid(`${e.name("amount")} is required`)
    if (decimals(amt) > 2) throw invalid(`${e.name("amount")} must have at most 2 decimal places`)
    const type = e.str("type")
    if (type !== undefined && type !== "DEBIT" && type !== "CREDIT")
      throw invalid(`${e.name("type")} must be DEBIT or CREDIT`)
    const natural = kind === "JOURNAL_DIRECT_CASH_IN" ? "CREDIT" : "DEBIT"
    const cents = Math.round(amt * 100) * (type === undefined || type === natural ? 1 : -1)
    net += cents
    const base = baseOf(org, bank, cents, valueDate, rate)
    lines.push({
      accountId: acc.resourceId,
      amount: -sign * base,
      sourceAmount: -sign * cents,
      currency: bank.currencyCode,
      description: e.str("description") ?? null
    })
    return {
      accountResourceId: acc.resourceId,
      amount: amount(cents),
      description: e.str("description") ?? null
    }
  })
  if (net <= 0)
    throw invalid(
      `the entries of a ${kind === "JOURNAL_DIRECT_CASH_IN" ? "cash-in" : "cash-out"} must add up to a positive amount`
    )
  const bankBase = baseOf(org, bank, net, valueDate, rate)
  lines.push({
    accountId: bank.resourceId,
    amount: sign * bankBase,
    sourceAmount: sign * net,
    currency: bank.currencyCode
  })
  const leg: CashLeg = {
    resourceId: randomUUID(),
    direction: sign > 0 ? "PAYIN" : "PAYOUT",
    accountResourceId: bank.resourceId,
    amount: amount(net)
  }
  return { b, reference, valueDate, lines, legs: [leg], entries }
}

const transfer = (org: Org, body: unknown) => {
  const b = Body.of(body)
  if (b.has("fromAccountResourceId") || b.has("toAccountResourceId"))
    throw invalid(
      "a cash transfer takes cashOut and cashIn sub-objects { accountResourceId, amount }, not fromAccountResourceId/toAccountResourceId"
    )
  const out = b.obj("cashOut")
  const inn = b.obj("cashIn")
  if (out === undefined || inn === undefined) throw invalid("cashOut and cashIn are required")
  const reference = b.reqStr("reference")
  const valueDate = b.reqDate("valueDate")
  const from = bankOf(org, out.reqStr("accountResourceId"), "cashOut.accountResourceId")
  const to = bankOf(org, inn.reqStr("accountResourceId"), "cashIn.accountResourceId")
  if (from.resourceId === to.resourceId) throw invalid("cashOut and cashIn must use different accounts")
  const outAmt = out.money("amount", [], true) ?? 0
  const sameCurrency = from.currencyCode === to.currencyCode
  const inAmt = inn.money("amount") ?? (sameCurrency ? outAmt : undefined)
  if (inAmt === undefined)
    throw invalid("cashIn.amount is required when the accounts have different currencies")
  if (sameCurrency && inAmt !== outAmt)
    throw invalid("cashIn.amount must equal cashOut.amount for accounts in the same currency")
  if (outAmt <= 0) throw invalid("cashOut.amount must be greater than 0")
  const oc = Math.round(outAmt * 100)
  const ic = Math.round(inAmt * 100)
  const outBase = baseOf(org, from, oc, valueDate, undefined)
  const inBase = sameCurrency ? outBase : baseOf(org, to, ic, valueDate, undefined)
  const lines: Line[] = [
    { accountId: from.resourceId, amount: -outBase, sourceAmount: -oc, currency: from.currencyCode },
    { accountId: to.resourceId, amount: inBase, sourceAmount: ic, currency: to.currencyCode },
    {
      accountId: org.role("FX"),
      amount: outBase - inBase,
      sourceAmount: outBase - inBase,
      currency: org.base
    }
  ]
  const legs: CashLeg[] = [
    { resourceId: randomUUID(), direction: "PAYOUT", accountResourceId: from.resourceId, amount: outAmt },
    { resourceId: randomUUID(), direction: "PAYIN", accountResourceId: to.resourceId, amount: inAmt }
  ]
  return { b, reference, valueDate, lines, legs, entries: [] }
}

/** Registers cash entry endpoints. */
export const register = (r: Router, org: Org): void => {
  const all = cashEntries(org)
  const create = (kind: CashKind) => (c: { body: unknown }) => {
    const x = kind === "JOURNAL_CASH_TRANSFER" ? transfer(org, c.body) : cashInOut(org, c.body, kind)
    if (x.b.bool("saveAsDraft") === true)
      throw invalid("cash entries are created active; drafts are not supported by the sandbox")
    const contactId = x.b.str("contactResourceId") ?? null
    if (contactId !== null) contactOf(org, contactId, "contactResourceId")
    const now = org.now()
    const rec: CashEntryRecord = {
      resourceId: randomUUID(),
      businessTransactionResourceId: randomUUID(),
      businessTransactionType: kind,
      reference: x.reference,
      valueDate: x.valueDate,
      transactionStatus: "ACTIVE",
      contactResourceId: contactId,
      legs: x.legs,
      entries: x.entries,
      internalNotes: x.b.str("internalNotes") ?? null,
      createdAt: now,
      updatedAt: now
    }
    const lines = x.lines.map((l) => ({ ...l, contactId, docId: rec.resourceId }))
    org.ledger.post({
      txId: rec.resourceId,
      txType: kind,
      reference: rec.reference,
      valueDate: rec.valueDate,
      lines
    })
    all.put(rec)
    return createdResource({ resourceId: rec.resourceId })
  }
  const kinds: ReadonlyArray<readonly [string, CashKind]> = [
    ["/cash-in-entries", "JOURNAL_DIRECT_CASH_IN"],
    ["/cash-out-entries", "JOURNAL_DIRECT_CASH_OUT"],
    ["/cash-transfers", "JOURNAL_CASH_TRANSFER"]
  ]
  for (const [path, kind] of kinds) {
    r.post(path, create(kind))
    r.get(path, (c) =>
      ok(
        listing(
          cashRows(org).filter((x) => x.businessTransactionType === kind),
          c.query,
          cashflowSpec,
          org.maxRows
        )
      )
    )
    r.get(`${path}/:id`, (c) => {
      const row = cashRows(org).find(
        (x) => x.resourceId === c.params["id"] && x.businessTransactionType === kind
      )
      if (row === undefined) throw notFound(`cashflow transaction ${c.params["id"]} not found`)
      return ok({ data: row })
    })
  }
  r.get("/cash-in-journals/:id", (c) => {
    const row = cashRows(org).find(
      (x) => x.resourceId === c.params["id"] && x.businessTransactionType === "JOURNAL_DIRECT_CASH_IN"
    )
    if (row === undefined)
      throw notFound(
        `cash-in ${c.params["id"]} not found (use the resourceId from LIST, not the parentEntityResourceId)`
      )
    return ok({ data: row })
  })
  r.delete("/cashflow-journals/:id", (c) => {
    const rec = all.get(c.params["id"] ?? "")
    if (rec === undefined)
      throw notFound(`cash entry ${c.params["id"]} not found (DELETE takes the parentEntityResourceId)`)
    if (rec.transactionStatus === "VOID") {
      org.ledger.purge(rec.resourceId)
      all.remove(rec.resourceId)
      return ok({ data: { resourceId: rec.resourceId, deleted: true } })
    }
    org.ledger.reverse(rec.resourceId)
    all.put({ ...rec, transactionStatus: "VOID", updatedAt: org.now() })
    return ok({ data: { resourceId: rec.resourceId, transactionStatus: "VOID" } })
  })
}
