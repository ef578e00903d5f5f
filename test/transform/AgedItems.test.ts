/**
 * The aged reports' items are for reconcile: a plan keeps them, each with what it is in the books, a chunk at
 * a time as they are made (`agedItemsIn`), and builds from books without them (`withoutAgedItems`).
 */
import { assert, describe, it } from "@effect/vitest"
import { agedItemsIn } from "../../src/transform/ComparedDocuments.js"
import { reportMatches } from "../../src/transform/OpenItems.js"
import { jsonOf, planHash } from "../../src/transform/Plan.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import type { SourceAgedItem, SourceAgedReport } from "../../src/transform/SourceModel.js"
import { build, everyPlanner, m } from "./Books.js"

const item = (number: string, outstanding: string, line: number): SourceAgedItem => ({
  contactName: "Acme",
  number,
  reference: "",
  date: "2025-02-03",
  dueDate: "2025-02-03",
  outstanding: m(outstanding),
  currency: undefined,
  lineage: `AgedReceivablesDetail.csv:${line}`
})

const report = (side: "AR" | "AP", items: ReadonlyArray<SourceAgedItem>): SourceAgedReport => ({
  side,
  asAt: "2025-03-31",
  items,
  file: side === "AR" ? "AgedReceivablesDetail.csv" : "AgedPayablesDetail.csv"
})

const receivables = report("AR", [item("INV-2", "109.00", 5), item("INV-9", "20.00", 6)])

describe("the aged reports' items", () => {
  it("are matched to the books' records as they are taken, one report after another", () => {
    // A report whose items cannot be read: taking the first report's items must not reach it.
    const unread = report("AP", [])
    Object.defineProperty(unread, "items", {
      get: () => {
        throw new Error("the second report was read before the first's items were taken")
      }
    })
    const books = everyPlanner({ agedReports: [receivables, unread] })
    const items = agedItemsIn(books)
    const first = items.next()
    assert.isFalse(first.done)
    const [at, taken, match] = first.value!
    assert.strictEqual(at, 0)
    assert.strictEqual(taken, receivables.items.at(0))
    assert.deepStrictEqual(match, {
      entity: "invoice",
      reference: "INV-2",
      currency: "SGD",
      lineage: ["SalesInvoices.csv:INV-2"]
    })
    assert.isNull(items.next().value![2], "INV-9 is not in the books")
    assert.throws(() => items.next(), /the second report was read/)
  })

  it("are what each report's matches say, in the reports' and the items' order", () => {
    const payables = report("AP", [item("BILL-1", "5.00", 4)])
    const books = everyPlanner({ agedReports: [receivables, payables] })
    const expected = books.agedReports.flatMap((r, at) =>
      reportMatches(books, r).map((match, i) => [at, r.items.at(i), match] as const)
    )
    assert.deepStrictEqual([...agedItemsIn(books)], expected)
  })

  it("are read by no planner: the books without them give the same plan, and the reports keep their headings", () => {
    const books = everyPlanner({ agedReports: [receivables] })
    const without = PlanBuilder.withoutAgedItems(books)
    assert.deepStrictEqual(
      without.agedReports.map((r) => ({ ...r, items: receivables.items })),
      books.agedReports
    )
    assert.deepStrictEqual(
      without.agedReports.map((r) => r.items.length),
      [0]
    )
    const plan = build(books)
    const planWithout = build(without)
    assert.isAbove(plan.ops.length, 5)
    assert.strictEqual(planHash(planWithout.ops), planHash(plan.ops))
    assert.deepStrictEqual(planWithout.ops.map(jsonOf), plan.ops.map(jsonOf))
    assert.deepStrictEqual(planWithout.issues, plan.issues)
  })
})
