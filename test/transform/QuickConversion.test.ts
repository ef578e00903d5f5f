/**
 * A quick conversion on synthetic books: each open item becomes a conversion document (a credit note when
 * negative, a derived number when the report gives none, a foreign one at the rate that gives the report's
 * base amount), the trial balance a journal with the control balances on the clearing accounts, and the
 * plan is deterministic; each input that cannot give a true opening position is refused, saying why.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Money from "../../src/transform/Money.js"
import { planHash } from "../../src/transform/Plan.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as QuickConversion from "../../src/transform/QuickConversion.js"
import type {
  SourceAgedItem,
  SourceAgedReport,
  SourceBooks,
  SourceTrialBalance
} from "../../src/transform/SourceModel.js"
import { books, invoice, m, mappings, snapshot, tbLine } from "./Books.js"

const AS_AT = "2025-06-30"

/** Receivables 259.00 (two invoices, less an overpayment of 50.00), payables 100.00, and the rest. */
const tb = (over: Partial<SourceTrialBalance> = {}): SourceTrialBalance => ({
  asAt: AS_AT,
  lines: [
    tbLine("200", "Sales", "0", "700.00", 6),
    tbLine("400", "Rent", "300.00", "0", 7),
    tbLine("090", "DBS", "241.00", "0", 8),
    tbLine("610", "Accounts Receivable", "259.00", "0", 9),
    tbLine("800", "Accounts Payable", "0", "100.00", 10)
  ],
  totalDebit: m("800.00"),
  totalCredit: m("800.00"),
  file: "TrialBalance.csv",
  ...over
})

const item = (over: Partial<SourceAgedItem>): SourceAgedItem => ({
  contactName: "Acme",
  number: "INV-1",
  reference: "",
  date: "2025-05-02",
  dueDate: "2025-06-01",
  outstanding: m("109.00"),
  currency: undefined,
  lineage: "AgedReceivablesDetail.csv:7",
  ...over
})

const aged = (side: "AR" | "AP", items: ReadonlyArray<SourceAgedItem>): SourceAgedReport => ({
  side,
  asAt: AS_AT,
  items,
  file: side === "AR" ? "AgedReceivablesDetail.csv" : "AgedPayablesDetail.csv"
})

const arItems = [
  item({}),
  item({
    number: "INV-2",
    outstanding: m("200.00"),
    currency: undefined,
    lineage: "AgedReceivablesDetail.csv:8"
  }),
  item({
    number: "",
    reference: "Overpayment",
    date: "2025-05-20",
    dueDate: undefined,
    outstanding: m("-50.00"),
    lineage: "AgedReceivablesDetail.csv:9"
  })
]
const apItems = [
  item({ contactName: "Beta", number: "B-7", outstanding: m("100.00"), lineage: "AgedPayablesDetail.csv:7" })
]

/** Books whose INV-2 is in USD: 150.00 USD, which the report shows as 200.00 SGD. */
const source = (over: Partial<SourceBooks> = {}): SourceBooks =>
  books({
    documents: [
      invoice("INV-2", "2025-05-02", { currency: "USD", total: m("150.00"), amountDue: m("150.00") })
    ],
    trialBalances: [tb()],
    agedReports: [aged("AR", arItems), aged("AP", apItems)],
    ...over
  })

const convert = (b: SourceBooks) => {
  const made = QuickConversion.books(b, AS_AT, snapshot, mappings)
  if (made instanceof QuickConversion.ConversionRefused) throw new Error(made.message)
  return made
}

const refusal = (b: SourceBooks) => {
  const made = QuickConversion.books(b, AS_AT, snapshot, mappings)
  assert.instanceOf(made, QuickConversion.ConversionRefused)
  return (made as QuickConversion.ConversionRefused).message
}

describe("quick conversion", () => {
  it("makes a conversion document per open item, on the clearing accounts, and a journal of the trial balance", () => {
    const made = convert(source())
    const { documents, credits = [], journals } = made.books
    assert.deepStrictEqual(
      documents.map((d) => [d.kind, d.number, d.date, d.dueDate, d.currency, Money.toFixed(d.total)]),
      [
        ["invoice", "INV-1", "2025-05-02", "2025-06-01", "", "109.00"],
        ["invoice", "INV-2", "2025-05-02", "2025-06-01", "USD", "150.00"],
        ["bill", "B-7", "2025-05-02", "2025-06-01", "", "100.00"]
      ]
    )
    const usd = documents[1]!
    assert.strictEqual(
      Money.toFixed(Money.round2(Money.div(usd.total, usd.exchangeRate!, 12))),
      "200.00",
      "the foreign item's rate gives the report's base amount to the cent"
    )
    assert.deepStrictEqual(
      documents.map((d) => [d.lines.length, d.lines[0]!.accountCode, d.lines[0]!.taxType]),
      [
        [1, "AR Conversion Clearing", ""],
        [1, "AR Conversion Clearing", ""],
        [1, "AP Conversion Clearing", ""]
      ]
    )
    assert.strictEqual(credits.length, 1)
    assert.match(credits[0]!.number, /^OPEN-AR-20250520-[0-9a-f]{8}$/, "an overpayment gets a derived number")
    assert.strictEqual(Money.toFixed(credits[0]!.remaining), "50.00")
    assert.deepStrictEqual(
      journals[0]!.lines.map((l) => [l.accountCode, Money.toFixed(l.amount)]),
      [
        ["200", "-700.00"],
        ["400", "300.00"],
        ["090", "241.00"],
        ["AR Conversion Clearing", "259.00"],
        ["AP Conversion Clearing", "-100.00"]
      ]
    )
    assert.deepStrictEqual(made.clearingAccounts, ["AR Conversion Clearing", "AP Conversion Clearing"])
    assert.deepStrictEqual(made.files, [
      "TrialBalance.csv",
      "AgedReceivablesDetail.csv",
      "AgedPayablesDetail.csv"
    ])
  })

  it("plans with no rejects, the same plan every time", () => {
    const plan = PlanBuilder.build(convert(source()).books, snapshot, mappings)
    assert.deepStrictEqual(
      plan.issues.filter((i) => i.severity === "reject"),
      []
    )
    const usd = plan.ops.find((o) => o.key === "invoice:INV-2")!
    assert.deepStrictEqual((usd.body as any).currency.sourceCurrency, "USD")
    assert.isNumber((usd.body as any).currency.exchangeRate)
    assert.isTrue(plan.ops.some((o) => o.kind === "customer-credit-note"))
    assert.strictEqual(plan.ops.filter((o) => o.kind === "journal").length, 1)
    const again = PlanBuilder.build(convert(source()).books, snapshot, mappings)
    assert.strictEqual(planHash(again.ops), planHash(plan.ops))
  })

  it("refuses without the reports as at the date, naming what the input holds", () => {
    const message = refusal(source({ trialBalances: [tb({ asAt: "2025-12-31" })] }))
    assert.match(message, /no Trial Balance as at 2025-06-30 in the input/)
    assert.match(message, /Trial Balance as at 2025-12-31 \(TrialBalance\.csv\)/)
  })

  it("refuses a trial balance that does not balance, with its two totals", () => {
    const lines = [...tb().lines.slice(0, 4), tbLine("800", "Accounts Payable", "0", "99.00", 10)]
    assert.match(
      refusal(source({ trialBalances: [tb({ lines })] })),
      /debits 800\.00 and credits 799\.00 differ by 1\.00/
    )
  })

  it("refuses an aged report whose total is not the control balance, with both figures", () => {
    const short = [arItems[0]!, arItems[1]!]
    assert.match(
      refusal(source({ agedReports: [aged("AR", short), aged("AP", apItems)] })),
      /Aged Receivables Detail as at 2025-06-30 .*its total 309\.00 is not the receivables control balance 259\.00/
    )
  })

  it("refuses a foreign open item whose own amount the input does not give", () => {
    const unknown = source({
      documents: [
        invoice("INV-2", "2025-05-02", { currency: "USD", total: m("150.00"), amountDue: Money.zero })
      ]
    })
    assert.match(refusal(unknown), /AgedReceivablesDetail\.csv:8: open item INV-2 of "Acme" in USD/)
  })

  it("refuses a trial balance account the chart lacks, naming its row", () => {
    const lines = [
      tbLine("200", "Sales", "0", "710.00", 6),
      ...tb().lines.slice(1),
      tbLine("", "Suspense", "10.00", "0", 11)
    ]
    assert.match(
      refusal(source({ trialBalances: [tb({ lines })] })),
      /TrialBalance\.csv:11: the Trial Balance's account "Suspense": it is not in the chart of accounts export/
    )
  })
})
