import { assert, beforeAll, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { generateCompany, type Summary } from "../../src/sample/Generator.js"
import { dayOf, dec, money, r2, same, total, Y2025 } from "./Decimals.js"
import * as Files from "./SampleFiles.js"
import type { Row } from "./SampleFiles.js"

const RATES: Record<string, number> = {
  "Standard-Rated Supplies": 9,
  "Zero-Rated Supplies": 0,
  "Exempt Supplies": 0,
  "Out Of Scope Supplies": 0,
  "Standard-Rated Purchases": 9,
  "No GST": 0
}
const SALES_TYPES = [
  "Standard-Rated Supplies",
  "Zero-Rated Supplies",
  "Exempt Supplies",
  "Out Of Scope Supplies"
]

const DOC_FIELDS = ["ContactName", "InvoiceNumber", "InvoiceDate", "DueDate", "Total", "TaxTotal"].concat([
  "InvoiceAmountPaid",
  "InvoiceAmountDue",
  "Currency",
  "Type",
  "Sent",
  "Status"
])

describe.each([
  { invoices: 150, seed: 42 },
  { invoices: 900, seed: 7 },
  { invoices: 12, seed: 3 }
])("a generated company with $invoices invoices (seed $seed)", ({ invoices, seed }) => {
  let dir = ""
  let summary: Summary
  let accounts: Set<string>
  let rates: Map<string, BigDecimal.BigDecimal>
  let paidByDocument: Map<string, BigDecimal.BigDecimal>

  beforeAll(() => {
    dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xero-sample-"))
    summary = generateCompany({ invoices, seed, out: dir })
    accounts = new Set(Files.rows(dir, "ChartOfAccounts.csv").map((r) => r["*Code"] ?? ""))
    rates = new Map(
      Files.rows(dir, "ExchangeRates.csv").map((r) => [
        `${r.Currency}|${(r.Date ?? "").slice(3)}`,
        dec(r["Base per Unit"] ?? "")
      ])
    )
    paidByDocument = new Map()
    return () => NodeFs.rmSync(dir, { recursive: true, force: true })
  })

  const documents = (name: "SalesInvoices.csv" | "Bills.csv") =>
    Files.groupContiguous(Files.rows(dir, name), (r) => r.InvoiceNumber ?? "")

  it("sizes every file from the invoice count", () => {
    const bills = Math.round((invoices * 2) / 3)
    assert.strictEqual(documents("SalesInvoices.csv").size, invoices)
    assert.strictEqual(documents("Bills.csv").size, bills)
    assert.strictEqual(summary.invoices.documents, invoices)
    assert.strictEqual(summary.bills.documents, bills)
    assert.strictEqual(summary.journals, Math.max(10, Math.round(invoices / 15)))
    assert.strictEqual(Files.rows(dir, "ExchangeRates.csv").length, 24)
    const reports = [
      "AccountTransactions.csv",
      "TrialBalance.csv",
      "AgedReceivablesDetail.csv",
      "AgedPayablesDetail.csv"
    ]
    for (const [name, count] of Object.entries(summary.files)) {
      if (!reports.includes(name)) assert.strictEqual(Files.rows(dir, name).length, count, name)
    }
    if (invoices === 150) {
      assert.strictEqual(summary.files["Contacts.csv"], 40)
      assert.strictEqual(summary.files["InventoryItems.csv"], 15)
      assert.deepStrictEqual([summary.invoices.byState.draft, summary.invoices.byState.voided], [2, 2])
      assert.strictEqual(summary.bills.byState.draft, 1)
    }
  })

  it("writes LF-only UTF-8 without BOM and quotes cells with commas", () => {
    for (const name of NodeFs.readdirSync(dir)) {
      const content = Files.text(dir, name)
      assert.isFalse(content.startsWith("\uFEFF"), name)
      assert.notInclude(content, "\r", name)
    }
    const names = Files.rows(dir, "Contacts.csv").map((r) => r["*ContactName"] ?? "")
    assert.isTrue(
      names.some((n) => n.includes(",")),
      "a name with a comma"
    )
    assert.isTrue(
      names.some((n) => n.includes("&")),
      "a name with an ampersand"
    )
    assert.include(names, "Café Nüsantara Pte. Ltd.")
    assert.strictEqual(new Set(names).size, names.length, "contact names are unique")
  })

  it("follows the exact arithmetic on every invoice and bill", () => {
    for (const name of ["SalesInvoices.csv", "Bills.csv"] as const) {
      const numbers = new Set<string>()
      for (const [number, lines] of documents(name)) {
        assert.isFalse(numbers.has(number), `${number} is unique`)
        numbers.add(number)
        const first = lines[0] as Row
        for (const l of lines)
          for (const f of DOC_FIELDS) assert.strictEqual(l[f], first[f], `${number} ${f} repeats`)
        assert.isAtMost(lines.length, 4)
        let lineSum = BigDecimal.fromBigInt(0n)
        let taxSum = BigDecimal.fromBigInt(0n)
        for (const l of lines) {
          const lineAmount = money(l.LineAmount ?? "")
          same(
            r2(BigDecimal.multiply(dec(l.Quantity ?? ""), money(l.UnitAmount ?? ""))),
            lineAmount,
            `${number} line`
          )
          const rate = RATES[l.TaxType ?? ""]
          assert.isDefined(rate, `${number} tax type ${l.TaxType}`)
          same(
            r2(BigDecimal.multiply(lineAmount, BigDecimal.make(BigInt(rate ?? 0), 2))),
            money(l.TaxAmount ?? ""),
            `${number} tax`
          )
          lineSum = BigDecimal.sum(lineSum, lineAmount)
          taxSum = BigDecimal.sum(taxSum, money(l.TaxAmount ?? ""))
          assert.strictEqual(l.Discount, "")
          if (name === "SalesInvoices.csv") assert.include(SALES_TYPES, l.TaxType)
          else assert.include(["Standard-Rated Purchases", "No GST"], l.TaxType)
          if (first.Currency !== "SGD")
            assert.include(
              ["Zero-Rated Supplies", "Out Of Scope Supplies", "No GST"],
              l.TaxType,
              `${number} export`
            )
        }
        same(taxSum, money(first.TaxTotal ?? ""), `${number} TaxTotal`)
        same(BigDecimal.sum(lineSum, taxSum), money(first.Total ?? ""), `${number} Total`)
        const paid = money(first.InvoiceAmountPaid ?? "")
        same(
          BigDecimal.subtract(money(first.Total ?? ""), paid),
          money(first.InvoiceAmountDue ?? ""),
          `${number} Due`
        )
        const due = money(first.InvoiceAmountDue ?? "")
        switch (first.Status) {
          case "Paid":
            assert.isTrue(BigDecimal.isZero(due), `${number} paid in full`)
            break
          case "Awaiting Payment":
            assert.isTrue(BigDecimal.isPositive(due), `${number} still due`)
            break
          case "Draft":
          case "Voided":
            assert.isTrue(BigDecimal.isZero(paid), `${number} has no payments`)
            break
          default:
            assert.fail(`${number} status ${first.Status}`)
        }
        assert.strictEqual(first.Type, name === "Bills.csv" ? "Bill" : "Sales invoice")
        assert.include(["SGD", "USD", "EUR"], first.Currency)
        const day = dayOf(first.InvoiceDate ?? "")
        assert.isTrue(day >= Y2025[0] && day <= Y2025[1], `${number} dated in 2025`)
        assert.include([7, 14, 30], dayOf(first.DueDate ?? "") - day, `${number} terms`)
        paidByDocument.set(`${name}|${number}`, paid)
      }
    }
  })

  it("references only accounts, items and contacts that exist", () => {
    const items = Files.rows(dir, "InventoryItems.csv")
    const itemCodes = new Set(items.map((r) => r["*ItemCode"] ?? ""))
    const contacts = new Set(Files.rows(dir, "Contacts.csv").map((r) => r["*ContactName"] ?? ""))
    for (const item of items) {
      assert.include(accounts, item.SalesAccount)
      if (item.PurchasesAccount !== "") assert.include(accounts, item.PurchasesAccount)
      assert.strictEqual(item.InventoryAssetAccount, "")
      assert.strictEqual(item.Quantity, "")
    }
    assert.isTrue(
      items.some((i) => i.PurchasesAccount === "") && items.some((i) => i.PurchasesAccount !== "")
    )
    for (const name of ["SalesInvoices.csv", "Bills.csv"]) {
      for (const l of Files.rows(dir, name)) {
        assert.include(accounts, l.AccountCode, `${l.InvoiceNumber} account`)
        assert.include(contacts, l.ContactName)
        if (l.InventoryItemCode !== "") {
          assert.include(itemCodes, l.InventoryItemCode)
          const item = items.find((i) => i["*ItemCode"] === l.InventoryItemCode) as Row
          const side = name === "Bills.csv" ? "Purchases" : "Sales"
          assert.strictEqual(l.Description, item[`${side}Description`])
          assert.strictEqual(l.UnitAmount, item[`${side}UnitPrice`])
          assert.strictEqual(l.AccountCode, item[`${side}Account`])
        }
      }
    }
    const customers = new Set(Files.rows(dir, "SalesInvoices.csv").map((l) => l.ContactName))
    const both = new Set(
      Files.rows(dir, "Bills.csv")
        .filter((l) => customers.has(l.ContactName))
        .map((l) => l.ContactName)
    )
    if (invoices === 150) assert.isTrue(both.size >= 2 && both.size <= 3, "two or three contacts are both")
    for (const c of Files.rows(dir, "Contacts.csv")) {
      if (c.SalesAccount !== "") assert.include(accounts, c.SalesAccount)
      if (c.PurchasesAccount !== "") assert.include(accounts, c.PurchasesAccount)
    }
  })

  it("pays every document exactly through the bank report, converting foreign payments back", () => {
    const docs = new Map<string, Row>()
    for (const name of ["SalesInvoices.csv", "Bills.csv"] as const)
      for (const [n, lines] of documents(name)) docs.set(`${name}|${n}`, lines[0] as Row)
    const report = Files.report(dir)
    assert.deepStrictEqual(report.titles, [
      "Account Transactions",
      "Demo Trading Pte. Ltd.",
      "For the period 1 January 2025 to 31 December 2025"
    ])
    assert.deepStrictEqual(report.header, [
      "Date",
      "Source",
      "Description",
      "Reference",
      "Debit",
      "Credit",
      "Running Balance"
    ])
    assert.deepStrictEqual(
      report.sections.map((s) => s.name),
      ["DBS Business Account", "OCBC Savings Account"]
    )
    const paid = new Map<string, BigDecimal.BigDecimal>()
    let payments = 0
    for (const section of report.sections) {
      assert.strictEqual(section.opening, "0.00")
      let balance = BigDecimal.fromBigInt(0n)
      let previous = Y2025[0]
      for (const row of section.rows) {
        payments++
        const inflow = row.source === "Receivable Payment"
        assert.include(["Receivable Payment", "Payable Payment"], row.source)
        const key = `${inflow ? "SalesInvoices.csv" : "Bills.csv"}|${row.reference}`
        const doc = docs.get(key)
        assert.isDefined(doc, `payment for ${key}`)
        assert.strictEqual(row.description, `${doc?.ContactName} - Payment: ${row.reference}`)
        const amount = money(inflow ? row.debit : row.credit)
        assert.strictEqual(inflow ? row.credit : row.debit, "")
        balance = inflow ? BigDecimal.sum(balance, amount) : BigDecimal.subtract(balance, amount)
        same(balance, money(row.balance), "running balance")
        const day = dayOf(row.date)
        assert.isAtLeast(day, previous, "date order")
        assert.isAtMost(day, Y2025[1])
        assert.isAbove(day, dayOf(doc?.InvoiceDate ?? ""), `${key} paid after its date`)
        previous = day
        let portion = amount
        if (doc?.Currency !== "SGD") {
          const rate = rates.get(`${doc?.Currency}|${row.date.slice(3)}`)
          assert.isDefined(rate)
          portion = r2(BigDecimal.unsafeDivide(amount, rate as BigDecimal.BigDecimal))
          same(
            r2(BigDecimal.multiply(portion, rate as BigDecimal.BigDecimal)),
            amount,
            `${key} bank amount round-trips`
          )
        }
        paid.set(key, BigDecimal.sum(paid.get(key) ?? BigDecimal.fromBigInt(0n), portion))
      }
      same(
        total(section.rows.filter((r) => r.debit !== "").map((r) => money(r.debit))),
        money(section.totalDebit),
        "debits"
      )
      same(
        total(section.rows.filter((r) => r.credit !== "").map((r) => money(r.credit))),
        money(section.totalCredit),
        "credits"
      )
    }
    assert.strictEqual(payments, summary.invoices.payments + summary.bills.payments)
    for (const [key, doc] of docs) {
      const fromBank = paid.get(key) ?? BigDecimal.fromBigInt(0n)
      same(fromBank, money(doc.InvoiceAmountPaid ?? ""), `${key} InvoiceAmountPaid`)
    }
  })

  it("balances every manual journal on allowed accounts", () => {
    const lines = Files.rows(dir, "ManualJournals.csv")
    const journals = Files.groupContiguous(lines, (r) => `${r["*Date"]}|${r["*Narration"]}`)
    assert.strictEqual(journals.size, summary.journals)
    for (const [key, js] of journals) {
      assert.isTrue(js.length >= 2 && js.length <= 4, `${key} has 2–4 lines`)
      same(total(js.map((l) => money(l["*Amount"] ?? ""))), BigDecimal.fromBigInt(0n), `${key} balances`)
      for (const l of js) {
        assert.include(accounts, l["*AccountCode"])
        assert.notInclude(["610", "800", "801", "820", "840", "860", "877", "960"], l["*AccountCode"])
        assert.strictEqual(l["*TaxRate"], "No GST")
        const day = dayOf(l["*Date"] ?? "")
        assert.isTrue(day >= Y2025[0] && day <= Y2025[1])
      }
    }
    assert.isTrue(
      lines.some((l) => l["*AccountCode"] === "090"),
      "owner funds go into the DBS account"
    )
  })

  it("supplies monthly rates above 1 for every foreign currency", () => {
    const table = Files.rows(dir, "ExchangeRates.csv")
    for (const r of table) {
      assert.match(r["Base per Unit"] ?? "", /^\d+\.\d{4}$/)
      assert.isTrue(BigDecimal.greaterThan(dec(r["Base per Unit"] ?? ""), BigDecimal.fromBigInt(1n)))
      assert.strictEqual(r["Base Currency"], "SGD")
      assert.match(r.Date ?? "", /^01\/\d{2}\/2025$/)
    }
    assert.deepStrictEqual([...new Set(table.map((r) => r.Currency))], ["USD", "EUR"])
  })
})
