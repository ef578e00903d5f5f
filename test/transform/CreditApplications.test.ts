/**
 * Applications of credits to documents in the plan, on synthetic books: applied where a document's paid
 * amount is not explained by its bank payments, the oldest credit to the oldest document (whatever the input
 * order, reported when ambiguous), the allocations file overriding the inference for the credits it names,
 * and allocations that cannot add up as rejects naming their rows.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Money from "../../src/transform/Money.js"
import { infer } from "../../src/transform/CreditAllocation.js"
import { planHash } from "../../src/transform/Plan.js"
import { applications, build, books, credit, m, paid, payment, rejects, warnings } from "./Books.js"

describe("credit applications", () => {
  it("is applied to the document whose paid amount its bank payments do not explain; the payments complete it", () => {
    const plan = build(
      books({
        documents: [paid("INV-1", "2025-01-10", "109.00")],
        credits: [credit("CN-1", "2025-01-20", "59.00")],
        payments: [payment("INV-1", "2025-01-25", "50.00", 7)]
      })
    )
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
    const app = plan.ops.find((o) => o.kind === "invoice-credit")!
    assert.strictEqual(app.phase, "settlements")
    assert.deepStrictEqual(app.body, {
      resourceId: "@invoice:INV-1",
      credits: [{ creditNoteResourceId: "@customer-credit-note:CN-1", amountApplied: 59 }]
    })
    assert.deepStrictEqual([...app.dependsOn], ["customer-credit-note:CN-1", "invoice:INV-1"])
    assert.strictEqual(
      (plan.ops.find((o) => o.kind === "invoice-payment")!.body as any).payments[0].transactionAmount,
      50
    )
  })

  it("oldest credit to the oldest document, whatever the input order; an ambiguous group is reported with its rows", () => {
    const docs = [paid("INV-2", "2025-02-01", "60.00"), paid("INV-1", "2025-01-01", "109.00")]
    const credits = [credit("CN-B", "2025-02-10", "100.00"), credit("CN-A", "2025-01-15", "69.00")]
    const plan = build(books({ documents: docs, credits }))
    assert.deepStrictEqual(applications(plan), [
      "@customer-credit-note:CN-A → @invoice:INV-1 69",
      "@customer-credit-note:CN-B → @invoice:INV-1 40",
      "@customer-credit-note:CN-B → @invoice:INV-2 60"
    ])
    const again = build(books({ documents: [...docs].reverse(), credits: [...credits].reverse() }))
    const beyondContacts = (p: typeof plan) => planHash(p.ops.filter((o) => o.kind !== "contact"))
    assert.strictEqual(
      beyondContacts(again),
      beyondContacts(plan),
      "the same books in another order give the same plan"
    )
    const ambiguous = warnings(books({ documents: docs, credits })).find((i) =>
      /more than one allocation/.test(i.why)
    )!
    assert.sameMembers(
      [...ambiguous.lineage],
      [
        "SalesInvoices.csv:CN-A",
        "SalesInvoices.csv:CN-B",
        "SalesInvoices.csv:INV-1",
        "SalesInvoices.csv:INV-2"
      ]
    )
    assert.match(ambiguous.what, /CN-A, CN-B .* INV-1, INV-2/)
    assert.match(ambiguous.fix, /allocations file/)
  })

  it("only within one contact and currency; a single credit or document is not ambiguous", () => {
    const plan = build(
      books({
        documents: [
          paid("INV-1", "2025-01-01", "109.00"),
          paid("INV-2", "2025-01-02", "109.00", { contactName: "Other" })
        ],
        credits: [
          credit("CN-1", "2025-01-05", "109.00", { contactName: "Other" }),
          credit("CN-2", "2025-01-06", "109.00")
        ]
      })
    )
    assert.deepStrictEqual(applications(plan), [
      "@customer-credit-note:CN-1 → @invoice:INV-2 109",
      "@customer-credit-note:CN-2 → @invoice:INV-1 109"
    ])
    assert.isFalse(plan.issues.some((i) => /more than one allocation/.test(i.why)))
  })

  it("the allocations file overrides the inference for the credits it names", () => {
    const docs = [paid("INV-1", "2025-01-01", "109.00"), paid("INV-2", "2025-01-02", "109.00")]
    const credits = [credit("CN-A", "2025-01-05", "109.00"), credit("CN-B", "2025-01-06", "109.00")]
    const plan = build(
      books({
        documents: docs,
        credits,
        allocations: [
          { creditNumber: "CN-A", documentNumber: "INV-2", amount: m("109.00"), lineage: "Allocations.csv:2" }
        ]
      })
    )
    assert.deepStrictEqual(applications(plan), [
      "@customer-credit-note:CN-A → @invoice:INV-2 109",
      "@customer-credit-note:CN-B → @invoice:INV-1 109"
    ])
    assert.include(plan.ops.find((o) => o.key === "credit:invoice:INV-2:CN-A")!.lineage, "Allocations.csv:2")
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
  })

  it("rows of the same credit and document are one application of their sum, with each row", () => {
    const docs = [paid("INV-1", "2025-01-01", "109.00"), paid("INV-2", "2025-01-02", "50.00")]
    const plan = build(
      books({
        documents: docs,
        credits: [credit("CN-A", "2025-01-05", "159.00")],
        allocations: [
          {
            creditNumber: "CN-A",
            documentNumber: "INV-1",
            amount: m("100.00"),
            lineage: "Allocations.csv:2"
          },
          { creditNumber: "CN-A", documentNumber: "INV-2", amount: m("50.00"), lineage: "Allocations.csv:3" },
          { creditNumber: "CN-A", documentNumber: "INV-1", amount: m("9.00"), lineage: "Allocations.csv:4" }
        ]
      })
    )
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
    assert.deepStrictEqual(applications(plan), [
      "@customer-credit-note:CN-A → @invoice:INV-1 109",
      "@customer-credit-note:CN-A → @invoice:INV-2 50"
    ])
    const lineage = plan.ops.find((o) => o.key === "credit:invoice:INV-1:CN-A")!.lineage
    assert.includeMembers([...lineage], ["Allocations.csv:2", "Allocations.csv:4"])
    assert.notInclude([...lineage], "Allocations.csv:3")
  })

  it("allocations that cannot add up are rejects naming the rows", () => {
    const docs = [paid("INV-1", "2025-01-01", "109.00")]
    const over = rejects(
      books({
        documents: docs,
        credits: [credit("CN-A", "2025-01-05", "50.00")],
        allocations: [
          { creditNumber: "CN-A", documentNumber: "INV-1", amount: m("80.00"), lineage: "Allocations.csv:2" }
        ]
      })
    )
    assert.isTrue(
      over.some((i) => i.lineage[0] === "Allocations.csv:2" && /exceeds the 50\.00 of CN-A/.test(i.why))
    )
    const unknown = rejects(
      books({
        documents: docs,
        credits: [credit("CN-A", "2025-01-05", "50.00")],
        allocations: [
          { creditNumber: "CN-Z", documentNumber: "INV-1", amount: m("1.00"), lineage: "Allocations.csv:3" }
        ]
      })
    )
    assert.isTrue(unknown.some((i) => i.lineage[0] === "Allocations.csv:3"))
    // The document's bank payments settle it: nothing is left for the credit, which the reject says.
    const settled = rejects(
      books({
        documents: docs,
        credits: [credit("CN-A", "2025-01-05", "50.00")],
        payments: [payment("INV-1", "2025-01-20", "109.00", 9)],
        allocations: [
          { creditNumber: "CN-A", documentNumber: "INV-1", amount: m("50.00"), lineage: "Allocations.csv:4" }
        ]
      })
    )
    assert.isTrue(
      settled.some(
        (i) =>
          i.lineage[0] === "Allocations.csv:4" &&
          i.why ===
            "it exceeds the 0.00 of INV-1 that the export says was paid and its bank payments do not explain"
      ),
      JSON.stringify(settled.map((i) => i.why))
    )
    const short = rejects(
      books({
        documents: [paid("INV-1", "2025-01-01", "10.00")],
        credits: [credit("CN-A", "2025-01-05", "50.00")],
        allocations: [
          { creditNumber: "CN-A", documentNumber: "INV-1", amount: m("10.00"), lineage: "Allocations.csv:2" }
        ]
      })
    )
    assert.isTrue(
      short.some(
        (i) =>
          i.lineage.includes("SalesInvoices.csv:CN-A") &&
          i.lineage.includes("Allocations.csv:2") &&
          /40\.00/.test(i.why)
      )
    )
  })

  it("a credit's use that no document explains, and a paid amount nothing explains, are rejects naming their rows", () => {
    const r = rejects(
      books({
        documents: [paid("INV-1", "2025-01-01", "100.00")],
        credits: [credit("CN-A", "2025-01-05", "109.00")]
      })
    )
    assert.isTrue(
      r.some(
        (i) =>
          i.lineage[0] === "SalesInvoices.csv:CN-A" && /9\.00 of what the export says was used/.test(i.why)
      )
    )
    const bare = rejects(books({ documents: [paid("INV-1", "2025-01-01", "109.00")] }))
    assert.isTrue(
      bare.some(
        (i) =>
          i.lineage[0] === "SalesInvoices.csv:INV-1" &&
          /settle 0\.00 SGD, the document says 109\.00 paid/.test(i.why)
      )
    )
  })
})

describe("the inference rule", () => {
  it("pairs by group, oldest first, and reports what is left on either side", () => {
    const cap = (item: string, group: string, order: string, amount: string) => ({
      item,
      group,
      order,
      amount: m(amount)
    })
    const r = infer(
      [cap("c1", "g", "1", "30"), cap("c2", "g", "2", "30"), cap("c3", "h", "1", "5")],
      [cap("d1", "g", "1", "40"), cap("d2", "g", "2", "10"), cap("d3", "k", "1", "7")]
    )
    assert.deepStrictEqual(
      r.allocations.map((a) => `${a.credit}→${a.doc} ${Money.toFixed(a.amount)}`),
      ["c1→d1 30.00", "c2→d1 10.00", "c2→d2 10.00"]
    )
    assert.deepStrictEqual(
      r.creditsLeft.map((c) => [c.credit, Money.toFixed(c.amount)]),
      [
        ["c2", "10.00"],
        ["c3", "5.00"]
      ]
    )
    assert.deepStrictEqual(
      r.docsLeft.map((d) => [d.doc, Money.toFixed(d.amount)]),
      [["d3", "7.00"]]
    )
    assert.deepStrictEqual(r.ambiguous, [{ credits: ["c1", "c2"], docs: ["d1", "d2"] }])
  })
})
