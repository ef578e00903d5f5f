/**
 * The Account Transactions report (`AccountTransactions.csv`), read back by its layout: a section per bank
 * in the bank's own currency, then one per account Spend and Receive Money are coded to. Every row's Source
 * says what moved the money, and each kind is checked against the files it comes from: payments and refunds
 * against the documents and credit notes they name, overpayments and prepayments against the exports'
 * rows, Spend and Receive Money against their lines, transfers against their other side, manual journals
 * against `ManualJournals.csv`.
 */
import { assert, beforeAll, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { generateCompany, type Summary } from "../../src/sample/Generator.js"
import { dayOf, money, r2, same, settled, total, Y2025 } from "./Decimals.js"
import * as Files from "./SampleFiles.js"
import type { BankRow, Row } from "./SampleFiles.js"

const ZERO = BigDecimal.fromBigInt(0n)
const GST = BigDecimal.make(9n, 2)

/** A row's amount, debit positive; exactly one of Debit and Credit is filled, with a positive amount. */
const signed = (row: BankRow): BigDecimal.BigDecimal => {
  assert.isTrue((row.debit === "") !== (row.credit === ""), `${row.bank} ${row.date}: a debit or a credit`)
  const amount = money(row.debit !== "" ? row.debit : row.credit)
  assert.isTrue(BigDecimal.isPositive(amount), `${row.bank} ${row.date} ${row.source}: a positive amount`)
  return row.debit !== "" ? amount : BigDecimal.negate(amount)
}

describe.each([
  { invoices: 150, seed: 42 },
  { invoices: 900, seed: 7 },
  { invoices: 12, seed: 3 }
])("the bank report of a company with $invoices invoices (seed $seed)", ({ invoices, seed }) => {
  let dir = ""
  let summary: Summary
  let report: Files.Report
  /** Bank account name → its currency. */
  let banks: Map<string, string>

  beforeAll(() => {
    dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xero-bank-"))
    summary = generateCompany({ invoices, seed, out: dir })
    report = Files.report(dir)
    banks = Files.bankCurrencies(dir)
    return () => NodeFs.rmSync(dir, { recursive: true, force: true })
  })

  const bankRows = (): Array<BankRow> =>
    report.sections.filter((s) => banks.has(s.name)).flatMap((s) => s.rows)
  const ofSource = (...sources: ReadonlyArray<string>) => bankRows().filter((r) => sources.includes(r.source))

  it("lays out a section per bank, then one per account money was coded to, with running balances and totals that add up", () => {
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
      [...banks],
      [
        ["DBS Business Account", "SGD"],
        ["OCBC Savings Account", "SGD"],
        ["DBS USD Account", "USD"]
      ]
    )
    const names = report.sections.map((s) => s.name)
    assert.deepStrictEqual(names.slice(0, banks.size), [...banks.keys()], "the banks first")
    const chart = Files.rows(dir, "ChartOfAccounts.csv").map((r) => r["*Name"] ?? "")
    const others = names.slice(banks.size)
    assert.deepStrictEqual(
      others,
      chart.filter((n) => others.includes(n)),
      "then accounts in chart order"
    )
    assert.notIncludeMembers(others, ["Accounts Receivable", "Accounts Payable"], "no control account")
    for (const section of report.sections) {
      assert.strictEqual(section.opening, "0.00")
      let balance = ZERO
      let previous = Y2025[0]
      for (const row of section.rows) {
        balance = BigDecimal.sum(balance, signed(row))
        same(balance, money(row.balance), `${section.name} running balance on ${row.date}`)
        const day = dayOf(row.date)
        assert.isAtLeast(day, previous, `${section.name}: date order`)
        assert.isAtMost(day, Y2025[1])
        previous = day
      }
      for (const [column, written] of [
        ["debit", section.totalDebit],
        ["credit", section.totalCredit]
      ] as const)
        same(
          total(section.rows.filter((r) => r[column] !== "").map((r) => money(r[column]))),
          money(written),
          `${section.name} total ${column}`
        )
    }
    assert.strictEqual(bankRows().length, summary.bankRows)
  })

  it("pays, refunds and advances only for documents and credits of the exports, in their currency, after their date", () => {
    const docs = Files.allDocuments(dir)
    const rateOf = Files.rates(dir)
    /** The overpayments and prepayments of the exports, as `Type|contact|date|total`, each to be received or paid once. */
    const advances: Array<string> = []
    /** Type|contact → the first day of the contact's advances of that Type. */
    const firstAdvance = new Map<string, number>()
    for (const { file, lines } of docs.values()) {
      const head = lines[0] as Row
      const kinds = Files.KINDS[file]
      if (head.Type !== kinds.overpayment && head.Type !== kinds.prepayment) continue
      advances.push([head.Type, head.ContactName, head.InvoiceDate, head.Total].join("|"))
      const k = `${head.Type}|${head.ContactName}`
      firstAdvance.set(k, Math.min(firstAdvance.get(k) ?? Infinity, dayOf(head.InvoiceDate ?? "")))
    }
    const received: Array<string> = []
    const refunds = { "SalesInvoices.csv": 0, "Bills.csv": 0 }
    let payments = 0
    for (const row of bankRows()) {
      const kind = Files.documentMoney(row.source)
      if (kind === undefined) {
        assert.include(["Spend Money", "Receive Money", "Bank Transfer", "Manual Journal"], row.source)
        continue
      }
      const currency = banks.get(row.bank) ?? ""
      const kinds = Files.KINDS[kind.file]
      const what = `${row.source} on ${row.date} (${row.reference})`
      assert.strictEqual(signed(row).value < 0n, kind.out, `${what}: money ${kind.out ? "out" : "in"}`)
      if (kind.what.endsWith("Refund")) refunds[kind.file]++
      if (kind.what === "Payment" || kind.what === "Credit Note Refund") {
        const payment = kind.what === "Payment"
        const key = Files.keyOf(payment ? kinds.document : kinds.creditNote, row.reference)
        const doc = docs.get(key)?.lines[0]
        assert.isDefined(doc, `${what}: for ${key}`)
        const word = payment ? "Payment" : "Refund"
        assert.strictEqual(row.description, `${doc?.ContactName} - ${word}: ${row.reference}`)
        assert.notInclude(["Draft", "Voided"], doc?.Status, `${what}: for an approved ${key}`)
        const rate = rateOf(doc?.Currency ?? "", row.date)
        settled(BigDecimal.abs(signed(row)), currency, doc?.Currency ?? "", rate, what)
        const [day, docDay] = [dayOf(row.date), dayOf(doc?.InvoiceDate ?? "")]
        assert.isTrue(payment ? day > docDay : day >= docDay, `${what}: after ${key}`)
        if (payment) payments++
        continue
      }
      const origin = kind.what.startsWith("Overpayment") ? "Overpayment" : "Prepayment"
      const type = origin === "Overpayment" ? kinds.overpayment : kinds.prepayment
      assert.strictEqual(currency, "SGD", `${what}: advances are in SGD`)
      assert.strictEqual(row.reference, "", `${what}: an advance has no number`)
      const suffix = kind.what.endsWith("Refund") ? ` - ${origin} refund` : ` - ${origin}`
      assert.isTrue(row.description.endsWith(suffix), `${what}: "${row.description}"`)
      const contact = row.description.slice(0, -suffix.length)
      if (kind.what.endsWith("Refund")) {
        const first = firstAdvance.get(`${type}|${contact}`)
        assert.isDefined(first, `${what}: ${contact} has a ${type}`)
        assert.isAtLeast(dayOf(row.date), first ?? Infinity, `${what}: after the ${type}`)
      } else received.push([type, contact, row.date, row.debit || row.credit].join("|"))
    }
    assert.deepStrictEqual(received.sort(), advances.sort(), "each advance received or paid once, on its day")
    assert.strictEqual(payments, summary.invoices.payments + summary.bills.payments)
    assert.deepStrictEqual(
      [refunds["SalesInvoices.csv"], refunds["Bills.csv"]],
      [summary.salesCredits.refunded, summary.billCredits.refunded],
      "one refund per refunded credit"
    )
  })

  it("writes each Spend and Receive Money once on an SGD bank, its lines and GST in their accounts' sections adding up to it", () => {
    const contacts = Files.rows(dir, "Contacts.csv").map((r) => r["*ContactName"] ?? "")
    const lines = new Map<string, Array<BankRow>>()
    for (const section of report.sections.filter((s) => !banks.has(s.name)))
      for (const row of section.rows) {
        assert.include(["Spend Money", "Receive Money"], row.source, `${section.name} holds only their lines`)
        lines.set(row.reference, [...(lines.get(row.reference) ?? []), row])
      }
    const entries = ofSource("Spend Money", "Receive Money")
    assert.strictEqual(new Set(entries.map((e) => e.reference)).size, entries.length, "one bank row each")
    assert.sameMembers([...lines.keys()], [...new Set(entries.map((e) => e.reference))], "lines of entries")
    for (const entry of entries) {
      const spend = entry.source === "Spend Money"
      const what = `${entry.source} ${entry.reference}`
      assert.match(entry.reference, spend ? /^PV-\d{4}$/ : /^OR-\d{4}$/)
      assert.strictEqual(banks.get(entry.bank), "SGD", `${what} through an SGD bank`)
      assert.strictEqual(signed(entry).value < 0n, spend, `${what}: money ${spend ? "out" : "in"}`)
      assert.isTrue(
        contacts.some((c) => entry.description.startsWith(`${c} - `)),
        `${what}: "${entry.description}" names a contact`
      )
      const parts = lines.get(entry.reference) ?? []
      for (const p of parts)
        assert.deepStrictEqual(
          [p.date, p.source, p.description, signed(p).value < 0n],
          [entry.date, entry.source, entry.description, !spend],
          `${what}: its line in ${p.bank} mirrors it`
        )
      same(total(parts.map(signed)), BigDecimal.negate(signed(entry)), `${what}: lines and GST add up to it`)
      const nets = parts.filter((p) => p.bank !== "GST").map((p) => BigDecimal.abs(signed(p)))
      const gst = parts.filter((p) => p.bank === "GST").map((p) => BigDecimal.abs(signed(p)))
      assert.isTrue(nets.length >= 1 && nets.length <= 2 && gst.length <= 1, `${what}: 1–2 lines, GST once`)
      assert.strictEqual(new Set(parts.map((p) => p.bank)).size, parts.length, `${what}: distinct accounts`)
      const taxes = nets.map((n) => r2(BigDecimal.multiply(n, GST)))
      const subsets = taxes.length === 1 ? [[0], []] : [[0, 1], [0], [1], []]
      assert.isTrue(
        subsets.some((s) => BigDecimal.equals(total(s.map((i) => taxes[i] ?? ZERO)), gst[0] ?? ZERO)),
        `${what}: GST is 9% of its standard-rated lines`
      )
    }
    assert.deepStrictEqual(
      [ofSource("Spend Money").length, ofSource("Receive Money").length],
      [summary.spendMoney, summary.receiveMoney]
    )
  })

  it("writes each transfer out of one bank and into another on its day, equal at the month's rate", () => {
    const rateOf = Files.rates(dir)
    const transfers = new Map<string, Array<BankRow>>()
    for (const r of ofSource("Bank Transfer"))
      transfers.set(r.reference, [...(transfers.get(r.reference) ?? []), r])
    assert.strictEqual(transfers.size, summary.transfers)
    for (const [reference, rows] of transfers) {
      assert.match(reference, /^TRF-\d{4}$/)
      assert.strictEqual(rows.length, 2, `${reference} on two banks`)
      const from = rows.find((r) => r.credit !== "")
      const to = rows.find((r) => r.debit !== "")
      assert.isTrue(from !== undefined && to !== undefined, `${reference}: out of one, into the other`)
      if (from === undefined || to === undefined) continue
      assert.notStrictEqual(from.bank, to.bank)
      assert.strictEqual(from.date, to.date, `${reference}: both sides on one day`)
      assert.strictEqual(from.description, `Bank Transfer to ${to.bank}`)
      assert.strictEqual(to.description, `Bank Transfer from ${from.bank}`)
      const [out, into] = [money(from.credit), money(to.debit)]
      const [outCurrency, inCurrency] = [banks.get(from.bank) ?? "", banks.get(to.bank) ?? ""]
      if (outCurrency === inCurrency) same(out, into, `${reference}: equal and opposite`)
      else {
        const [base, foreign, currency] =
          outCurrency === "SGD" ? [out, into, inCurrency] : [into, out, outCurrency]
        same(r2(BigDecimal.multiply(foreign, rateOf(currency, from.date))), base, `${reference} at the rate`)
      }
    }
  })

  it("writes a manual journal's bank lines on their banks as the journal has them", () => {
    const bankOf = new Map(
      Files.rows(dir, "ChartOfAccounts.csv")
        .filter((r) => banks.has(r["*Name"] ?? ""))
        .map((r) => [r["*Code"] ?? "", r["*Name"] ?? ""])
    )
    const expected = Files.rows(dir, "ManualJournals.csv")
      .filter((l) => bankOf.has(l["*AccountCode"] ?? ""))
      .map((l) => [bankOf.get(l["*AccountCode"] ?? ""), l["*Date"], l["*Narration"], l["*Amount"]].join("|"))
    const written = ofSource("Manual Journal").map((r) => {
      assert.strictEqual(r.reference, "")
      return [r.bank, r.date, r.description, r.debit || `-${r.credit}`].join("|")
    })
    assert.deepStrictEqual(written.sort(), expected.sort())
    assert.isNotEmpty(written, "owner funds reach the bank")
  })
})
