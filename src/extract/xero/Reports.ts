/**
 * Xero's other grouped reports: the Trial Balance (sections Revenue, Expenses, Assets… carried down as
 * `Section`, its grand `Total` row staged too) and the Aged Receivables / Payables Detail (contact headings
 * carried down as `Contact`, `Total <contact>` rows, the grand `Total` and the `Percentage of total` row),
 * told apart by their title. Each is as at the date of its title rows, staged on every row as `As At`.
 */
import * as GroupedReport from "../GroupedReport.js"
import type * as P from "../Profile.js"
import { cell } from "../SourceRecord.js"
import * as Table from "../Table.js"

/** The Trial Balance report: `Account,Debit,Credit,YTD Debit,YTD Credit` (account as "Name (Code)"). */
export const trialBalance: GroupedReport.GroupedLayout = {
  kind: "xero.trial_balance",
  title: /^trial balance\b/i,
  required: ["Account", "Debit", "Credit"],
  known: ["YTD Debit", "YTD Credit", "Account Code", "Account Type"],
  carry: "Section",
  amounts: ["Debit", "Credit", "YTD Debit", "YTD Credit"],
  needsHeading: false,
  dated: true,
  stagesGrandTotal: true
}

const AGING = ["< 1 Month", "1 Month", "2 Months", "3 Months", "Older", "Total"]

const aged = (kind: string, title: RegExp): GroupedReport.GroupedLayout => ({
  kind,
  title,
  required: ["Invoice Date", "Due Date", "Total"],
  known: ["Expected Date", "Invoice Number", "Invoice Reference", ...AGING, "Outstanding Tax", "Current"],
  carry: "Contact",
  amounts: AGING,
  needsHeading: true,
  skips: [[/^ageing by\b|^aging by\b/i, "title"]],
  dated: true
})

/** Aged Receivables Detail. */
export const agedReceivables = aged("xero.aged_receivables", /^aged receivables\b/i)
/** Aged Payables Detail (may lack the invoice number column). */
export const agedPayables = aged("xero.aged_payables", /^aged payables\b/i)

/** Aged Receivables or Payables Detail: one header, the title row decides; no title → both (ambiguous). */
export const agedProfile: P.Profile = {
  kinds: [agedReceivables.kind, agedPayables.kind],
  expects: `title "Aged Receivables Detail" or "Aged Payables Detail", then ${agedReceivables.required.join(", ")}`,
  recognise: (head, file) => {
    const match = Table.findHeader(head, agedReceivables.required, agedReceivables.known)
    if (match === undefined) return []
    const titles = head.slice(0, match.index).map((r) => cell(r.cells, 0))
    const headerCells = head[match.index]!.cells
    const claim = (layout: GroupedReport.GroupedLayout): P.Recognition => {
      const titled = titles.some((t) => layout.title.test(t))
      return {
        kind: layout.kind,
        confidence: titled ? 1 : match.coverage * 0.85,
        evidence: `${titled ? "title and " : "no title; "}header on line ${head[match.index]!.line}`,
        reader: () => GroupedReport.reader(layout, file, match.index, headerCells)
      }
    }
    const claims = [claim(agedReceivables), claim(agedPayables)]
    const titled = claims.filter((c) => c.confidence === 1)
    return titled.length > 0 ? titled : claims
  }
}

/** The report profiles besides Account Transactions. */
export const profiles: ReadonlyArray<P.Profile> = [GroupedReport.profile(trialBalance), agedProfile]
