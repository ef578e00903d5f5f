/**
 * Xero's credit notes, overpayments and prepayments, read from the sales-invoice and bill exports (the rows
 * whose `Type` is not "Sales invoice" or "Bill"): a credit note's rows are grouped by number and contact; an
 * overpayment's or prepayment's (which have no number) by consecutive rows with the same type, contact, date,
 * reference, currency and total. Amounts become positive whatever sign the export gives them (Xero's
 * exports show a credit's totals negative); what was used is `Total − InvoiceAmountDue`.
 */
import { where, type StagedRow } from "../../staging/SourceRows.js"
import * as Money from "../Money.js"
import type {
  CreditOrigin,
  CreditSide,
  DocumentState,
  Issue,
  SourceCredit,
  SourceLine
} from "../SourceModel.js"
import { amount, cell, date, readRows, required, RowProblem, trackingOf } from "./StagedCells.js"

/** A document-export row's type: an invoice or bill (read by XeroSource), a credit, or something else. */
export type RowType =
  | { readonly _tag: "document" }
  | { readonly _tag: "credit"; readonly side: CreditSide; readonly origin: CreditOrigin }
  | { readonly _tag: "unknown"; readonly type: string }

/** Classifies a row of the sales export (`fileSide` "sale") or the bills export ("purchase") by its `Type`. */
export const rowType = (row: StagedRow, fileSide: CreditSide): RowType => {
  const type = cell(row, "Type")
  const t = type.toLowerCase().replace(/\s+/g, " ")
  if (t === "sales invoice" || t === "bill") return { _tag: "document" }
  const origin: CreditOrigin | undefined = /overpayment/.test(t)
    ? "overpayment"
    : /prepayment/.test(t)
      ? "prepayment"
      : /credit/.test(t)
        ? "credit-note"
        : undefined
  if (origin === undefined) return { _tag: "unknown", type }
  const side: CreditSide = /^(sales|receivable|accrec|customer)\b/.test(t)
    ? "sale"
    : /^(bill|purchase|payable|accpay|supplier)\b/.test(t)
      ? "purchase"
      : fileSide
  return { _tag: "credit", side, origin }
}

/** Xero's document statuses, as the migration treats them. */
export const stateOf = (status: string): DocumentState | undefined => {
  switch (status.toLowerCase()) {
    case "draft":
    case "awaiting approval":
    case "submitted":
      return "draft"
    case "awaiting payment":
    case "approved":
    case "authorised":
    case "paid":
      return "open"
    case "voided":
    case "deleted":
      return "voided"
    default:
      return undefined
  }
}

const abs = Money.abs

const lineOf = (row: StagedRow): SourceLine => {
  const quantity = amount(row, "Quantity")
  const unitAmount = amount(row, "UnitAmount")
  const lineAmount = amount(row, "LineAmount")
  const taxAmount = amount(row, "TaxAmount", true)
  const flip = Money.isNegative(lineAmount) || (Money.isZero(lineAmount) && Money.isNegative(unitAmount))
  const tracking = trackingOf(row)
  return {
    description: cell(row, "Description"),
    itemCode: cell(row, "InventoryItemCode"),
    quantity: flip && Money.isNegative(quantity) ? Money.negate(quantity) : quantity,
    unitAmount: flip && !Money.isNegative(quantity) ? Money.negate(unitAmount) : unitAmount,
    discount: amount(row, "Discount", true),
    lineAmount: flip ? Money.negate(lineAmount) : lineAmount,
    accountCode: cell(row, "AccountCode"),
    taxType: cell(row, "TaxType"),
    taxAmount: flip ? Money.negate(taxAmount) : taxAmount,
    lineage: where(row),
    ...(tracking.length > 0 ? { tracking } : {})
  }
}

const creditOf = (side: CreditSide, origin: CreditOrigin, rows: ReadonlyArray<StagedRow>): SourceCredit => {
  const head = rows[0]!
  const status = required(head, "Status")
  const state = stateOf(status)
  if (state === undefined)
    throw new RowProblem(
      `Status ${JSON.stringify(status)} is not a Xero document status`,
      "check the export's Status column"
    )
  const total = abs(amount(head, "Total"))
  const paid = abs(amount(head, "InvoiceAmountPaid", true))
  const dueCell = cell(head, "InvoiceAmountDue")
  const remaining = dueCell === "" ? Money.sub(total, paid) : abs(amount(head, "InvoiceAmountDue"))
  if (Money.greaterThan(remaining, total) || Money.isNegative(remaining))
    throw new RowProblem(
      `InvoiceAmountDue ${Money.toFixed(remaining)} is not between zero and the Total ${Money.toFixed(total)}`,
      "export the credit again"
    )
  return {
    side,
    origin,
    number: origin === "credit-note" ? cell(head, "InvoiceNumber") : "",
    reference: cell(head, "Reference"),
    contactName: required(head, "ContactName"),
    date: date(head, "InvoiceDate"),
    currency: cell(head, "Currency").toUpperCase(),
    state,
    status,
    total,
    taxTotal: abs(amount(head, "TaxTotal", true)),
    used: Money.sub(total, remaining),
    remaining,
    lines: rows.map(lineOf),
    lineage: rows.map(where)
  }
}

/**
 * Where an invoice or bill row stood among an export's credit rows: it ends a run of unnumbered credit rows, so
 * a reader that hands its document rows elsewhere leaves this in their place.
 */
export const DOCUMENT_ROW: unique symbol = Symbol("document row")
const DOCUMENT: RowType = { _tag: "document" }

/**
 * The credits among the rows of one export (`fileSide`), whose document rows may be left out as
 * `DOCUMENT_ROW`; rows of unknown types are rejects.
 */
export const readCredits = (
  rows: ReadonlyArray<StagedRow | typeof DOCUMENT_ROW>,
  fileSide: CreditSide,
  issues: Array<Issue>
): Array<SourceCredit> => {
  const groups: Array<{ side: CreditSide; origin: CreditOrigin; key: string; rows: Array<StagedRow> }> = []
  const numbered = new Map<string, (typeof groups)[number]>()
  let last: (typeof groups)[number] | undefined
  for (const row of rows) {
    const t = row === DOCUMENT_ROW ? DOCUMENT : rowType(row, fileSide)
    if (t._tag === "document" || row === DOCUMENT_ROW) {
      last = undefined
      continue
    }
    if (t._tag === "unknown") {
      last = undefined
      issues.push({
        severity: "reject",
        lineage: [where(row)],
        what: `a "${t.type}" row`,
        why: "it is not a document type this migration reads (invoices, bills, credit notes, overpayments, prepayments)",
        fix: "export the sales invoices and bills again, or enter the document by hand after the load"
      })
      continue
    }
    const number = cell(row, "InvoiceNumber")
    if (t.origin === "credit-note" && number !== "") {
      const key = `${t.side}\u0000${number}\u0000${cell(row, "ContactName")}`
      const g = numbered.get(key)
      if (g) g.rows.push(row)
      else {
        const fresh = { ...t, key, rows: [row] }
        numbered.set(key, fresh)
        groups.push(fresh)
      }
      last = undefined
      continue
    }
    const key = [
      t.side,
      t.origin,
      ...["ContactName", "InvoiceDate", "Reference", "Currency", "Total"].map((k) => cell(row, k))
    ].join("\u0000")
    if (last && last.key === key) last.rows.push(row)
    else {
      last = { ...t, key, rows: [row] }
      groups.push(last)
    }
  }
  const byHead = new Map(groups.map((g) => [g.rows[0]!, g]))
  return readRows(
    groups.map((g) => g.rows[0]!),
    issues,
    (head) => {
      const g = byHead.get(head)!
      if (g.origin === "credit-note" && cell(head, "InvoiceNumber") === "")
        throw new RowProblem("a credit note without a number", "fill in InvoiceNumber in the export")
      return creditOf(g.side, g.origin, g.rows)
    }
  )
}
