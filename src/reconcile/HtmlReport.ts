/**
 * `report.html`: the accountant's printable sign-off page. A header (company, source system, conversion,
 * dates, plan hash), the verdict, the trial balance by class with totals, receivables and payables per
 * contact, clearing accounts, what was created, the exchange rates applied, and every difference with its
 * suggested fix and source rows. Names are as the source spells them; amounts are right-aligned with
 * thousands separators; a print stylesheet lays it out on A4.
 */
import * as Format from "./Format.js"
import { stylesheet } from "./ReportStyle.js"
import {
  classLabels,
  type AgedComparison,
  type Difference,
  type Reconciliation,
  type TrialBalanceComparison
} from "./Model.js"
import { diff, esc, num, td, th, trialBalanceTable } from "./HtmlCells.js"

export interface PageContext {
  readonly runId: string
  readonly baseUrl: string
  readonly sourceSystem: string
  readonly generatedAt: string
}

const rowsOf = (lineage: ReadonlyArray<string>) =>
  lineage.length === 0
    ? ""
    : `<span class="rows">${esc(lineage.slice(0, 6).join(", "))}${lineage.length > 6 ? ` … +${lineage.length - 6}` : ""}</span>`

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`
const differ = (n: number) => (n === 0 ? "all agree" : `${n} differ${n === 1 ? "s" : ""}`)

const verdictText: Record<Reconciliation["verdict"], string> = {
  MATCHES: "The target agrees with the source's own reports to the cent.",
  DIFFERENCES: "The target differs from the source: see the differences below.",
  "NOT PROVEN":
    "The documents agree with our reading of the source, but the source's own reports were not in the input: nothing was proved independently."
}

const header = (r: Reconciliation, ctx: PageContext) => {
  const facts: Array<[string, string]> = [
    ["Source system", ctx.sourceSystem],
    ["Conversion", r.header.conversion],
    ["Base currency", r.header.baseCurrency],
    ["Documents as at", r.header.asAt],
    ["Trial balance as at", r.header.trialBalanceDates.join(", ") || "not in the input"],
    ["Aged receivables as at", r.header.agedDates.AR.join(", ") || "not in the input"],
    ["Aged payables as at", r.header.agedDates.AP.join(", ") || "not in the input"],
    ["Target", ctx.baseUrl],
    ["Plan hash", r.header.planHash.slice(0, 16)],
    ["Run", ctx.runId],
    ["Generated", ctx.generatedAt]
  ]
  const n = r.differences.length
  return `<header>
<p class="eyebrow">Migration reconciliation · sign-off pack</p>
<h1>${esc(r.header.company || "Company")}</h1>
<dl class="facts">${facts.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd title="${esc(k === "Plan hash" ? r.header.planHash : v)}">${esc(v)}</dd></div>`).join("")}</dl>
<div class="verdict ${r.verdict === "MATCHES" ? "ok" : r.verdict === "DIFFERENCES" ? "bad" : "warn"}" id="verdict">
<strong>${esc(r.verdict)}</strong><span>${esc(verdictText[r.verdict])}${r.verdict === "DIFFERENCES" ? ` ${n} difference${n === 1 ? "" : "s"}.` : ""}</span>
</div>
${
  r.notProven.length === 0
    ? ""
    : `<div class="notice"><p><strong>The independent comparison could not be made for:</strong></p><ul>${r.notProven
        .map(
          (p) =>
            `<li>${esc(p.what)}: export ${esc(p.export)} and put it in the input folder, then extract and reconcile again.</li>`
        )
        .join(
          ""
        )}</ul><p>The document comparison below still ran; it compares the target with our own reading of the source documents, so it cannot see a row the migration dropped.</p></div>`
}
</header>`
}

const trialBalance = (t: TrialBalanceComparison) =>
  `<section class="tb"><h2>Trial balance as at ${esc(t.asAt)}</h2><p class="sub">Source: ${esc(t.file)} · target: its trial balance report at the same date${t.targetBalanced ? "" : " · <span class=bad>the target's debits and credits differ</span>"}</p>${trialBalanceTable(t, { account: "Account", side: "Target", missing: "(missing)" })}</section>`

const aged = (a: AgedComparison) => {
  const title = a.side === "AR" ? "Receivables" : "Payables"
  const rows = a.contacts
    .map((c) => {
      const docs =
        c.status === "ok"
          ? ""
          : c.documents
              .filter((d) => !Format.isZero(d.difference))
              .map(
                (d) =>
                  `<tr class="doc">${td("")}${td(`${d.reference}${d.number !== d.reference ? ` (${d.number})` : ""} · ${d.date}${d.dueDate ? `, due ${d.dueDate}` : ""}`)}${num(d.source)}${num(d.target)}${diff(d.difference)}<td>${rowsOf(d.lineage)}</td></tr>`
              )
              .join("")
      return `<tr class="${c.status === "ok" ? "" : "differs"}">${td(c.contact)}${td(c.currency, "code")}${num(c.source)}${num(c.target)}${diff(c.difference)}${td(c.status === "ok" ? "" : classLabels[c.status])}</tr>${docs}`
    })
    .join("")
  return `<section><h2>${title} as at ${esc(a.asAt)}</h2><p class="sub">Source: ${esc(a.file)} · ${a.perCurrency ? "per contact and currency" : "per contact, in base currency"} · target: its ${a.side} report and its open documents at that date</p>
<table class="grid"><thead><tr>${th("Contact")}${th("Currency")}${th("Source", "num")}${th("Target", "num")}${th("Difference", "num")}${th("")}</tr></thead><tbody>${rows}</tbody>
<tfoot><tr class="total">${td("Total")}<td></td>${num(a.totals.source)}${num(a.totals.target)}${diff(a.totals.difference)}<td></td></tr></tfoot></table></section>`
}

const simple = (
  head: ReadonlyArray<[string, string?]>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  numeric: ReadonlySet<number> = new Set()
) =>
  `<table class="grid"><thead><tr>${head.map(([h, c]) => th(h, c ?? "")).join("")}</tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => (numeric.has(i) ? `<td class="num">${esc(c)}</td>` : td(c))).join("")}</tr>`
    )
    .join("")}</tbody></table>`

const difference = (d: Difference, i: number) => `<article class="difference ${d.class}">
<h3><span class="n">${i + 1}</span> ${esc(classLabels[d.class])}: ${esc(d.subject)}</h3>
<p class="sub">${esc(d.area)} as at ${esc(d.asAt)} · source ${esc(Format.amount(d.source))} · target ${esc(Format.amount(d.target))}${d.difference ? ` · difference <strong>${esc(Format.amount(d.difference))}</strong>` : ""}</p>
<p class="fix"><strong>Suggested fix.</strong> ${esc(d.fix)}</p>
${
  d.candidates.length === 0
    ? ""
    : `<table class="grid candidates"><thead><tr>${th("")}${th("Transaction")}${th("Reference")}${th("Date")}${th("Source", "num")}${th("Target", "num")}${th("Source rows")}</tr></thead><tbody>${d.candidates
        .slice(0, 12)
        .map(
          (c) =>
            `<tr>${td(c.kind, `tag ${c.kind}`)}${td(c.entity)}${td(c.reference)}${td(c.date)}${num(c.source)}${num(c.target)}<td>${rowsOf(c.lineage)}</td></tr>`
        )
        .join(
          ""
        )}</tbody></table>${d.candidates.length > 12 ? `<p class="sub">… and ${d.candidates.length - 12} more in report.json.</p>` : ""}`
}
${d.lineage.length > 0 ? `<p class="sub">Source rows: ${rowsOf(d.lineage)}</p>` : ""}
</article>`

/** The whole page. */
export const render = (r: Reconciliation, ctx: PageContext): string => {
  const d = r.documents
  const checks: Array<Array<string>> = [
    ...r.trialBalances.map((t) => [
      `Trial balance as at ${t.asAt}`,
      count(
        t.sections.reduce((n, s) => n + s.rows.length, 0),
        "account"
      ),
      differ(t.sections.reduce((n, s) => n + s.rows.filter((x) => x.status !== "ok").length, 0))
    ]),
    ...r.aged.map((a) => [
      `${a.side === "AR" ? "Receivables" : "Payables"} as at ${a.asAt}`,
      count(a.contacts.length, "contact"),
      differ(a.contacts.filter((c) => c.status !== "ok").length)
    ]),
    ...r.notProven.map((p) => [p.what, "not in the input", "not proved"]),
    [
      "Documents and journals (our reading of the source)",
      d.counts.map((c) => `${c.target} ${c.entity}`).join(", "),
      differ(d.mismatches.length)
    ],
    [
      "Clearing accounts",
      r.clearing.length === 0 ? "none used" : `${r.clearing.length} used`,
      r.clearing.length === 0
        ? "–"
        : differ(r.differences.filter((x) => x.class === "clearing-not-zero").length)
    ],
    [
      "Target's own trial balance",
      `debits ${Format.amount(r.targetTrialBalance.debit)}, credits ${Format.amount(r.targetTrialBalance.credit)}`,
      r.targetTrialBalance.balanced ? "balanced" : "NOT balanced"
    ]
  ]
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reconciliation · ${esc(r.header.company)} · ${esc(r.verdict)}</title>
<style>${stylesheet}</style></head><body><main>
${header(r, ctx)}
<section><h2>Summary</h2>${simple([["Check"], ["Compared"], ["Result"]], checks)}</section>
${r.trialBalances.map(trialBalance).join("\n")}
${r.aged.map(aged).join("\n")}
<section><h2>Documents</h2><p class="sub">The target's documents and journals against our own reading of the source exports, as at ${esc(d.asAt)}.</p>
${simple(
  [["Records"], ["Source", "num"], ["Target", "num"], ["Matched", "num"]],
  d.counts.map((c) => [c.entity, String(c.source), String(c.target), String(c.matched)]),
  new Set([1, 2, 3])
)}</section>
<section><h2>Clearing and suspense accounts</h2>${
    r.clearing.length === 0
      ? `<p>None used: this ${esc(r.header.conversion.toLowerCase())} migration posts nothing through clearing or suspense accounts.</p>`
      : simple(
          [["Account"], ["As at"], ["Balance", "num"]],
          r.clearing.flatMap((c) => c.balances.map((b) => [c.account, b.asAt, Format.amount(b.balance)])),
          new Set([2])
        )
  }</section>
<section><h2>Records created</h2>${simple(
    [
      ["Kind"],
      ["Planned", "num"],
      ["Created", "num"],
      ["Already there", "num"],
      ["Refused", "num"],
      ["Not done", "num"]
    ],
    r.entities.map((e) => [
      e.kind,
      String(e.planned),
      String(e.created),
      String(e.adopted),
      String(e.rejected),
      String(e.notDone)
    ]),
    new Set([1, 2, 3, 4, 5])
  )}</section>
<section><h2>Exchange rates applied</h2>${
    r.rates.length === 0
      ? "<p>None: every document is in the base currency, or the target had the rates already.</p>"
      : simple(
          [
            ["Currency"],
            ["From"],
            ["To"],
            [`${r.header.baseCurrency} per unit (source)`, "num"],
            [`Units per ${r.header.baseCurrency} (target)`, "num"],
            ["Status"]
          ],
          r.rates.map((x) => [x.currency, x.from, x.to, x.sourceBasePerUnit, x.targetRate, x.status]),
          new Set([3, 4])
        )
  }</section>
<section><h2>Differences (${r.differences.length})</h2>${
    r.differences.length === 0 ? `<p class="ok">None.</p>` : r.differences.map(difference).join("\n")
  }</section>
${r.notes.length > 0 ? `<section><h2>Notes</h2><ul>${r.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul></section>` : ""}
<div class="signoff"><div>Prepared by</div><div>Reviewed by</div><div>Date</div></div>
<footer>Amounts in ${esc(r.header.baseCurrency)} unless a currency is shown. Debits and credits as the source's trial balance shows them; difference = target − source. Zero tolerance: one cent is a difference. The complete figures are in report.json and report.xlsx beside this page.</footer>
</main></body></html>
`
}
