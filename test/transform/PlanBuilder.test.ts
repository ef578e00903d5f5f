/** The planner's decisions, one rule at a time, on small synthetic books (no files, no network). */
import { assert, describe, it } from "@effect/vitest"
import { inverseRate } from "../../src/transform/MasterDataPlanner.js"
import * as Option from "effect/Option"
import * as Money from "../../src/transform/Money.js"
import { jsonOf, planHash } from "../../src/transform/Plan.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import type { SourceBooks, SourceDocument, SourceLine } from "../../src/transform/SourceModel.js"
import { m, mappings, snapshot } from "./Books.js"

const line = (over: Partial<SourceLine> = {}): SourceLine => ({
  description: "Consulting",
  itemCode: "",
  quantity: m("2"),
  unitAmount: m("100.00"),
  discount: Money.zero,
  lineAmount: m("200.00"),
  accountCode: "200",
  taxType: "Standard-Rated Supplies",
  taxAmount: m("18.00"),
  lineage: "SalesInvoices.csv:2",
  ...over
})

const invoice = (over: Partial<SourceDocument> = {}): SourceDocument => ({
  kind: "invoice",
  number: "INV-1",
  contactName: "Acme Pte Ltd",
  date: "2025-03-10",
  dueDate: "2025-04-09",
  currency: "SGD",
  state: "open",
  status: "Awaiting Payment",
  total: m("218.00"),
  taxTotal: m("18.00"),
  amountPaid: Money.zero,
  amountDue: m("218.00"),
  lines: [line()],
  lineage: ["SalesInvoices.csv:2"],
  ...over
})

const books = (over: Partial<SourceBooks> = {}): SourceBooks => ({
  accounts: [
    {
      code: "200",
      name: "sales",
      type: "Revenue",
      taxCode: "",
      description: "",
      lineage: "ChartOfAccounts.csv:2"
    },
    {
      code: "820",
      name: "GST",
      type: "Current Liability",
      taxCode: "",
      description: "",
      lineage: "ChartOfAccounts.csv:3"
    },
    {
      code: "090",
      name: "DBS Business Account",
      type: "Bank",
      taxCode: "",
      description: "",
      lineage: "ChartOfAccounts.csv:4"
    },
    {
      code: "400",
      name: "Rent",
      type: "Expense",
      taxCode: "",
      description: "",
      lineage: "ChartOfAccounts.csv:5"
    },
    {
      code: "610",
      name: "Accounts Receivable",
      type: "Current Asset",
      taxCode: "",
      description: "",
      lineage: "ChartOfAccounts.csv:6"
    }
  ],
  contacts: [
    {
      name: "Acme Pte Ltd",
      email: "ap@acme.sg",
      phone: "+65 6123 4567",
      taxId: "",
      lineage: "Contacts.csv:2"
    }
  ],
  items: [],
  documents: [invoice()],
  payments: [],
  journals: [],
  rates: [],
  trialBalances: [],
  agedReports: [],
  issues: [],
  ...over
})

const build = (b: SourceBooks) => PlanBuilder.build(b, snapshot, mappings)
const rejects = (b: SourceBooks) => build(b).issues.filter((i) => i.severity === "reject")

describe("PlanBuilder", () => {
  it("matches accounts by name (case-insensitively, and through system-account aliases) and creates the rest", () => {
    const plan = build(books())
    const accounts = plan.ops.filter((o) => o.kind === "account")
    assert.deepStrictEqual(
      accounts.map((o) => o.key),
      ["account:DBS Business Account", "account:Rent"]
    )
    assert.deepStrictEqual(accounts[0]!.body, {
      name: "DBS Business Account",
      code: "090",
      classificationType: "Bank Accounts",
      currency: "SGD"
    })
    const inv = plan.ops.find((o) => o.kind === "invoice")!
    assert.strictEqual(
      (inv.body as any).lineItems[0].accountResourceId,
      "@account:Sales",
      "the target's existing spelling"
    )
  })

  it("builds the canonical invoice body: refs, tax profile, no currency object in base currency", () => {
    const inv = build(books()).ops.find((o) => o.kind === "invoice")!
    assert.deepStrictEqual(inv.body, {
      reference: "INV-1",
      valueDate: "2025-03-10",
      dueDate: "2025-04-09",
      contactResourceId: "@contact:Acme Pte Ltd",
      taxInclusion: false,
      saveAsDraft: false,
      lineItems: [
        {
          name: "Consulting",
          quantity: 2,
          unitPrice: 100,
          accountResourceId: "@account:Sales",
          taxProfileResourceId: "@taxProfile:SR 9%"
        }
      ]
    })
    assert.deepStrictEqual(inv.dependsOn, ["contact:Acme Pte Ltd"])
    const contact = build(books()).ops.find((o) => o.kind === "contact")!
    assert.deepStrictEqual(contact.body, {
      name: "Acme Pte Ltd",
      billingName: "Acme Pte Ltd",
      customer: true,
      supplier: false,
      email: "ap@acme.sg",
      phone: "+6561234567"
    })
  })

  it("rejects a document whose tax the target would compute differently, naming the line", () => {
    const r = rejects(
      books({
        documents: [
          invoice({ lines: [line({ taxAmount: m("17.99") })], taxTotal: m("17.99"), total: m("217.99") })
        ]
      })
    )
    assert.strictEqual(r.length, 1)
    assert.match(
      r[0]!.what,
      /invoice:INV-1: line SalesInvoices.csv:2: tax .* gives 18\.00, the export says 17\.99/
    )
  })

  it("rejects an unmapped tax rate no tax profile fits and says which mapping file to edit", () => {
    // 7% on a sale: no profile of the target has that rate (a 9% line would be suggested SR 9%, to confirm)
    const mystery = line({ taxType: "Mystery GST", taxAmount: m("7.00") })
    const r = rejects(
      books({ documents: [invoice({ lines: [mystery], total: m("107.00"), taxTotal: m("7.00") })] })
    )
    assert.match(r[0]!.what, /tax rate "Mystery GST" has no tax profile/)
    assert.match(r[0]!.fix, /review\.xlsx.*tax-codes\.json/)
  })

  it("rejects a line whose amount is not quantity × price", () => {
    const r = rejects(books({ documents: [invoice({ lines: [line({ lineAmount: m("201.00") })] })] }))
    assert.match(r[0]!.what, /2\.00 × 100\.00 = 200\.00, the export says 201\.00/)
  })

  it("detects tax-inclusive documents from their totals", () => {
    const inclusive = invoice({
      lines: [
        line({ quantity: m("1"), unitAmount: m("109.00"), lineAmount: m("109.00"), taxAmount: m("9.00") })
      ],
      total: m("109.00"),
      taxTotal: m("9.00")
    })
    const inv = build(books({ documents: [inclusive] })).ops.find((o) => o.kind === "invoice")!
    assert.strictEqual((inv.body as any).taxInclusion, true)
  })

  it("renames a repeated document number deterministically and refuses to guess its payments' document", () => {
    const second = invoice({
      contactName: "Acme Pte Ltd",
      date: "2025-05-01",
      lineage: ["SalesInvoices.csv:9"]
    })
    const payment = {
      documentKind: "invoice" as const,
      documentNumber: "INV-1",
      bankAccountName: "DBS Business Account",
      date: "2025-06-01",
      amount: m("218.00"),
      lineage: "AccountTransactions.csv:7"
    }
    const plan = build(books({ documents: [invoice(), second], payments: [payment] }))
    assert.deepStrictEqual(
      plan.ops.filter((o) => o.kind === "invoice").map((o) => o.key),
      ["invoice:INV-1", "invoice:INV-1-2"]
    )
    assert.isTrue(plan.issues.some((i) => i.severity === "warning" && /migrated as INV-1-2/.test(i.fix)))
    assert.isTrue(
      plan.issues.some(
        (i) =>
          i.severity === "reject" && i.lineage[0] === "AccountTransactions.csv:7" && /ambiguous/.test(i.why)
      )
    )
  })

  it("leaves voided documents out, with a warning", () => {
    const plan = build(books({ documents: [invoice({ state: "voided", status: "Voided" })] }))
    assert.strictEqual(plan.ops.filter((o) => o.kind === "invoice").length, 0)
    assert.isTrue(plan.issues.some((i) => i.severity === "warning" && /voided/.test(i.why)))
  })

  it("inverts a rate so that foreign ÷ rate rounds to the same cent as foreign × the source's rate", () => {
    const halfAway = (n: bigint, d: bigint) => {
      const q = n / d
      return (n % d) * 2n >= d ? q + 1n : q
    }
    for (const text of ["1.3412", "1.3324", "1.4580", "1.35", "0.0091", "3.45", "110.25"]) {
      const source = m(text)
      const inverse = Option.getOrThrow(Money.parse(String(Money.toNumber(inverseRate(source)))))
      assert.isTrue(
        Money.equals(inverse, inverseRate(source)),
        `${text}: the inverse survives the JSON number`
      )
      const [sm, ss] = [source.value, BigInt(source.scale)]
      const [im, is] = [inverse.value, BigInt(inverse.scale)]
      const amounts = [
        ...Array.from({ length: 20_000 }, (_, i) => BigInt(i + 1)),
        596_250n,
        7_654_321_987n,
        9_999_999_999n
      ]
      for (const cents of amounts) {
        const viaSource = halfAway(cents * sm, 10n ** ss)
        const viaInverse = halfAway(cents * 10n ** is, im)
        if (viaSource !== viaInverse)
          assert.fail(
            `${cents} cents at ${text}: ${viaSource} by the source's rate, ${viaInverse} by the inverse`
          )
      }
    }
    assert.strictEqual(Money.toFixed(inverseRate(m("1.3412")), 15), "0.745600954369221")
  })

  it("inverts source rates to foreign units per base unit and covers the days until the next rate", () => {
    const rate = (date: string, v: string, line: number) => ({
      currency: "USD",
      baseCurrency: "SGD",
      date,
      basePerUnit: m(v),
      lineage: `ExchangeRates.csv:${line}`
    })
    const usd = invoice({
      currency: "USD",
      lines: [line({ taxType: "Zero-Rated Supplies", taxAmount: Money.zero })],
      taxTotal: Money.zero,
      total: m("200.00"),
      amountDue: m("200.00")
    })
    const plan = build(
      books({ documents: [usd], rates: [rate("2025-03-01", "1.3412", 2), rate("2025-04-01", "1.3500", 3)] })
    )
    const rates = plan.ops.filter((o) => o.kind === "rate")
    assert.deepStrictEqual(
      rates.map((o) => o.body),
      [
        {
          currencyCode: "USD",
          rate: 0.745600954369221,
          rateApplicableFrom: "2025-03-01",
          rateApplicableTo: "2025-03-31"
        },
        {
          currencyCode: "USD",
          rate: 0.74074074074074,
          rateApplicableFrom: "2025-04-01",
          rateApplicableTo: "2025-04-01"
        }
      ]
    )
    assert.deepStrictEqual(
      plan.ops.filter((o) => o.kind === "currency").map((o) => o.body),
      [{ currencies: ["USD"] }]
    )
    const inv = plan.ops.find((o) => o.kind === "invoice")!
    assert.deepStrictEqual((inv.body as any).currency, { sourceCurrency: "USD" })
    assert.includeMembers([...inv.dependsOn], ["currency:USD", "rate:USD:2025-03-01"])
  })

  it("pays a foreign document from a base-currency bank: paymentAmount in SGD, transactionAmount in USD", () => {
    const rate = {
      currency: "USD",
      baseCurrency: "SGD",
      date: "2025-03-01",
      basePerUnit: m("1.3412"),
      lineage: "ExchangeRates.csv:2"
    }
    const usd = invoice({
      currency: "USD",
      lines: [line({ taxType: "Zero-Rated Supplies", taxAmount: Money.zero })],
      taxTotal: Money.zero,
      total: m("200.00"),
      amountPaid: m("200.00"),
      amountDue: Money.zero,
      status: "Paid"
    })
    const pay = {
      documentKind: "invoice" as const,
      documentNumber: "INV-1",
      bankAccountName: "DBS Business Account",
      date: "2025-03-20",
      amount: m("268.24"),
      lineage: "AccountTransactions.csv:7"
    }
    const plan = build(books({ documents: [usd], payments: [pay], rates: [rate] }))
    const p = plan.ops.find((o) => o.kind === "invoice-payment")!
    assert.deepStrictEqual(p.body, {
      resourceId: "@invoice:INV-1",
      payments: [
        {
          paymentAmount: 268.24,
          transactionAmount: 200,
          accountResourceId: "@account:DBS Business Account",
          paymentMethod: "BANK_TRANSFER",
          reference: "INV-1-PMT1",
          valueDate: "2025-03-20"
        }
      ]
    })
    assert.deepStrictEqual([...p.dependsOn], ["account:DBS Business Account", "invoice:INV-1"])
    const short = build(
      books({ documents: [usd], payments: [{ ...pay, amount: m("200.00") }], rates: [rate] })
    )
    assert.isTrue(
      short.issues.some(
        (i) => i.severity === "reject" && /settle 149\.12 USD, the document says 200\.00 paid/.test(i.why)
      )
    )
  })

  it("refuses a journal that posts to a control account", () => {
    const journal = {
      narration: "Reclass",
      date: "2025-03-31",
      lines: [
        { accountCode: "610", description: "", amount: m("50"), lineage: "ManualJournals.csv:2" },
        { accountCode: "400", description: "", amount: m("-50"), lineage: "ManualJournals.csv:3" }
      ],
      lineage: ["ManualJournals.csv:2", "ManualJournals.csv:3"]
    }
    assert.match(rejects(books({ journals: [journal] }))[0]!.what, /control account "Accounts Receivable"/)
  })

  it("is deterministic: the same books give the same plan hash", () => {
    assert.strictEqual(planHash(build(books()).ops), planHash(build(books()).ops))
    assert.notStrictEqual(
      planHash(build(books()).ops),
      planHash(build(books({ documents: [invoice({ dueDate: "2025-04-10" })] })).ops)
    )
  })

  it("holds each body as its canonical JSON, and a copy made by spreading an operation keeps the body and the hash", () => {
    const ops = build(books()).ops
    const invoiceOp = ops.find((o) => o.kind === "invoice")!
    assert.deepStrictEqual(invoiceOp.body, JSON.parse(jsonOf(invoiceOp)))
    const copies = ops.map((o) => ({ ...o }))
    assert.deepStrictEqual(copies.find((o) => o.kind === "invoice")!.body, invoiceOp.body)
    assert.strictEqual(planHash(copies), planHash(ops))
  })
})
