/**
 * Wires the Xero kinds beyond invoices, bills, their payments and manual journals into the source books:
 * credit notes, overpayments and prepayments (`XeroCredits`), refunds, overpayment funding, Receive/Spend
 * Money and bank transfers (`XeroBank`), the optional allocations file (`XeroAllocations`), tracking options
 * on every line and a bank account's own currency (a `Currency` column of the chart, when the export has
 * one). `staged` also hands XeroSource only the rows its own readers take: invoice and bill rows, and the
 * payment rows of bank sections.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { rowsOfKind, where, type StagedRow } from "../../staging/SourceRows.js"
import type { Issue, SourceBooks } from "../SourceModel.js"
import { readAllocations } from "./XeroAllocations.js"
import * as XeroBank from "./XeroBank.js"
import { readCredits, rowType, trackingOf } from "./XeroCredits.js"
import { cell } from "./StagedCells.js"
import { append } from "../../Multimap.js"

/** The staged rows of the Xero kinds, partitioned for the readers. */
export interface XeroRows {
  /** "Sales invoice" and "Bill" rows, for XeroSource's document reader. */
  readonly invoicesAndBills: ReadonlyArray<StagedRow>
  /** Receivable and payable payment rows of bank sections, for XeroSource's payment reader. */
  readonly payments: ReadonlyArray<StagedRow>
  readonly sales: ReadonlyArray<StagedRow>
  readonly bills: ReadonlyArray<StagedRow>
  readonly transactions: ReadonlyArray<StagedRow>
  readonly accounts: ReadonlyArray<StagedRow>
  readonly journals: ReadonlyArray<StagedRow>
  readonly allocations: ReadonlyArray<StagedRow>
  readonly banks: ReadonlySet<string>
}

export const staged: Effect.Effect<XeroRows, never, SqlClient.SqlClient> = Effect.gen(function* () {
  const sales = yield* rowsOfKind("xero.invoices")
  const bills = yield* rowsOfKind("xero.bills")
  const transactions = yield* rowsOfKind("xero.account_transactions")
  const accounts = yield* rowsOfKind("xero.accounts")
  const banks = XeroBank.bankAccounts(accounts)
  return {
    invoicesAndBills: [
      ...sales.filter((r) => rowType(r, "sale")._tag === "document"),
      ...bills.filter((r) => rowType(r, "purchase")._tag === "document")
    ],
    payments: transactions.filter((r) => XeroBank.classify(banks, r) === "payment"),
    sales,
    bills,
    transactions,
    accounts,
    journals: yield* rowsOfKind("xero.manual_journals"),
    allocations: yield* rowsOfKind("generic.credit_allocations"),
    banks
  }
})

/** Adds the other kinds to the books XeroSource read from the same rows. */
export const complete = (rows: XeroRows, issues: Array<Issue>, books: SourceBooks): SourceBooks => {
  const byLineage = new Map<string, StagedRow>()
  for (const r of [...rows.sales, ...rows.bills, ...rows.journals, ...rows.accounts])
    byLineage.set(where(r), r)
  const tracked = <L extends { readonly lineage: string }>(l: L): L => {
    const row = byLineage.get(l.lineage)
    const tracking = row ? trackingOf(row) : []
    return tracking.length > 0 ? { ...l, tracking } : l
  }
  const kinds = new Map<XeroBank.TransactionRow, Array<StagedRow>>()
  for (const r of rows.transactions) {
    const k = XeroBank.classify(rows.banks, r)
    append(kinds, k, r)
  }
  const of = (k: XeroBank.TransactionRow) => kinds.get(k) ?? []
  for (const r of of("unknown"))
    issues.push({
      severity: "reject",
      lineage: [where(r)],
      what: `a "${cell(r, "Source")}" bank transaction`,
      why: "it is not a kind of bank transaction this migration reads",
      fix: "enter it by hand after the load"
    })
  return {
    ...books,
    accounts: books.accounts.map((a) => {
      const currency = cell(
        byLineage.get(a.lineage) ?? { file: "", line: 0, data: {} },
        "Currency"
      ).toUpperCase()
      return currency === "" ? a : { ...a, currency }
    }),
    documents: books.documents.map((d) => ({ ...d, lines: d.lines.map(tracked) })),
    journals: books.journals.map((j) => ({ ...j, lines: j.lines.map(tracked) })),
    credits: [...readCredits(rows.sales, "sale", issues), ...readCredits(rows.bills, "purchase", issues)],
    refunds: XeroBank.readRefunds(of("refund"), issues),
    creditFundings: XeroBank.readFundings(of("funding"), issues),
    cashEntries: XeroBank.readCashEntries(of("cash"), of("cash-line"), issues),
    transfers: XeroBank.readTransfers(of("transfer"), issues),
    allocations: readAllocations(rows.allocations, issues)
  }
}
