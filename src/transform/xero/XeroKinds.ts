/**
 * Streams the staged Xero kinds to their readers, one page of rows at a time, so that no row outlives the
 * reading of it unless a reader needs it later:
 * - invoice and bill rows go to XeroSource's document reader as they are read, and the receivable and payable
 *   payment rows of bank sections to its payment reader;
 * - the credit notes, overpayments and prepayments among those rows are read as they come (`CreditRows`);
 * - refunds, overpayment funding, Receive/Spend Money and bank transfers (`XeroBank`) and the optional
 *   allocations file (`XeroAllocations`) keep their rows, which are few beside the documents', and `complete`
 *   reads them into the books.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { eachRowOfKind, rowsOfKind, where, type StagedRow } from "../../staging/SourceRows.js"
import type { CreditSide, Issue, SourceBooks } from "../SourceModel.js"
import { readAllocations } from "./XeroAllocations.js"
import * as XeroBank from "./XeroBank.js"
import { CreditRows, rowType } from "./XeroCredits.js"
import { cell } from "./StagedCells.js"
import { append } from "../../Multimap.js"

/**
 * The staged rows the Xero readers take after the documents and payments have streamed past, held until they
 * are read, and the credits read as they streamed: `complete` (and `taken`) empties them as each kind is
 * read, so that a kind's rows are garbage once read instead of held to the end of the read (at 20,000
 * invoices the bank transactions' rows were 5.9 MB, and the credit notes' 14.7 MB when they were held too).
 */
export interface XeroRows {
  readonly accounts: ReadonlyArray<StagedRow>
  readonly journals: Array<StagedRow>
  readonly allocations: Array<StagedRow>
  /** Each export's credits, read as their rows streamed past. */
  readonly credits: Readonly<Record<CreditSide, CreditRows>>
  /** The Account Transactions rows other than payments, by what they are. */
  readonly transactions: Map<XeroBank.TransactionRow, Array<StagedRow>>
}

/** The rows `held` holds, `held` emptied: the caller's array is the only one left holding them. */
export const taken = <A>(held: Array<A>): Array<A> => held.splice(0)

/** What takes the rows that stream past: invoice and bill rows, and the payment rows of bank sections. */
export interface XeroVisitors {
  readonly document: (row: StagedRow) => void
  readonly payment: (row: StagedRow) => void
}

export const staged = (visit: XeroVisitors): Effect.Effect<XeroRows, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const credits = { sale: new CreditRows("sale"), purchase: new CreditRows("purchase") }
    const documentsOf = (side: CreditSide) => (row: StagedRow) => {
      if (rowType(row, side)._tag !== "document") return credits[side].add(row)
      visit.document(row)
      credits[side].document()
    }
    yield* eachRowOfKind("xero.invoices", documentsOf("sale"))
    yield* eachRowOfKind("xero.bills", documentsOf("purchase"))
    const accounts = yield* rowsOfKind("xero.accounts")
    const banks = XeroBank.bankAccounts(accounts)
    const transactions = new Map<XeroBank.TransactionRow, Array<StagedRow>>()
    yield* eachRowOfKind("xero.account_transactions", (row) => {
      const k = XeroBank.classify(banks, row)
      if (k === "payment") visit.payment(row)
      else if (k !== "other") append(transactions, k, row)
    })
    return {
      accounts,
      journals: yield* rowsOfKind("xero.manual_journals"),
      allocations: yield* rowsOfKind("generic.credit_allocations"),
      credits,
      transactions
    }
  })

/** Adds the other kinds to the books XeroSource read, taking their rows from `rows` as it reads each kind. */
export const complete = <B extends Omit<SourceBooks, "documents" | "payments">>(
  rows: XeroRows,
  issues: Array<Issue>,
  books: B
): B => {
  // Each kind's rows leave the map as they are read, the map emptied with them.
  const of = (k: XeroBank.TransactionRow) => {
    const held = rows.transactions.get(k) ?? []
    rows.transactions.delete(k)
    return held
  }
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
    credits: [...rows.credits.sale.credits(issues), ...rows.credits.purchase.credits(issues)],
    refunds: XeroBank.readRefunds(of("refund"), issues),
    creditFundings: XeroBank.readFundings(of("funding"), issues),
    cashEntries: XeroBank.readCashEntries(of("cash"), of("cash-line"), issues),
    transfers: XeroBank.readTransfers(of("transfer"), issues),
    allocations: readAllocations(taken(rows.allocations), issues)
  }
}
