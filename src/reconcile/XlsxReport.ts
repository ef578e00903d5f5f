/**
 * `report.xlsx`: the sign-off pack as a workbook for the accountant's own checks. Sheets Summary, Trial
 * balance, AR, AP, Documents and Differences; amounts are numbers with an accounting format, header rows are
 * frozen and filtered, rows that differ are highlighted.
 */
import type ExcelJS from "exceljs"
import * as Format from "./Format.js"
import { classLabels, type Reconciliation } from "./Model.js"
import type { PageContext } from "./HtmlReport.js"
import {
  type Cell,
  type Column,
  differs,
  type RowStyle,
  streamedTable,
  streamedWorkbook
} from "./XlsxTable.js"

export { accountingFormat } from "./XlsxTable.js"

const rounding = { type: "pattern", pattern: "solid", fgColor: { argb: "FFFFF1CC" } } as const

type Row = { readonly cells: ReadonlyArray<Cell> } & RowStyle

/** Rows added before the sheet waits for the workbook's zip to take them. */
const DRAIN_EVERY = 1_000

/**
 * A sheet holding one table: a frozen, filtered, styled header row, then `rows`, streamed to disk, the zip
 * taking each thousand rows before more are added. Added without a pause, every row's XML waited in memory
 * for the zip until the last was added: at 100,000 invoices (80,000 rows of aged listings) reconcile's RSS
 * rose from 278 to 318 MB while the workbook was written, its peak; now it stays at 280-284 MB.
 */
export const table = async (
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  columns: ReadonlyArray<Column>,
  rows: Iterable<Row>
) => {
  const sheet = streamedTable(wb, name, columns)
  let added = 0
  for (const { cells, ...style } of rows) {
    sheet.add(cells, style)
    if (++added % DRAIN_EVERY === 0) await sheet.drained()
  }
  sheet.done()
}

/**
 * Streams the workbook into `file`, one row at a time (a big company's aged listings run to tens of thousands
 * of rows, which an in-memory workbook held whole, with every cell's model, until it was written).
 */
export const write = async (file: string, r: Reconciliation, ctx: PageContext): Promise<void> => {
  const wb = await streamedWorkbook(file)
  const facts: Array<[string, string]> = [
    ["Company", r.header.company],
    ["Source system", ctx.sourceSystem],
    ["Conversion", r.header.conversion],
    ["Base currency", r.header.baseCurrency],
    ["Documents as at", r.header.asAt],
    ["Trial balance as at", r.header.trialBalanceDates.join(", ") || "not in the input"],
    ["Aged receivables as at", r.header.agedDates.AR.join(", ") || "not in the input"],
    ["Aged payables as at", r.header.agedDates.AP.join(", ") || "not in the input"],
    ["Plan hash", r.header.planHash],
    ["Run", ctx.runId],
    ["Target", ctx.baseUrl],
    ["Verdict", r.verdict],
    ["Differences", String(r.differences.length)],
    ...r.notProven.map((p): [string, string] => [`Not proved: ${p.what}`, `export ${p.export}`]),
    ...r.entities.map((e): [string, string] => [
      `Records: ${e.kind}`,
      `${e.planned} planned, ${e.created} created, ${e.adopted} already there, ${e.rejected} refused, ${e.notDone} not done`
    ]),
    ...r.rates.map((x): [string, string] => [
      `Rate ${x.currency} from ${x.from}`,
      `${x.sourceBasePerUnit} ${r.header.baseCurrency} per unit; ${x.targetRate} per ${r.header.baseCurrency} sent (${x.status})`
    ]),
    ...(r.clearing.length === 0
      ? [["Clearing accounts", "none used"] as [string, string]]
      : r.clearing.flatMap((c) =>
          c.balances.map((b): [string, string] => [`Clearing ${c.account} at ${b.asAt}`, b.balance])
        ))
  ]
  const verdict = { bold: true, color: { argb: r.matches ? "FF1F7A3A" : "FFB42318" } }
  await table(
    wb,
    "Summary",
    [
      { header: "Item", width: 34 },
      { header: "Value", width: 90 }
    ],
    facts.map(([k, v]) => ({ cells: [k, v], ...(k === "Verdict" ? { font: verdict } : {}) }))
  )

  const money = (header: string): Column => ({ header, width: 15, money: true })
  await table(
    wb,
    "Trial balance",
    [
      { header: "As at", width: 11 },
      { header: "Section", width: 14 },
      { header: "Code", width: 8 },
      { header: "Account", width: 36 },
      { header: "Target account", width: 30 },
      money("Source debit"),
      money("Source credit"),
      money("Target debit"),
      money("Target credit"),
      money("Difference"),
      { header: "Status", width: 26 },
      { header: "Source rows", width: 30 }
    ],
    r.trialBalances.flatMap((t) => [
      ...t.sections.flatMap((s) => [
        ...s.rows.map((x) => ({
          cells: [
            t.asAt,
            s.name,
            x.sourceAccounts.map((a) => a.code).join(", "),
            x.sourceAccounts.map((a) => a.name).join(" + ") || "(not in the source)",
            x.targetAccount ?? "(missing)",
            x.sourceDebit,
            x.sourceCredit,
            x.targetDebit,
            x.targetCredit,
            x.difference,
            x.status === "ok" ? "" : classLabels[x.status],
            x.lineage.join(", ")
          ],
          ...(x.status === "ok" ? {} : { fill: x.status === "rounding" ? rounding : differs })
        })),
        {
          cells: [
            t.asAt,
            s.name,
            "",
            `Total ${s.name}`,
            "",
            s.totals.sourceDebit,
            s.totals.sourceCredit,
            s.totals.targetDebit,
            s.totals.targetCredit,
            s.totals.difference,
            "",
            ""
          ],
          bold: true
        }
      ]),
      {
        cells: [
          t.asAt,
          "",
          "",
          "Total",
          "",
          t.totals.sourceDebit,
          t.totals.sourceCredit,
          t.totals.targetDebit,
          t.totals.targetCredit,
          t.totals.difference,
          "",
          ""
        ],
        bold: true
      }
    ])
  )
  for (const side of ["AR", "AP"] as const)
    await table(
      wb,
      side,
      [
        { header: "As at", width: 11 },
        { header: "Contact", width: 36 },
        { header: "Currency", width: 9 },
        { header: "Document", width: 16 },
        { header: "Date", width: 11 },
        { header: "Due", width: 11 },
        money("Source"),
        money("Target"),
        money("Difference"),
        { header: "Status", width: 24 },
        { header: "Source rows", width: 30 }
      ],
      r.aged
        .filter((a) => a.side === side)
        .flatMap((a) =>
          a.contacts.flatMap((c) => [
            {
              cells: [
                a.asAt,
                c.contact,
                c.currency,
                "",
                "",
                "",
                c.source,
                c.target,
                c.difference,
                c.status === "ok" ? "" : classLabels[c.status],
                ""
              ],
              bold: true,
              ...(c.status === "ok" ? {} : { fill: c.status === "rounding" ? rounding : differs })
            },
            ...c.documents.map((d) => ({
              cells: [
                a.asAt,
                c.contact,
                c.currency,
                d.reference,
                d.date,
                d.dueDate,
                d.source,
                d.target,
                d.difference,
                "",
                d.lineage.join(", ")
              ],
              ...(Format.isZero(d.difference) ? {} : { fill: differs })
            }))
          ])
        )
    )
  await table(
    wb,
    "Documents",
    [
      { header: "Records", width: 22 },
      { header: "Source", width: 10 },
      { header: "Target", width: 10 },
      { header: "Matched", width: 10 },
      { header: "Differences", width: 12 }
    ],
    r.documents.counts.map((c) => ({
      cells: [
        c.entity,
        c.source,
        c.target,
        c.matched,
        r.documents.mismatches.filter((m) => m.entity === c.entity.replace(/s$/, "") || m.entity === c.entity)
          .length
      ],
      ...(c.source === c.matched && c.source === c.target ? {} : { fill: differs })
    }))
  )
  await table(
    wb,
    "Differences",
    [
      { header: "#", width: 5 },
      { header: "Class", width: 28 },
      { header: "Area", width: 16 },
      { header: "As at", width: 11 },
      { header: "Subject", width: 36 },
      money("Source"),
      money("Target"),
      money("Difference"),
      { header: "Suggested fix", width: 70 },
      { header: "Candidates", width: 60 },
      { header: "Source rows", width: 40 }
    ],
    r.differences.map((d, i) => ({
      cells: [
        i + 1,
        classLabels[d.class],
        d.area,
        d.asAt,
        d.subject,
        Format.toNumber(d.source) === null ? null : d.source,
        Format.toNumber(d.target) === null ? null : d.target,
        d.difference,
        d.fix,
        d.candidates
          .slice(0, 20)
          .map(
            (c) =>
              `${c.kind} ${c.entity} ${c.reference} ${c.date}${c.source ? ` source ${c.source}` : ""}${c.target ? ` target ${c.target}` : ""}`
          )
          .join("; "),
        d.lineage.join(", ")
      ],
      fill: d.class === "rounding" ? rounding : differs
    }))
  )
  await wb.commit()
}
