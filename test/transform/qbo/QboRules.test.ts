/**
 * The two inferences QuickBooks' Journal needs, on their own: the sales tax rate and taxable lines of a sale
 * (QboTax), and which documents a payment paid (QboLinking) — an exact match, an exact set, oldest first,
 * an ambiguous placement reported, what cannot be placed refused with the candidates, and a stated link.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Money from "../../../src/transform/Money.js"
import * as QboLinking from "../../../src/transform/qbo/QboLinking.js"
import * as QboTax from "../../../src/transform/qbo/QboTax.js"
import type { Issue } from "../../../src/transform/SourceModel.js"

const m = (s: string) => Money.fromNumber(Number(s))
const fixed = (x: Money.Money) => Money.toFixed(x)
const line = (amount: string, description = "") => ({ amount: m(amount), description })

describe("QuickBooks sales tax inference", () => {
  it("takes the rate the tax line names when it reproduces the tax", () => {
    const r = QboTax.infer([line("200.00")], m("12.50"), new Map(), "Texas State 6.25%")!
    assert.deepStrictEqual([fixed(r.rate!), r.lines.map((l) => fixed(l.tax))], ["6.25", ["12.50"]])
  })

  it("else the rate with the fewest decimals that gives the tax on the taxable sum", () => {
    const r = QboTax.infer([line("100.00"), line("100.00")], m("16.50"), new Map(), "Sales tax")!
    assert.strictEqual(QboTax.rateName(r.rate!), "8.25%")
    const whole = QboTax.infer([line("100.00")], m("7.00"), new Map())!
    assert.strictEqual(QboTax.rateName(whole.rate!), "7%")
  })

  it("leaves a non-taxable product's line untaxed, and makes every line taxable when no rate fits otherwise", () => {
    const taxable = new Map([
      ["garden design consultation", false],
      ["lawn maintenance visit", true]
    ])
    const r = QboTax.infer(
      [line("95.00", "Garden design consultation"), line("200.00", "Lawn maintenance visit")],
      m("16.50"),
      taxable
    )!
    assert.deepStrictEqual(
      r.lines.map((l) => [l.taxable, fixed(l.tax)]),
      [
        [false, "0.00"],
        [true, "16.50"]
      ]
    )
    // 8.25% of both lines: the Taxable flag is wrong for this sale, so every line is taxed.
    const all = QboTax.infer(
      [line("95.00", "Garden design consultation"), line("200.00", "Lawn maintenance visit")],
      m("24.34"),
      taxable,
      "Austin TX 8.25%"
    )!
    assert.deepStrictEqual(
      all.lines.map((l) => l.taxable),
      [true, true]
    )
  })

  it("splits a line evenly where the platform's per-line rounding would miss the tax by a cent", () => {
    // 1.06 + 1.06 at 8.25%: 0.09 + 0.09 per line, 0.17 on the sum.
    const r = QboTax.infer([line("1.06"), line("1.06")], m("0.17"), new Map(), "Austin TX 8.25%")!
    assert.deepStrictEqual(
      r.lines.map((l) => [l.index, fixed(l.amount), fixed(l.tax)]),
      [
        [0, "0.53", "0.04"],
        [0, "0.53", "0.04"],
        [1, "1.06", "0.09"]
      ]
    )
  })

  it("finds no rate for tax on lines that sum to nothing taxable", () => {
    assert.isUndefined(QboTax.infer([line("-10.00")], m("1.00"), new Map()))
  })
})

const doc = (
  number: string,
  date: string,
  paid: string,
  contactName = "Amaya Residence"
): QboLinking.LinkDoc => ({
  kind: "invoice",
  number,
  contactName,
  date,
  paid: m(paid),
  lineage: `Journal.csv:${number}`
})
const pay = (
  reference: string,
  date: string,
  amount: string,
  contactName = "Amaya Residence"
): QboLinking.LinkPayment => ({
  reference,
  kind: "invoice",
  contactName,
  date,
  amount: m(amount),
  bankAccountName: "Undeposited Funds",
  lineage: [`Journal.csv:${reference}`]
})
const placed = (r: QboLinking.Linked) => r.payments.map((p) => [p.documentNumber, fixed(p.amount), p.lineage])

describe("QuickBooks payment linking", () => {
  it("an exact match before older documents, then an exact set, then oldest first", () => {
    const issues: Array<Issue> = []
    const docs = [
      doc("1", "2025-01-01", "50"),
      doc("2", "2025-01-02", "70"),
      doc("3", "2025-01-03", "30"),
      doc("4", "2025-01-04", "100")
    ]
    const r = QboLinking.link(
      docs,
      [pay("A", "2025-02-01", "100"), pay("B", "2025-02-02", "100"), pay("C", "2025-02-03", "50")],
      [],
      issues
    )
    assert.deepStrictEqual(placed(r), [
      ["4", "100.00", "Journal.csv:A"],
      ["2", "70.00", "Journal.csv:B"],
      ["3", "30.00", "Journal.csv:B"],
      ["1", "50.00", "Journal.csv:C"]
    ])
    assert.deepStrictEqual(issues, [])
  })

  it("reports an ambiguous placement with its candidates, and refuses what no document can take", () => {
    const issues: Array<Issue> = []
    const docs = [doc("1", "2025-01-01", "60"), doc("2", "2025-01-02", "60"), doc("3", "2025-03-01", "500")]
    const r = QboLinking.link(docs, [pay("A", "2025-02-01", "100"), pay("B", "2025-02-02", "40")], [], issues)
    assert.deepStrictEqual(placed(r), [
      ["1", "60.00", "Journal.csv:A"],
      ["2", "40.00", "Journal.csv:A"],
      ["2", "20.00", "Journal.csv:B"]
    ])
    assert.deepStrictEqual(
      issues.map((i) => [i.severity, i.what]),
      [
        ["warning", "payment A of 2025-02-01 (Amaya Residence, 100.00)"],
        ["reject", "20.00 of payment B of 2025-02-02 (Amaya Residence, 40.00)"]
      ]
    )
    assert.match(
      issues[0]!.why,
      /candidates 1 of 2025-01-01 \(60\.00 unexplained\), 2 of 2025-01-02 \(60\.00 unexplained\)/
    )
    assert.match(
      issues[1]!.why,
      /candidates: 1 of 2025-01-01 \(0\.00 unexplained\), 2 of 2025-01-02 \(0\.00 unexplained\), 3 of 2025-03-01 \(500\.00 unexplained\)/
    )
  })

  it("a stated link places its payment first, and the others are inferred around it", () => {
    const issues: Array<Issue> = []
    const docs = [doc("1", "2025-01-01", "100"), doc("2", "2025-01-02", "100")]
    const stated = [{ reference: "B", documentNumber: "1", amount: m("100"), lineage: "Links.csv:2" }]
    const r = QboLinking.link(
      docs,
      [pay("A", "2025-02-01", "100"), pay("B", "2025-02-02", "100")],
      stated,
      issues
    )
    assert.deepStrictEqual(placed(r), [
      ["1", "100.00", "Journal.csv:B"],
      ["2", "100.00", "Journal.csv:A"]
    ])
    assert.deepStrictEqual(issues, [])
  })
})
