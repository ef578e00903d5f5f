/**
 * `plan.xlsx`: the preview as a workbook, streamed to disk row by row (exceljs's streaming writer), so that a
 * plan of any size fits: sheets Summary, Projected TB, one "TB vs source <date>" per source Trial Balance,
 * Issues and Operations (every operation, not only the first of each phase). Header rows are frozen and
 * filtered; amounts are numbers with the accounting format of the reconciliation's workbook.
 */
import * as Format from "../reconcile/Format.js"
import { type Column, differs, streamedTable, streamedWorkbook } from "../reconcile/XlsxTable.js"
import type { Preview, PreviewDoc } from "./Preview.js"

/** The workbook's last sheet, Operations, open for its rows; `close` finishes the workbook. */
export interface OperationsSheet {
  readonly add: (d: PreviewDoc) => void
  /** Resolves once the rows added so far are on their way to disk: call it between pages of operations. */
  readonly drained: () => Promise<void>
  readonly close: () => Promise<void>
}

/**
 * Streams the workbook into `file`, all but its Operations sheet's rows, which the caller adds one at a time
 * (the stored plan read page by page: a plan's operations are never all in memory), then closes.
 */
export const open = async (file: string, p: Preview): Promise<OperationsSheet> => {
  const wb = await streamedWorkbook(file)
  const sheet = (name: string, columns: ReadonlyArray<Column>) => streamedTable(wb, name, columns)

  const summary = sheet("Summary", [
    { header: "Item", width: 34 },
    { header: "Value", width: 90 }
  ])
  const h = p.header
  for (const [k, v] of [
    ["Company", h.company],
    ["Source system", h.sourceSystem],
    ["Conversion", h.conversion],
    ["Base currency", h.baseCurrency],
    ["Plan hash", h.planHash],
    ["Operations", String(h.operations)],
    ["Generated", h.generatedAt],
    ...p.kinds.map((k) => [
      `${k.phase}: ${k.kind}`,
      `${k.planned} planned: ${k.created} to create, ${k.adopted} already in the target, ${k.refused} refused, ${k.skipped} skipped`
    ]),
    ...p.matched.map((m) => [`Matched in the target: ${m.entity}`, String(m.count)]),
    ...(p.unavailable ? [["Projected trial balance", p.unavailable]] : []),
    ...p.unknowns.map((u) => ["Cannot be known before the load", u])
  ] as Array<[string, string]>)
    summary.add([k, v])
  summary.done()

  if (p.projected) {
    const tb = sheet("Projected TB", [
      { header: "Class", width: 14 },
      { header: "Code", width: 10 },
      { header: "Account", width: 40 },
      { header: "Account is", width: 20 },
      { header: "Debit", width: 16, money: true },
      { header: "Credit", width: 16, money: true }
    ])
    for (const s of p.projected.sections) {
      for (const r of s.rows)
        tb.add([
          s.name,
          r.code,
          r.account,
          r.origin === "exists" ? "in the target" : "created by the plan",
          Format.column(r.debit) === "" ? null : r.debit,
          Format.column(r.credit) === "" ? null : r.credit
        ])
      tb.add([s.name, "", `Total ${s.name}`, "", s.debit, s.credit], { bold: true })
    }
    tb.add(["", "", "Total", "", p.projected.debit, p.projected.credit], { bold: true })
    tb.done()
  }

  const names = new Set<string>()
  for (const c of p.comparisons) {
    // Two Trial Balances at one date (two files) get a sheet each.
    let name = `TB vs source ${c.asAt}`
    for (let n = 2; names.has(name); n++) name = `TB vs source ${c.asAt} (${n})`
    names.add(name)
    const ws = sheet(name, [
      { header: "Class", width: 14 },
      { header: "Code", width: 10 },
      { header: "Source account", width: 36 },
      { header: "Target account", width: 36 },
      { header: "Source debit", width: 16, money: true },
      { header: "Source credit", width: 16, money: true },
      { header: "Projected debit", width: 16, money: true },
      { header: "Projected credit", width: 16, money: true },
      { header: "Difference", width: 16, money: true },
      { header: "Source rows", width: 30 }
    ])
    for (const s of c.sections) {
      for (const r of s.rows)
        ws.add(
          [
            s.name,
            r.sourceAccounts
              .map((a) => a.code)
              .filter((x) => x !== "")
              .join(", "),
            r.sourceAccounts.map((a) => a.name).join(" + "),
            r.targetAccount ?? "",
            r.sourceDebit,
            r.sourceCredit,
            r.targetDebit,
            r.targetCredit,
            r.difference,
            r.lineage.join(", ")
          ],
          r.status === "ok" ? {} : { fill: differs }
        )
      const t = s.totals
      ws.add(
        [
          s.name,
          "",
          `Total ${s.name}`,
          "",
          t.sourceDebit,
          t.sourceCredit,
          t.targetDebit,
          t.targetCredit,
          t.difference,
          ""
        ],
        {
          bold: true
        }
      )
    }
    const t = c.totals
    ws.add(
      ["", "", "Total", "", t.sourceDebit, t.sourceCredit, t.targetDebit, t.targetCredit, t.difference, ""],
      {
        bold: true
      }
    )
    ws.done()
  }

  const issues = sheet("Issues", [
    { header: "Severity", width: 10 },
    { header: "What to do", width: 60 },
    { header: "What", width: 40 },
    { header: "Why", width: 50 },
    { header: "Source rows", width: 40 }
  ])
  for (const g of p.issues)
    for (const i of g.issues) issues.add([g.severity, g.fix, i.what, i.why, i.lineage.join(", ")])
  issues.done()

  const ops = sheet("Operations", [
    { header: "#", width: 7 },
    { header: "Phase", width: 13 },
    { header: "Kind", width: 20 },
    { header: "Reference", width: 34 },
    { header: "Date", width: 11 },
    { header: "Contact / applies to", width: 32 },
    { header: "Currency", width: 9 },
    { header: "Amount", width: 16, money: true },
    { header: "In the target", width: 22 },
    { header: "Message", width: 50 },
    { header: "Source rows", width: 40 }
  ])
  const add = (d: PreviewDoc) =>
    ops.add(
      [
        d.seq,
        d.phase,
        d.kind,
        d.reference,
        d.date,
        d.party,
        d.currency,
        d.kind === "rate" ? null : d.amount === "" ? null : d.amount,
        d.outcome,
        d.message,
        d.lineage.join(", ")
      ],
      d.outcome === "refused" || d.outcome === "skipped" ? { fill: differs } : {}
    )
  return {
    add,
    drained: ops.drained,
    close: async () => {
      ops.done()
      await wb.commit()
    }
  }
}
