/**
 * `plan.html`: the printable page a plan is signed off on before any write. A header (company, source
 * system, conversion, base currency, plan hash), what each phase will create and what it finds in the target
 * already, the projected trial balance by class with totals, the projection beside the source's own Trial
 * Balance at the same date, the issues grouped by what to do, and the first operations of each phase with
 * their key fields (all of them are in plan.xlsx). The page stays bounded for a plan of any size: at most
 * `perPhase` operations per phase and `perIssueGroup` issues per group are listed, with a note of the rest.
 * Same stylesheet and escaping as the reconciliation's sign-off page.
 */
import type { TrialBalanceComparison } from "../reconcile/Model.js"
import { stylesheet } from "../reconcile/ReportStyle.js"
import { phases } from "../transform/Plan.js"
import type { Preview, PreviewDoc } from "./Preview.js"
import { col, esc, num, td, th, trialBalanceTable } from "../reconcile/HtmlCells.js"

const rowsOf = (lineage: ReadonlyArray<string>) =>
  lineage.length === 0
    ? ""
    : `<span class="rows">${esc(lineage.slice(0, 4).join(", "))}${lineage.length > 4 ? ` … +${lineage.length - 4}` : ""}</span>`
const plural = (n: number, noun: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? noun : noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`}`
const intCell = (n: number) =>
  `<td class="num${n === 0 ? " zero" : ""}">${n === 0 ? "–" : n.toLocaleString("en-US")}</td>`

const outcomeLabel: Record<PreviewDoc["outcome"], string> = {
  created: "create",
  adopted: "already in the target",
  refused: "REFUSED by the target's copy",
  skipped: "skipped (a dependency fails)",
  "not projected": "not projected"
}

const header = (p: Preview) => {
  const h = p.header
  const facts: Array<[string, string]> = [
    ["Source system", h.sourceSystem],
    ["Conversion", h.conversion],
    ["Base currency", h.baseCurrency],
    ["Operations", h.operations.toLocaleString("en-US")],
    ["Trial balance as at", p.comparisons.map((c) => c.asAt).join(", ") || "not in the input"],
    ["Plan hash", h.planHash.slice(0, 16)],
    ["Generated", h.generatedAt]
  ]
  const rejects = p.issues.filter((g) => g.severity === "reject").reduce((n, g) => n + g.issues.length, 0)
  const refused = p.kinds.reduce((n, k) => n + k.refused + k.skipped, 0)
  const diffs = p.comparisons.reduce(
    (n, c) => n + c.sections.reduce((m, s) => m + s.rows.filter((r) => r.status !== "ok").length, 0),
    0
  )
  const bad = rejects > 0 || refused > 0 || diffs > 0 || p.unavailable !== undefined
  const parts = [
    rejects > 0 ? `${plural(rejects, "source item")} cannot migrate (see Issues).` : "",
    refused > 0 ? `${plural(refused, "operation")} would not complete (see Operations).` : "",
    diffs > 0 ? `${plural(diffs, "account")} of the projection differ from the source's trial balance.` : "",
    p.unavailable ?? ""
  ].filter((x) => x !== "")
  return `<header>
<p class="eyebrow">Migration plan · dry-run preview · nothing has been written to the target</p>
<h1>${esc(h.company || "Company")}</h1>
<dl class="facts">${facts.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd title="${esc(k === "Plan hash" ? h.planHash : v)}">${esc(v)}</dd></div>`).join("")}</dl>
<div class="verdict ${bad ? "warn" : "ok"}" id="verdict"><strong>${bad ? "REVIEW" : "READY"}</strong><span>${esc(
    bad
      ? parts.join(" ")
      : `Every operation completes in a copy of the target${p.comparisons.length > 0 ? ", and what the load will post agrees with the source's trial balance to the cent" : ""}.`
  )}</span></div>
${p.unknowns.length === 0 ? "" : `<div class="notice"><p><strong>What the projection cannot know before the load:</strong></p><ul>${p.unknowns.map((u) => `<li>${esc(u)}</li>`).join("")}</ul></div>`}
</header>`
}

const phasesTable = (p: Preview) => {
  const body = p.kinds
    .map(
      (k) =>
        `<tr>${td(k.phase)}${td(k.kind)}${intCell(k.planned)}${intCell(k.created)}${intCell(k.adopted)}${k.refused > 0 ? `<td class="num bad">${k.refused}</td>` : intCell(0)}${k.skipped > 0 ? `<td class="num bad">${k.skipped}</td>` : intCell(0)}</tr>`
    )
    .join("")
  const matched =
    p.matched.length === 0
      ? ""
      : `<p class="sub">Matched in the target (used as they are, not created): ${esc(p.matched.map((m) => plural(m.count, m.entity)).join(", "))}.</p>`
  return `<section><h2>What the load will do</h2><p class="sub">Per phase, in load order: what will be created, what the target holds already and will be adopted instead, and what a copy of the target refuses.</p>
<table class="grid"><thead><tr>${th("Phase")}${th("Kind")}${th("Planned", "num")}${th("To create", "num")}${th("Already there", "num")}${th("Refused", "num")}${th("Skipped", "num")}</tr></thead><tbody>${body}</tbody></table>${matched}</section>`
}

const projected = (p: Preview) => {
  if (p.projected === undefined)
    return `<section class="tb"><h2>Projected trial balance</h2><p class="bad">${esc(p.unavailable ?? "not available")}</p></section>`
  const t = p.projected
  const body = t.sections
    .map(
      (s) =>
        `<tbody><tr class="section"><th colspan="5">${esc(s.name)}</th></tr>${s.rows
          .map(
            (r) =>
              `<tr data-account="${esc(r.account)}">${td(r.code, "code")}${td(r.account)}${td(r.origin === "exists" ? "in the target" : "created by the plan", "muted")}${col(r.debit)}${col(r.credit)}</tr>`
          )
          .join(
            ""
          )}<tr class="subtotal"><td></td>${td(`Total ${s.name}`)}<td></td>${col(s.debit)}${col(s.credit)}</tr></tbody>`
    )
    .join("")
  return `<section class="tb" id="projected"><h2>Projected trial balance</h2><p class="sub">What the load will post to each account, all dates, in ${esc(p.header.baseCurrency)}: computed by running the plan in a copy of the target with the platform's posting rules (documents, credit notes, payments and their exchange differences, refunds, credit applications, journals, cash entries, transfers).</p>
<table class="grid"><thead><tr>${th("Code")}${th("Account")}${th("Account is")}${th("Debit", "num")}${th("Credit", "num")}</tr></thead>${body}
<tfoot><tr class="total"><td></td>${td("Total")}<td></td>${num(t.debit)}${num(t.credit)}</tr></tfoot></table></section>`
}

const comparison = (t: TrialBalanceComparison) =>
  `<section class="tb comparison"><h2>Projected against the source's trial balance as at ${esc(t.asAt)}</h2><p class="sub">Source: ${esc(t.file)} · projected: what the load posts dated on or before ${esc(t.asAt)} · difference = projected − source</p>${trialBalanceTable(t, { account: "Source account", side: "Projected", missing: "(no account)" })}</section>`

const issues = (p: Preview, perGroup: number) => {
  if (p.issues.length === 0) return `<section><h2>Issues</h2><p class="ok">None.</p></section>`
  const groups = p.issues
    .map(
      (g) => `<article class="difference ${g.severity === "reject" ? "" : "rounding"}">
<h3>${esc(g.severity === "reject" ? "Will not migrate" : "Warning")} · ${esc(plural(g.issues.length, "item"))}</h3>
<p class="fix"><strong>What to do.</strong> ${esc(g.fix)}</p>
<table class="grid"><thead><tr>${th("What")}${th("Why")}${th("Source rows")}</tr></thead><tbody>${g.issues
        .slice(0, perGroup)
        .map((i) => `<tr>${td(i.what)}${td(i.why)}<td>${rowsOf(i.lineage)}</td></tr>`)
        .join(
          ""
        )}</tbody></table>${g.issues.length > perGroup ? `<p class="sub">… and ${g.issues.length - perGroup} more in plan.xlsx (sheet Issues).</p>` : ""}
</article>`
    )
    .join("\n")
  return `<section><h2>Issues, by what to do</h2>${groups}</section>`
}

const operations = (p: Preview, perPhase: number) =>
  phases
    .map((phase) => {
      const docs = p.documents.filter((d) => d.phase === phase)
      const count = p.phaseCounts?.[phase] ?? docs.length
      if (count === 0) return ""
      const rows = docs
        .slice(0, perPhase)
        .map(
          (d) =>
            `<tr class="${d.outcome === "refused" || d.outcome === "skipped" ? "differs" : ""}">${td(d.kind)}${td(d.reference)}${td(d.date)}${td(d.party)}${td(d.currency, "code")}${d.amount === "" || d.kind === "rate" ? td(d.amount, "num") : num(d.amount)}${td(outcomeLabel[d.outcome] + (d.message ? `: ${d.message}` : ""))}<td>${rowsOf(d.lineage)}</td></tr>`
        )
        .join("")
      return `<section class="ops"><h3>${esc(phase)} · ${esc(plural(count, "operation"))}</h3>
<table class="grid"><thead><tr>${th("Kind")}${th("Reference")}${th("Date")}${th("Contact / applies to")}${th("Currency")}${th("Amount", "num")}${th("In the target")}${th("Source rows")}</tr></thead><tbody>${rows}</tbody></table>${count > perPhase ? `<p class="sub">The first ${perPhase} of ${count.toLocaleString("en-US")}; every operation is in plan.xlsx (sheet Operations).</p>` : ""}</section>`
    })
    .join("\n")

/** Operations the page lists of each phase (plan.xlsx has them all). */
export const PER_PHASE = 200

/** The whole page; at most `perPhase` operations per phase and `perIssueGroup` issues per group. */
export const render = (p: Preview, perPhase = PER_PHASE, perIssueGroup = 50): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plan preview · ${esc(p.header.company)} · ${esc(p.header.planHash.slice(0, 12))}</title>
<style>${stylesheet}
section.ops h3{margin-top:18px}</style></head><body><main>
${header(p)}
${phasesTable(p)}
${projected(p)}
${p.comparisons.map(comparison).join("\n")}
${issues(p, perIssueGroup)}
<section><h2>Operations</h2><p class="sub">Each write the load will send, in load order, with its key fields; amounts in the operation's currency.</p>
${operations(p, perPhase)}</section>
<div class="signoff"><div>Prepared by</div><div>Approved for load by</div><div>Date</div></div>
<footer>Amounts in ${esc(p.header.baseCurrency)} unless a currency is shown. Debits positive as the source's trial balance shows them. This preview is made from plan ${esc(p.header.planHash)}; a new plan needs a new preview. The complete list of operations and issues is in plan.xlsx beside this page.</footer>
</main></body></html>
`
