/**
 * Writes a reconciliation to `report.json` (complete, for machines) and `report.html` (readable: verdict,
 * counts, outstanding balances, every mismatch with its source rows), and renders the short console summary.
 */
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import type { Reconciliation } from "./Reconcile.js"

export interface ReportContext {
  readonly runId: string
  readonly baseUrl: string
  readonly planHash: string
  readonly asAt: string
  readonly load?: unknown
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`)
    .join("")}</tbody></table>`

export const html = (r: Reconciliation, ctx: ReportContext): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Reconciliation ${esc(ctx.runId)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;margin:1rem 0}
td,th{border:1px solid #ccc;padding:.25rem .6rem;text-align:left}th{background:#f3f3f3}
.ok{color:#11632b}.bad{color:#a31515}</style></head><body>
<h1>Reconciliation <span class="${r.matches ? "ok" : "bad"}">${r.matches ? "MATCHES" : "DOES NOT MATCH"}</span></h1>
<p>Run ${esc(ctx.runId)} · target ${esc(ctx.baseUrl)} · as at ${esc(ctx.asAt)} · plan ${esc(ctx.planHash.slice(0, 16))}</p>
<h2>Counts</h2>
${table(
  ["Entity", "Source", "Target", "Matched"],
  r.counts.map((c) => [c.entity, String(c.source), String(c.target), String(c.matched)])
)}
<h2>Trial balance</h2>
<p>Debits ${esc(r.trialBalance.debit)} · credits ${esc(r.trialBalance.credit)} · <span class="${r.trialBalance.balanced ? "ok" : "bad"}">${r.trialBalance.balanced ? "balanced" : "NOT balanced"}</span></p>
<h2>Outstanding by contact</h2>
${table(
  ["Side", "Contact", "Currency", "Source", "Target documents", "Target report"],
  r.outstanding.map((o) => [o.side, o.contact, o.currency, o.source, o.target, o.report])
)}
<h2>Mismatches (${r.mismatches.length})</h2>
${
  r.mismatches.length === 0
    ? "<p class=ok>None.</p>"
    : table(
        ["Entity", "Key", "Field", "Source", "Target", "Source rows"],
        r.mismatches.map((m) => [m.entity, m.key, m.field, m.source, m.target, m.lineage.join(", ")])
      )
}
</body></html>
`

/** Writes report.json and report.html into `dir`; returns their paths. */
export const write = async (dir: string, r: Reconciliation, ctx: ReportContext) => {
  await NodeFs.mkdir(dir, { recursive: true })
  const json = NodePath.join(dir, "report.json")
  const page = NodePath.join(dir, "report.html")
  await NodeFs.writeFile(json, `${JSON.stringify({ ...ctx, ...r }, null, 2)}\n`)
  await NodeFs.writeFile(page, html(r, ctx))
  return { json, html: page }
}

/** A few lines for the terminal. */
export const summary = (r: Reconciliation): string =>
  [
    `Reconciliation: ${r.matches ? "MATCHES" : `DOES NOT MATCH (${r.mismatches.length} mismatches)`}`,
    ...r.counts.map(
      (c) =>
        `  ${c.entity.padEnd(18)} source ${String(c.source).padStart(6)}  target ${String(c.target).padStart(6)}  matched ${String(c.matched).padStart(6)}`
    ),
    `  trial balance      debits ${r.trialBalance.debit} credits ${r.trialBalance.credit} ${r.trialBalance.balanced ? "(balanced)" : "(NOT balanced)"}`,
    ...r.mismatches
      .slice(0, 10)
      .map(
        (m) =>
          `  ✗ ${m.entity} ${m.key} ${m.field}: source ${m.source}, target ${m.target}${m.lineage.length ? ` (${m.lineage[0]})` : ""}`
      )
  ].join("\n")
