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
import {
  amount,
  attempt,
  cell,
  date,
  required,
  rowReject,
  RowProblem,
  share,
  trackingOf
} from "./StagedCells.js"

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
    description: share(cell(row, "Description")),
    itemCode: share(cell(row, "InventoryItemCode")),
    quantity: flip && Money.isNegative(quantity) ? Money.negate(quantity) : quantity,
    unitAmount: flip && !Money.isNegative(quantity) ? Money.negate(unitAmount) : unitAmount,
    discount: amount(row, "Discount", true),
    lineAmount: flip ? Money.negate(lineAmount) : lineAmount,
    accountCode: share(cell(row, "AccountCode")),
    taxType: share(cell(row, "TaxType")),
    taxAmount: flip ? Money.negate(taxAmount) : taxAmount,
    lineage: where(row),
    ...(tracking.length > 0 ? { tracking } : {})
  }
}

/** A credit's own fields, read from its first row: all of it but its lines and lineage. */
type CreditHead = Omit<SourceCredit, "lines" | "lineage">

const creditHead = (side: CreditSide, origin: CreditOrigin, head: StagedRow): CreditHead => {
  if (origin === "credit-note" && cell(head, "InvoiceNumber") === "")
    throw new RowProblem("a credit note without a number", "fill in InvoiceNumber in the export")
  const status = share(required(head, "Status"))
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
    contactName: share(required(head, "ContactName")),
    date: date(head, "InvoiceDate"),
    currency: share(cell(head, "Currency").toUpperCase()),
    state,
    status,
    total,
    taxTotal: abs(amount(head, "TaxTotal", true)),
    used: Money.sub(total, remaining),
    remaining
  }
}

/**
 * A credit of its head, lines and lineage, written out: spread from its head (`{ ...head, lines, lineage }`),
 * each credit had a hidden class of its own (3,049 for 3,074 credits at 20,000 invoices, 2.3 MB in a heap
 * snapshot of the books kept).
 */
const creditOf = (
  h: CreditHead,
  lines: ReadonlyArray<SourceLine>,
  lineage: ReadonlyArray<string>
): SourceCredit => ({
  side: h.side,
  origin: h.origin,
  number: h.number,
  reference: h.reference,
  contactName: h.contactName,
  date: h.date,
  currency: h.currency,
  state: h.state,
  status: h.status,
  total: h.total,
  taxTotal: h.taxTotal,
  used: h.used,
  remaining: h.remaining,
  lines,
  lineage
})

/**
 * A credit as its rows stream past: its head read from its first row, its lines as they come, or the first
 * problem of either (the head's first: a credit is rejected at its first row, as one with the head's problem
 * when both have one).
 */
interface CreditGroup {
  readonly key: string
  readonly first: string
  readonly head: CreditHead | RowProblem
  readonly lines: Array<SourceLine>
  readonly lineage: Array<string>
  problem: RowProblem | undefined
}

/**
 * The credits among the rows of one export (`fileSide`) as they stream past (`add`), a document row in their
 * midst told by `document`: a credit note's rows grouped by number and contact, an overpayment's or
 * prepayment's by consecutive rows with the same type, contact, date, reference, currency and total (a
 * document row ends such a run). Each row is read when it comes, so that no row is held: at 20,000 invoices
 * the credits' rows were 14.7 MB held to the end of the read. Rows of unknown types are rejects, told before
 * the credits' own, as the rows came.
 */
export class CreditRows {
  private readonly groups: Array<CreditGroup> = []
  private readonly numbered = new Map<string, CreditGroup>()
  private last: CreditGroup | undefined
  private readonly unknown: Array<Issue> = []

  constructor(readonly fileSide: CreditSide) {}

  /** An invoice or bill row of the export: it ends a run of unnumbered credit rows. */
  readonly document = (): void => {
    this.last = undefined
  }

  readonly add = (row: StagedRow): void => {
    const t = rowType(row, this.fileSide)
    if (t._tag === "document") return this.document()
    if (t._tag === "unknown") {
      this.last = undefined
      this.unknown.push({
        severity: "reject",
        lineage: [where(row)],
        what: `a "${t.type}" row`,
        why: "it is not a document type this migration reads (invoices, bills, credit notes, overpayments, prepayments)",
        fix: "export the sales invoices and bills again, or enter the document by hand after the load"
      })
      return
    }
    const number = cell(row, "InvoiceNumber")
    const numbered = t.origin === "credit-note" && number !== ""
    const key = numbered
      ? `${t.side}\u0000${number}\u0000${cell(row, "ContactName")}`
      : [
          t.side,
          t.origin,
          ...["ContactName", "InvoiceDate", "Reference", "Currency", "Total"].map((k) => cell(row, k))
        ].join("\u0000")
    let group = numbered ? this.numbered.get(key) : this.last?.key === key ? this.last : undefined
    if (group === undefined) {
      group = {
        key,
        first: where(row),
        head: attempt(() => creditHead(t.side, t.origin, row)),
        lines: [],
        lineage: [],
        problem: undefined
      }
      this.groups.push(group)
      if (numbered) this.numbered.set(key, group)
    }
    this.last = numbered ? undefined : group
    group.lineage.push(where(row))
    if (group.problem === undefined) {
      const line = attempt(() => lineOf(row))
      if (line instanceof RowProblem) group.problem = line
      else group.lines.push(line)
    }
  }

  /** The credits met and not yet taken by `credits`. */
  get pending(): number {
    return this.groups.length
  }

  /**
   * The credits read, in the order first met, and the issues of unknown rows, then of credits that cannot be
   * read; taken: the reader is left empty.
   */
  credits(issues: Array<Issue>): Array<SourceCredit> {
    issues.push(...this.unknown.splice(0))
    this.numbered.clear()
    this.last = undefined
    const out: Array<SourceCredit> = []
    for (const { head, problem, first, lines, lineage } of this.groups.splice(0)) {
      if (head instanceof RowProblem || problem !== undefined) {
        issues.push(rowReject(first, head instanceof RowProblem ? head : problem!))
        continue
      }
      // Copied to their length: grown a push at a time, each array had room for 17 (as a document's lines).
      out.push(creditOf(head, lines.slice(), lineage.slice()))
    }
    return out
  }
}
