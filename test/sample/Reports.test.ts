/**
 * The sample's own Trial Balance and Aged Receivables / Payables Detail, checked against the other files of
 * the same company, recomputed here from those files alone (Xero's conventions: base SGD, each line of a
 * foreign document or credit note at its own date's rate, a credit note posting its lines reversed, drafts
 * and voided documents posting nothing, the bank report's USD account at the month's rate; a credit the
 * contact holds shows negative on the aged reports).
 */
import { assert, beforeAll, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { generateCompany, type Summary } from "../../src/sample/Generator.js"
import { dayOf, dec, money, r2, reportDayOf, reportMoney, same, total } from "./Decimals.js"
import * as Files from "./SampleFiles.js"
import type { Row } from "./SampleFiles.js"

const SECTION_OF: Record<string, string> = {
  Revenue: "Revenue",
  Sales: "Revenue",
  "Other Income": "Revenue",
  "Direct Costs": "Expenses",
  Expense: "Expenses",
  Overhead: "Expenses",
  Depreciation: "Expenses",
  Bank: "Assets",
  "Current Asset": "Assets",
  Inventory: "Assets",
  "Fixed Asset": "Assets",
  "Non-current Asset": "Assets",
  "Current Liability": "Liabilities",
  "Non-current Liability": "Liabilities",
  Equity: "Equity"
}
const SECTIONS = ["Revenue", "Expenses", "Assets", "Liabilities", "Equity"]
const ZERO = BigDecimal.fromBigInt(0n)
const AS_AT = Date.UTC(2025, 11, 31) / 86_400_000

/** Whole calendar months from `from` to `to`. */
const monthsBetween = (from: number, to: number): number => {
  const a = new Date(from * 86_400_000)
  const b = new Date(to * 86_400_000)
  return (
    (b.getUTCFullYear() - a.getUTCFullYear()) * 12 +
    (b.getUTCMonth() - a.getUTCMonth()) -
    (b.getUTCDate() < a.getUTCDate() ? 1 : 0)
  )
}

describe.each([
  { invoices: 150, seed: 42 },
  { invoices: 900, seed: 7 },
  { invoices: 12, seed: 3 }
])("the source's own reports of a company with $invoices invoices (seed $seed)", ({ invoices, seed }) => {
  let dir = ""
  let summary: Summary
  let tb: Files.TrialBalanceReport
  /** YTD balance (debit positive) per account code, from the Trial Balance. */
  let balances: Map<string, BigDecimal.BigDecimal>

  beforeAll(() => {
    dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xero-reports-"))
    summary = generateCompany({ invoices, seed, out: dir })
    tb = Files.trialBalance(dir)
    balances = new Map(
      tb.rows.map((r) => [
        /\((\w+)\)$/.exec(r.label)?.[1] ?? r.label,
        BigDecimal.subtract(reportMoney(r.amounts[2] ?? ""), reportMoney(r.amounts[3] ?? ""))
      ])
    )
    return () => NodeFs.rmSync(dir, { recursive: true, force: true })
  })

  /** The rate of a date's month (the user's `ExchangeRates.csv`, one rate on the 1st of each month). */
  const rateOf = (currency: string, dmy: string): BigDecimal.BigDecimal => Files.rates(dir)(currency, dmy)
  /** The approved documents and credits of an export (drafts and voided ones post nothing), each as its rows. */
  const approved = (name: Files.DocumentsFile) =>
    [...Files.documents(dir, name).values()].filter(
      (lines) => !["Draft", "Voided"].includes(lines[0]?.Status ?? "")
    )

  it("lays the Trial Balance out as Xero does: titles, header, sections, totals that add up and balance", () => {
    assert.deepStrictEqual(tb.titles, [
      "Trial Balance",
      "Demo Trading Pte. Ltd.",
      "As at 31 December 2025",
      ""
    ])
    assert.deepStrictEqual(tb.header, ["Account", "Debit", "Credit", "YTD Debit", "YTD Credit"])
    const chart = new Map(Files.rows(dir, "ChartOfAccounts.csv").map((r) => [r["*Code"] ?? "", r]))
    const sections = [...new Set(tb.rows.map((r) => r.section))]
    assert.deepStrictEqual(
      sections,
      SECTIONS.filter((s) => sections.includes(s)),
      "sections in Xero's order"
    )
    assert.deepStrictEqual([...tb.sectionTotals.keys()], sections)
    assert.strictEqual(tb.rows.length, summary.trialBalance.accounts)
    const grand = [ZERO, ZERO, ZERO, ZERO]
    for (const section of sections) {
      const rows = tb.rows.filter((r) => r.section === section)
      const sums = [0, 1, 2, 3].map((i) => total(rows.map((r) => reportMoney(r.amounts[i] ?? ""))))
      const written = tb.sectionTotals.get(section) ?? []
      sums.forEach((s, i) => {
        same(s, reportMoney(written[i] ?? ""), `Total ${section} column ${i}`)
        grand[i] = BigDecimal.sum(grand[i] ?? ZERO, s)
      })
    }
    grand.forEach((g, i) => same(g, reportMoney(tb.total[i] ?? ""), `grand total column ${i}`))
    same(grand[0] ?? ZERO, grand[1] ?? ZERO, "the month's debits equal its credits")
    same(grand[2] ?? ZERO, grand[3] ?? ZERO, "the YTD debits equal the YTD credits")
    assert.strictEqual(Files.text(dir, "TrialBalance.csv").match(/^Total,/gm)?.length, 1)
    for (const row of tb.rows) {
      const m = /^(.*) \((\d{3})\)$/.exec(row.label)
      assert.isNotNull(m, `"${row.label}" is "Name (Code)"`)
      const account = chart.get(m?.[2] ?? "")
      assert.strictEqual(account?.["*Name"], m?.[1], row.label)
      assert.strictEqual(SECTION_OF[account?.["*Type"] ?? ""], row.section, `${row.label} section`)
      const [d = "", c = "", yd = "", yc = ""] = row.amounts
      assert.isFalse(d !== "" && c !== "", `${row.label}: a debit or a credit`)
      assert.isFalse(yd !== "" && yc !== "", `${row.label}: a YTD debit or a YTD credit`)
      assert.isTrue(
        [d, c, yd, yc].some((a) => a !== "" && !BigDecimal.isZero(reportMoney(a))),
        row.label
      )
    }
  })

  it("holds each account's balance as the other files post it, and AR/AP as the aged reports", () => {
    const expected = new Map<string, BigDecimal.BigDecimal>()
    const december = new Map<string, BigDecimal.BigDecimal>()
    /** Accounts some postings of which the files do not date (a prepayment's allocations). */
    const undated = new Set<string>()
    const add = (code: string, x: BigDecimal.BigDecimal, dmy: string | undefined) => {
      expected.set(code, BigDecimal.sum(expected.get(code) ?? ZERO, x))
      if (dmy === undefined) undated.add(code)
      else if (dmy.endsWith("/12/2025")) december.set(code, BigDecimal.sum(december.get(code) ?? ZERO, x))
    }
    for (const [name, sign] of [
      ["SalesInvoices.csv", -1n],
      ["Bills.csv", 1n]
    ] as const) {
      const kinds = Files.KINDS[name]
      for (const lines of approved(name)) {
        const head = lines[0] as Row
        const day = head.InvoiceDate ?? ""
        if (head.Type === kinds.document || head.Type === kinds.creditNote) {
          // A credit note posts its lines as its document does, reversed, at its own date's rate.
          const s = head.Type === kinds.creditNote ? -sign : sign
          const rate = rateOf(head.Currency ?? "", day)
          const base = (x: BigDecimal.BigDecimal) =>
            BigDecimal.multiply(r2(BigDecimal.multiply(BigDecimal.abs(x), rate)), BigDecimal.fromBigInt(s))
          for (const l of lines) add(l.AccountCode ?? "", base(money(l.LineAmount ?? "")), day)
          add("820", base(money(head.TaxTotal ?? "")), day)
        } else if (head.Type === kinds.prepayment) {
          // Held on its line's account until allocated (on the document's date, which the file does not give) or refunded.
          const due = money(head.InvoiceAmountDue ?? "")
          add(head.AccountCode ?? "", BigDecimal.multiply(due, BigDecimal.fromBigInt(sign)), undefined)
        } else assert.strictEqual(head.Type, kinds.overpayment) // on the control account: the aged reports below
      }
    }
    for (const j of Files.rows(dir, "ManualJournals.csv"))
      add(j["*AccountCode"] ?? "", money(j["*Amount"] ?? ""), j["*Date"] ?? "")
    const codes = new Map(
      Files.rows(dir, "ChartOfAccounts.csv").map((r) => [r["*Name"] ?? "", r["*Code"] ?? ""])
    )
    const banks = Files.bankCurrencies(dir)
    for (const section of Files.report(dir).sections)
      for (const r of section.rows) {
        // ManualJournals.csv posts these already (BankReport.test checks the two agree).
        if (r.source === "Manual Journal") continue
        const amount = r.debit !== "" ? money(r.debit) : BigDecimal.negate(money(r.credit))
        const rate = rateOf(banks.get(section.name) ?? "SGD", r.date)
        add(codes.get(section.name) ?? "", r2(BigDecimal.multiply(amount, rate)), r.date)
      }
    const ar = Files.aged(dir, "AgedReceivablesDetail.csv")
    const ap = Files.aged(dir, "AgedPayablesDetail.csv")
    expected.set("610", reportMoney(ar.total.Total ?? ""))
    expected.set("800", BigDecimal.negate(reportMoney(ap.total.Total ?? "")))
    for (const [code, want] of expected) same(balances.get(code) ?? ZERO, want, `account ${code} YTD`)
    const residual = [...balances].filter(([code]) => !expected.has(code)).map(([code]) => code)
    assert.includeMembers(["499", "860"], residual, "only currency gains and rounding are left to explain")
    for (const code of expected.keys()) {
      if (undated.has(code) || code === "610" || code === "800") continue
      const row = tb.rows.find((r) => r.label.endsWith(`(${code})`))
      const month =
        row === undefined
          ? ZERO
          : BigDecimal.subtract(reportMoney(row.amounts[0] ?? ""), reportMoney(row.amounts[1] ?? ""))
      same(month, december.get(code) ?? ZERO, `account ${code}: Debit/Credit is December's movement`)
    }
  })

  it("writes the aged reports by contact, document and due-date bucket, open documents and credits only", () => {
    for (const [file, docsFile, title] of [
      ["AgedReceivablesDetail.csv", "SalesInvoices.csv", "Aged Receivables Detail"],
      ["AgedPayablesDetail.csv", "Bills.csv", "Aged Payables Detail"]
    ] as const) {
      const report = Files.aged(dir, file)
      assert.deepStrictEqual(report.titles, [
        title,
        "Demo Trading Pte. Ltd.",
        "As at 31 December 2025",
        "Ageing by due date",
        ""
      ])
      assert.deepStrictEqual(report.header, [
        "Invoice Date",
        "Due Date",
        "Expected Date",
        "Invoice Number",
        "Invoice Reference",
        "< 1 Month",
        "1 Month",
        "2 Months",
        "3 Months",
        "Older",
        "",
        "Total",
        "Outstanding Tax"
      ])
      const kinds = Files.KINDS[docsFile]
      /** An open item's key: its number, or (an overpayment has none) `Overpayment|contact|date|amount`. */
      const keyOf = (number: string, contact: string, day: number, outstanding: BigDecimal.BigDecimal) =>
        number !== "" ? number : `Overpayment|${contact}|${day}|${BigDecimal.format(outstanding)}`
      const open = new Map<string, Row>()
      for (const lines of approved(docsFile)) {
        const d = lines[0] as Row
        const due = money(d.InvoiceAmountDue ?? "")
        // A prepayment is held on its own account (Customer Deposits, Prepayments), never the control account.
        if (BigDecimal.isZero(due) || d.Type === kinds.prepayment) continue
        // A credit the contact holds shows negative: a credit note's amounts are written so, an overpayment's not.
        const outstanding = d.Type === kinds.overpayment ? BigDecimal.negate(due) : due
        open.set(
          keyOf(d.InvoiceNumber ?? "", d.ContactName ?? "", dayOf(d.InvoiceDate ?? ""), outstanding),
          d
        )
      }
      const keys = report.rows.map(({ contact, cells }) =>
        keyOf(
          cells["Invoice Number"] ?? "",
          contact,
          reportDayOf(cells["Invoice Date"] ?? ""),
          reportMoney(cells.Total ?? "")
        )
      )
      assert.deepStrictEqual([...keys].sort(), [...open.keys()].sort(), "the open documents and credits")
      const buckets = ["< 1 Month", "1 Month", "2 Months", "3 Months", "Older"]
      const contacts = [...new Set(report.rows.map((r) => r.contact))]
      const folded = contacts.map((c) => c.toLowerCase())
      assert.deepStrictEqual(folded, [...folded].sort(), "contacts in alphabetical order")
      report.rows.forEach(({ contact, cells }, i) => {
        const doc = open.get(keys[i] ?? "") as Row
        const what = `${doc.Type} ${keys[i]}`
        const overpayment = doc.Type === kinds.overpayment
        assert.strictEqual(contact, doc.ContactName)
        assert.strictEqual(cells["Invoice Reference"], overpayment ? "Overpayment" : doc.Reference)
        assert.strictEqual(reportDayOf(cells["Invoice Date"] ?? ""), dayOf(doc.InvoiceDate ?? ""))
        assert.strictEqual(cells["Due Date"] === "", doc.DueDate === "", `${what}: a credit has no due date`)
        if (doc.DueDate !== "")
          assert.strictEqual(reportDayOf(cells["Due Date"] ?? ""), dayOf(doc.DueDate ?? ""))
        const outstanding = reportMoney(cells.Total ?? "")
        const due = money(doc.InvoiceAmountDue ?? "")
        const rate = rateOf(doc.Currency ?? "", doc.InvoiceDate ?? "")
        assert.strictEqual(
          outstanding.value < 0n,
          doc.Type !== kinds.document,
          `${what}: a credit is negative`
        )
        if (doc.Currency === "SGD")
          same(BigDecimal.abs(outstanding), BigDecimal.abs(due), `${what} outstanding`)
        else {
          const atRate = r2(BigDecimal.multiply(due, rate))
          const off = BigDecimal.abs(BigDecimal.subtract(outstanding, atRate))
          assert.isTrue(BigDecimal.lessThanOrEqualTo(off, dec("0.02")), `${what} at its rate`)
        }
        const [tax, whole] = [doc.TaxTotal, doc.Total].map((x) =>
          r2(BigDecimal.multiply(BigDecimal.abs(money(x ?? "")), rate))
        )
        same(
          BigDecimal.isZero(whole ?? ZERO)
            ? ZERO
            : r2(BigDecimal.unsafeDivide(BigDecimal.multiply(tax ?? ZERO, outstanding), whole ?? ZERO)),
          reportMoney(cells["Outstanding Tax"] ?? ""),
          `${what}: Outstanding Tax is its share of the tax`
        )
        const aged = dayOf(doc.DueDate !== "" ? (doc.DueDate ?? "") : (doc.InvoiceDate ?? ""))
        const bucket = Math.min(4, Math.max(0, monthsBetween(aged, AS_AT)))
        buckets.forEach((b, j) =>
          assert.strictEqual(cells[b], j === bucket ? cells.Total : "", `${what} ${b}`)
        )
      })
      for (const contact of contacts) {
        const rows = report.rows.filter((r) => r.contact === contact).map((r) => r.cells)
        const totals = report.contactTotals.get(contact) as Row
        for (const col of [...buckets, "Total", "Outstanding Tax"])
          same(
            total(rows.map((r) => reportMoney(r[col] ?? ""))),
            reportMoney(totals[col] ?? ""),
            `${contact} ${col}`
          )
      }
      for (const col of [...buckets, "Total", "Outstanding Tax"])
        same(
          total([...report.contactTotals.values()].map((r) => reportMoney(r[col] ?? ""))),
          reportMoney(report.total[col] ?? ""),
          `${file} grand ${col}`
        )
      assert.strictEqual(report.percentages[6], report.rows.length > 0 ? "100.00%" : undefined)
      const side = file.startsWith("AgedReceivables") ? summary.receivables : summary.payables
      assert.deepStrictEqual([side.documents, side.contacts], [report.rows.length, contacts.length])
    }
  })
})
