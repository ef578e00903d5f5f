/**
 * Applying credit notes to invoices and bills (`POST /invoices/:id/credits` with `credits: [{ creditNoteResourceId,
 * amountApplied }]`): both documents settle on the control account, any base-currency difference goes to FX.
 */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import { invalid, notFound, ok } from "../Http.js"
import { toBase } from "../Money.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import {
  docs,
  KINDS,
  remainingCents,
  settledStatus,
  type CreditEntry,
  type DocKind,
  type DocRecord
} from "./DocKinds.js"

const c100 = (n: number) => Math.round(n * 100)

/** The base cents a settlement of `cents` takes off a document (the rest of its base when it closes it). */
const settledBase = (org: Org, k: DocKind, d: DocRecord, cents: number): number => {
  if (cents === remainingCents(d))
    return -k.lineSign * org.ledger.docBalance(d.resourceId, org.role(k.control)).base
  return d.currencyCode === org.base ? cents : toBase(cents, d.exchangeRate)
}

const apply = (
  org: Org,
  k: DocKind,
  cn: DocKind,
  doc: DocRecord,
  item: Body
): { doc: DocRecord; id: string } => {
  const noteId = item.reqStr("creditNoteResourceId")
  const note = docs(org, cn).get(noteId)
  if (note === undefined)
    throw invalid(`${item.name("creditNoteResourceId")}: ${cn.label} ${noteId} does not exist`)
  const amt = item.money("amountApplied", [], true) ?? 0
  const cents = c100(amt)
  if (cents <= 0) throw invalid(`${item.name("amountApplied")} must be greater than 0`)
  if (doc.status !== "UNPAID")
    throw invalid(`${k.label} ${doc.reference} is ${doc.status}; credits apply to an open ${k.label}`)
  if (note.status !== "UNAPPLIED") throw invalid(`${cn.label} ${note.reference} is ${note.status}`)
  if (note.currencyCode !== doc.currencyCode)
    throw invalid(`${cn.label} ${note.reference} is in ${note.currencyCode}, not ${doc.currencyCode}`)
  if (note.contactResourceId !== doc.contactResourceId)
    throw invalid(`${cn.label} ${note.reference} belongs to another contact`)
  if (cents > remainingCents(doc))
    throw invalid(`${item.name("amountApplied")} exceeds the balance of ${k.label} ${doc.reference}`)
  if (cents > remainingCents(note))
    throw invalid(`${item.name("amountApplied")} exceeds the credit left on ${cn.label} ${note.reference}`)
  const docBase = settledBase(org, k, doc, cents)
  const noteBase = settledBase(org, cn, note, cents)
  const c = -k.lineSign
  const control = org.role(k.control)
  const id = randomUUID()
  const valueDate = Math.max(doc.valueDate, note.valueDate)
  const common = { contactId: doc.contactResourceId, currency: doc.currencyCode }
  org.ledger.post({
    txId: id,
    txType: "CREDIT_APPLICATION",
    reference: note.reference,
    valueDate,
    lines: [
      {
        ...common,
        accountId: control,
        amount: -c * docBase,
        sourceAmount: -c * cents,
        docId: doc.resourceId
      },
      {
        ...common,
        accountId: control,
        amount: c * noteBase,
        sourceAmount: c * cents,
        docId: note.resourceId
      },
      {
        ...common,
        currency: org.base,
        accountId: org.role("FX"),
        amount: c * (docBase - noteBase),
        sourceAmount: c * (docBase - noteBase)
      }
    ]
  })
  const entry: CreditEntry = {
    resourceId: id,
    creditNoteResourceId: note.resourceId,
    documentResourceId: doc.resourceId,
    amountApplied: amt,
    valueDate
  }
  const now = org.now()
  const nextNote = { ...note, creditApplications: [...note.creditApplications, entry], updatedAt: now }
  docs(org, cn).put({ ...nextNote, status: settledStatus(cn, nextNote) })
  const nextDoc = { ...doc, creditApplications: [...doc.creditApplications, entry], updatedAt: now }
  const saved = { ...nextDoc, status: settledStatus(k, nextDoc) }
  docs(org, k).put(saved)
  return { doc: saved, id }
}

const unapply = (org: Org, k: DocKind, cn: DocKind, doc: DocRecord, entryId: string): void => {
  const entry = doc.creditApplications.find((e) => e.resourceId === entryId)
  if (entry === undefined)
    throw notFound(`credit application ${entryId} not found on ${k.label} ${doc.reference}`)
  org.ledger.reverse(entryId)
  const now = org.now()
  const note = docs(org, cn).get(entry.creditNoteResourceId)
  if (note !== undefined) {
    const n = {
      ...note,
      creditApplications: note.creditApplications.filter((e) => e.resourceId !== entryId),
      updatedAt: now
    }
    docs(org, cn).put({ ...n, status: settledStatus(cn, n) })
  }
  const d = {
    ...doc,
    creditApplications: doc.creditApplications.filter((e) => e.resourceId !== entryId),
    updatedAt: now
  }
  docs(org, k).put({ ...d, status: settledStatus(k, d) })
}

/** Registers credit application endpoints on invoices and bills. */
export const register = (r: Router, org: Org): void => {
  for (const [k, cn] of [
    [KINDS.invoices, KINDS.customerCreditNotes],
    [KINDS.bills, KINDS.supplierCreditNotes]
  ] as const) {
    const get = (id: string): DocRecord => {
      const d = docs(org, k).get(id)
      if (d === undefined) throw notFound(`${k.label} ${id} not found`)
      return d
    }
    r.post(`${k.path}/:id/credits`, (c) => {
      let doc = get(c.params["id"] ?? "")
      const list = Body.of(c.body).objects("credits", 100)
      if (list === undefined || list.length === 0)
        throw invalid("credits must be a non-empty array of { creditNoteResourceId, amountApplied }")
      const ids = list.map((item) => {
        const res = apply(org, k, cn, doc, item)
        doc = res.doc
        return res.id
      })
      return ok({ data: { resourceId: ids[0], resourceIds: ids } })
    })
    r.get(`${k.path}/:id/credits`, (c) => ok({ data: get(c.params["id"] ?? "").creditApplications }))
    r.delete(`${k.path}/:id/credits/:creditId`, (c) => {
      unapply(org, k, cn, get(c.params["id"] ?? ""), c.params["creditId"] ?? "")
      return ok({ data: { resourceId: c.params["creditId"], deleted: true } })
    })
  }
}
