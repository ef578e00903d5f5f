/**
 * The dry-run preview of a stored plan, as `plan` writes it beside the workspace (`WS/plan.html`,
 * `WS/plan.xlsx`) so that the plan can be signed off before anything is written: per phase what will be
 * created and what is matched in (or adopted from) the target, every operation with its key fields, the
 * issues grouped by what to do, and the projected trial balance — what the load will post to each account
 * (`Projection`), beside the source's own Trial Balance at the same date where the input has one.
 *
 * Held: building it reads the plan and a scratch copy of the target only, so the plan and its hash are what
 * they were; amounts are exact decimal strings (`"-1234.50"`), as in the reconciliation's model.
 */
import * as Money from "../transform/Money.js"
import type { AccountPairing } from "../transform/RecordIdentity.js"
import type { Issue, SourceTrialBalance } from "../transform/SourceModel.js"
import { phases, type Phase } from "../transform/Plan.js"
import * as Refs from "../transform/Refs.js"
import type { TrialBalanceComparison } from "../reconcile/Model.js"
import * as TrialBalanceCheck from "../reconcile/TrialBalanceCheck.js"
import type { TargetTrialBalance } from "../reconcile/TargetBooks.js"
import type { ListedOp, StoredOp } from "../staging/PlanStore.js"
import { documentKinds, type Outcome, type Projection } from "./Projection.js"
import { append } from "../Multimap.js"
import { classSections } from "../reconcile/TrialBalanceCheck.js"

export interface PreviewHeader {
  readonly company: string
  readonly sourceSystem: string
  readonly baseCurrency: string
  /** "full history", "quick conversion as at …" or "from … (opening position as at …)". */
  readonly conversion: string
  readonly planHash: string
  readonly operations: number
  readonly generatedAt: string
}

/** One kind of operation in a phase, by what the load will do with it. */
export interface KindCount {
  readonly phase: Phase
  readonly kind: string
  readonly planned: number
  readonly created: number
  readonly adopted: number
  readonly refused: number
  readonly skipped: number
}

/** One planned operation with its key fields. */
export interface PreviewDoc {
  readonly seq: number
  readonly phase: Phase
  readonly kind: string
  /** The natural key: a document's reference, an account's or contact's name, … */
  readonly reference: string
  readonly date: string
  /** The contact, or what a settlement applies to. */
  readonly party: string
  readonly currency: string
  /** The amount in `currency` ("" when the kind has none). */
  readonly amount: string
  readonly outcome: Outcome | "not projected"
  readonly message: string
  readonly lineage: ReadonlyArray<string>
}

/** Issues sharing one fix. */
export interface IssueGroup {
  readonly severity: Issue["severity"]
  readonly fix: string
  readonly issues: ReadonlyArray<Issue>
}

export interface ProjectedRow {
  readonly section: string
  readonly account: string
  readonly code: string
  /** "exists" when the target has the account already, "created" when the plan creates it. */
  readonly origin: "exists" | "created"
  readonly debit: string
  readonly credit: string
}

export interface ProjectedTrialBalance {
  readonly sections: ReadonlyArray<{
    readonly name: string
    readonly rows: ReadonlyArray<ProjectedRow>
    readonly debit: string
    readonly credit: string
  }>
  readonly debit: string
  readonly credit: string
}

export interface Preview {
  readonly header: PreviewHeader
  readonly kinds: ReadonlyArray<KindCount>
  /** References to records the target has already (matched by natural key, not created), per entity. */
  readonly matched: ReadonlyArray<{ readonly entity: string; readonly count: number }>
  /**
   * The operations the page lists, in plan order: every one, or only the first of each phase when
   * `phaseCounts` says how many there are (a plan's preview does not hold them all; `plan.xlsx` lists
   * them as it pages through the stored plan).
   */
  readonly documents: ReadonlyArray<PreviewDoc>
  /** Operations per phase, when `documents` holds only the first of each. */
  readonly phaseCounts?: Readonly<Partial<Record<Phase, number>>>
  readonly issues: ReadonlyArray<IssueGroup>
  /** Undefined when the projection could not be made (`unavailable` says why). */
  readonly projected: ProjectedTrialBalance | undefined
  /** The projection beside each of the source's own Trial Balances ("target" = projected). */
  readonly comparisons: ReadonlyArray<TrialBalanceComparison>
  /** Plain statements of what the projection cannot know before the load. */
  readonly unknowns: ReadonlyArray<string>
  readonly unavailable: string | undefined
}

const sectionOrder = ["Assets", "Liabilities", "Equity", "Revenue", "Expenses"]

type Body = Record<string, unknown>
const str = (v: unknown) => (typeof v === "string" ? v : "")
const num = (v: unknown) => (typeof v === "number" ? Money.fromNumber(v) : Money.zero)
const list = (v: unknown) => (Array.isArray(v) ? (v as Array<Body>) : [])
const name = (v: unknown) => {
  const r = Refs.parse(str(v))
  return r ? r.naturalKey : str(v)
}
const fixed = (m: Money.Money) => Money.toFixed(m)

/** The amount of an operation whose kind has one in its body, else "". */
const bodyAmount = (kind: string, b: Body): string => {
  switch (kind) {
    case "invoice-payment":
    case "bill-payment":
      return fixed(Money.sum(list(b.payments).map((p) => num(p.paymentAmount))))
    case "customer-refund":
    case "supplier-refund":
      return fixed(Money.sum(list(b.refunds).map((p) => num(p.refundAmount))))
    case "invoice-credit":
    case "bill-credit":
      return fixed(Money.sum(list(b.credits).map((p) => num(p.amountApplied))))
    case "journal":
      return fixed(
        Money.sum(
          list(b.journalEntries)
            .filter((e) => e.type === "DEBIT")
            .map((e) => num(e.amount))
        )
      )
    case "cash-in":
    case "cash-out":
      return fixed(Money.sum(list(b.journalEntries).map((e) => num(e.amount))))
    case "cash-transfer":
      return fixed(num((b.cashOut as Body | undefined)?.amount))
    case "rate":
      return String(b.rate ?? "")
    default:
      return ""
  }
}

/**
 * What the preview lists of an operation that its body alone says: its date, party, currency (the body's own;
 * "" for the base currency) and amount ("" for a document, whose total is the platform's). Made from the body
 * as built (the plan's scratch keeps it beside the operation, `PlanScratch.open`) or as stored
 * (`listedOf`): the same for both, since the stored body is the built one's canonical text.
 */
export type Listed = readonly [date: string, party: string, currency: string, amount: string]

export const listing = (kind: string, phase: Phase, body: unknown): Listed => {
  const b = body as Body
  const firstSettlement = list(b.payments)[0] ?? list(b.refunds)[0] ?? {}
  return [
    str(b.valueDate) || str(firstSettlement.valueDate) || str(b.rateApplicableFrom),
    name(b.contactResourceId) || (phase === "settlements" ? name(b.resourceId) : ""),
    str((b.currency as Body | undefined)?.sourceCurrency) || str(b.currencyCode),
    bodyAmount(kind, b)
  ]
}

/** A stored operation as the preview reads it. */
export const listedOf = (op: StoredOp): ListedOp => ({
  seq: op.seq,
  key: op.key,
  phase: op.phase,
  kind: op.kind,
  naturalKey: op.naturalKey,
  lineage: op.lineage,
  listed: listing(op.kind, op.phase, op.body)
})

/** The key fields of one operation, as the preview lists it. */
export const docOf = (
  op: ListedOp,
  baseCurrency: string,
  outcome: { readonly outcome: Outcome; readonly message?: string; readonly total?: number } | undefined
): PreviewDoc => {
  const [date, party, currency, amount] = op.listed as Listed
  const total = outcome?.total
  return {
    seq: op.seq,
    phase: op.phase,
    kind: op.kind,
    reference: op.naturalKey,
    date,
    party,
    currency: currency || (op.kind === "currency" ? "" : op.phase === "transactions" ? baseCurrency : ""),
    amount: documentKinds.has(op.kind) ? (total === undefined ? "" : fixed(Money.fromNumber(total))) : amount,
    outcome: outcome?.outcome ?? "not projected",
    message: outcome?.message ?? "",
    lineage: op.lineage
  }
}

/** Issues grouped by what to do: rejects first, then the fix's text. */
export const groupIssues = (issues: ReadonlyArray<Issue>): Array<IssueGroup> => {
  const groups = new Map<string, { severity: Issue["severity"]; fix: string; issues: Array<Issue> }>()
  for (const i of issues) {
    const k = `${i.severity}\u0000${i.fix}`
    const g = groups.get(k) ?? { severity: i.severity, fix: i.fix, issues: [] }
    g.issues.push(i)
    groups.set(k, g)
  }
  return [...groups.values()].sort(
    (a, b) =>
      (a.severity === b.severity ? 0 : a.severity === "reject" ? -1 : 1) ||
      b.issues.length - a.issues.length ||
      a.fix.localeCompare(b.fix)
  )
}

/**
 * Counts per phase and kind by outcome: `planned` counts each kind's operations (in plan order of each kind's
 * first), `outcomes` are what the projection made of them (none when nothing was projected).
 */
export const kindCounts = (
  planned: ReadonlyArray<{ readonly phase: Phase; readonly kind: string; readonly n: number }>,
  outcomes: ReadonlyArray<Pick<PreviewDoc, "phase" | "kind" | "outcome">>
): Array<KindCount> => {
  const m = new Map<string, { phase: Phase; kind: string; planned: number } & Record<Outcome, number>>()
  const keyOf = (d: { readonly phase: Phase; readonly kind: string }) => `${d.phase}\u0000${d.kind}`
  for (const p of planned)
    m.set(keyOf(p), {
      phase: p.phase,
      kind: p.kind,
      planned: p.n,
      created: 0,
      adopted: 0,
      refused: 0,
      skipped: 0
    })
  for (const o of outcomes) {
    const c = m.get(keyOf(o))
    if (c !== undefined && o.outcome !== "not projected") c[o.outcome]++
  }
  return [...m.values()].sort((a, b) => phases.indexOf(a.phase) - phases.indexOf(b.phase))
}

/** The projected trial balance by class, every account the load posts to. */
export const projectedTrialBalance = (p: Projection): ProjectedTrialBalance => {
  const posted = p.accounts.filter((a) => !Money.isZero(a.amount))
  const debit = (m: Money.Money) => (Money.isNegative(m) ? Money.zero : m)
  const credit = (m: Money.Money) => (Money.isNegative(m) ? Money.negate(m) : Money.zero)
  const names = [
    ...new Set([
      ...sectionOrder,
      ...posted.map((a) => classSections[a.accountClass] ?? (a.accountClass || "Other"))
    ])
  ]
  const sections = names
    .map((section) => {
      const in_ = posted.filter(
        (a) => (classSections[a.accountClass] ?? (a.accountClass || "Other")) === section
      )
      return {
        name: section,
        rows: in_.map((a): ProjectedRow => ({
          section,
          account: a.name,
          code: a.code,
          origin: a.existing ? "exists" : "created",
          debit: fixed(debit(a.amount)),
          credit: fixed(credit(a.amount))
        })),
        debit: fixed(Money.sum(in_.map((a) => debit(a.amount)))),
        credit: fixed(Money.sum(in_.map((a) => credit(a.amount))))
      }
    })
    .filter((s) => s.rows.length > 0)
  return {
    sections,
    debit: fixed(Money.sum(posted.map((a) => debit(a.amount)))),
    credit: fixed(Money.sum(posted.map((a) => credit(a.amount))))
  }
}

/** The projection as at a source Trial Balance's date, compared with it account by account. */
export const compareWithSource = (
  p: Projection,
  tb: SourceTrialBalance,
  pairing: ReadonlyArray<AccountPairing>
): TrialBalanceComparison => {
  const at = p.asAt.get(tb.asAt) ?? new Map<string, Money.Money>()
  const byName = new Map(p.accounts.map((a) => [a.name, a]))
  const rows = [...at].map(([accountName, balance]) => ({
    accountName,
    accountCode: byName.get(accountName)?.code ?? "",
    balance
  }))
  const target: TargetTrialBalance = {
    asAt: tb.asAt,
    rows,
    debit: Money.sum(rows.filter((r) => !Money.isNegative(r.balance)).map((r) => r.balance)),
    credit: Money.sum(rows.filter((r) => Money.isNegative(r.balance)).map((r) => Money.negate(r.balance)))
  }
  const chart = p.accounts.map((a) => ({
    name: a.name,
    code: a.code,
    accountClass: a.accountClass,
    accountType: a.accountType,
    controlFlag: a.controlFlag
  }))
  const groups = TrialBalanceCheck.groupAccounts(tb, target, chart, pairing)
  return TrialBalanceCheck.compare(tb, target, groups, new Map()).comparison
}

/** Plain statements of what the projection cannot know before the load (none when everything is known). */
export const unknownsOf = (p: Projection): Array<string> => {
  const unknowns: Array<string> = []
  const refused = p.outcomes.filter((o) => o.outcome === "refused")
  const skipped = p.outcomes.filter((o) => o.outcome === "skipped")
  if (refused.length > 0)
    unknowns.push(
      `${refused.length} operation${refused.length === 1 ? " is" : "s are"} refused by a copy of the target (e.g. ${refused[0]!.key}: ${refused[0]!.message ?? ""}), and ${skipped.length} depend${skipped.length === 1 ? "s" : ""} on one: what they would post is not in the projection. Fix them before loading (the operations sheet of plan.xlsx lists each with the platform's words).`
    )
  const rated = new Map<string, Array<string>>()
  for (const r of p.platformRated) append(rated, r.currency, r.date)
  for (const [currency, dates] of rated) {
    const sorted = [...dates].sort()
    const one = dates.length === 1
    unknowns.push(
      `${dates.length} ${currency} document${one ? "" : "s"} (dated ${sorted[0]} to ${sorted[sorted.length - 1]}) fall${one ? "s" : ""} on days no ${currency} rate of the target or of the plan covers: the platform will value ${one ? "it" : "them"} at its own rate of the day of the load, so ${one ? "its" : "their"} base-currency figures here use the target's fallback rate of today and may differ after the load.`
    )
  }
  return unknowns
}
