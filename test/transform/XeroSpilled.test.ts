/**
 * Xero's documents and payments read into a spill as their rows stream past (`XeroSource.readSpilled`), as a
 * plan reads them: each document made of all its rows wherever they lie in the export, in the order of its
 * first row, a group whose first row cannot be read rejected with every later row of it; the same books,
 * issues and plan as the books read whole (`XeroSource.read`), and the spill's file gone once the scope ends.
 */
import { assert, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as Extract from "../../src/extract/Extract.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { isSpilled } from "../../src/transform/BooksSpill.js"
import { planHash } from "../../src/transform/Plan.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { inputDir, read } from "../extract/support.js"
import { mappings, snapshot } from "./Books.js"

const exactly = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_, v: unknown) =>
      BigDecimal.isBigDecimal(v) ? `${v.value}e-${v.scale}` : (v as unknown)
    )
  )

const CHART = [
  "*Code,*Name,*Type,*Tax Code,Description,Dashboard,Expense Claims,Enable Payments,Balance",
  "090,DBS,Bank,,,Yes,No,No,",
  "200,Sales,Revenue,,,No,No,No,"
].join("\n")

const HEADER =
  "ContactName,InvoiceNumber,Reference,InvoiceDate,DueDate,Total,TaxTotal,InvoiceAmountPaid,InvoiceAmountDue,InventoryItemCode,Description,Quantity,UnitAmount,Discount,LineAmount,AccountCode,TaxType,TaxAmount,Currency,Type,Status"

const row = (contact: string, number: string, total: string, amount: string, status = "Awaiting Payment") =>
  `${contact},${number},,13/01/2025,20/01/2025,${total},0.00,0.00,${total},,Work ${amount},1,${amount},,${amount},200,Tax Exempt,0.00,SGD,Sales invoice,${status}`

/** INV-1's rows lie apart (lines 2, 4 and 7); INV-3's first row has no status a document can have. */
const SALES = [
  HEADER,
  row("Acme", "INV-1", "60.00", "10.00"),
  row("Beta", "INV-2", "5.00", "5.00"),
  row("Acme", "INV-1", "60.00", "20.00"),
  row("Gamma", "INV-3", "8.00", "8.00", "Pending approval"),
  row("Beta", "INV-2", "5.00", "oops"),
  row("Acme", "INV-1", "60.00", "30.00"),
  row("Gamma", "INV-3", "8.00", "0.00"),
  row("Acme", "INV-4", "1.00", "1.00")
].join("\n")

describe("Xero's documents read into a spill", () => {
  it.scoped("are the documents read whole: rows that lie apart joined, the issues in the same order", () =>
    Effect.gen(function* () {
      yield* Extract.run({
        source: "xero",
        inputDir: yield* inputDir({ "ChartOfAccounts.csv": CHART, "SalesInvoices.csv": SALES })
      })
      const whole = yield* XeroSource.read
      const { spilled, file } = yield* Effect.scoped(
        Effect.gen(function* () {
          const spilled = yield* XeroSource.readSpilled
          assert.isTrue(isSpilled(spilled))
          const file = spilled.documents.spill.file!
          assert.isTrue(NodeFs.existsSync(file))
          return {
            spilled: {
              documents: exactly([...spilled.documents]),
              payments: exactly([...spilled.payments]),
              issues: spilled.issues,
              plan: planHash(PlanBuilder.build(spilled, snapshot, mappings).ops)
            },
            file
          }
        })
      )
      assert.isFalse(NodeFs.existsSync(file), "the spill's file is removed when the scope ends")
      assert.deepStrictEqual(
        whole.documents.map((d) => [d.number, d.lines.map((l) => l.description), d.lineage]),
        [
          [
            "INV-1",
            ["Work 10.00", "Work 20.00", "Work 30.00"],
            ["SalesInvoices.csv:2", "SalesInvoices.csv:4", "SalesInvoices.csv:7"]
          ],
          ["INV-2", ["Work 5.00"], ["SalesInvoices.csv:3"]],
          ["INV-4", ["Work 1.00"], ["SalesInvoices.csv:9"]]
        ]
      )
      assert.deepStrictEqual(
        whole.issues.filter((i) => i.severity === "reject").map((i) => `${i.lineage.join(",")} ${i.what}`),
        [
          'SalesInvoices.csv:6 UnitAmount "oops" is not an amount',
          'SalesInvoices.csv:5 Status "Pending approval" is not a Xero document status'
        ]
      )
      assert.deepStrictEqual(spilled.documents, exactly(whole.documents))
      assert.deepStrictEqual(spilled.payments, exactly(whole.payments))
      assert.deepStrictEqual(spilled.issues, whole.issues)
      assert.strictEqual(spilled.plan, planHash(PlanBuilder.build(whole, snapshot, mappings).ops))
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("keep the aged reports' items in the spill too, read from it as they are asked for", () =>
    Effect.gen(function* () {
      const text = (name: string) => Effect.map(read("xero", name), (b) => b.toString("utf8"))
      yield* Extract.run({
        source: "xero",
        inputDir: yield* inputDir({
          "ChartOfAccounts.csv": CHART,
          "SalesInvoices.csv": SALES,
          "AgedReceivables.csv": yield* text("AgedReceivables.csv"),
          "AgedPayables.csv": yield* text("AgedPayables.csv")
        })
      })
      const whole = yield* XeroSource.read
      const reports = (books: Pick<typeof whole, "agedReports">) =>
        books.agedReports.map((r) => ({ ...r, items: exactly(Array.from(r.items)) }))
      assert.isAbove(whole.agedReports.length, 1)
      const kept = yield* Effect.scoped(
        Effect.gen(function* () {
          const spilled = yield* XeroSource.readSpilled
          for (const r of spilled.agedReports) {
            assert.notInstanceOf(r.items, Array, `the ${r.side} report's items are not held in an array`)
            assert.deepStrictEqual(
              exactly(r.items.at(r.items.length - 1)),
              exactly(Array.from(r.items).at(-1))
            )
            assert.isUndefined(r.items.at(r.items.length))
          }
          assert.deepStrictEqual(reports(spilled), reports(whole))
          assert.deepStrictEqual(spilled.issues, whole.issues)
          return spilled.agedReports
        })
      )
      assert.throws(() => Array.from(kept[0]!.items), /the books' spill was used after it was closed/)
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
