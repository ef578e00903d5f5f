/**
 * Bank payments planned against their documents, on synthetic books: each document gets its own payments,
 * numbered by date, however the books interleave them; a payment whose document is not in the books is a
 * reject naming its row.
 */
import { assert, describe, it } from "@effect/vitest"
import { build, books, invoice, paid, payment } from "./Books.js"

describe("payments", () => {
  it("go to their own documents, numbered by date, whatever order the bank rows come in", () => {
    const plan = build(
      books({
        documents: [
          paid("INV-9", "2025-01-05", "109.00"),
          invoice("INV-1", "2025-01-02"),
          paid("INV-10", "2025-01-10", "109.00")
        ],
        payments: [
          payment("INV-9", "2025-02-03", "60.00", 3),
          payment("INV-10", "2025-02-04", "50.00", 4),
          payment("INV-404", "2025-02-05", "10.00", 5),
          payment("INV-9", "2025-02-01", "49.00", 6),
          payment("INV-10", "2025-02-02", "59.00", 7)
        ]
      })
    )
    const payments = plan.ops
      .filter((o) => o.kind === "invoice-payment")
      .map((o) => {
        const body = o.body as {
          resourceId: string
          payments: ReadonlyArray<{ reference: string; transactionAmount: number }>
        }
        return `${body.resourceId} ${body.payments.map((p) => `${p.reference} ${p.transactionAmount}`).join(", ")} ${o.lineage.join(",")}`
      })
      .sort()
    assert.deepStrictEqual(payments, [
      "@invoice:INV-10 INV-10-PMT1 59 AccountTransactions.csv:7",
      "@invoice:INV-10 INV-10-PMT2 50 AccountTransactions.csv:4",
      "@invoice:INV-9 INV-9-PMT1 49 AccountTransactions.csv:6",
      "@invoice:INV-9 INV-9-PMT2 60 AccountTransactions.csv:3"
    ])
    assert.deepStrictEqual(
      plan.issues
        .filter((i) => i.severity === "reject")
        .map((i) => `${i.lineage.join(",")} ${i.what}: ${i.why}`),
      [
        "AccountTransactions.csv:5 payments against invoice INV-404: the document is not migrated (missing, voided or rejected)"
      ]
    )
  })
})
