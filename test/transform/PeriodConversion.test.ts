/**
 * A conversion from a start date on synthetic books: documents open the day before become conversion
 * documents of what was open then, paid by what the period paid; the period's transactions follow, a credit
 * applied in the period to an older document is applied to its conversion document; a payment of a document
 * that was not open, and an older draft, are listed; reports missing the day before are refused as such.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Money from "../../src/transform/Money.js"
import * as PeriodConversion from "../../src/transform/PeriodConversion.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as QuickConversion from "../../src/transform/QuickConversion.js"
import type { SourceAgedItem, SourceBooks, SourceTrialBalance } from "../../src/transform/SourceModel.js"
import { applications, books, credit, invoice, m, mappings, paid, payment, snapshot } from "./Books.js"
import { tbLine as trialBalanceLine } from "./Books.js"

const FROM = "2025-07-01"
const DAY_BEFORE = "2025-06-30"

const tbLine = (code: string, name: string, debit: string, credit: string, row: number) =>
  trialBalanceLine(code, name, debit, credit, row, "TrialBalance-2025-06-30.csv")

/** On 2025-06-30: INV-1 has 100.00 open (9.00 paid in June), INV-2 all of its 109.00; INV-0 was paid in April. */
const tb: SourceTrialBalance = {
  asAt: DAY_BEFORE,
  lines: [
    tbLine("200", "Sales", "0", "300.00", 6),
    tbLine("820", "GST", "0", "27.00", 7),
    tbLine("090", "DBS", "118.00", "0", 8),
    tbLine("610", "Accounts Receivable", "209.00", "0", 9)
  ],
  totalDebit: m("327.00"),
  totalCredit: m("327.00"),
  file: "TrialBalance-2025-06-30.csv"
}

const open = (number: string, outstanding: string, row: number): SourceAgedItem => ({
  contactName: "Acme",
  number,
  reference: "",
  date: number === "INV-1" ? "2025-05-02" : "2025-06-01",
  dueDate: undefined,
  outstanding: m(outstanding),
  currency: undefined,
  lineage: `AgedReceivablesDetail-2025-06-30.csv:${row}`
})

const source = (over: Partial<SourceBooks> = {}): SourceBooks =>
  books({
    documents: [
      paid("INV-0", "2025-04-01", "109.00"),
      paid("INV-1", "2025-05-02", "109.00"),
      paid("INV-2", "2025-06-01", "109.00"),
      invoice("INV-D", "2025-06-15", { state: "draft", status: "Draft" }),
      invoice("INV-3", "2025-07-10")
    ],
    payments: [
      payment("INV-0", "2025-04-10", "109.00", 10),
      payment("INV-1", "2025-06-10", "9.00", 11),
      payment("INV-1", "2025-07-15", "100.00", 12),
      payment("INV-2", "2025-07-20", "59.00", 13)
    ],
    credits: [credit("CN-1", "2025-07-03", "50.00")],
    trialBalances: [tb],
    agedReports: [
      {
        side: "AR",
        asAt: DAY_BEFORE,
        items: [open("INV-1", "100.00", 7), open("INV-2", "109.00", 8)],
        file: "AgedReceivablesDetail-2025-06-30.csv"
      },
      { side: "AP", asAt: DAY_BEFORE, items: [], file: "AgedPayablesDetail-2025-06-30.csv" }
    ],
    ...over
  })

const convert = (b: SourceBooks) => {
  const made = PeriodConversion.books(b, FROM, snapshot, mappings)
  if (made instanceof QuickConversion.ConversionRefused) throw new Error(made.message)
  return made
}

describe("conversion from a start date", () => {
  it("opens each item open the day before at what was open then, and lets the period settle it", () => {
    const { books: made } = convert(source())
    assert.deepStrictEqual(
      made.documents.map((d) => [
        d.number,
        d.date,
        Money.toFixed(d.total),
        Money.toFixed(d.amountPaid),
        Money.toFixed(d.amountDue)
      ]),
      [
        ["INV-1", "2025-05-02", "100.00", "100.00", "0.00"],
        ["INV-2", "2025-06-01", "109.00", "109.00", "0.00"],
        ["INV-3", "2025-07-10", "109.00", "0.00", "109.00"]
      ],
      "conversion documents, then the period's own; INV-0 (paid) and the draft are not there"
    )
    assert.deepStrictEqual(
      made.payments.map((p) => [p.documentNumber, p.date]),
      [
        ["INV-1", "2025-07-15"],
        ["INV-2", "2025-07-20"]
      ]
    )
    assert.deepStrictEqual(
      made.journals.map((j) => [j.date, j.lines.length]),
      [[DAY_BEFORE, 4]]
    )
    assert.deepStrictEqual(
      made.trialBalances.map((t) => t.asAt),
      [DAY_BEFORE]
    )
  })

  it("plans the period's credit on the conversion document, and no reject but the payment of a closed document", () => {
    const stray = payment("INV-0", "2025-07-05", "10.00", 14)
    const { books: made } = convert(source({ payments: [...source().payments, stray] }))
    const plan = PlanBuilder.build(made, snapshot, mappings)
    assert.deepStrictEqual(applications(plan), ["@customer-credit-note:CN-1 → @invoice:INV-2 50"])
    const rejects = plan.issues.filter((i) => i.severity === "reject")
    assert.deepStrictEqual(
      rejects.map((i) => [i.lineage, i.what]),
      [[["AccountTransactions.csv:14"], "a payment of 10.00 on 2025-07-05 against invoice INV-0"]]
    )
    assert.match(
      rejects[0]!.why,
      /dated before the start date 2025-07-01, and the aged report as at 2025-06-30 does not list it as open/
    )
    const draft = plan.issues.find((i) => i.what === "draft invoice INV-D of 2025-06-15")
    assert.match(draft?.why ?? "", /dated before the start date 2025-07-01/)
    assert.deepStrictEqual(
      plan.ops.filter((o) => o.kind === "invoice-payment").map((o) => o.key),
      ["payment:invoice:INV-1:1", "payment:invoice:INV-2:1"],
      "each conversion document's period payments, numbered from one"
    )
  })

  it("refuses a start date without the reports of the day before, naming them", () => {
    const made = PeriodConversion.books(source(), "2025-08-01", snapshot, mappings)
    assert.instanceOf(made, QuickConversion.ConversionRefused)
    const message = (made as QuickConversion.ConversionRefused).message
    assert.match(
      message,
      /^conversion from 2025-08-01 refused: no Trial Balance and no Aged Receivables Detail and no Aged Payables Detail as at 2025-07-31/
    )
    assert.match(message, /Trial Balance as at 2025-06-30 \(TrialBalance-2025-06-30\.csv\)/)
    assert.match(message, /opens from the reports as at the day before, 2025-07-31/)
  })
})
