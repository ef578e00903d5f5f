/**
 * Credit notes, overpayments and prepayments in the plan, on synthetic books: their bodies and phases, drafts
 * and voided ones, refunds, and the cash entry and credit note an overpayment becomes; what cannot add up is
 * a reject naming its source rows (applications: CreditApplications.test.ts).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Money from "../../src/transform/Money.js"
import { creditReferences } from "../../src/transform/TransactionIdentity.js"
import { applications, build, books, credit, line, m, paid, refund, rejects } from "./Books.js"

describe("credit notes", () => {
  it("become customer and supplier credit notes in the transactions phase, with their lines and tax", () => {
    const supplier = credit("SCN-1", "2025-02-02", "0.00", {
      side: "purchase",
      contactName: "Beta",
      lines: [line({ accountCode: "400", taxType: "Standard-Rated Purchases", lineage: "Bills.csv:3" })],
      lineage: ["Bills.csv:3"]
    })
    const plan = build(books({ credits: [credit("CN-1", "2025-02-01", "0.00"), supplier] }))
    const cn = plan.ops.find((o) => o.key === "customer-credit-note:CN-1")!
    assert.strictEqual(cn.phase, "transactions")
    assert.deepStrictEqual(cn.body, {
      reference: "CN-1",
      valueDate: "2025-02-01",
      contactResourceId: "@contact:Acme",
      taxInclusion: false,
      saveAsDraft: false,
      lineItems: [
        {
          name: "Work",
          quantity: 1,
          unitPrice: 100,
          accountResourceId: "@account:Sales",
          taxProfileResourceId: "@taxProfile:SR 9%"
        }
      ]
    })
    assert.deepStrictEqual([...cn.dependsOn], ["contact:Acme"])
    const scn = plan.ops.find((o) => o.key === "supplier-credit-note:SCN-1")!
    assert.strictEqual((scn.body as any).lineItems[0].taxProfileResourceId, "@taxProfile:TX 9%")
    assert.deepStrictEqual(
      plan.ops
        .filter((o) => o.kind === "contact")
        .map((o) => [(o.body as any).name, (o.body as any).customer, (o.body as any).supplier]),
      [
        ["Acme", true, false],
        ["Beta", false, true]
      ]
    )
  })

  it("a draft is a draft; a voided one is listed with its rows and not migrated", () => {
    const plan = build(
      books({
        credits: [
          credit("CN-1", "2025-02-01", "0.00", { state: "draft", status: "Draft" }),
          credit("CN-2", "2025-02-01", "0.00", { state: "voided", status: "Voided" })
        ]
      })
    )
    assert.strictEqual(
      (plan.ops.find((o) => o.key === "customer-credit-note:CN-1")!.body as any).saveAsDraft,
      true
    )
    assert.isUndefined(plan.ops.find((o) => o.key === "customer-credit-note:CN-2"))
    assert.isTrue(
      plan.issues.some(
        (i) => i.severity === "warning" && i.lineage[0] === "SalesInvoices.csv:CN-2" && /voided/.test(i.why)
      )
    )
  })

  it("is refunded by the bank row naming it: refundAmount in the bank's currency, transactionAmount in the credit's", () => {
    const usd = credit("CN-1", "2025-02-01", "50.00", {
      currency: "USD",
      total: m("100.00"),
      taxTotal: Money.zero,
      remaining: m("50.00"),
      lines: [line({ taxType: "Tax Exempt", taxAmount: Money.zero })]
    })
    const rate = {
      currency: "USD",
      baseCurrency: "SGD",
      date: "2025-01-01",
      basePerUnit: m("1.3400"),
      lineage: "ExchangeRates.csv:2"
    }
    const plan = build(
      books({ credits: [usd], refunds: [refund("CN-1", "2025-02-10", "67.00", 9)], rates: [rate] })
    )
    const op = plan.ops.find((o) => o.kind === "customer-refund")!
    assert.strictEqual(op.phase, "settlements")
    assert.deepStrictEqual(op.body, {
      resourceId: "@customer-credit-note:CN-1",
      refunds: [
        {
          refundAmount: 67,
          refundMethod: "BANK_TRANSFER",
          transactionAmount: 50,
          accountResourceId: "@account:DBS",
          reference: "CN-1-RFD1",
          valueDate: "2025-02-10"
        }
      ]
    })
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
    const tooMuch = rejects(
      books({ credits: [usd], refunds: [refund("CN-1", "2025-02-10", "134.00", 9)], rates: [rate] })
    )
    assert.isTrue(tooMuch.some((i) => i.lineage[0] === "AccountTransactions.csv:9" && /exceeds/.test(i.why)))
  })
})

describe("overpayments and prepayments", () => {
  const over = credit("", "2025-03-01", "30.00", {
    origin: "overpayment",
    total: m("50.00"),
    taxTotal: Money.zero,
    remaining: m("20.00"),
    lines: [
      line({
        description: "Overpayment",
        unitAmount: m("50.00"),
        lineAmount: m("50.00"),
        accountCode: "610",
        taxType: "",
        taxAmount: Money.zero
      })
    ],
    lineage: ["SalesInvoices.csv:5"]
  })
  const funding = {
    side: "sale" as const,
    origin: "overpayment" as const,
    contactName: "Acme",
    bankAccountName: "DBS",
    date: "2025-03-01",
    amount: m("50.00"),
    reference: "",
    lineage: "AccountTransactions.csv:8"
  }

  it("become a cash-in to the clearing account and a credit note on that account, applied like any credit", () => {
    const plan = build(
      books({ credits: [over], creditFundings: [funding], documents: [paid("INV-1", "2025-03-05", "30.00")] })
    )
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
    const clearing = plan.ops.find((o) => o.key === "account:Overpayment and Prepayment Clearing")!
    assert.deepStrictEqual((clearing.body as any).classificationType, "Current Liability")
    assert.deepStrictEqual(plan.clearingAccounts, ["Overpayment and Prepayment Clearing"])
    const cn = plan.ops.find((o) => o.kind === "customer-credit-note")!
    assert.match(cn.naturalKey, /^MIG-OVP-20250301-[0-9a-f]{8}$/)
    assert.deepStrictEqual((cn.body as any).lineItems, [
      {
        name: "Overpayment",
        quantity: 1,
        unitPrice: 50,
        accountResourceId: "@account:Overpayment and Prepayment Clearing"
      }
    ])
    const cash = plan.ops.find((o) => o.kind === "cash-in")!
    assert.strictEqual(cash.naturalKey, cn.naturalKey)
    assert.deepStrictEqual((cash.body as any).journalEntries, [
      {
        accountResourceId: "@account:Overpayment and Prepayment Clearing",
        type: "CREDIT",
        amount: 50,
        description: `overpayment ${cn.naturalKey}`
      }
    ])
    assert.deepStrictEqual(cash.lineage, ["AccountTransactions.csv:8"])
    assert.deepStrictEqual(applications(plan), [`@customer-credit-note:${cn.naturalKey} → @invoice:INV-1 30`])
  })

  it("without its bank row, or a bank row without one, is a reject naming the rows", () => {
    assert.isTrue(
      rejects(books({ credits: [over] })).some(
        (i) => i.lineage[0] === "SalesInvoices.csv:5" && /no bank row/.test(i.why)
      )
    )
    assert.isTrue(
      rejects(books({ creditFundings: [funding] })).some((i) => i.lineage[0] === "AccountTransactions.csv:8")
    )
  })

  it("a refund naming no credit goes to the advance whose unexplained use it equals, not merely the oldest", () => {
    // Two overpayments of Acme of 50.00: the older one wholly applied to INV-1, the newer one refunded 40.00.
    const advance = (date: string, used: string, row: string) => ({
      ...over,
      date,
      used: m(used),
      remaining: Money.sub(m("50.00"), m(used)),
      lineage: [`SalesInvoices.csv:${row}`]
    })
    const older = advance("2025-01-05", "50.00", "20")
    const newer = advance("2025-01-10", "40.00", "21")
    const refs = creditReferences([older, newer])
    const plan = build(
      books({
        documents: [paid("INV-1", "2025-01-06", "50.00")],
        credits: [older, newer],
        creditFundings: [
          { ...funding, date: "2025-01-05", lineage: "AccountTransactions.csv:10" },
          { ...funding, date: "2025-01-10", lineage: "AccountTransactions.csv:11" }
        ],
        refunds: [refund("", "2025-02-01", "40.00", 30)]
      })
    )
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
    assert.deepStrictEqual(
      plan.ops
        .filter((o) => o.kind === "customer-refund")
        .map((o) => [(o.body as any).resourceId, (o.body as any).refunds[0].refundAmount]),
      [[`@customer-credit-note:${refs.get(newer)}`, 40]]
    )
    assert.deepStrictEqual(applications(plan), [
      `@customer-credit-note:${refs.get(older)} → @invoice:INV-1 50`
    ])
  })
})
