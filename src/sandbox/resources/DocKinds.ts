/** The four document kinds (invoice, bill, customer and supplier credit note) and their record shape. */
import type { AccountRole } from "../Fixture.js"
import type { Org } from "../Org.js"

/** What differs between invoices, bills and credit notes. */
export interface DocKind {
  readonly kind: "invoices" | "bills" | "customerCreditNotes" | "supplierCreditNotes"
  readonly path: string
  readonly label: string
  readonly side: "sale" | "purchase"
  readonly creditNote: boolean
  /** `invoices` answer GET flat (the specification); the others, and every PUT, wrap in `{ data }`. */
  readonly flat: boolean
  readonly txType: "SALE" | "PURCHASE" | "SALE_CREDIT_NOTE" | "PURCHASE_CREDIT_NOTE"
  readonly control: AccountRole
  /** Sign of income/expense and tax lines (debit +); the control line takes the opposite sign. */
  readonly lineSign: 1 | -1
}

/** The document kinds. */
export const KINDS: Readonly<Record<DocKind["kind"], DocKind>> = {
  invoices: {
    kind: "invoices",
    path: "/invoices",
    label: "invoice",
    side: "sale",
    creditNote: false,
    flat: true,
    txType: "SALE",
    control: "AR",
    lineSign: -1
  },
  bills: {
    kind: "bills",
    path: "/bills",
    label: "bill",
    side: "purchase",
    creditNote: false,
    flat: false,
    txType: "PURCHASE",
    control: "AP",
    lineSign: 1
  },
  customerCreditNotes: {
    kind: "customerCreditNotes",
    path: "/customer-credit-notes",
    label: "customer credit note",
    side: "sale",
    creditNote: true,
    flat: false,
    txType: "SALE_CREDIT_NOTE",
    control: "AR",
    lineSign: 1
  },
  supplierCreditNotes: {
    kind: "supplierCreditNotes",
    path: "/supplier-credit-notes",
    label: "supplier credit note",
    side: "purchase",
    creditNote: true,
    flat: false,
    txType: "PURCHASE_CREDIT_NOTE",
    control: "AP",
    lineSign: -1
  }
}

/** A line as returned on GET. */
export interface LineView {
  readonly name: string | null
  readonly quantity: number
  readonly unitPrice: number | null
  readonly discount: number
  readonly organizationAccountResourceId: string | null
  readonly itemResourceId: string | null
  readonly taxProfile: {
    readonly resourceId: string
    readonly name: string
    readonly vatValue: number
  } | null
  readonly withholdingTax: unknown
  readonly unit: string | null
  readonly lineAmount: number
  readonly taxAmount: number
}

/** A payment (or refund) as listed on its document. */
export interface PaymentEntry {
  readonly resourceId: string
  readonly paymentAmount: number
  readonly transactionAmount: number
  readonly accountResourceId: string
  readonly paymentMethod: string
  readonly reference: string
  readonly valueDate: number
}

/** A credit-note application as listed on both documents. */
export interface CreditEntry {
  readonly resourceId: string
  readonly creditNoteResourceId: string
  readonly documentResourceId: string
  readonly amountApplied: number
  readonly valueDate: number
}

/** A document record, stored exactly as GET returns it. */
export interface DocRecord {
  readonly resourceId: string
  readonly businessTransactionType: DocKind["txType"]
  readonly reference: string
  readonly status: string
  readonly valueDate: number
  readonly dueDate: number | null
  readonly contactResourceId: string | null
  readonly contact: { readonly resourceId: string; readonly name: string } | null
  readonly currencyCode: string
  readonly currency?: { readonly sourceCurrency: string; readonly exchangeRate: number }
  readonly exchangeRate: number
  readonly taxInclusion: boolean
  readonly lineItems: ReadonlyArray<LineView>
  readonly subTotalAmount: number
  readonly taxAmount: number
  readonly totalAmount: number
  readonly paymentRecords: ReadonlyArray<PaymentEntry>
  readonly refunds?: ReadonlyArray<PaymentEntry>
  readonly creditApplications: ReadonlyArray<CreditEntry>
  readonly internalNotes: string | null
  readonly notes: string | null
  readonly tags: ReadonlyArray<string>
  readonly createdAt: number
  readonly updatedAt: number
}

/** The collection of one document kind. */
export const docs = (org: Org, k: DocKind) => org.store.collection<DocRecord>(k.kind)

/** Remaining balance in document cents from the document's own records. */
export const remainingCents = (d: DocRecord): number => {
  const c = (n: number) => Math.round(n * 100)
  let left = c(d.totalAmount)
  for (const p of d.paymentRecords) left -= c(p.transactionAmount)
  for (const p of d.refunds ?? []) left -= c(p.transactionAmount)
  for (const a of d.creditApplications) left -= c(a.amountApplied)
  return left
}

/** The settled status of an active document given its balance. */
export const settledStatus = (k: DocKind, d: DocRecord): string => {
  const left = remainingCents(d)
  if (k.creditNote) return left === 0 ? "APPLIED" : "UNAPPLIED"
  return left === 0 ? "PAID" : "UNPAID"
}
