/**
 * The sign-off page's stylesheet: a quiet A4 document on screen, tabular figures right-aligned, differing rows
 * tinted, and a print layout (A4 margins, colours kept, table headers repeated, rows never split).
 */
export const stylesheet = `
:root{--ink:#1c2430;--muted:#5b6675;--line:#d9dee5;--soft:#f5f7fa;--ok:#1f7a3a;--bad:#b42318;--warn:#9a6700}
*{box-sizing:border-box}
body{font:13px/1.45 "Segoe UI",system-ui,-apple-system,"Helvetica Neue",Arial,sans-serif;color:var(--ink);margin:0;background:#eef1f5}
main{max-width:1100px;margin:24px auto;background:#fff;padding:40px 48px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.eyebrow{text-transform:uppercase;letter-spacing:.08em;font-size:11px;color:var(--muted);margin:0}
h1{font-size:26px;margin:4px 0 16px}
h2{font-size:17px;margin:32px 0 4px;padding-bottom:4px;border-bottom:2px solid var(--ink)}
h3{font-size:14px;margin:0 0 4px}
.sub{color:var(--muted);margin:0 0 10px;font-size:12px}
.facts{display:grid;grid-template-columns:repeat(4,1fr);gap:8px 24px;margin:0 0 18px;padding:14px 16px;background:var(--soft);border:1px solid var(--line);border-radius:4px}
.facts dt{font-size:11px;color:var(--muted)}.facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.verdict{display:flex;gap:14px;align-items:center;padding:12px 16px;border-radius:4px;border:1px solid;font-size:14px}
.verdict strong{font-size:18px;letter-spacing:.04em}
.verdict.ok{background:#ecf8f0;border-color:#9bd3ae;color:var(--ok)}
.verdict.bad{background:#fdf0ef;border-color:#f0aaa4;color:var(--bad)}
.verdict.warn{background:#fff7e6;border-color:#f0c36d;color:var(--warn)}
.notice{margin-top:12px;padding:10px 16px;border-left:4px solid var(--warn);background:#fffbf2}
.notice ul{margin:4px 0 6px 18px;padding:0}
table.grid{width:100%;border-collapse:collapse;margin:6px 0 8px;font-variant-numeric:tabular-nums}
.grid th,.grid td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
.grid thead th{font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);border-bottom:1.5px solid var(--ink);white-space:nowrap}
.grid .num{text-align:right;white-space:nowrap}
.grid tr.section th{background:var(--soft);font-size:12px;text-transform:none;letter-spacing:0;color:var(--ink);padding-top:8px}
.grid tr.subtotal td{font-weight:600;border-top:1px solid var(--ink)}
.grid tr.total td{font-weight:700;border-top:1.5px solid var(--ink);border-bottom:3px double var(--ink)}
.grid tr.differs td{background:#fdf0ef}
.grid tr.doc td{font-size:12px;color:var(--muted);background:#fffafa}
td.code{color:var(--muted);white-space:nowrap}td.muted{color:var(--muted)}
.zero{color:#9aa3ae}.bad{color:var(--bad);font-weight:600}.ok{color:var(--ok)}
.rows{font-family:ui-monospace,Consolas,monospace;font-size:11px;color:var(--muted)}
.difference{border:1px solid var(--line);border-left:4px solid var(--bad);border-radius:4px;padding:10px 14px;margin:10px 0}
.difference.rounding{border-left-color:var(--warn)}
.difference .n{display:inline-block;min-width:22px;height:22px;line-height:22px;text-align:center;border-radius:11px;background:var(--ink);color:#fff;font-size:11px;margin-right:6px}
.fix{margin:4px 0 6px}
td.tag{text-transform:uppercase;font-size:10px;font-weight:700;letter-spacing:.05em}
td.tag.missing{color:var(--bad)}td.tag.extra{color:#7a3db8}td.tag.changed{color:var(--warn)}
.signoff{display:grid;grid-template-columns:repeat(3,1fr);gap:32px;margin-top:40px}
.signoff div{border-top:1px solid var(--ink);padding-top:4px;font-size:11px;color:var(--muted)}
footer{margin-top:24px;font-size:11px;color:var(--muted)}
@page{size:A4;margin:14mm 12mm}
@media print{
  body{background:#fff;font-size:10.5px}
  main{box-shadow:none;margin:0;max-width:none;padding:0}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
  h2{break-after:avoid}
  tr,.difference,.verdict,.facts{break-inside:avoid}
  section.tb{break-before:auto}
  thead{display:table-header-group}
  .facts{grid-template-columns:repeat(3,1fr)}
}`
