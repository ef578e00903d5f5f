/**
 * The source books as the transform understands them, independent of the export layout they came from:
 * accounts, contacts, items, documents with lines, credits (credit notes, overpayments, prepayments), bank
 * payments, refunds, cash entries, transfers, journals and exchange rates, each with its file:line lineage. A source profile (e.g. `xero/XeroSource.ts`) builds this from staged rows.
 */
import type { Money } from "./Money.js"
import type { Records } from "./Records.js"

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
  /**
   * A finer type under `type` (QuickBooks' Detail type), when the source has one: the account-types mapping
   * is looked up as `Type: Detail type` first, then as `Type`.
   */
  readonly detailType?: string
  readonly taxCode: string
  readonly description: string
  readonly lineage: string
  /** A bank account's own currency when the export says (absent: the base currency). */
  readonly currency?: string
  /**
   * The source's receivables or payables control account, when the source says so although the account
   * migrates as an ordinary one (a profiled ledger's debtors control is posted by journals): a quick
   * conversion treats its balance as the open items of the aged listing.
   */
  readonly control?: "AR" | "AP"
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

/** One tracking category option on a line (Xero `TrackingName1`/`TrackingOption1`, …). */
export interface SourceTracking {
  readonly category: string
  readonly option: string
}

export interface SourceLine {
  readonly description: string
  readonly itemCode: string
  readonly quantity: Money
  readonly unitAmount: Money
  /** A percentage (Xero's `Discount`), zero when none. */
  readonly discount: Money
  readonly lineAmount: Money
  readonly accountCode: string
  readonly taxType: string
  readonly taxAmount: Money
  readonly lineage: string
  readonly tracking?: ReadonlyArray<SourceTracking>
}

export type DocumentKind = "invoice" | "bill"

/** Every kind of document, invoices first. */
export const documentKinds = ["invoice", "bill"] as const satisfies ReadonlyArray<DocumentKind>

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
  /** A rate to send with the document (document-currency units per base unit) instead of the organisation's. */
  readonly exchangeRate?: Money
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
  readonly tracking?: ReadonlyArray<SourceTracking>
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
  /** Its items: an array, or (the books a plan is built from) read from the books' spill (`BooksSpill`). */
  readonly items: Records<SourceAgedItem>
  readonly file: string
}

/** Which ledger a credit belongs to: sales (customer credit) or purchases (supplier credit). */
export type CreditSide = "sale" | "purchase"

/** What the source called the credit: a numbered credit note, or an overpayment or prepayment (no number). */
export type CreditOrigin = "credit-note" | "overpayment" | "prepayment"

/**
 * A credit the contact holds: a credit note, an overpayment or a prepayment. Amounts are positive, in the
 * credit's currency, whatever sign the export gave them; `used` is what was allocated to documents or
 * refunded, `remaining` what is left (`used + remaining = total`).
 */
export interface SourceCredit {
  readonly side: CreditSide
  readonly origin: CreditOrigin
  /** The credit note number; "" for overpayments and prepayments, which have none. */
  readonly number: string
  /** The export's `Reference` column ("" when empty). */
  readonly reference: string
  readonly contactName: string
  readonly date: string
  readonly currency: string
  readonly state: DocumentState
  readonly status: string
  readonly total: Money
  readonly taxTotal: Money
  readonly used: Money
  readonly remaining: Money
  readonly lines: ReadonlyArray<SourceLine>
  readonly lineage: ReadonlyArray<string>
  /** A rate to send with the credit note (credit-currency units per base unit) instead of the organisation's. */
  readonly exchangeRate?: Money
  /**
   * A prepayment brought in by a conversion's opening position: its cash and its account's balance are in
   * the opening balances, so it has no bank row of its own; only what is applied or refunded after moves.
   */
  readonly opening?: boolean
}

/** Cash paid back against a credit (a refund), in the bank account's currency. */
export interface SourceRefund {
  readonly side: CreditSide
  /** The credit note number the bank row names ("" when it names none, as for overpayments). */
  readonly creditNumber: string
  readonly contactName: string
  readonly bankAccountName: string
  readonly date: string
  readonly amount: Money
  readonly lineage: string
}

/** The bank row that received (sales) or paid (purchases) an overpayment or prepayment. */
export interface SourceCreditFunding {
  readonly side: CreditSide
  readonly origin: "overpayment" | "prepayment"
  readonly contactName: string
  readonly bankAccountName: string
  readonly date: string
  readonly amount: Money
  readonly reference: string
  readonly lineage: string
}

/** One offsetting line of a cash entry: positive on the entry's natural side (credit for money in). */
export interface SourceCashLine {
  /** The account as the report names it (its section heading): a name, or a code. */
  readonly accountName: string
  readonly amount: Money
  readonly description: string
  readonly lineage: string
}

/** Money received or spent directly through a bank account (Xero Receive Money / Spend Money). */
export interface SourceCashEntry {
  readonly direction: "in" | "out"
  readonly bankAccountName: string
  readonly date: string
  readonly contactName: string
  readonly reference: string
  readonly description: string
  /** In the bank account's currency; equals the sum of the lines. */
  readonly amount: Money
  readonly lines: ReadonlyArray<SourceCashLine>
  readonly lineage: ReadonlyArray<string>
}

/** Money moved between two bank accounts; each amount in its own account's currency. */
export interface SourceTransfer {
  readonly fromAccountName: string
  readonly toAccountName: string
  readonly date: string
  readonly reference: string
  readonly amountOut: Money
  readonly amountIn: Money
  /** The money-out row, then the money-in row. */
  readonly lineage: ReadonlyArray<string>
}

/** An allocation stated by the user (the optional allocations file): it overrides the inference. */
export interface SourceAllocation {
  /** A credit note number, or the migration reference of an overpayment or prepayment. */
  readonly creditNumber: string
  readonly documentNumber: string
  readonly amount: Money
  readonly lineage: string
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
  /** Credit notes, overpayments and prepayments (absent: none). */
  readonly credits?: ReadonlyArray<SourceCredit>
  readonly refunds?: ReadonlyArray<SourceRefund>
  readonly creditFundings?: ReadonlyArray<SourceCreditFunding>
  readonly cashEntries?: ReadonlyArray<SourceCashEntry>
  readonly transfers?: ReadonlyArray<SourceTransfer>
  readonly allocations?: ReadonlyArray<SourceAllocation>
  readonly issues: ReadonlyArray<Issue>
}

/**
 * The books as reconcile compares them: the source's books less what only the candidate postings use (cash
 * entries, transfers, allocations, credit fundings), and of each payment only its document's kind and its
 * date. The full books (`SourceBooks`) are such books.
 */
export type ComparedBooks = Omit<
  SourceBooks,
  "payments" | "cashEntries" | "transfers" | "allocations" | "creditFundings"
> & { readonly payments: ReadonlyArray<Pick<SourcePayment, "documentKind" | "date">> }

/**
 * The books as a plan reads them: the invoices and bills, and the payments, as records that need not be held
 * in the heap (`Records`: a plan keeps them in a `BooksSpill`), the rest as `SourceBooks` holds it.
 */
export type Books = Omit<SourceBooks, "documents" | "payments"> & {
  readonly documents: Records<SourceDocument>
  readonly payments: Records<SourcePayment>
}
