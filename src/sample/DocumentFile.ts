/**
 * Writes sales invoices or bills in Xero's invoice export layout (`SalesInvoices.csv`, `Bills.csv`): one
 * row per line with every document field repeated on each row, the credits of the same side (credit notes,
 * overpayments, prepayments) among them, told apart by `Type`; line discounts as a percentage and tracking
 * options in their columns.
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as BigDecimalOps from "effect/BigDecimal"
import type { Address } from "./Addresses.js"
import * as CalendarDate from "./CalendarDate.js"
import type { Contact } from "./Contacts.js"
import type { Credit } from "./Credits.js"
import { CsvFile } from "./CsvFile.js"
import type { Document } from "./Documents.js"
import type { Line } from "./Lines.js"
import * as Money from "./Money.js"
import * as Settlement from "./Settlement.js"
import * as Tracking from "./Tracking.js"

const address = (prefix: "PO" | "SA"): Array<string> => [
  ...[1, 2, 3, 4].map((n) => `${prefix}AddressLine${n}`),
  `${prefix}City`,
  `${prefix}Region`,
  `${prefix}PostalCode`,
  `${prefix}Country`
]

/** The header of Xero's sales invoice and bill exports. */
export const HEADER: ReadonlyArray<string> = [
  "ContactName",
  "EmailAddress",
  ...address("PO"),
  ...address("SA"),
  ...["InvoiceNumber", "Reference", "InvoiceDate", "DueDate", "PlannedDate"],
  ...["Total", "TaxTotal", "InvoiceAmountPaid", "InvoiceAmountDue"],
  ...["InventoryItemCode", "Description", "Quantity", "UnitAmount", "Discount", "LineAmount"],
  ...["AccountCode", "TaxType", "TaxAmount"],
  ...["TrackingName1", "TrackingOption1", "TrackingName2", "TrackingOption2"],
  ...["Currency", "Type", "Sent", "Status"]
]

const addressCells = (a: Address | undefined): Array<string> =>
  a === undefined
    ? ["", "", "", "", "", "", "", ""]
    : [a.line1, a.line2, a.line3, a.line4, a.city, a.region, a.postalCode, a.countryName]

/** Xero's "Sent" flag: approved invoices were e-mailed, drafts were not; bills and credits leave it blank. */
const sentOf = (doc: Document): string =>
  doc.kind === "bill" ? "" : doc.state === "draft" ? "Not Sent" : "Sent"

/** Xero's `Type` of a credit. */
const TYPES: Readonly<Record<Credit["origin"], readonly [string, string]>> = {
  "credit-note": ["Sales credit note", "Bill credit note"],
  overpayment: ["Sales overpayment", "Bill overpayment"],
  prepayment: ["Sales prepayment", "Bill prepayment"]
}

/** The document fields a row repeats. */
interface Head {
  readonly contact: Contact
  readonly number: string
  readonly reference: string
  readonly day: CalendarDate.Day
  readonly dueDay: CalendarDate.Day | undefined
  /** Total, TaxTotal, InvoiceAmountPaid, InvoiceAmountDue, as written. */
  readonly amounts: readonly [string, string, string, string]
  readonly currency: string
  readonly type: string
  readonly sent: string
  readonly status: string
}

/** A documents file being written. */
export class DocumentFile {
  private readonly file: CsvFile
  private lines = 0
  private discounted = 0
  private tracked = 0

  constructor(path: string) {
    this.file = new CsvFile(path)
    this.file.row(HEADER)
  }

  /** Appends one document's rows. */
  add(doc: Document): void {
    this.rows(
      {
        ...doc,
        amounts: [
          doc.total,
          doc.taxTotal,
          doc.amountPaid,
          BigDecimalOps.subtract(doc.total, doc.amountPaid)
        ].map(Money.format2) as [string, string, string, string],
        type: doc.kind === "invoice" ? "Sales invoice" : "Bill",
        sent: sentOf(doc),
        status: Settlement.statusOf(doc.state)
      },
      doc.lines
    )
  }

  /**
   * Appends one credit's rows: a credit note's totals negative (as Xero exports them), an overpayment's or
   * prepayment's positive; InvoiceAmountPaid is what was allocated or refunded, InvoiceAmountDue the rest.
   */
  addCredit(c: Credit): void {
    const sign = c.origin === "credit-note" ? BigDecimalOps.negate : (x: BigDecimal.BigDecimal) => x
    const used = c.voided ? Money.zero : c.used
    const due = BigDecimalOps.subtract(c.total, used)
    this.rows(
      {
        ...c,
        dueDay: undefined,
        amounts: [c.total, c.taxTotal, used, due].map((x) => Money.format2(sign(x))) as [
          string,
          string,
          string,
          string
        ],
        type: TYPES[c.origin][c.kind === "invoice" ? 0 : 1],
        sent: "",
        status: c.voided ? "Voided" : BigDecimalOps.isZero(due) ? "Paid" : "Awaiting Payment"
      },
      c.lines
    )
  }

  private rows(h: Head, lines: ReadonlyArray<Line>): void {
    const head = [
      h.contact.name,
      h.contact.email,
      ...addressCells(h.contact.postal),
      ...addressCells(h.contact.street),
      h.number,
      h.reference,
      CalendarDate.format(h.day),
      h.dueDay === undefined ? "" : CalendarDate.format(h.dueDay),
      "",
      ...h.amounts
    ]
    const tail = [h.currency, h.type, h.sent, h.status]
    for (const line of lines) {
      this.lines++
      if (line.discount !== undefined) this.discounted++
      if (line.tracking.length > 0) this.tracked++
      this.file.row([
        ...head,
        line.itemCode,
        line.description,
        Money.formatQuantity(line.quantity),
        Money.format2(line.unitAmount),
        line.discount === undefined ? "" : Money.formatQuantity(line.discount),
        Money.format2(line.lineAmount),
        line.accountCode,
        line.taxType,
        Money.format2(line.taxAmount),
        ...Tracking.cells(line.tracking),
        ...tail
      ])
    }
  }

  /** Closes the file; returns the line rows written, and how many were discounted and tracked. */
  close(): { readonly rows: number; readonly discounted: number; readonly tracked: number } {
    this.file.close()
    return { rows: this.lines, discounted: this.discounted, tracked: this.tracked }
  }
}
