/**
 * The rehearsal's report in the run directory: `rehearsal.json` (the facts, deterministic: only its `run`
 * object — run id and times — differs between two rehearsals of the same snapshot and plan) and
 * `rehearsal.html`, the page a person reads before the real load: per phase what would be created and what
 * adopted, what the platform's rules refused with the source rows and the platform's words, the projected
 * trial balance and the reconciliation verdict. Every value on the page is HTML-escaped.
 */
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import type { RehearsalFacts } from "./Rehearsal.js"

export interface RunFacts {
  readonly runId: string
  readonly generatedAt: string
  readonly snapshotTakenAt: string
  readonly snapshotSource: string
}

const esc = (v: unknown) =>
  String(v).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!
  )
const money = (n: number) =>
  n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true })

/** One line for the terminal. */
export const summary = (f: RehearsalFacts): string => {
  const n = (k: "created" | "adopted" | "rejected" | "skipped") =>
    f.phases.reduce((s, p) => s + Number(p[k]), 0)
  return `Rehearsal ${f.clean ? "CLEAN" : "NOT CLEAN"}: ${f.operations.length} operations — ${n("created")} would be created, ${n("adopted")} adopted, ${n("rejected")} refused by the platform, ${n("skipped")} skipped; reconciliation against the mirror: ${f.reconciliation.verdict}`
}

const html = (f: RehearsalFacts, run: RunFacts, reconciliationReport: string) => {
  const phaseRows = f.phases
    .map(
      (p) =>
        `<tr data-phase="${esc(p.phase)}"><td>${esc(p.phase)}</td>${(
          ["planned", "created", "adopted", "rejected", "skipped", "in_doubt", "pending"] as const
        )
          .map(
            (k) => `<td class="num${k === "rejected" && Number(p[k]) > 0 ? " bad" : ""}">${esc(p[k])}</td>`
          )
          .join("")}</tr>`
    )
    .join("\n")
  const refused =
    f.refused.length === 0
      ? `<p class="ok">Nothing was refused: every operation was created or adopted in the mirror.</p>`
      : `<table><thead><tr><th>Operation</th><th>Phase</th><th>Outcome</th><th>The platform's words</th><th>Source rows</th></tr></thead><tbody>
${f.refused
  .map(
    (r) =>
      `<tr data-key="${esc(r.key)}"><td>${esc(r.key)}</td><td>${esc(r.phase)}</td><td class="bad">${esc(r.outcome)}</td><td>${esc(r.message)}</td><td>${esc(r.lineage.join(", "))}</td></tr>`
  )
  .join("\n")}
</tbody></table>`
  const tbRows = f.trialBalance.rows
    .map(
      (r) =>
        `<tr data-account="${esc(r.account)}"><td>${esc(r.code ?? "")}</td><td>${esc(r.account)}</td><td class="num">${r.debit ? money(r.debit) : ""}</td><td class="num">${r.credit ? money(r.credit) : ""}</td></tr>`
    )
    .join("\n")
  const verdictClass = f.clean && f.reconciliation.matches ? "good" : "bad"
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rehearsal ${esc(run.runId)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #1d2530; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 1.6em; border-bottom: 2px solid #d0d7de; padding-bottom: .2em; }
.meta { color: #57606a; } .verdict { padding: .8em 1em; border-radius: 6px; font-size: 1.15em; margin: 1em 0; }
.verdict.good { background: #dafbe1; border: 1px solid #2da44e; } .verdict.bad { background: #ffebe9; border: 1px solid #cf222e; }
table { border-collapse: collapse; width: 100%; margin: .5em 0; } th, td { border: 1px solid #d0d7de; padding: .3em .6em; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.bad { color: #cf222e; font-weight: 600; } .ok { color: #1a7f37; } tfoot td { font-weight: 700; background: #f6f8fa; }
</style></head>
<body>
<h1>Rehearsal against a mirror of the target</h1>
<p class="meta">Run ${esc(run.runId)} · ${esc(run.generatedAt)} · snapshot ${esc(f.snapshotHash.slice(0, 16))} (${esc(run.snapshotSource)}, taken ${esc(run.snapshotTakenAt)}) · plan ${esc(f.planHash.slice(0, 16))} · base currency ${esc(f.baseCurrency)}</p>
<div class="verdict ${verdictClass}" id="verdict"><strong>${f.clean ? "CLEAN" : "NOT CLEAN"}</strong> — ${esc(f.operations.length)} operations; reconciliation against the mirror: <strong>${esc(f.reconciliation.verdict)}</strong>${f.reconciliation.differences > 0 ? ` (${esc(f.reconciliation.differences)} differences)` : ""}. Nothing was written to the real target.</div>
<h2>What the load would do, per phase</h2>
<table><thead><tr><th>Phase</th><th class="num">Planned</th><th class="num">Created</th><th class="num">Adopted</th><th class="num">Refused</th><th class="num">Skipped</th><th class="num">In doubt</th><th class="num">Not attempted</th></tr></thead><tbody>
${phaseRows}
</tbody></table>
<h2>What the platform's rules refused</h2>
${refused}
<h2>Projected trial balance as at ${esc(f.trialBalance.asAt)}</h2>
<p class="meta">Read from the mirror after the load. The mirror holds the target's existing records by reference only, so the target's own earlier postings are not in it.</p>
<table><thead><tr><th>Code</th><th>Account</th><th class="num">Debit (${esc(f.baseCurrency)})</th><th class="num">Credit (${esc(f.baseCurrency)})</th></tr></thead><tbody>
${tbRows}
</tbody><tfoot><tr><td></td><td>Total</td><td class="num">${money(f.trialBalance.totals.debit)}</td><td class="num">${money(f.trialBalance.totals.credit)}</td></tr></tfoot></table>
<h2>Reconciliation</h2>
<p>Verdict against the mirror: <strong>${esc(f.reconciliation.verdict)}</strong>. The full sign-off pack of the mirror: <a href="${esc(NodePath.basename(reconciliationReport))}">${esc(NodePath.basename(reconciliationReport))}</a>.</p>
</body></html>
`
}

/** Writes `rehearsal.json` and `rehearsal.html` into the run directory. */
export const write = async (
  dir: string,
  facts: RehearsalFacts,
  run: RunFacts,
  reconciliationReport: string
) => {
  const json = NodePath.join(dir, "rehearsal.json")
  const page = NodePath.join(dir, "rehearsal.html")
  await NodeFs.writeFile(json, `${JSON.stringify({ run, ...facts }, null, 2)}\n`)
  await NodeFs.writeFile(page, html(facts, run, reconciliationReport))
  return { json, html: page }
}
