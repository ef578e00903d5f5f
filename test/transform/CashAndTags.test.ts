/**
 * Cash entries, transfers, line discounts and tags in the plan, on synthetic books: the bodies the platform
 * receives, the phases and dependencies, and each bad input (lines that do not add up to the bank row,
 * transfer sides that disagree, a discount that cannot reproduce the line amount) as a reject naming rows.
 */
import { assert, describe, it } from "@effect/vitest"
import { phases } from "../../src/transform/Plan.js"
import { build, books, invoice, line, m, rejects, spend, transfer, warnings } from "./Books.js"

describe("cash entries", () => {
  it("Spend Money is a cash-out on the bank: contact, notes, one entry per account line on its side", () => {
    const plan = build(books({ cashEntries: [spend()] }))
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
    const op = plan.ops.find((o) => o.kind === "cash-out")!
    assert.strictEqual(op.phase, "transactions")
    assert.match(op.naturalKey, /^MIG-SM-20250331-[0-9a-f]{8}$/, "no source reference: a derived one")
    assert.deepStrictEqual(op.body, {
      accountResourceId: "@account:DBS",
      reference: op.naturalKey,
      valueDate: "2025-03-31",
      contactResourceId: "@contact:Landlord",
      internalNotes: "March rent",
      journalEntries: [
        { accountResourceId: "@account:Rent", type: "DEBIT", amount: 1000, description: "March rent" },
        { accountResourceId: "@account:GST Control", type: "DEBIT", amount: 90, description: "March rent" }
      ]
    })
    assert.deepStrictEqual([...op.dependsOn], ["account:DBS", "account:Rent", "contact:Landlord"])
    const landlord = plan.ops.find((o) => o.key === "contact:Landlord")!
    assert.deepStrictEqual([(landlord.body as any).customer, (landlord.body as any).supplier], [false, true])
  })

  it("Receive Money is a cash-in; a line against the natural side is sent on the other side", () => {
    const receive = spend({
      direction: "in",
      reference: "RM-7",
      contactName: "",
      amount: m("80.00"),
      lines: [
        {
          accountName: "Sales",
          amount: m("100.00"),
          description: "Sale",
          lineage: "AccountTransactions.csv:21"
        },
        {
          accountName: "Rent",
          amount: m("-20.00"),
          description: "Refund of rent",
          lineage: "AccountTransactions.csv:22"
        }
      ]
    })
    const op = build(books({ cashEntries: [receive] })).ops.find((o) => o.kind === "cash-in")!
    assert.strictEqual(op.naturalKey, "RM-7", "the source's reference is kept")
    assert.isUndefined((op.body as any).contactResourceId)
    assert.deepStrictEqual(
      (op.body as any).journalEntries.map((e: any) => [e.accountResourceId, e.type, e.amount]),
      [
        ["@account:Sales", "CREDIT", 100],
        ["@account:Rent", "DEBIT", 20]
      ]
    )
  })

  it("on a foreign bank carries the currency object; lines that do not add up, or post to a control account, are rejects", () => {
    const usd = build(books({ cashEntries: [spend({ bankAccountName: "USD Bank" })] })).ops.find(
      (o) => o.kind === "cash-out"
    )!
    assert.deepStrictEqual((usd.body as any).currency, { sourceCurrency: "USD" })
    assert.include([...usd.dependsOn], "currency:USD")
    const short = rejects(books({ cashEntries: [spend({ amount: m("1100.00") })] }))
    assert.strictEqual(short.length, 1)
    assert.deepStrictEqual(
      [...short[0]!.lineage],
      ["AccountTransactions.csv:5", "AccountTransactions.csv:20", "AccountTransactions.csv:30"]
    )
    assert.match(short[0]!.what, /add up to 1090\.00, the bank row says 1100\.00/)
    const control = rejects(
      books({
        cashEntries: [
          spend({
            amount: m("50.00"),
            lines: [
              {
                accountName: "Accounts Receivable",
                amount: m("50.00"),
                description: "",
                lineage: "AccountTransactions.csv:44"
              }
            ]
          })
        ]
      })
    )
    assert.match(control[0]!.what, /line AccountTransactions\.csv:44 posts to the control account/)
  })

  it("a reference used twice is kept once and the other is renamed, with a warning", () => {
    const plan = build(
      books({
        cashEntries: [
          spend({ reference: "R-1" }),
          spend({ reference: "R-1", date: "2025-04-30", lineage: ["AccountTransactions.csv:9"] })
        ]
      })
    )
    assert.deepStrictEqual(
      plan.ops.filter((o) => o.kind === "cash-out").map((o) => o.naturalKey),
      ["R-1", "R-1-2"]
    )
    assert.isTrue(
      plan.issues.some(
        (i) => i.severity === "warning" && i.lineage[0] === "AccountTransactions.csv:9" && /R-1-2/.test(i.fix)
      )
    )
  })
})

describe("transfers", () => {
  it("become cash transfers with cashOut and cashIn; between currencies both amounts are sent", () => {
    const plan = build(
      books({
        transfers: [
          transfer(),
          transfer({
            reference: "TRF-2",
            toAccountName: "USD Bank",
            amountOut: m("1350.00"),
            amountIn: m("1000.00")
          })
        ]
      })
    )
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
    const [same, fx] = plan.ops.filter((o) => o.kind === "cash-transfer")
    assert.deepStrictEqual(same!.body, {
      reference: "TRF-1",
      valueDate: "2025-03-15",
      cashOut: { accountResourceId: "@account:DBS", amount: 500 },
      cashIn: { accountResourceId: "@account:OCBC", amount: 500 },
      internalNotes: "Transfer from DBS to OCBC"
    })
    assert.deepStrictEqual([(fx!.body as any).cashOut.amount, (fx!.body as any).cashIn.amount], [1350, 1000])
    assert.includeMembers([...fx!.dependsOn], ["account:USD Bank", "currency:USD"])
  })

  it("whose sides disagree in one currency is a reject naming both rows", () => {
    const r = rejects(books({ transfers: [transfer({ amountIn: m("499.00") })] }))
    assert.strictEqual(r.length, 1)
    assert.deepStrictEqual([...r[0]!.lineage], ["AccountTransactions.csv:6", "AccountTransactions.csv:40"])
    assert.match(
      r[0]!.what,
      /AccountTransactions\.csv:6 takes 500\.00 out of "DBS", AccountTransactions\.csv:40 puts 499\.00 into "OCBC"/
    )
  })
})

describe("line discounts", () => {
  const discounted = (over = {}) =>
    invoice("INV-1", "2025-01-10", {
      total: m("98.10"),
      taxTotal: m("8.10"),
      amountDue: m("98.10"),
      lines: [
        line({
          quantity: m("2"),
          unitAmount: m("50.00"),
          discount: m("10"),
          lineAmount: m("90.00"),
          taxAmount: m("8.10"),
          ...over
        })
      ]
    })

  it("become the platform's flat line discount that reproduces Xero's LineAmount to the cent", () => {
    const op = build(books({ documents: [discounted()] })).ops.find((o) => o.kind === "invoice")!
    assert.deepStrictEqual((op.body as any).lineItems[0], {
      name: "Work",
      quantity: 2,
      unitPrice: 50,
      discount: 10,
      accountResourceId: "@account:Sales",
      taxProfileResourceId: "@taxProfile:SR 9%"
    })
  })

  it("a discount that cannot reproduce LineAmount is a reject naming the row", () => {
    const r = rejects(
      books({ documents: [discounted({ lineAmount: m("89.99"), lineage: "SalesInvoices.csv:12" })] })
    )
    assert.strictEqual(r.length, 1)
    assert.match(
      r[0]!.what,
      /line SalesInvoices\.csv:12: a 10\.00% discount on 2\.00 × 50\.00 gives 90\.00, the export's LineAmount is 89\.99/
    )
  })
})

describe("tags", () => {
  it("each tracking option is one tag, created in the first phase; transactions carry the names and depend on them", () => {
    const tracked = invoice("INV-1", "2025-01-10", {
      lines: [
        line({
          tracking: [
            { category: "Region", option: "North" },
            { category: "Project", option: "Alpha" }
          ]
        })
      ]
    })
    const journal = {
      narration: "Accrual",
      date: "2025-01-31",
      lines: [
        {
          accountCode: "400",
          description: "",
          amount: m("10"),
          lineage: "ManualJournals.csv:2",
          tracking: [{ category: "Region", option: "North" }]
        },
        { accountCode: "820", description: "", amount: m("-10"), lineage: "ManualJournals.csv:3" }
      ],
      lineage: ["ManualJournals.csv:2", "ManualJournals.csv:3"]
    }
    const plan = build(books({ documents: [tracked], journals: [journal] }))
    assert.strictEqual(phases[0], "tags")
    const tags = plan.ops.filter((o) => o.kind === "tag")
    assert.deepStrictEqual(
      tags.map((o) => [o.phase, o.key, o.body]),
      [
        ["tags", "tag:Project: Alpha", { tagName: "Project: Alpha" }],
        ["tags", "tag:Region: North", { tagName: "Region: North" }]
      ]
    )
    assert.deepStrictEqual(tags[1]!.lineage, ["ManualJournals.csv:2", "SalesInvoices.csv:2"])
    const inv = plan.ops.find((o) => o.kind === "invoice")!
    assert.deepStrictEqual((inv.body as any).tags, ["Project: Alpha", "Region: North"])
    assert.includeMembers([...inv.dependsOn], ["tag:Project: Alpha", "tag:Region: North"])
    assert.deepStrictEqual((plan.ops.find((o) => o.kind === "journal")!.body as any).tags, ["Region: North"])
    assert.strictEqual(plan.ops[0]!.kind, "tag", "tags come before everything")
  })

  it("every dependency points to an earlier phase or to the same phase's tags", () => {
    const plan = build(
      books({
        documents: [
          invoice("INV-1", "2025-01-10", { lines: [line({ tracking: [{ category: "R", option: "N" }] })] })
        ],
        cashEntries: [spend()],
        transfers: [transfer()]
      })
    )
    const phaseOf = new Map(plan.ops.map((o) => [o.key, phases.indexOf(o.phase)]))
    for (const o of plan.ops)
      for (const d of o.dependsOn) assert.isBelow(phaseOf.get(d)!, phases.indexOf(o.phase), `${o.key} → ${d}`)
    assert.deepStrictEqual(warnings(books()).length, 0)
  })
})
