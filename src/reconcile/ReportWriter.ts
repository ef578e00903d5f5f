/**
 * Writes the sign-off pack into a run's directory: `report.json` (everything, for machines, with `matches`),
 * `report.html` (the printable page) and `report.xlsx` (the workbook); and renders the console summary.
 */
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import * as JsonFile from "../JsonFile.js"
import * as Format from "./Format.js"
import * as HtmlReport from "./HtmlReport.js"
import { classLabels, type Reconciliation } from "./Model.js"
import * as XlsxReport from "./XlsxReport.js"

/** Where the pack comes from: the run, the target, the source system, when it was made. */
export type ReportContext = HtmlReport.PageContext

/** Writes the three files into `dir`; returns their paths. */
export const write = async (dir: string, r: Reconciliation, ctx: ReportContext) => {
  await NodeFs.mkdir(dir, { recursive: true })
  const json = NodePath.join(dir, "report.json")
  const html = NodePath.join(dir, "report.html")
  const xlsx = NodePath.join(dir, "report.xlsx")
  await JsonFile.writeIndented(json, { ...ctx, ...r })
  await NodeFs.writeFile(html, HtmlReport.render(r, ctx))
  await XlsxReport.write(xlsx, r, ctx)
  return { json, html, xlsx }
}

/** A few lines for the terminal. */
export const summary = (r: Reconciliation): string => {
  const width = Math.max(18, ...r.documents.counts.map((c) => c.entity.length))
  const label = (text: string) => text.padEnd(width)
  const clearing = r.clearing.map((c) => {
    const last = c.balances[c.balances.length - 1]
    return last === undefined ? c.account : `${c.account} ${Format.amount(last.balance)} at ${last.asAt}`
  })
  return [
    `Reconciliation: ${r.verdict}${r.differences.length > 0 ? ` (${r.differences.length} differences)` : ""}`,
    ...r.notProven.map(
      (p) => `  ! not proved: ${p.what}. Export ${p.export}, then extract and reconcile again.`
    ),
    ...r.trialBalances.map(
      (t) =>
        `  trial balance at ${t.asAt}: ${t.sections.reduce((n, s) => n + s.rows.length, 0)} accounts, total difference ${Format.amount(t.totals.difference)}`
    ),
    ...r.aged.map(
      (a) =>
        `  ${a.side} at ${a.asAt}: ${a.contacts.length} contacts, difference ${Format.amount(a.totals.difference)}`
    ),
    ...r.documents.counts.map(
      (c) =>
        `  ${label(c.entity)} source ${String(c.source).padStart(6)}  target ${String(c.target).padStart(6)}  matched ${String(c.matched).padStart(6)}`
    ),
    `  ${label("clearing accounts")} ${clearing.length === 0 ? "none used" : clearing.join(", ")}`,
    `  ${label("target's own TB")} debits ${Format.amount(r.targetTrialBalance.debit)} credits ${Format.amount(r.targetTrialBalance.credit)} ${r.targetTrialBalance.balanced ? "(balanced)" : "(NOT balanced)"}`,
    ...r.differences
      .slice(0, 10)
      .map(
        (d) =>
          `  ✗ ${classLabels[d.class]}: ${d.subject} (${d.area} at ${d.asAt}) source ${Format.amount(d.source)}, target ${Format.amount(d.target)}${d.candidates[0] ? `; e.g. ${d.candidates[0].kind} ${d.candidates[0].reference}` : ""}${d.lineage[0] ? ` [${d.lineage[0]}]` : ""}`
      ),
    ...(r.differences.length > 10 ? [`  … ${r.differences.length - 10} more in the report`] : [])
  ].join("\n")
}
