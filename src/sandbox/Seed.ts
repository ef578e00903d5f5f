/**
 * Applies an organisation file to a new state database: currencies and rates, the chart with its system
 * accounts, banks, tax profiles, contacts, items, tags, and the existing documents, journals and cash entries by
 * reference (records the loader's lookups find; they post nothing to the ledger).
 */
import { randomUUID } from "node:crypto"
import { parseDate } from "./Dates.js"
import type { AccountRole, FixtureDocumentKind, OrganizationFixture } from "./Fixture.js"
import { invert } from "./Money.js"
import type { Org } from "./Org.js"
import { accounts, isBank, type AccountRecord } from "./resources/Accounts.js"
import { cashEntries } from "./resources/CashEntries.js"
import { contacts } from "./resources/Contacts.js"
import { docs, KINDS, type DocKind } from "./resources/DocKinds.js"
import { items } from "./resources/Items.js"
import { journals } from "./resources/Journals.js"
import { taxProfiles } from "./resources/TaxProfiles.js"

const DOC_KIND: Readonly<Record<FixtureDocumentKind, DocKind>> = {
  invoice: KINDS.invoices,
  bill: KINDS.bills,
  customerCreditNote: KINDS.customerCreditNotes,
  supplierCreditNote: KINDS.supplierCreditNotes
}

/** Seeds a fresh organization from its fixture (once per state database). */
export const seed = (org: Org, f: OrganizationFixture): void => {
  org.store.tx(() => {
    const now = org.now()
    for (const code of f.enabledCurrencies ?? [])
      if (code !== f.baseCurrency)
        org.currencies.put({ resourceId: code, currencyCode: code, baseCurrency: false, createdAt: now })
    const roles: Partial<Record<AccountRole, string>> = {}
    const add = (a: {
      name: string
      classificationType: string
      code?: string
      controlFlag?: boolean
      role?: AccountRole
      systemAccount?: boolean
      currencyCode?: string
    }) => {
      const cls = f.classifications.find((c) => c.name === a.classificationType)
      if (cls === undefined)
        throw new Error(`fixture account ${a.name}: unknown classification ${a.classificationType}`)
      const rec: AccountRecord = {
        resourceId: randomUUID(),
        name: a.name,
        code: a.code ?? null,
        accountType: a.classificationType,
        classificationType: a.classificationType,
        accountClass: cls.accountClass,
        currencyCode: a.currencyCode ?? f.baseCurrency,
        controlFlag: a.controlFlag ?? false,
        systemAccount: a.role !== undefined || a.systemAccount === true,
        status: "ACTIVE",
        description: null,
        createdAt: now,
        updatedAt: now
      }
      accounts(org).put(rec)
      if (a.role !== undefined) roles[a.role] = rec.resourceId
    }
    for (const a of f.accounts) add(a)
    for (const b of f.bankAccounts ?? []) add({ ...b, classificationType: "Bank Accounts" })
    for (const t of f.taxProfiles)
      taxProfiles(org).put({
        resourceId: randomUUID(),
        name: t.name,
        description: t.description ?? t.name,
        taxTypeCode: t.taxTypeCode ?? t.name,
        taxTypeName: t.description ?? t.name,
        vatValue: t.vatValue,
        withholdingValue: 0,
        appliesToSale: t.appliesToSale,
        appliesToPurchase: t.appliesToPurchase,
        appliesToSaleCreditNote: t.appliesToSale,
        appliesToPurchaseCreditNote: t.appliesToPurchase,
        isDefault: false,
        isShipping: false,
        status: "ACTIVE"
      })
    seedRecords(org, f, now)
    for (const role of ["AR", "AP", "TAX", "FX", "ROUNDING"] as const)
      if (roles[role] === undefined) throw new Error(`the fixture has no account with role ${role}`)
    org.setRoles(roles)
    org.store.setMeta(
      "fixture",
      JSON.stringify({ name: f.name, baseCurrency: f.baseCurrency, timeZone: f.timeZone })
    )
  })
}

const day = (text: string | undefined, fallback: number): number =>
  text === undefined ? fallback : (parseDate(text) ?? fallback)

/** Rates, contacts, items, tags and the existing records by reference. */
const seedRecords = (org: Org, f: OrganizationFixture, now: number): void => {
  for (const r of f.rates ?? []) {
    org.rates.put({
      resourceId: randomUUID(),
      currencyCode: r.currencyCode,
      rate: r.rate,
      rateFunctionalToSource: r.rate,
      rateSourceToFunctional: invert(r.rate),
      rateApplicableFrom: day(r.applicableFrom, now),
      rateApplicableTo: r.applicableTo == null ? null : day(r.applicableTo, now),
      createdAt: now,
      updatedAt: now
    })
  }
  const contactIds = new Map<string, string>()
  for (const c of f.contacts ?? []) {
    const id = randomUUID()
    contactIds.set(c.name, id)
    contacts(org).put({
      resourceId: id,
      name: c.name,
      billingName: c.name,
      customer: c.customer ?? true,
      supplier: c.supplier ?? false,
      status: "ACTIVE",
      email: null,
      phone: null,
      currencyCode: c.currencyCode ?? null,
      taxId: null,
      registrationId: null,
      website: null,
      notes: null,
      billingAddress: null,
      createdAt: now,
      updatedAt: now
    })
  }
  for (const i of f.items ?? [])
    items(org).put({
      resourceId: randomUUID(),
      itemCode: i.itemCode,
      internalName: i.name ?? i.itemCode,
      name: i.name ?? i.itemCode,
      itemCategory: "NON_INVENTORY",
      appliesToSale: i.appliesToSale ?? true,
      appliesToPurchase: i.appliesToPurchase ?? false,
      saleItemName: null,
      purchaseItemName: null,
      salePrice: null,
      purchasePrice: null,
      saleAccountResourceId: null,
      purchaseAccountResourceId: null,
      saleTaxProfileResourceId: null,
      purchaseTaxProfileResourceId: null,
      unit: null,
      costingMethod: null,
      cogsResourceId: null,
      blockInsufficientDeductions: null,
      inventoryAccountResourceId: null,
      status: "ACTIVE",
      createdAt: now,
      updatedAt: now
    })
  const tags = org.store.collection<{ resourceId: string; tagName: string; name: string; createdAt: number }>(
    "tags"
  )
  for (const name of f.tags ?? []) tags.put({ resourceId: randomUUID(), tagName: name, name, createdAt: now })
  const today = org.today()
  for (const d of f.documents ?? []) {
    const k = DOC_KIND[d.kind]
    const contactId = d.contact == null ? null : (contactIds.get(d.contact) ?? null)
    docs(org, k).put({
      resourceId: randomUUID(),
      businessTransactionType: k.txType,
      reference: d.reference,
      status: d.status ?? "UNPAID",
      valueDate: day(d.date, today),
      dueDate: null,
      contactResourceId: contactId,
      contact: contactId === null || d.contact == null ? null : { resourceId: contactId, name: d.contact },
      currencyCode: d.currencyCode ?? f.baseCurrency,
      exchangeRate: 1,
      taxInclusion: false,
      lineItems: [],
      subTotalAmount: d.totalAmount ?? 0,
      taxAmount: 0,
      totalAmount: d.totalAmount ?? 0,
      paymentRecords: [],
      creditApplications: [],
      internalNotes: null,
      notes: null,
      tags: [],
      createdAt: now,
      updatedAt: now
    })
  }
  for (const j of f.journals ?? [])
    journals(org).put({
      resourceId: randomUUID(),
      reference: j.reference,
      type: "JOURNAL_MANUAL",
      status: j.status ?? "APPROVED",
      valueDate: day(j.date, today),
      contactResourceId: null,
      currencyCode: f.baseCurrency,
      exchangeRate: 1,
      journalEntries: [],
      totalAmount: 0,
      internalNotes: null,
      tags: [],
      createdAt: now,
      updatedAt: now
    })
  const banks = accounts(org)
    .values()
    .filter((a) => isBank(a))
  for (const e of f.cashEntries ?? []) {
    const bank = banks.find((b) => e.bankAccount === undefined || b.name === e.bankAccount)
    if (bank === undefined) throw new Error(`cash entry ${e.reference}: no bank account`)
    const id = randomUUID()
    cashEntries(org).put({
      resourceId: id,
      businessTransactionResourceId: id,
      businessTransactionType: e.type,
      reference: e.reference,
      valueDate: day(e.date, today),
      transactionStatus: "ACTIVE",
      contactResourceId: null,
      legs: [
        {
          resourceId: randomUUID(),
          direction: e.type === "JOURNAL_DIRECT_CASH_OUT" ? "PAYOUT" : "PAYIN",
          accountResourceId: bank.resourceId,
          amount: e.amount ?? 0
        }
      ],
      entries: [],
      internalNotes: null,
      createdAt: now,
      updatedAt: now
    })
  }
}
