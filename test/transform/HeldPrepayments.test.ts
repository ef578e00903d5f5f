/**
 * A prepayment the source holds on its coded account until applied: its cash posts to that account, each
 * application is a credit note of its own dated when applied and posting off that account, each refund a
 * cash entry back; nothing goes through the clearing account, so an unapplied remainder stays where the
 * source's Trial Balance has it. A prepayment with tax keeps the credit-note representation, and says so.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Money from "../../src/transform/Money.js"
import type { SourceCredit, SourceCreditFunding } from "../../src/transform/SourceModel.js"
import { accounts, books, build, credit, invoice, line, m, refund } from "./Books.js"

const prepayments = {
  code: "620",
  name: "Prepayments",
  type: "Current Asset",
  taxCode: "",
  description: "",
  lineage: "ChartOfAccounts.csv:10"
}

/** 200.00 paid to Beta on 1 March, coded to Prepayments: 109.00 applied to bill B-1 (10 March), 50.00 refunded. */
const prepayment = (over: Partial<SourceCredit> = {}): SourceCredit =>
  credit("", "2025-03-01", "159.00", {
    side: "purchase",
    origin: "prepayment",
    contactName: "Beta",
    total: m("200.00"),
    taxTotal: Money.zero,
    remaining: m("41.00"),
    lines: [
      line({
        description: "Deposit paid on order",
        unitAmount: m("200.00"),
        lineAmount: m("200.00"),
        accountCode: "620",
        taxType: "",
        taxAmount: Money.zero,
        lineage: "Bills.csv:30"
      })
    ],
    lineage: ["Bills.csv:30"],
    ...over
  })

const funding: SourceCreditFunding = {
  side: "purchase",
  origin: "prepayment",
  contactName: "Beta",
  bankAccountName: "DBS",
  date: "2025-03-01",
  amount: m("200.00"),
  reference: "",
  lineage: "AccountTransactions.csv:40"
}

const bill = invoice("B-1", "2025-03-10", {
  kind: "bill",
  contactName: "Beta",
  amountPaid: m("109.00"),
  amountDue: Money.zero,
  status: "Paid",
  lines: [line({ accountCode: "400", taxType: "Standard-Rated Purchases", lineage: "Bills.csv:2" })],
  lineage: ["Bills.csv:2"]
})

const source = (c: SourceCredit) =>
  books({
    accounts: [...accounts, prepayments],
    documents: [bill],
    credits: [c],
    creditFundings: [funding],
    refunds: [refund("", "2025-04-01", "50.00", 41, { side: "purchase", contactName: "Beta" })]
  })

describe("a prepayment held on its account", () => {
  it("is cash on that account, a credit note per application when applied, and cash back per refund", () => {
    const plan = build(source(prepayment()))
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
    const mine = plan.ops
      .filter((o) => o.naturalKey.startsWith("MIG-PRE-") || o.kind === "bill-credit")
      .map((o) => {
        const b = o.body as any
        return [
          o.phase,
          o.kind,
          o.naturalKey.replace(/MIG-PRE-20250301-[0-9a-f]+/, "PRE"),
          b.valueDate ?? "",
          JSON.stringify(b.journalEntries ?? b.lineItems ?? b.credits)
        ]
      })
    assert.deepStrictEqual(mine, [
      [
        "transactions",
        "cash-out",
        "PRE",
        "2025-03-01",
        JSON.stringify([
          {
            accountResourceId: "@account:Prepayments",
            type: "DEBIT",
            amount: 200,
            description: "Prepayment to Beta, held on 620 until applied"
          }
        ])
      ],
      [
        "transactions",
        "supplier-credit-note",
        "PRE-A1",
        "2025-03-10",
        JSON.stringify([
          {
            name: `Prepayment ${plan.ops.find((o) => o.kind === "cash-out")!.naturalKey} applied to B-1`,
            quantity: 1,
            unitPrice: 109,
            accountResourceId: "@account:Prepayments"
          }
        ])
      ],
      [
        "settlements",
        "bill-credit",
        "bill:B-1:PRE-A1",
        "",
        JSON.stringify([
          {
            creditNoteResourceId: `@supplier-credit-note:${plan.ops.find((o) => o.kind === "cash-out")!.naturalKey}-A1`,
            amountApplied: 109
          }
        ])
      ],
      [
        "settlements",
        "cash-in",
        "PRE-RFD1",
        "2025-04-01",
        JSON.stringify([
          {
            accountResourceId: "@account:Prepayments",
            type: "CREDIT",
            amount: 50,
            description: `Refund 1 of prepayment ${plan.ops.find((o) => o.kind === "cash-out")!.naturalKey}`
          }
        ])
      ]
    ])
    assert.isFalse(
      plan.ops.some((o) => o.kind === "account" && o.naturalKey === "Overpayment and Prepayment Clearing"),
      "no clearing account: nothing passes through it"
    )
    assert.isFalse(plan.issues.some((i) => /held as a credit on the contact/.test(i.why)))
  })

  it("with tax on its line, is a credit note on the contact from its date, and the plan says what that costs", () => {
    const taxed = prepayment({
      lines: [
        line({
          unitAmount: m("183.49"),
          lineAmount: m("183.49"),
          accountCode: "620",
          taxType: "Standard-Rated Purchases",
          taxAmount: m("16.51"),
          lineage: "Bills.csv:30"
        })
      ]
    })
    const plan = build(source(taxed))
    assert.isTrue(
      plan.ops.some((o) => o.kind === "supplier-credit-note" && /^MIG-PRE-\d+-[0-9a-f]+$/.test(o.naturalKey))
    )
    assert.isTrue(
      plan.ops.some((o) => o.kind === "account" && o.naturalKey === "Overpayment and Prepayment Clearing")
    )
    assert.isTrue(
      plan.issues.some((i) => i.severity === "warning" && /held as a credit on the contact/.test(i.why))
    )
  })
})
