/**
 * The trial-balance comparison on synthetic books: pairing by code, then name, several source accounts onto
 * one target account, totals per section, zero tolerance, and each class of difference with its fix.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Explanation } from "../../src/reconcile/Candidates.js"
import * as TrialBalanceCheck from "../../src/reconcile/TrialBalanceCheck.js"
import { agreeing, chart, m, pairing, sourceTb, targetTb, tbLine } from "./Synthetic.js"

const run = (
  tb = sourceTb(),
  balances: Record<string, string> = agreeing,
  explanations: ReadonlyMap<string, Explanation> = new Map()
) => {
  const target = targetTb(balances)
  const groups = TrialBalanceCheck.groupAccounts(tb, target, chart, pairing)
  return { groups, ...TrialBalanceCheck.compare(tb, target, groups, explanations) }
}

const rowOf = (r: ReturnType<typeof run>, account: string) =>
  r.comparison.sections
    .flatMap((s) => s.rows)
    .find((x) => x.sourceAccounts.some((a) => a.name === account) || x.targetAccount === account)!

describe("trial balance comparison", () => {
  it("agrees account by account when the balances agree, several source accounts summed onto one target account", () => {
    const r = run()
    assert.deepStrictEqual(r.differences, [])
    assert.deepStrictEqual(
      r.comparison.sections.map((s) => s.name),
      ["Revenue", "Expenses", "Assets", "Liabilities"],
      "sections in the source's order"
    )
    const fx = rowOf(r, "Realised Currency Gains")
    assert.deepStrictEqual(
      fx.sourceAccounts.map((a) => a.name),
      ["Realised Currency Gains", "Unrealised Currency Gains"],
      "names as the source spells them"
    )
    assert.strictEqual(fx.targetAccount, "Foreign Exchange Gain/Loss")
    assert.deepStrictEqual([fx.sourceDebit, fx.targetDebit, fx.difference], ["1.00", "1.00", "0.00"])
    assert.strictEqual(rowOf(r, "GST").targetAccount, "GST Control", "system accounts by the plan's alias")
    assert.deepStrictEqual(r.comparison.totals, {
      sourceDebit: "1090.00",
      sourceCredit: "1090.00",
      targetDebit: "1090.00",
      targetCredit: "1090.00",
      difference: "0.00"
    })
    const expenses = r.comparison.sections.find((s) => s.name === "Expenses")!
    assert.strictEqual(expenses.totals.sourceDebit, "301.00")
    assert.isTrue(r.comparison.targetBalanced)
  })

  it("pairs a row by its code before its name", () => {
    const tb = sourceTb()
    const renamed = {
      ...tb,
      lines: tb.lines.map((l) => (l.accountCode === "200" ? { ...l, accountName: "Sales of goods" } : l))
    }
    const r = run(renamed)
    assert.deepStrictEqual(r.differences, [])
    assert.strictEqual(rowOf(r, "Sales of goods").targetAccount, "Sales")
  })

  it("finds one cent: a transaction difference, with the explanation's candidates", () => {
    const why: Explanation = {
      candidates: [
        {
          kind: "changed",
          entity: "invoice",
          reference: "INV-7",
          date: "2025-05-01",
          source: "-100.00",
          target: "-100.01",
          lineage: ["SalesInvoices.csv:9"]
        }
      ],
      foreign: false
    }
    const r = run(
      undefined,
      { ...agreeing, Sales: "-1000.01", "DBS Business Account": "209.01" },
      new Map([["sales", why]])
    )
    const sales = r.differences.find((d) => d.subject === "Sales")!
    assert.strictEqual(sales.class, "transaction")
    assert.strictEqual(sales.difference, "-0.01")
    assert.strictEqual(sales.candidates[0]!.reference, "INV-7")
    assert.deepStrictEqual(sales.lineage, ["TrialBalance.csv:5"], "the source row of the account")
    assert.strictEqual(rowOf(r, "Sales").status, "transaction")
    assert.strictEqual(r.comparison.sections.find((s) => s.name === "Revenue")!.totals.difference, "-0.01")
  })

  it("calls a balance on the other side a sign reversed", () => {
    const r = run(undefined, { ...agreeing, Rent: "-300.00", "DBS Business Account": "809.00" })
    const rent = r.differences.find((d) => d.subject === "Rent")!
    assert.strictEqual(rent.class, "sign-reversed")
    assert.strictEqual(rent.difference, "-600.00")
    assert.match(rent.fix, /other side/)
  })

  it("calls cents that only foreign-currency postings explain rounding, and a larger amount a transaction", () => {
    const foreign = new Map([["foreign exchange gain/loss", { candidates: [], foreign: true }]])
    const small = run(
      undefined,
      { ...agreeing, "Foreign Exchange Gain/Loss": "1.37", "DBS Business Account": "208.63" },
      foreign
    )
    assert.strictEqual(
      small.differences.find((d) => d.subject === "Realised Currency Gains")!.class,
      "rounding"
    )
    const large = run(
      undefined,
      { ...agreeing, "Foreign Exchange Gain/Loss": "2.01", "DBS Business Account": "207.99" },
      foreign
    )
    assert.strictEqual(
      large.differences.find((d) => d.subject === "Realised Currency Gains")!.class,
      "transaction"
    )
  })

  it("names an account the target lacks, and one only the target has, with the rename that explains both", () => {
    const tb = sourceTb()
    const withInsurance = { ...tb, lines: [...tb.lines, tbLine("Expenses", "Insurance", "433", "50.00")] }
    const chartWithout = chart.filter((a) => a.name !== "Insurance")
    const target = targetTb({ ...agreeing, "Insurance (old)": "50.00" })
    const groups = TrialBalanceCheck.groupAccounts(
      withInsurance,
      target,
      [
        ...chartWithout,
        {
          name: "Insurance (old)",
          code: "",
          accountClass: "Expense",
          accountType: "Operating Expense",
          controlFlag: false
        }
      ],
      pairing
    )
    const { differences, comparison } = TrialBalanceCheck.compare(withInsurance, target, groups, new Map())
    const missing = differences.find((d) => d.class === "missing-account")!
    assert.strictEqual(missing.subject, "Insurance")
    assert.match(missing.fix, /"Insurance \(old\)" holds exactly this balance/)
    const extra = differences.find((d) => d.class === "extra-account")!
    assert.strictEqual(extra.subject, "Insurance (old)")
    assert.strictEqual(extra.source, "0.00")
    assert.strictEqual(extra.target, "50.00")
    const rows = comparison.sections.find((s) => s.name === "Expenses")!.rows
    assert.deepStrictEqual(
      rows.map((r) => [r.sourceAccounts.map((a) => a.name).join("+"), r.targetAccount ?? "", r.status]),
      [
        ["Rent", "Rent", "ok"],
        ["Realised Currency Gains+Unrealised Currency Gains", "Foreign Exchange Gain/Loss", "ok"],
        ["Insurance", "", "missing-account"],
        ["", "Insurance (old)", "extra-account"]
      ]
    )
  })

  it("says when the target's own trial balance does not balance", () => {
    const unbalanced = { ...targetTb(agreeing), credit: m("1090.50") }
    const groups = TrialBalanceCheck.groupAccounts(sourceTb(), unbalanced, chart, pairing)
    const r = TrialBalanceCheck.compare(sourceTb(), unbalanced, groups, new Map())
    assert.isFalse(r.comparison.targetBalanced)
  })
})
