/**
 * The optional credit allocations file: `Credit Note Number,Document Number,Amount`, one application of a
 * credit to an invoice or bill per line (amount in the document's currency). Exports such as Xero's do not
 * say which document a credit was applied to; this file states it where the plan's inference should not
 * decide. An overpayment or prepayment (no number) is named by its migration reference (`MIG-OVP-…`).
 */
import * as Table from "../Table.js"

/** Credit allocations, staged as `generic.credit_allocations`. */
export const profile = Table.profile({
  kind: "generic.credit_allocations",
  required: ["Credit Note Number", "Document Number", "Amount"],
  known: ["Date", "Note"]
})
