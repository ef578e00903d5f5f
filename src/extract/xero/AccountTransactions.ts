/**
 * Xero's Account Transactions (General Ledger) report: title rows, the column header, then per account a
 * heading row (the account's name alone), an `Opening Balance` row, detail rows, and a `Total <account>`
 * row. Detail rows are staged with the heading carried down as `Account`; totals are checked on Debit/Credit.
 */
import * as GroupedReport from "../GroupedReport.js"

/** The layout of the report. */
export const layout: GroupedReport.GroupedLayout = {
  kind: "xero.account_transactions",
  title: /^(account transactions|general ledger)\b/i,
  required: ["Date", "Source", "Description", "Debit", "Credit", "Running Balance"],
  known: ["Reference", "Gross", "Tax", "Account Code", "Account", "Net", "Tax Rate", "Contact"],
  carry: "Account",
  amounts: ["Debit", "Credit"],
  needsHeading: true
}

/** Recognised by its column header; a title row `Account Transactions`/`General Ledger` above it makes it sure. */
export const profile = GroupedReport.profile(layout)
