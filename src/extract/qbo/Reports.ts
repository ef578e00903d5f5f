/**
 * QuickBooks Online grouped reports: General Ledger / Transaction Detail by Account (account headings carried
 * as `Account`), Trial Balance (row labels in the blank-headed first column, as `Account Name`), A/R and A/P
 * Aging Detail (aging buckets carried as `Aging`) and Unpaid Bills (vendors carried as `Vendor`). Every report
 * has a company/title/period preamble, `Total for X` rows, a final `TOTAL`, and one of the two footers. The
 * Trial Balance and the aging details are as at the date of their preamble (`As of December 31, 2025`), staged
 * on every row as `As At`; Unpaid Bills is not dated ("All Dates").
 */
import * as GroupedReport from "../GroupedReport.js"
import type * as P from "../Profile.js"
import * as Footer from "./Footer.js"

const report = (layout: Omit<GroupedReport.GroupedLayout, "skips">): P.Profile =>
  GroupedReport.profile({ ...layout, skips: Footer.skips })

/** The report profiles. */
export const profiles: ReadonlyArray<P.Profile> = [
  report({
    kind: "qbo.general_ledger",
    title: /^(general ledger|transaction detail by account)\b/i,
    required: ["Date", "Transaction Type", "Num", "Split", "Amount"],
    known: ["Name", "Memo/Description", "Balance", "Debit", "Credit", "Account"],
    labelKey: "Account",
    carry: "Account",
    amounts: ["Amount"],
    needsHeading: true
  }),
  report({
    kind: "qbo.trial_balance",
    title: /^trial balance\b/i,
    required: ["Debit", "Credit"],
    known: ["Account Name", "Account"],
    labelKey: "Account Name",
    carry: "Section",
    amounts: ["Debit", "Credit"],
    needsHeading: false,
    dated: true
  }),
  report({
    kind: "qbo.ar_aging_detail",
    title: /^a\/r aging detail\b/i,
    required: ["Date", "Transaction Type", "Num", "Due Date", "Open Balance"],
    known: ["Customer", "Amount", "Past Due", "Memo/Description", "Terms"],
    labelKey: "Aging",
    carry: "Aging",
    amounts: ["Amount", "Open Balance"],
    needsHeading: true,
    dated: true
  }),
  report({
    kind: "qbo.ap_aging_detail",
    title: /^a\/p aging detail\b/i,
    required: ["Date", "Transaction Type", "Num", "Vendor", "Due Date", "Open Balance"],
    known: ["Amount", "Past Due", "Memo/Description", "Terms"],
    labelKey: "Aging",
    carry: "Aging",
    amounts: ["Amount", "Open Balance"],
    needsHeading: true,
    dated: true
  }),
  report({
    kind: "qbo.unpaid_bills",
    title: /^unpaid bills\b/i,
    required: ["Date", "Transaction type", "Num", "Due date", "Open balance"],
    known: ["Past due", "Amount"],
    labelKey: "Vendor",
    carry: "Vendor",
    amounts: ["Amount", "Open balance"],
    needsHeading: true
  })
]
