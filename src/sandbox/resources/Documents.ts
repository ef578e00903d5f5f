/** Reads an invoice, bill or credit-note body into a record (with the spec's draft/finalize rules) and posts it. */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import { badRequest, invalid } from "../Http.js"
import type { Line } from "../Ledger.js"
import { amount, mulCents, taxCents, toBase } from "../Money.js"
import type { AppliedRate, Org } from "../Org.js"
import { accountOf } from "./Accounts.js"
import { contactOf } from "./Contacts.js"
import type { DocKind, DocRecord, LineView } from "./DocKinds.js"
import { items } from "./Items.js"
import { taxProfileOf } from "./TaxProfiles.js"
import { withholdingCodes } from "./Withholding.js"

const DATE_ALIASES = ["issueDate", "date"]

/** The document currency and rate from the `currency` object (a string is a 400; `currencyCode` is ignored). */
export const currencyOf = (org: Org, b: Body, date: number): { code: string; applied: AppliedRate } => {
  const raw = b.o["currency"]
  if (typeof raw === "string")
    throw badRequest("currency must be an object { sourceCurrency, exchangeRate? }, not a string")
  const cur = b.obj("currency")
  if (cur === undefined) return { code: org.base, applied: { rate: 1, source: "ORGANIZATION" } }
  const code = cur.reqStr("sourceCurrency").toUpperCase()
  if (!org.isEnabled(code))
    throw invalid(`currency.sourceCurrency: ${code} is not enabled for the organization`)
  return { code, applied: org.transactionRate(code, date, cur.num("exchangeRate")) }
}

/**
 * The `appliedRate` of a create response for a foreign-currency document (the document's AppliedRate, its
 * `date` an epoch-millisecond date like every date the specification puts in a response).
 */
export const appliedRate = (
  org: Org,
  d: { currencyCode: string; exchangeRate: number; valueDate: number }
) =>
  d.currencyCode === org.base
    ? {}
    : {
        appliedRate: {
          baseCurrency: org.base,
          sourceCurrency: d.currencyCode,
          exchangeRate: d.exchangeRate,
          date: d.valueDate
        }
      }

interface LineCalc {
  readonly view: LineView
  readonly accountId: string | null
  readonly netCents: number
  readonly taxCents: number
}

const readLine = (
  org: Org,
  k: DocKind,
  l: Body,
  draft: boolean,
  inclusive: boolean,
  docTax: string | undefined
): LineCalc => {
  const itemId = l.str("itemResourceId")
  const item = itemId === undefined ? undefined : items(org).get(itemId)
  if (itemId !== undefined && item === undefined)
    throw invalid(`${l.name("itemResourceId")}: item ${itemId} does not exist`)
  const name = l.str("name") ?? (k.side === "sale" ? item?.saleItemName : item?.purchaseItemName) ?? null
  const unitPrice = l.num("unitPrice") ?? (k.side === "sale" ? item?.salePrice : item?.purchasePrice) ?? null
  const accountId =
    l.str("accountResourceId") ??
    (k.side === "sale" ? item?.saleAccountResourceId : item?.purchaseAccountResourceId) ??
    null
  if (!draft) {
    if (name === null || name.trim() === "")
      throw invalid(`${l.name("name")} is required on a finalized ${k.label}`)
    if (unitPrice === null) throw invalid(`${l.name("unitPrice")} is required on a finalized ${k.label}`)
    if (accountId === null)
      throw invalid(
        `${l.name("accountResourceId")} is required on every line of a finalized ${k.label}` +
          (l.has("organizationAccountResourceId")
            ? " (organizationAccountResourceId is the GET name; send accountResourceId)"
            : "")
      )
  }
  if (accountId !== null) {
    const acc = accountOf(org, accountId, l.name("accountResourceId"))
    if (acc.controlFlag)
      throw invalid(
        `${l.name("accountResourceId")}: ${acc.name} is a control account and cannot be used on a line`
      )
  }
  const taxId = l.str("taxProfileResourceId") ?? docTax
  const tax =
    taxId === undefined ? undefined : taxProfileOf(org, taxId, k.side, l.name("taxProfileResourceId"))
  const wht = l.obj("withholdingTax")
  if (wht !== undefined) {
    if (k.side === "sale")
      throw invalid(
        `${l.name("withholdingTax")}: withholding tax applies to bills and supplier credit notes only`
      )
    const code = wht.reqStr("code")
    if (!withholdingCodes(org).has(code))
      throw invalid(`WITHHOLDING_CODE_NOT_FOUND: withholding tax code ${code} not found`)
  }
  const quantity = l.num("quantity") ?? 1
  const discount = l.money("discount") ?? 0
  const net = mulCents(quantity, unitPrice ?? 0) - Math.round(discount * 100)
  const lineTax = tax === undefined ? 0 : taxCents(net, tax.vatValue, inclusive)
  return {
    accountId,
    netCents: inclusive ? net - lineTax : net,
    taxCents: lineTax,
    view: {
      name,
      quantity,
      unitPrice,
      discount,
      organizationAccountResourceId: accountId,
      itemResourceId: itemId ?? null,
      taxProfile:
        tax === undefined ? null : { resourceId: tax.resourceId, name: tax.name, vatValue: tax.vatValue },
      withholdingTax: wht?.o ?? null,
      unit: l.str("unit") ?? null,
      lineAmount: amount(net),
      taxAmount: amount(lineTax)
    }
  }
}

/** A document record read from a body, with what its posting needs. */
export interface ReadDoc {
  readonly record: DocRecord
  readonly lines: ReadonlyArray<LineCalc>
  readonly draft: boolean
}

/** Reads a create (or PUT) body; `old` keeps identity and audit fields on PUT. */
export const readDoc = (org: Org, k: DocKind, body: unknown, old: DocRecord | undefined): ReadDoc => {
  const b = Body.of(body)
  const draft = b.bool("saveAsDraft") ?? false
  const reference = b.reqStr("reference")
  if (b.has("referenceNumber") && !b.has("reference")) throw invalid("use reference, not referenceNumber")
  const valueDate = b.reqDate("valueDate", DATE_ALIASES)
  const dueDate = b.date("dueDate") ?? null
  if (dueDate !== null && dueDate < valueDate) throw invalid("dueDate must not be before valueDate")
  const contactId = b.str("contactResourceId") ?? null
  const contact = contactId === null ? undefined : contactOf(org, contactId, "contactResourceId")
  const { code, applied } = currencyOf(org, b, valueDate)
  const inclusive = b.bool("taxInclusion") ?? false
  const lineBodies = b.objects("lineItems", 200) ?? []
  if (!draft && !k.creditNote && k.side === "purchase") {
    if (contactId === null) throw invalid("contactResourceId is required to finalize a bill")
    if (dueDate === null) throw invalid("dueDate is required to finalize a bill")
  }
  if (!draft && lineBodies.length === 0) throw invalid(`lineItems must be non-empty to finalize a ${k.label}`)
  const docTax = b.str("taxProfileResourceId")
  const lines = lineBodies.map((l) => readLine(org, k, l, draft, inclusive, docTax))
  const sub = lines.reduce((s, l) => s + l.netCents, 0)
  const tax = lines.reduce((s, l) => s + l.taxCents, 0)
  const now = org.now()
  const record: DocRecord = {
    resourceId: old?.resourceId ?? randomUUID(),
    businessTransactionType: k.txType,
    reference,
    status: draft ? "DRAFT" : k.creditNote ? "UNAPPLIED" : "UNPAID",
    valueDate,
    dueDate,
    contactResourceId: contactId,
    contact: contact === undefined ? null : { resourceId: contact.resourceId, name: contact.name },
    currencyCode: code,
    ...(code === org.base ? {} : { currency: { sourceCurrency: code, exchangeRate: applied.rate } }),
    exchangeRate: applied.rate,
    taxInclusion: inclusive,
    lineItems: lines.map((l) => l.view),
    subTotalAmount: amount(sub),
    taxAmount: amount(tax),
    totalAmount: amount(sub + tax),
    paymentRecords: old?.paymentRecords ?? [],
    ...(k.creditNote ? { refunds: old?.refunds ?? [] } : {}),
    creditApplications: old?.creditApplications ?? [],
    internalNotes: b.str("internalNotes") ?? null,
    notes: b.str("notes", ["invoiceNotes"]) ?? null,
    tags: b.strings("tags") ?? [],
    createdAt: old?.createdAt ?? now,
    updatedAt: now
  }
  return { record, lines, draft }
}

/** Posts a finalized document: lines and tax against the control account, rounding to the rounding account. */
export const postDoc = (org: Org, k: DocKind, r: ReadDoc): void => {
  const d = r.record
  const s = k.lineSign
  const cur = d.currencyCode
  const conv = (c: number) => (cur === org.base ? c : toBase(c, d.exchangeRate))
  const common = { currency: cur, contactId: d.contactResourceId, docId: d.resourceId }
  const lines: Line[] = r.lines.map((l) => ({
    ...common,
    accountId: l.accountId ?? "",
    amount: s * conv(l.netCents),
    sourceAmount: s * l.netCents,
    description: l.view.name
  }))
  const taxTotal = r.lines.reduce((t, l) => t + l.taxCents, 0)
  if (taxTotal !== 0)
    lines.push({
      ...common,
      accountId: org.role("TAX"),
      amount: s * conv(taxTotal),
      sourceAmount: s * taxTotal
    })
  const total = Math.round(d.totalAmount * 100)
  lines.push({
    ...common,
    accountId: org.role(k.control),
    amount: -s * conv(total),
    sourceAmount: -s * total
  })
  const residue = lines.reduce((t, l) => t + l.amount, 0)
  if (residue !== 0)
    lines.push({
      ...common,
      currency: org.base,
      accountId: org.role("ROUNDING"),
      amount: -residue,
      sourceAmount: -residue
    })
  org.ledger.post({
    txId: d.resourceId,
    txType: k.txType,
    reference: d.reference,
    valueDate: d.valueDate,
    lines
  })
}
