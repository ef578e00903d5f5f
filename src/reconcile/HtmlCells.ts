/**
 * The HTML pieces the reconciliation report and the plan's preview share: escaped cells, amounts as the report
 * formats them, and the trial balance table of a source's TB beside the target's (or the projected) figures.
 */
import * as Format from "./Format.js"
import type { TrialBalanceComparison } from "./Model.js"

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
export const num = (s: string) => `<td class="num">${esc(Format.amount(s))}</td>`
export const col = (s: string) => `<td class="num">${esc(Format.column(s))}</td>`
export const diff = (s: string) =>
  Format.isZero(s) ? `<td class="num zero">–</td>` : `<td class="num bad">${esc(Format.amount(s))}</td>`
export const td = (s: string, cls = "") => `<td${cls ? ` class="${cls}"` : ""}>${esc(s)}</td>`
export const th = (s: string, cls = "") => `<th${cls ? ` class="${cls}"` : ""}>${esc(s)}</th>`

/**
 * The source's trial balance account by account beside the other side's: `side` names that side's columns
 * ("Target", "Projected"), `missing` what a source account without a target account shows.
 */
export const trialBalanceTable = (
  t: TrialBalanceComparison,
  labels: { readonly account: string; readonly side: string; readonly missing: string }
) => {
  const head = `<thead><tr>${th("Code")}${th(labels.account)}${th("Target account")}${th("Source debit", "num")}${th("Source credit", "num")}${th(`${labels.side} debit`, "num")}${th(`${labels.side} credit`, "num")}${th("Difference", "num")}</tr></thead>`
  const body = t.sections
    .map(
      (s) =>
        `<tbody><tr class="section"><th colspan="8">${esc(s.name)}</th></tr>${s.rows
          .map((r) => {
            const names = r.sourceAccounts.map((a) => a.name).join(" + ") || "(not in the source)"
            const codes = r.sourceAccounts
              .map((a) => a.code)
              .filter((c) => c !== "")
              .join(", ")
            return `<tr class="${r.status === "ok" ? "" : "differs"}" data-account="${esc(names)}">${td(codes, "code")}${td(names)}${td(r.targetAccount ?? labels.missing, r.targetAccount ? "muted" : "bad")}${col(r.sourceDebit)}${col(r.sourceCredit)}${col(r.targetDebit)}${col(r.targetCredit)}${diff(r.difference)}</tr>`
          })
          .join(
            ""
          )}<tr class="subtotal"><td></td>${td(`Total ${s.name}`)}<td></td>${col(s.totals.sourceDebit)}${col(s.totals.sourceCredit)}${col(s.totals.targetDebit)}${col(s.totals.targetCredit)}${diff(s.totals.difference)}</tr></tbody>`
    )
    .join("")
  const foot = `<tfoot><tr class="total"><td></td>${td("Total")}<td></td>${num(t.totals.sourceDebit)}${num(t.totals.sourceCredit)}${num(t.totals.targetDebit)}${num(t.totals.targetCredit)}${diff(t.totals.difference)}</tr></tfoot>`
  return `<table class="grid">${head}${body}${foot}</table>`
}
