/**
 * Builds the plan from source books, the target snapshot and the mappings: pure and deterministic (no
 * clock, no randomness, stable ordering), so the same inputs always give the same plan hash.
 */
import * as Matching from "../review/Matching.js"
import { withSpill, type SpilledBooks } from "./BooksSpill.js"
import * as CashPlanner from "./CashPlanner.js"
import * as CreditPlanner from "./CreditPlanner.js"
import * as CreditSettlements from "./CreditSettlements.js"
import { datesOf } from "./DocumentSurvey.js"
import * as DocumentPlanner from "./DocumentPlanner.js"
import type { Mappings } from "./Mappings.js"
import * as MasterDataPlanner from "./MasterDataPlanner.js"
import { order, OpsInMemory, type BuiltPlan, type OpSink, type Plan } from "./Plan.js"
import { PlanContext } from "./PlanContext.js"
import type { Books } from "./SourceModel.js"
import * as TagPlanner from "./TagPlanner.js"
import type { TargetSnapshot } from "./TargetSnapshot.js"

/** The last business date in the books (rates are extended to cover it). */
const lastDate = (books: Books): string => {
  const dates = datesOf(books)
  return [
    dates.last,
    dates.lastPayment,
    ...books.journals.map((j) => j.date),
    ...(books.credits ?? []).map((c) => c.date),
    ...(books.refunds ?? []).map((r) => r.date),
    ...(books.cashEntries ?? []).map((e) => e.date),
    ...(books.transfers ?? []).map((t) => t.date)
  ].reduce((max, d) => (d > max ? d : max), "0000-01-01")
}

/**
 * The order of planning follows the dependencies: tags; currencies, rates, accounts (and the clearing
 * account of overpayments), contacts, items; documents, credits, journals, cash entries and transfers; then
 * what settles them — refunds and credit applications first, since the payments of a document must complete
 * what its credits leave. The documents and payments are read from the books' spill as each is planned, and
 * of the documents' cash only that of the documents a credit can go to is held, for the credits.
 */
const planAll = (ctx: PlanContext, books: SpilledBooks): BuiltPlan => {
  ctx.issues.push(...books.issues)
  TagPlanner.planTags(ctx, books)
  MasterDataPlanner.planCurrenciesAndRates(ctx, books, lastDate(books))
  MasterDataPlanner.planAccounts(ctx, books)
  const clearing = CreditPlanner.planClearingAccount(ctx, books)
  MasterDataPlanner.planContacts(ctx, books)
  MasterDataPlanner.planItems(ctx, books)
  const documents = DocumentPlanner.planDocuments(ctx, books)
  const credits = CreditPlanner.planCredits(ctx, books, clearing)
  MasterDataPlanner.planJournals(ctx, books)
  CashPlanner.planCash(ctx, books)
  DocumentPlanner.planPayments(ctx, books, documents, (takers) =>
    CreditSettlements.planCreditSettlements(ctx, books, credits, takers)
  )
  return {
    issues: ctx.issues,
    accounts: ctx.accountPairings,
    clearingAccounts: clearing ? [clearing.name] : []
  }
}

/**
 * `books` as the build reads them: each aged report without its items. The items are what reconcile compares
 * the target's open items with, kept for it with what each is in the books before the build
 * (`PlanBooks.save`); no planner reads them, and at 100,000 invoices they are 79,000 of the books' records.
 */
export const withoutAgedItems = <B extends Books>(books: B): B => ({
  ...books,
  agedReports: books.agedReports.map((r) => ({ ...r, items: [] }))
})

/**
 * The plan of `books` with its operations put in `sink` as they are built. `matching`: what the books' records
 * become, when the caller has it already (`Matching.decide` of the same books, snapshot and mappings).
 */
export const buildInto = (
  sink: OpSink,
  books: Books,
  snapshot: TargetSnapshot,
  mappings: Mappings,
  matching?: Matching.Matching
): BuiltPlan =>
  withSpill(books, (spilled) =>
    planAll(
      new PlanContext(
        snapshot,
        mappings,
        matching ?? Matching.decide(spilled, snapshot, mappings, mappings.decisions),
        sink
      ),
      spilled
    )
  )

/**
 * The plan of `books`, its operations in memory in load order: the same plan as one built into a
 * `PlanScratch` (a large plan's), stored row for row the same.
 */
export const build = (books: Books, snapshot: TargetSnapshot, mappings: Mappings): Plan => {
  const memory = new OpsInMemory()
  const built = buildInto(memory, books, snapshot, mappings)
  return { ops: order(memory.ops), ...built }
}
