/** Manual journals: DEBIT/CREDIT entries that must balance, foreign-currency restrictions, draft → APPROVED, void. */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import { createdResource, invalid, notFound, ok } from "../Http.js"
import type { Line } from "../Ledger.js"
import { amount, toBase } from "../Money.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { listing, search, type SearchSpec } from "../Search.js"
import { accountOf } from "./Accounts.js"
import { contactOf } from "./Contacts.js"
import { currencyOf } from "./Documents.js"

/** A journal entry as returned on GET. */
export interface EntryView {
  readonly accountResourceId: string | null
  readonly organizationAccountResourceId: string | null
  readonly type: "DEBIT" | "CREDIT"
  readonly amount: number | null
  readonly description: string | null
}

/** A journal as returned by GET (inside `data`). */
export interface JournalRecord {
  readonly resourceId: string
  readonly reference: string
  readonly type: "JOURNAL_MANUAL"
  readonly status: "DRAFT" | "APPROVED" | "VOIDED"
  readonly valueDate: number
  readonly contactResourceId: string | null
  readonly currencyCode: string
  readonly currency?: { readonly sourceCurrency: string; readonly exchangeRate: number }
  readonly exchangeRate: number
  readonly journalEntries: ReadonlyArray<EntryView>
  readonly totalAmount: number
  readonly internalNotes: string | null
  readonly tags: ReadonlyArray<string>
  readonly createdAt: number
  readonly updatedAt: number
}

const spec: SearchSpec = {
  fields: {
    resourceId: "string",
    reference: "string",
    status: "string",
    type: "string",
    valueDate: "date",
    currencyCode: "string",
    internalNotes: "string",
    tags: "string",
    contactResourceId: "string",
    createdAt: "datetime",
    updatedAt: "datetime"
  },
  sortMax: 10,
  groups: true
}

/** The journals collection. */
export const journals = (org: Org) => org.store.collection<JournalRecord>("journals")

const read = (org: Org, body: unknown, old: JournalRecord | undefined): JournalRecord => {
  const b = Body.of(body)
  const draft = b.bool("saveAsDraft") ?? false
  const reference = b.reqStr("reference")
  const valueDate = b.reqDate("valueDate", ["issueDate", "date"])
  const { code, applied } = currencyOf(org, b, valueDate)
  const foreign = code !== org.base
  const contactId = b.str("contactResourceId") ?? null
  if (contactId !== null) contactOf(org, contactId, "contactResourceId")
  const list = b.objects("journalEntries", 200)
  if (list === undefined) throw invalid("journalEntries is required")
  if (!draft && list.length < 2) throw invalid("a journal needs at least 2 journalEntries")
  let debit = 0
  let credit = 0
  const entries = list.map((e): EntryView => {
    if (e.has("debit") || e.has("credit"))
      throw invalid(`${e.path}: use type (DEBIT or CREDIT) and amount, not debit/credit numbers`)
    const type = e.reqStr("type")
    if (type !== "DEBIT" && type !== "CREDIT") throw invalid(`${e.name("type")} must be DEBIT or CREDIT`)
    const amt = e.money("amount", [], !draft) ?? null
    const accountId = e.str("accountResourceId") ?? null
    if (accountId === null && !draft) throw invalid(`${e.name("accountResourceId")} is required`)
    if (accountId !== null) {
      const a = accountOf(org, accountId, e.name("accountResourceId"))
      if (foreign) {
        if (a.controlFlag)
          throw invalid(
            `${e.name("accountResourceId")}: ${a.name} is a control account, not allowed in a foreign-currency journal; use invoices or bills`
          )
        if (a.systemAccount)
          throw invalid(
            `${e.name("accountResourceId")}: ${a.name} is managed by the system and not allowed in a foreign-currency journal`
          )
        if (a.accountType === "Bank Accounts" && a.currencyCode !== code)
          throw invalid(
            `${e.name("accountResourceId")}: bank account ${a.name} is in ${a.currencyCode}, not the journal currency ${code}`
          )
      }
    }
    const cents = Math.round((amt ?? 0) * 100)
    if (type === "DEBIT") debit += cents
    else credit += cents
    return {
      accountResourceId: accountId,
      organizationAccountResourceId: accountId,
      type,
      amount: amt,
      description: e.str("description") ?? null
    }
  })
  if (!draft && debit !== credit)
    throw invalid(`journal does not balance: debits ${amount(debit)} ≠ credits ${amount(credit)}`)
  if (!draft && debit === 0) throw invalid("a journal must move a non-zero amount")
  const now = org.now()
  return {
    resourceId: old?.resourceId ?? randomUUID(),
    reference,
    type: "JOURNAL_MANUAL",
    status: draft ? "DRAFT" : "APPROVED",
    valueDate,
    contactResourceId: contactId,
    currencyCode: code,
    ...(foreign ? { currency: { sourceCurrency: code, exchangeRate: applied.rate } } : {}),
    exchangeRate: applied.rate,
    journalEntries: entries,
    totalAmount: amount(debit),
    internalNotes: b.str("internalNotes") ?? null,
    tags: b.strings("tags") ?? [],
    createdAt: old?.createdAt ?? now,
    updatedAt: now
  }
}

const post = (org: Org, j: JournalRecord): void => {
  const conv = (c: number) => (j.currencyCode === org.base ? c : toBase(c, j.exchangeRate))
  const lines: Line[] = j.journalEntries.map((e) => {
    const src = Math.round((e.amount ?? 0) * 100) * (e.type === "DEBIT" ? 1 : -1)
    return {
      accountId: e.accountResourceId ?? "",
      amount: Math.sign(src) * conv(Math.abs(src)),
      sourceAmount: src,
      currency: j.currencyCode,
      contactId: j.contactResourceId,
      docId: j.resourceId,
      description: e.description
    }
  })
  const residue = lines.reduce((t, l) => t + l.amount, 0)
  if (residue !== 0)
    lines.push({
      accountId: org.role("ROUNDING"),
      amount: -residue,
      sourceAmount: -residue,
      currency: org.base,
      docId: j.resourceId
    })
  org.ledger.post({
    txId: j.resourceId,
    txType: "JOURNAL",
    reference: j.reference,
    valueDate: j.valueDate,
    lines
  })
}

/** Registers the journal endpoints. */
export const register = (r: Router, org: Org): void => {
  const all = journals(org)
  const get = (id: string): JournalRecord => {
    const j = all.get(id)
    if (j === undefined) throw notFound(`journal ${id} not found`)
    return j
  }
  r.post("/journals", (c) => {
    const j = read(org, c.body, undefined)
    all.put(j)
    if (j.status === "APPROVED") post(org, j)
    return createdResource({ resourceId: j.resourceId, createdAt: j.createdAt })
  })
  r.get("/journals", (c) => ok(listing(all.values(), c.query, spec, org.maxRows)))
  r.post("/journals/search", (c) => ok(search(all.values(), c.body, spec, org.maxRows)))
  r.get("/journals/:id", (c) => ok({ data: get(c.params["id"] ?? "") }))
  r.put("/journals/:id", (c) => {
    const old = get(c.params["id"] ?? "")
    Body.of(c.body).requireResourceId(old.resourceId)
    if (old.status === "VOIDED") throw invalid(`journal ${old.reference} is VOIDED and cannot be changed`)
    const j = read(org, c.body, old)
    if (old.status === "APPROVED" && j.status === "DRAFT")
      throw invalid("an approved journal cannot be turned back into a draft")
    if (old.status === "APPROVED") org.ledger.reverse(old.resourceId)
    all.put(j)
    if (j.status === "APPROVED") post(org, j)
    return ok({ data: j })
  })
  r.delete("/journals/:id", (c) => {
    const j = get(c.params["id"] ?? "")
    const force = c.query.get("force") === "true"
    if (j.status === "DRAFT" || j.status === "VOIDED" || force) {
      org.ledger.purge(j.resourceId)
      all.remove(j.resourceId)
      return ok({ data: { resourceId: j.resourceId, deleted: true } })
    }
    org.ledger.reverse(j.resourceId)
    all.put({ ...j, status: "VOIDED", updatedAt: org.now() })
    return ok({ data: { resourceId: j.resourceId, status: "VOIDED" } })
  })
}
