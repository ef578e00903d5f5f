/**
 * Xero's import templates for sales invoices (29 columns, or 27 in the older one without `Total` and
 * `TaxAmount`) and bills. They carry no `Type`: the sales template has `Reference`/`BrandingTheme`, the bill
 * template has neither. An export (with `Type`, `Status`) is never taken for a template.
 */
import * as Headers from "../Headers.js"
import type * as P from "../Profile.js"
import * as Table from "../Table.js"

const PO = ["POAddressLine1", "POAddressLine2", "POAddressLine3", "POAddressLine4", "POCity", "PORegion"]
const TRACKING = ["TrackingName1", "TrackingOption1", "TrackingName2", "TrackingOption2"]
const REQUIRED = [
  "ContactName",
  "InvoiceNumber",
  "InvoiceDate",
  "DueDate",
  "Quantity",
  "UnitAmount",
  "AccountCode"
]
const KNOWN = [
  "EmailAddress",
  ...PO,
  "POPostalCode",
  "POCountry",
  "Reference",
  "Total",
  "InventoryItemCode",
  "Description",
  "Discount",
  "TaxType",
  "TaxAmount",
  ...TRACKING,
  "Currency",
  "BrandingTheme"
]
const EXPORT_ONLY = ["type", "status", "sent", "invoiceamountdue"]
const SALES_ONLY = ["reference", "brandingtheme"]

/** The kinds: sales invoice template and bill template. */
export const SALES = "xero.invoice_template"
export const BILLS = "xero.bill_template"

/** Recognises either template by its header; `Reference`/`BrandingTheme` make it the sales one. */
export const profile: P.Profile = {
  kinds: [SALES, BILLS],
  expects: `a header row with ${REQUIRED.join(", ")} and no Type/Status columns`,
  recognise: (head, file) => {
    const match = Table.findHeader(head, REQUIRED, KNOWN)
    if (match === undefined) return []
    const headerCells = head[match.index]!.cells
    const folded = new Set(headerCells.map(Headers.fold))
    if (EXPORT_ONLY.some((h) => folded.has(h))) return []
    const sales = SALES_ONLY.some((h) => folded.has(h))
    return [
      {
        kind: sales ? SALES : BILLS,
        confidence: match.coverage,
        evidence: `${headerCells.length} columns, ${sales ? "with" : "without"} Reference/BrandingTheme`,
        reader: () => Table.reader(file, match.index, headerCells)
      }
    ]
  }
}
