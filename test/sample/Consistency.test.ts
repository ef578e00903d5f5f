import { assert, beforeAll, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { FILES, generateCompany, type Summary } from "../../src/sample/Generator.js"
import { dayOf, dec, money, same, total, Y2025 } from "./Decimals.js"
import * as Files from "./SampleFiles.js"
import type { Row } from "./SampleFiles.js"

describe.each([
  { invoices: 150, seed: 42 },
  { invoices: 900, seed: 7 },
  { invoices: 12, seed: 3 }
])("a generated company with $invoices invoices (seed $seed)", ({ invoices, seed }) => {
  let dir = ""
  let summary: Summary
  let accounts: Set<string>

  beforeAll(() => {
    dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xero-sample-"))
    summary = generateCompany({ invoices, seed, out: dir })
    accounts = new Set(Files.rows(dir, "ChartOfAccounts.csv").map((r) => r["*Code"] ?? ""))
    return () => NodeFs.rmSync(dir, { recursive: true, force: true })
  })

  const documents = (name: Files.DocumentsFile) => Files.documents(dir, name)
  /** The documents of an export of one Type, each as its rows. */
  const ofType = (name: Files.DocumentsFile, type: string) =>
    [...documents(name).values()].filter((lines) => lines[0]?.Type === type)

  it("sizes every file from the invoice count", () => {
    const bills = Math.round((invoices * 2) / 3)
    const sides = [
      ["SalesInvoices.csv", invoices, summary.invoices, summary.salesCredits, summary.salesLines],
      ["Bills.csv", bills, summary.bills, summary.billCredits, summary.billLines]
    ] as const
    const planned = {
      "SalesInvoices.csv": [
        Math.max(2, Math.round(invoices / 25)),
        Math.max(1, Math.round(invoices / 150)),
        Math.max(1, Math.round(invoices / 50)),
        Math.max(1, Math.round(invoices / 50))
      ],
      "Bills.csv": [
        Math.max(1, Math.round(bills / 25)),
        0,
        Math.max(1, Math.round(bills / 33)),
        Math.max(1, Math.round(bills / 33))
      ]
    }
    for (const [name, count, docs, credits, lines] of sides) {
      const kinds = Files.KINDS[name]
      const all = [...documents(name).values()]
      const typed = Object.values(kinds).map((t) => ofType(name, t))
      assert.strictEqual(
        typed.reduce((n, g) => n + g.length, 0),
        all.length,
        `${name}: every row is a document or a credit`
      )
      const [own = [], notes = [], overpayments = [], prepayments = []] = typed
      assert.strictEqual(own.length, count, name)
      assert.strictEqual(docs.documents, count)
      assert.strictEqual(docs.lines, own.flat().length, `${name} document lines`)
      const voided = notes.filter((n) => n[0]?.Status === "Voided")
      const live = [...notes.filter((n) => n[0]?.Status !== "Voided"), ...overpayments, ...prepayments]
      assert.deepStrictEqual(
        [credits.creditNotes, credits.voidedCreditNotes, credits.overpayments, credits.prepayments],
        [notes.length - voided.length, voided.length, overpayments.length, prepayments.length],
        `${name} credits by kind`
      )
      assert.deepStrictEqual(
        [notes.length - voided.length, voided.length, overpayments.length, prepayments.length],
        planned[name],
        `${name}: as many credits of each kind as the size plans`
      )
      assert.strictEqual(
        credits.open,
        live.filter((c) => !BigDecimal.isZero(money(c[0]?.InvoiceAmountDue ?? ""))).length,
        `${name} open credits`
      )
      assert.strictEqual(
        credits.foreign,
        notes.filter((n) => n[0]?.Status !== "Voided" && n[0]?.Currency !== "SGD").length,
        `${name} foreign credit notes`
      )
      const rows = all.flat()
      assert.deepStrictEqual(
        [lines.rows, lines.discounted, lines.tracked],
        [
          rows.length,
          rows.filter((r) => r.Discount !== "").length,
          rows.filter((r) => r.TrackingName1 !== "").length
        ],
        `${name} lines, discounted and tracked`
      )
    }
    assert.strictEqual(summary.journals, Math.max(10, Math.round(invoices / 15)))
    assert.deepStrictEqual(
      [summary.spendMoney, summary.receiveMoney, summary.transfers],
      [
        Math.max(4, Math.round(invoices / 12)),
        Math.max(2, Math.round(invoices / 25)),
        Math.max(4, Math.round(invoices / 30))
      ]
    )
    assert.strictEqual(Files.rows(dir, "ExchangeRates.csv").length, 24)
    assert.deepStrictEqual(Object.keys(summary.files).sort(), [...FILES].sort(), "a count for every file")
    assert.deepStrictEqual(NodeFs.readdirSync(dir).sort(), [...FILES].sort())
    // The reports (titles, groups and totals around their rows) are counted in Reports and MidYear tests.
    const report = (name: string) => name === "AccountTransactions.csv" || /^(TrialBalance|Aged)/.test(name)
    for (const [name, count] of Object.entries(summary.files)) {
      if (!report(name)) assert.strictEqual(Files.rows(dir, name).length, count, name)
    }
    assert.strictEqual(summary.files["AccountTransactions.csv"], summary.bankRows)
    if (invoices === 150) {
      assert.strictEqual(summary.files["Contacts.csv"], 40)
      assert.strictEqual(summary.files["InventoryItems.csv"], 15)
      assert.deepStrictEqual([summary.invoices.byState.draft, summary.invoices.byState.voided], [2, 2])
      assert.strictEqual(summary.bills.byState.draft, 1)
      assert.deepStrictEqual(planned["SalesInvoices.csv"], [6, 1, 3, 3])
      assert.deepStrictEqual(planned["Bills.csv"], [4, 0, 3, 3])
      assert.deepStrictEqual([summary.spendMoney, summary.receiveMoney, summary.transfers], [13, 6, 5])
      const notes = ofType("SalesInvoices.csv", "Sales credit note").map((n) => n[0] as Row)
      assert.includeMembers(
        notes.map((n) => n.Currency),
        ["SGD", "USD", "EUR"],
        "credit notes in every currency"
      )
      assert.includeMembers(
        notes.map((n) => n.Status),
        ["Paid", "Awaiting Payment", "Voided"],
        "credit notes used, open and voided"
      )
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
