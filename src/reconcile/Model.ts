/**
 * The reconciliation as the sign-off pack reports it: the independent comparisons (the target's trial
 * balance against the source's own Trial Balance, AR and AP against the source's aged reports), the
 * document comparison with our own reading of the source, the clearing accounts, what the load created and
 * every difference classified with a suggested fix and its source rows. Amounts are exact decimal strings
 * (`"-1234.50"`); the writers format them.
 */

/** The kinds of difference, each with its own suggested fix. */
export type DifferenceClass =
  | "missing-account"
  | "extra-account"
  | "sign-reversed"
  | "rounding"
  | "transaction"
  | "contact-balance"
  | "document"
  | "clearing-not-zero"
  | "unbalanced"

export const classLabels: Record<DifferenceClass, string> = {
  "missing-account": "Account missing in the target",
  "extra-account": "Extra account in the target",
  "sign-reversed": "Sign reversed",
  rounding: "Rounding",
  transaction: "Missing or extra transaction",
  "contact-balance": "Contact balance differs",
  document: "Document differs",
  "clearing-not-zero": "Clearing account not at zero",
  unbalanced: "Target trial balance does not balance"
}

/** A document, journal or payment that may explain a difference. */
export interface Candidate {
  /** `missing`: in the source, not in the target; `extra`: in the target only; `changed`: in both, different. */
  readonly kind: "missing" | "extra" | "changed"
  readonly entity: string
  readonly reference: string
  readonly date: string
  readonly source: string
  readonly target: string
  readonly lineage: ReadonlyArray<string>
}

export interface Difference {
  readonly class: DifferenceClass
  readonly area: "Trial balance" | "AR" | "AP" | "Documents" | "Clearing accounts"
  readonly asAt: string
  /** The account, contact or document, as the source spells it (else as the target does). */
  readonly subject: string
  readonly source: string
  readonly target: string
  /** target − source, debit positive for accounts. */
  readonly difference: string
  readonly fix: string
  readonly candidates: ReadonlyArray<Candidate>
  readonly lineage: ReadonlyArray<string>
}

export interface Amounts {
  readonly sourceDebit: string
  readonly sourceCredit: string
  readonly targetDebit: string
  readonly targetCredit: string
  readonly difference: string
}

export interface TrialBalanceRow extends Amounts {
  readonly section: string
  /** The source's account names and codes on this row (several when they map onto one target account). */
  readonly sourceAccounts: ReadonlyArray<{ readonly name: string; readonly code: string }>
  readonly targetAccount: string | undefined
  readonly status: "ok" | DifferenceClass
  readonly lineage: ReadonlyArray<string>
}

export interface TrialBalanceComparison {
  readonly asAt: string
  readonly file: string
  readonly sections: ReadonlyArray<{
    readonly name: string
    readonly rows: ReadonlyArray<TrialBalanceRow>
    readonly totals: Amounts
  }>
  readonly totals: Amounts
  readonly targetBalanced: boolean
}

export interface AgedDocumentRow {
  readonly number: string
  readonly reference: string
  readonly date: string
  readonly dueDate: string
  readonly source: string
  readonly target: string
  readonly difference: string
  readonly lineage: ReadonlyArray<string>
}

export interface AgedContactRow {
  readonly contact: string
  readonly currency: string
  readonly source: string
  readonly target: string
  readonly difference: string
  readonly status: "ok" | DifferenceClass
  readonly documents: ReadonlyArray<AgedDocumentRow>
}

export interface AgedComparison {
  readonly side: "AR" | "AP"
  readonly asAt: string
  readonly file: string
  /** Whether the source report gives document currencies (then contacts are compared per currency). */
  readonly perCurrency: boolean
  readonly contacts: ReadonlyArray<AgedContactRow>
  readonly totals: { readonly source: string; readonly target: string; readonly difference: string }
}

/** One check of a migrated document or journal against our own reading of the source. */
export interface Mismatch {
  readonly entity: string
  readonly key: string
  readonly field: string
  readonly source: string
  readonly target: string
  readonly lineage: ReadonlyArray<string>
}

export interface Count {
  readonly entity: string
  readonly source: number
  readonly target: number
  readonly matched: number
}

export interface Outstanding {
  readonly side: "AR" | "AP"
  readonly contact: string
  readonly currency: string
  readonly source: string
  readonly target: string
  readonly report: string
}

/** The comparison with what our own extract and transform understood of the source documents. */
export interface DocumentComparison {
  readonly asAt: string
  readonly counts: ReadonlyArray<Count>
  readonly mismatches: ReadonlyArray<Mismatch>
  readonly outstanding: ReadonlyArray<Outstanding>
}

export interface ClearingAccount {
  readonly account: string
  readonly balances: ReadonlyArray<{ readonly asAt: string; readonly balance: string }>
}

export interface EntityCount {
  readonly kind: string
  readonly planned: number
  readonly created: number
  readonly adopted: number
  readonly rejected: number
  readonly notDone: number
}

export interface AppliedRate {
  readonly currency: string
  readonly from: string
  readonly to: string
  /** Base units per 1 unit of the currency, as the source gives it. */
  readonly sourceBasePerUnit: string
  /** Units of the currency per 1 base unit, as sent to the target. */
  readonly targetRate: string
  readonly status: string
  readonly lineage: ReadonlyArray<string>
}

export type Verdict = "MATCHES" | "DIFFERENCES" | "NOT PROVEN"

export interface Reconciliation {
  /** True only when the independent comparisons were made and nothing differs. */
  readonly matches: boolean
  readonly verdict: Verdict
  readonly header: {
    readonly company: string
    readonly baseCurrency: string
    readonly conversion: string
    readonly asAt: string
    readonly trialBalanceDates: ReadonlyArray<string>
    readonly agedDates: { readonly AR: ReadonlyArray<string>; readonly AP: ReadonlyArray<string> }
    readonly planHash: string
  }
  /** What could not be proved independently, and what to export from the source to prove it. */
  readonly notProven: ReadonlyArray<{ readonly what: string; readonly export: string }>
  readonly trialBalances: ReadonlyArray<TrialBalanceComparison>
  readonly aged: ReadonlyArray<AgedComparison>
  readonly documents: DocumentComparison
  readonly clearing: ReadonlyArray<ClearingAccount>
  readonly entities: ReadonlyArray<EntityCount>
  readonly rates: ReadonlyArray<AppliedRate>
  readonly differences: ReadonlyArray<Difference>
  /** The target's own trial balance at the document date: debits, credits, balanced. */
  readonly targetTrialBalance: {
    readonly asAt: string
    readonly debit: string
    readonly credit: string
    readonly balanced: boolean
  }
  readonly notes: ReadonlyArray<string>
}

/** What the reconciliation needs to know of the source system: its name and where its own reports come from. */
export interface SourceSystem {
  readonly name: string
  /** How to export each report the independent proof needs, as at `date` (a menu path, in the source's words). */
  readonly exports: {
    readonly trialBalance: (date: string) => string
    readonly AR: (date: string) => string
    readonly AP: (date: string) => string
  }
}

/** A source system that says nothing of itself. */
export const anySource: SourceSystem = {
  name: "source system",
  exports: {
    trialBalance: (d) => `the source system's Trial Balance report as at ${d}`,
    AR: (d) => `the source system's aged receivables detail report as at ${d}`,
    AP: (d) => `the source system's aged payables detail report as at ${d}`
  }
}
