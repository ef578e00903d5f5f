/**
 * The source books as the transform understands them, independent of the export layout they came from:
 * accounts, contacts, items, documents with lines, bank payments, journals and exchange rates, each with
 * its file:line lineage. A source profile (e.g. `xero/XeroSource.ts`) builds this from staged rows.
 */
import type { Money } from "./Money.js"

/** Something the user must know about: a row that will not be migrated (`reject`) or a caveat (`warning`). */
export interface Issue {
  readonly severity: "reject" | "warning"
  readonly lineage: ReadonlyArray<string>
  readonly what: string
  readonly why: string
  readonly fix: string
}

export interface SourceAccount {
  readonly code: string
  readonly name: string
  readonly type: string
  readonly taxCode: string
  readonly description: string
  readonly lineage: string
}

export interface SourceContact {
  readonly name: string
  readonly email: string
  readonly phone: string
  readonly taxId: string
  readonly lineage: string
}

export interface SourceItemSide {
  readonly description: string
  readonly unitPrice: Money | undefined
  readonly accountCode: string
  readonly taxType: string
}

export interface SourceItem {
  readonly code: string
  readonly name: string
  readonly sale: SourceItemSide | undefined
  readonly purchase: SourceItemSide | undefined
  readonly tracked: boolean
  readonly lineage: string
}

export interface SourceLine {
  readonly description: string
  readonly itemCode: string
  readonly quantity: Money
  readonly unitAmount: Money
  readonly discount: Money
  readonly lineAmount: Money
  readonly accountCode: string
  readonly taxType: string
  readonly taxAmount: Money
  readonly lineage: string
}

export type DocumentKind = "invoice" | "bill"

export type DocumentState = "draft" | "open" | "voided"

export interface SourceDocument {
  readonly kind: DocumentKind
  readonly number: string
  readonly contactName: string
  readonly date: string
  readonly dueDate: string | undefined
  readonly currency: string
  readonly state: DocumentState
  readonly status: string
  readonly total: Money
  readonly taxTotal: Money
  readonly amountPaid: Money
  readonly amountDue: Money
  readonly lines: ReadonlyArray<SourceLine>
  readonly lineage: ReadonlyArray<string>
}

/** Money moved through a bank account against a document (amount in the bank's currency). */
export interface SourcePayment {
  readonly documentKind: DocumentKind
  readonly documentNumber: string
  readonly bankAccountName: string
  readonly date: string
  readonly amount: Money
  readonly lineage: string
}

export interface SourceJournalLine {
  readonly accountCode: string
  readonly description: string
  readonly amount: Money
  readonly lineage: string
}

export interface SourceJournal {
  readonly narration: string
  readonly date: string
  readonly lines: ReadonlyArray<SourceJournalLine>
  readonly lineage: ReadonlyArray<string>
}

/** An exchange rate as the source holds it: base units per 1 unit of `currency`. */
export interface SourceRate {
  readonly currency: string
  readonly baseCurrency: string
  readonly date: string
  readonly basePerUnit: Money
  readonly lineage: string
}

/**
 * One account row of the source system's own Trial Balance report, as the report spells it. Amounts are in
 * the organisation's base currency; a row carries a debit or a credit (the other is zero).
 */
export interface SourceTrialBalanceLine {
  /** The account's name as the report shows it (without any " (code)" suffix). */
  readonly accountName: string
  /** The account code when the report shows one ("Name (200)" or an `Account Code` column), else "". */
  readonly accountCode: string
  /** The report's section heading carried down to the row (Revenue, Expenses, Assets, …), else "". */
  readonly section: string
  readonly debit: Money
  readonly credit: Money
  readonly lineage: string
}

/** The source system's own Trial Balance at one date: the independent proof the reconciliation uses. */
export interface SourceTrialBalance {
  /** YYYY-MM-DD, taken from the report's title rows ("As at 31 December 2025"). */
  readonly asAt: string
  readonly lines: ReadonlyArray<SourceTrialBalanceLine>
  /** The report's own grand total row, when it has one (checked against the sum of its lines on read). */
  readonly totalDebit: Money
  readonly totalCredit: Money
  /** The file the report came from (for the sign-off pack). */
  readonly file: string
}

/** One open item of an aged receivables or payables detail report. */
export interface SourceAgedItem {
  readonly contactName: string
  /** The document number ("" when the report leaves it out, as payables detail may). */
  readonly number: string
  readonly reference: string
  readonly date: string
  readonly dueDate: string | undefined
  /** The outstanding amount in the report's currency (the base currency unless `currency` says otherwise). */
  readonly outstanding: Money
  /** The document's currency when the report shows it, else undefined (then `outstanding` is base). */
  readonly currency: string | undefined
  readonly lineage: string
}

/** The source system's own aged receivables (AR) or payables (AP) detail at one date. */
export interface SourceAgedReport {
  readonly side: "AR" | "AP"
  /** YYYY-MM-DD, taken from the report's title rows. */
  readonly asAt: string
  readonly items: ReadonlyArray<SourceAgedItem>
  readonly file: string
}

export interface SourceBooks {
  readonly accounts: ReadonlyArray<SourceAccount>
  readonly contacts: ReadonlyArray<SourceContact>
  readonly items: ReadonlyArray<SourceItem>
  readonly documents: ReadonlyArray<SourceDocument>
  readonly payments: ReadonlyArray<SourcePayment>
  readonly journals: ReadonlyArray<SourceJournal>
  readonly rates: ReadonlyArray<SourceRate>
  /** The source's own Trial Balance reports found in the input, one per as-at date (may be none). */
  readonly trialBalances: ReadonlyArray<SourceTrialBalance>
  /** The source's own aged receivables / payables detail reports, one per side and date (may be none). */
  readonly agedReports: ReadonlyArray<SourceAgedReport>
  readonly issues: ReadonlyArray<Issue>
}
