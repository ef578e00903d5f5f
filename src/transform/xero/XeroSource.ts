/**
 * Reads Xero's staged exports into source books: the chart, contacts, items, the sales-invoice and bill
 * exports (one row per line, grouped by number), the Account Transactions report's payment rows, manual
 * journals (grouped by narration and date), the exchange-rate file, and Xero's own Trial Balance and Aged
 * Receivables / Payables reports (`XeroReports.ts`). Every row either becomes part of the books or an issue
 * naming its file:line.
 */
import * as Effect from "effect/Effect"
import { rowsOfKind, where, type StagedRow } from "../../staging/SourceRows.js"
import * as Money from "../Money.js"
import type {
  DocumentKind,
  Issue,
  SourceAccount,
  SourceBooks,
  SourceContact,
  SourceDocument,
  SourceItem,
  SourceItemSide,
  SourceJournal,
  SourceLine,
  SourcePayment,
  SourceRate
} from "../SourceModel.js"
import { amount, cell, date, readRows, required, RowProblem } from "./StagedCells.js"
import { stateOf } from "./XeroCredits.js"
import * as XeroKinds from "./XeroKinds.js"
import * as XeroReports from "./XeroReports.js"
import { append } from "../../Multimap.js"

const readAccount = (row: StagedRow): SourceAccount => ({
  code: cell(row, "Code"),
  name: required(row, "Name"),
  type: required(row, "Type"),
  taxCode: cell(row, "Tax Code"),
  description: cell(row, "Description"),
  lineage: where(row)
})

const readContact = (row: StagedRow): SourceContact => ({
  name: required(row, "ContactName"),
  email: cell(row, "EmailAddress"),
  phone: cell(row, "PhoneNumber"),
  taxId: cell(row, "TaxNumber"),
  lineage: where(row)
})

const itemSide = (row: StagedRow, prefix: "Sales" | "Purchases"): SourceItemSide | undefined => {
  const accountCode = cell(row, `${prefix}Account`)
  const price = cell(row, `${prefix}UnitPrice`)
  if (accountCode === "" && price === "" && cell(row, `${prefix}Description`) === "") return undefined
  return {
    description: cell(row, `${prefix}Description`),
    unitPrice: price === "" ? undefined : amount(row, `${prefix}UnitPrice`),
    accountCode,
    taxType: cell(row, `${prefix}TaxRate`)
  }
}

const readItem = (row: StagedRow): SourceItem => ({
  code: required(row, "ItemCode"),
  name: cell(row, "ItemName"),
  sale: itemSide(row, "Sales"),
  purchase: itemSide(row, "Purchases"),
  tracked: cell(row, "InventoryAssetAccount") !== "",
  lineage: where(row)
})

const documentTypes: Record<string, DocumentKind> = { "sales invoice": "invoice", bill: "bill" }

interface DocRow {
  readonly row: StagedRow
  readonly number: string
  readonly line: SourceLine
}

const readDocRow =
  (issues: Array<Issue>) =>
  (row: StagedRow): DocRow | undefined => {
    const type = cell(row, "Type")
    if (documentTypes[type.toLowerCase()] === undefined) {
      issues.push({
        severity: "reject",
        lineage: [where(row)],
        what: `a "${type}" row`,
        why: "credit notes and overpayments are not migrated by this version",
        fix: "migrate them by hand after the load, or wait for credit-note support"
      })
      return undefined
    }
    const line: SourceLine = {
      description: cell(row, "Description"),
      itemCode: cell(row, "InventoryItemCode"),
      quantity: amount(row, "Quantity"),
      unitAmount: amount(row, "UnitAmount"),
      discount: amount(row, "Discount", true),
      lineAmount: amount(row, "LineAmount"),
      accountCode: cell(row, "AccountCode"),
      taxType: cell(row, "TaxType"),
      taxAmount: amount(row, "TaxAmount", true),
      lineage: where(row)
    }
    return { row, number: required(row, "InvoiceNumber"), line }
  }

const groupDocuments = (rows: ReadonlyArray<DocRow>, issues: Array<Issue>): Array<SourceDocument> => {
  const groups = new Map<string, Array<DocRow>>()
  for (const r of rows) {
    const kind = documentTypes[cell(r.row, "Type").toLowerCase()]!
    const key = `${kind}\u0000${r.number}\u0000${cell(r.row, "ContactName")}`
    append(groups, key, r)
  }
  return readRows(
    [...groups.values()].map((g) => g[0]!.row),
    issues,
    (head) => {
      const kind = documentTypes[cell(head, "Type").toLowerCase()]!
      const group = groups.get(
        `${kind}\u0000${cell(head, "InvoiceNumber")}\u0000${cell(head, "ContactName")}`
      )!
      const status = required(head, "Status")
      const state = stateOf(status)
      if (state === undefined) {
        throw new RowProblem(
          `Status ${JSON.stringify(status)} is not a Xero document status`,
          "check the export's Status column"
        )
      }
      const due = cell(head, "DueDate")
      return {
        kind,
        number: cell(head, "InvoiceNumber"),
        contactName: required(head, "ContactName"),
        date: date(head, "InvoiceDate"),
        dueDate: due === "" ? undefined : date(head, "DueDate"),
        currency: (cell(head, "Currency") || "").toUpperCase(),
        state,
        status,
        total: amount(head, "Total"),
        taxTotal: amount(head, "TaxTotal", true),
        amountPaid: amount(head, "InvoiceAmountPaid", true),
        amountDue: amount(head, "InvoiceAmountDue", true),
        lines: group.map((g) => g.line),
        lineage: group.map((g) => where(g.row))
      }
    }
  )
}

const paymentSources: Record<string, DocumentKind> = {
  "receivable payment": "invoice",
  "payable payment": "bill"
}

const readPayment =
  (issues: Array<Issue>) =>
  (row: StagedRow): SourcePayment | undefined => {
    const source = cell(row, "Source")
    const kind = paymentSources[source.toLowerCase()]
    if (kind === undefined) {
      issues.push({
        severity: "reject",
        lineage: [where(row)],
        what: `a "${source}" bank transaction`,
        why: "only receivable and payable payments are migrated by this version",
        fix: "enter it as a cash entry by hand after the load"
      })
      return undefined
    }
    const debit = amount(row, "Debit", true)
    const credit = amount(row, "Credit", true)
    const moneyIn = !Money.isZero(debit)
    return {
      documentKind: kind,
      documentNumber: required(row, "Reference"),
      bankAccountName: required(row, "Account"),
      date: date(row, "Date"),
      amount: moneyIn ? debit : credit,
      lineage: where(row)
    }
  }

const groupJournals = (rows: ReadonlyArray<StagedRow>, issues: Array<Issue>): Array<SourceJournal> => {
  const groups = new Map<string, Array<{ row: StagedRow; line: SourceJournalLineWithDate }>>()
  const lines = readRows(rows, issues, (row) => ({
    row,
    line: {
      narration: required(row, "Narration"),
      date: date(row, "Date"),
      accountCode: required(row, "AccountCode"),
      description: cell(row, "Description"),
      amount: amount(row, "Amount"),
      lineage: where(row)
    }
  }))
  for (const l of lines) {
    const key = `${l.line.narration}\u0000${l.line.date}`
    append(groups, key, l)
  }
  return [...groups.values()].map((g) => ({
    narration: g[0]!.line.narration,
    date: g[0]!.line.date,
    lines: g.map(({ line }) => ({
      accountCode: line.accountCode,
      description: line.description,
      amount: line.amount,
      lineage: line.lineage
    })),
    lineage: g.map(({ row }) => where(row))
  }))
}

interface SourceJournalLineWithDate {
  readonly narration: string
  readonly date: string
  readonly accountCode: string
  readonly description: string
  readonly amount: Money.Money
  readonly lineage: string
}

const readRate = (row: StagedRow): SourceRate => {
  const basePerUnit = amount(row, "Base per Unit")
  if (!Money.greaterThan(basePerUnit, Money.zero))
    throw new RowProblem("Base per Unit is not positive", "correct the rate")
  return {
    currency: required(row, "Currency").toUpperCase(),
    baseCurrency: required(row, "Base Currency").toUpperCase(),
    date: date(row, "Date"),
    basePerUnit,
    lineage: where(row)
  }
}

/** The Xero books in the staging database. */
export const read: Effect.Effect<SourceBooks, never, import("@effect/sql/SqlClient").SqlClient> = Effect.gen(
  function* () {
    const issues: Array<Issue> = []
    const more = yield* XeroKinds.staged
    const docRows = readRows(more.invoicesAndBills, issues, readDocRow(issues))
    const accounts = readRows(yield* rowsOfKind("xero.accounts"), issues, readAccount)
    return XeroKinds.complete(more, issues, {
      accounts,
      contacts: readRows(yield* rowsOfKind("xero.contacts"), issues, readContact),
      items: readRows(yield* rowsOfKind("xero.items"), issues, readItem),
      documents: groupDocuments(docRows, issues),
      payments: readRows(more.payments, issues, readPayment(issues)),
      journals: groupJournals(yield* rowsOfKind("xero.manual_journals"), issues),
      rates: readRows(yield* rowsOfKind("generic.exchange_rates"), issues, readRate),
      trialBalances: XeroReports.trialBalances(yield* rowsOfKind("xero.trial_balance"), accounts, issues),
      agedReports: [
        ...XeroReports.agedReports("AR", yield* rowsOfKind("xero.aged_receivables"), issues),
        ...XeroReports.agedReports("AP", yield* rowsOfKind("xero.aged_payables"), issues)
      ],
      issues
    })
  }
)
