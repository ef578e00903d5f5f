/**
 * Builds the plan from source books, the target snapshot and the mappings: pure and deterministic (no
 * clock, no randomness, stable ordering), so the same inputs always give the same plan hash.
 */
import * as DocumentPlanner from "./DocumentPlanner.js"
import type { Mappings } from "./Mappings.js"
import * as MasterDataPlanner from "./MasterDataPlanner.js"
import { order, type Plan } from "./Plan.js"
import { PlanContext } from "./PlanContext.js"
import type { SourceBooks } from "./SourceModel.js"
import type { TargetSnapshot } from "./TargetSnapshot.js"

/** The last business date in the books (rates are extended to cover it). */
const lastDate = (books: SourceBooks): string =>
  [
    ...books.documents.map((d) => d.date),
    ...books.payments.map((p) => p.date),
    ...books.journals.map((j) => j.date)
  ].reduce((max, d) => (d > max ? d : max), "0000-01-01")

export const build = (books: SourceBooks, snapshot: TargetSnapshot, mappings: Mappings): Plan => {
  const ctx = new PlanContext(snapshot, mappings)
  ctx.issues.push(...books.issues)
  MasterDataPlanner.planCurrenciesAndRates(ctx, books, lastDate(books))
  MasterDataPlanner.planAccounts(ctx, books)
  MasterDataPlanner.planContacts(ctx, books)
  MasterDataPlanner.planItems(ctx, books)
  const documents = DocumentPlanner.planDocuments(ctx, books)
  MasterDataPlanner.planJournals(ctx, books)
  DocumentPlanner.planPayments(ctx, books, documents)
  return { ops: order(ctx.ops), issues: ctx.issues }
}
