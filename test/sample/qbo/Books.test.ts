/**
 * The QuickBooks sample's books proved from its files alone, read back with csv-parse: every Journal
 * transaction balances, the Trial Balance is the Journal's net per account and balances, the aging reports'
 * open totals are the Trial Balance's Accounts Receivable and Payable, and the Account List's balances agree.
 */
import { assert, describe, it } from "@effect/vitest"
import { parse } from "csv-parse/sync"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { generateQbo, transactions } from "../../../src/sample/qbo/Generator.js"
import { tempDir } from "../../support/TempDir.js"

type Records = Array<Array<string>>

const records = (dir: string, name: string): Records =>
  parse(NodeFs.readFileSync(NodePath.join(dir, name), "utf8"), {
    relax_column_count: true,
    skip_empty_lines: false
  }) as Records

/** Cents of a report amount: `1,234.50`, `-1,234.50`, `$1,234.50`, `-$5.00`, `(500.00)`; blank is 0. */
const cents = (text: string): bigint => {
  const t = text.trim()
  if (t === "") return 0n
  const m = /^(-?)\$?(\()?([\d,]+)\.(\d{2})\)?$/.exec(t)
  assert.isNotNull(m, `not an amount: ${text}`)
  const value = BigInt(m![3]!.replace(/,/g, "")) * 100n + BigInt(m![4]!)
  return m![1] === "-" || m![2] === "(" ? -value : value
}

interface JournalTxn {
  readonly type: string
  readonly lines: Array<{ account: string; debit: bigint; credit: bigint; description: string }>
  readonly total: readonly [bigint, bigint]
}

const journal = (dir: string): { txns: Array<JournalTxn>; total: readonly [bigint, bigint] } => {
  const rows = records(dir, "Journal.csv")
  assert.deepStrictEqual(
    rows.slice(0, 3).map((r) => r[0]),
    ["Bluebonnet Landscape & Garden Co.", "Journal", "January 1 - December 31, 2025"]
  )
  assert.deepStrictEqual(rows[4], [
    "",
    "Transaction date",
    "Transaction type",
    "Num",
    "Name",
    "Description",
    "Account Name",
    "Debit",
    "Credit"
  ])
  const txns: Array<JournalTxn> = []
  let open: { type: string; lines: JournalTxn["lines"] } | undefined
  let total: readonly [bigint, bigint] = [0n, 0n]
  for (const r of rows.slice(5)) {
    if (r.every((c) => c === "")) continue
    if (r[0] === "TOTAL") total = [cents(r[7]!), cents(r[8]!)]
    else if (r[6] === "" && r[7] !== "") {
      txns.push({ ...open!, total: [cents(r[7]!), cents(r[8]!)] })
      open = undefined
    } else if (r[6] !== undefined && r[6] !== "") {
      if (r[1] !== "") {
        assert.isUndefined(open, "a transaction starts before the previous one's total line")
        assert.match(r[1]!, /^\d{2}\/\d{2}\/2025$/)
        open = { type: r[2]!, lines: [] }
      }
      open!.lines.push({ account: r[6]!, debit: cents(r[7]!), credit: cents(r[8]!), description: r[5]! })
    }
  }
  return { txns, total }
}

/** The label → [debit, credit] rows of the Trial Balance, and its TOTAL. */
const trialBalance = (dir: string) => {
  const rows = records(dir, "TrialBalance.csv")
  assert.strictEqual(rows[2]![0], "As of December 31, 2025")
  const accounts = new Map<string, bigint>()
  let total: readonly [bigint, bigint] = [0n, 0n]
  for (const r of rows.slice(5)) {
    if (r.every((c) => c === "") || /basis$/i.test(r[0]!)) continue
    if (r[0] === "TOTAL") total = [cents(r[1]!), cents(r[2]!)]
    else accounts.set(r[0]!, cents(r[1]!) - cents(r[2]!))
  }
  return { accounts, total }
}

/** An aging report's detail rows (type, amount, open) and its TOTAL open balance. */
const aging = (dir: string, name: string) => {
  const rows = records(dir, name)
  const items: Array<{ bucket: string; type: string; amount: bigint; open: bigint }> = []
  let bucket = ""
  let total = 0n
  for (const r of rows.slice(5)) {
    if (r.every((c) => c === "") || /basis$/i.test(r[0]!)) continue
    if (r[0] === "TOTAL") total = cents(r[7]!)
    else if (r[0]!.startsWith("Total for ")) {
      const own = items.filter((i) => i.bucket === bucket)
      assert.strictEqual(
        cents(r[7]!),
        own.reduce((s, i) => s + i.open, 0n),
        `${name}: ${r[0]}`
      )
    } else if (r[0] !== "") bucket = r[0]!
    else items.push({ bucket, type: r[2]!, amount: cents(r[6]!), open: cents(r[7]!) })
  }
  return { items, total }
}

describe("the QuickBooks sample's books, read back from its files", () => {
  for (const [invoices, seed] of [
    [80, 42],
    [250, 3]
  ] as const)
    it(`balance and agree with one another (${invoices} invoices, seed ${seed})`, () => {
      const dir = tempDir("qbo-books")
      const summary = generateQbo({ invoices, seed, out: dir })
      const j = journal(dir)
      assert.strictEqual(j.txns.length, summary.transactions)
      const net = new Map<string, bigint>()
      let debits = 0n
      for (const t of j.txns) {
        const d = t.lines.reduce((s, l) => s + l.debit, 0n)
        const c = t.lines.reduce((s, l) => s + l.credit, 0n)
        assert.strictEqual(d, c, `a ${t.type} does not balance`)
        assert.deepStrictEqual(t.total, [d, c])
        for (const l of t.lines) net.set(l.account, (net.get(l.account) ?? 0n) + l.debit - l.credit)
        debits += d
      }
      assert.deepStrictEqual(j.total, [debits, debits])

      const tb = trialBalance(dir)
      assert.strictEqual(tb.total[0], tb.total[1], "the Trial Balance balances")
      assert.strictEqual(tb.total[0], summary.trialBalanceTotal)
      const moved = new Map([...net].filter(([, v]) => v !== 0n))
      assert.deepStrictEqual(new Map([...tb.accounts].sort()), new Map([...moved].sort()))

      const ar = aging(dir, "ARAgingDetail.csv")
      const ap = aging(dir, "APAgingDetail.csv")
      assert.strictEqual(ar.total, tb.accounts.get("Accounts Receivable (A/R)"))
      assert.strictEqual(ap.total, -tb.accounts.get("Accounts Payable (A/P)")!)
      assert.strictEqual(
        ar.items.reduce((s, i) => s + i.open, 0n),
        ar.total
      )
      assert.strictEqual(
        ap.items.reduce((s, i) => s + i.open, 0n),
        ap.total
      )
      // open and part-paid invoices and bills, an open credit memo and an open vendor credit
      assert.isTrue(ar.items.some((i) => i.type === "Invoice" && i.open > 0n && i.open < i.amount))
      assert.isTrue(ar.items.some((i) => i.type === "Credit Memo" && i.open < 0n))
      assert.isTrue(ap.items.some((i) => i.type === "Bill" && i.open > 0n && i.open < i.amount))
      assert.isTrue(ap.items.some((i) => i.type === "Vendor Credit" && i.open < 0n))

      const list = records(dir, "AccountList.csv")
      for (const r of list.slice(4)) {
        const [, name = "", type = "", , , balance = ""] = r
        if (balance === "" || name.includes(":") || name === "Truck") continue
        const credit = /payable|credit card|liabilit|equity/i.test(type)
        assert.strictEqual(cents(balance), (tb.accounts.get(name) ?? 0n) * (credit ? -1n : 1n), name)
      }
    })

  it("holds every QuickBooks transaction type the brief names, one voided invoice and a payment of several invoices", () => {
    const txns = transactions(80, 42)
    const counts = new Map<string, number>()
    for (const t of txns) counts.set(t.type, (counts.get(t.type) ?? 0) + 1)
    for (const type of [
      "Invoice",
      "Payment",
      "Sales Receipt",
      "Credit Memo",
      "Refund Receipt",
      "Deposit",
      "Bill",
      "Bill Payment (Check)",
      "Bill Payment (Credit Card)",
      "Vendor Credit",
      "Expense",
      "Check",
      "Credit Card Credit",
      "Transfer",
      "Journal Entry"
    ])
      assert.isAtLeast(counts.get(type) ?? 0, 2, type)
    const voided = txns.filter((t) => t.voided === true)
    assert.strictEqual(voided.length, 1)
    assert.isTrue(voided[0]!.lines.every((l) => l.debit === 0n && l.credit === 0n))
    assert.strictEqual(voided[0]!.lines[0]!.description, "Voided")
    const payments = txns.filter((t) => t.type === "Payment")
    assert.isTrue(
      payments.some((p) => (p.settles ?? []).length > 1),
      "a payment pays several invoices"
    )
    assert.isTrue(payments.some((p) => p.lines[0]!.account === "Undeposited Funds"))
    assert.isTrue(payments.some((p) => p.lines[0]!.account === "Checking"))
    const deposits = txns.filter((t) => t.type === "Deposit")
    assert.isTrue(deposits.some((t) => t.lines.some((l) => l.account === "Other Income")))
    const taxLines = txns.flatMap((t) =>
      t.lines.filter((l) => l.account === "Sales Tax Payable" && l.credit > 0n)
    )
    assert.deepStrictEqual([...new Set(taxLines.map((l) => l.description))].sort(), [
      "Austin TX 8.25%",
      "Texas State 6.25%"
    ])
  })
})
