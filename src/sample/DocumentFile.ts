/**
 * Writes sales invoices or bills in Xero's invoice export layout (`SalesInvoices.csv`, `Bills.csv`): one
 * row per line with every document field repeated on each row.
 */
import * as BigDecimalOps from "effect/BigDecimal"
import type { Address } from "./Addresses.js"
import * as CalendarDate from "./CalendarDate.js"
import { CsvFile } from "./CsvFile.js"
import type { Document } from "./Documents.js"
import * as Money from "./Money.js"
import * as Settlement from "./Settlement.js"

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

/** Xero's "Sent" flag: approved invoices were e-mailed, drafts were not; bills leave it blank. */
const sentOf = (doc: Document): string =>
  doc.kind === "bill" ? "" : doc.state === "draft" ? "Not Sent" : "Sent"

/** A documents file being written. */
export class DocumentFile {
  private readonly file: CsvFile

  constructor(path: string) {
    this.file = new CsvFile(path)
    this.file.row(HEADER)
  }

  /** Appends one document's rows. */
  add(doc: Document): void {
    const head = [
      doc.contact.name,
      doc.contact.email,
      ...addressCells(doc.contact.postal),
      ...addressCells(doc.contact.street),
      doc.number,
      doc.reference,
      CalendarDate.format(doc.day),
      CalendarDate.format(doc.dueDay),
      "",
      Money.format2(doc.total),
      Money.format2(doc.taxTotal),
      Money.format2(doc.amountPaid),
      Money.format2(BigDecimalOps.subtract(doc.total, doc.amountPaid))
    ]
    const tail = [
      doc.currency,
      doc.kind === "invoice" ? "Sales invoice" : "Bill",
      sentOf(doc),
      Settlement.statusOf(doc.state)
    ]
    for (const line of doc.lines) {
      this.file.row([
        ...head,
        line.itemCode,
        line.description,
        Money.formatQuantity(line.quantity),
        Money.format2(line.unitAmount),
        "",
        Money.format2(line.lineAmount),
        line.accountCode,
        line.taxType,
        Money.format2(line.taxAmount),
        "",
        "",
        "",
        "",
        ...tail
      ])
    }
  }

  /** Closes the file; returns the number of line rows written. */
  close(): number {
    return this.file.close() - 1
  }
}
