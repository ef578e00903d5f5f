/**
 * The exact arithmetic of every row of the two document exports, read back with csv-parse: invoices and
 * bills, the credit notes among them (totals negative, as Xero exports them), overpayments and prepayments
 * (one SGD line, no number), line discounts (a percentage) and tracking.
 */
import { assert, beforeAll, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { generateCompany } from "../../src/sample/Generator.js"
import { dayOf, dec, money, r2, same, Y2025 } from "./Decimals.js"
import * as Files from "./SampleFiles.js"
import type { Row } from "./SampleFiles.js"

const RATES: Record<string, number> = {
  "Standard-Rated Supplies": 9,
  "Zero-Rated Supplies": 0,
  "Exempt Supplies": 0,
  "Out Of Scope Supplies": 0,
  "Standard-Rated Purchases": 9,
  "No GST": 0,
  "Tax Exempt": 0
}
const SALES_TYPES = [
  "Standard-Rated Supplies",
  "Zero-Rated Supplies",
  "Exempt Supplies",
  "Out Of Scope Supplies"
]
const TRACKING: Record<string, ReadonlyArray<string>> = {
  Region: ["Central", "East", "West", "North"],
  Channel: ["Showroom", "Projects", "Online"]
}

const DOC_FIELDS = ["ContactName", "InvoiceNumber", "InvoiceDate", "DueDate", "Total", "TaxTotal"].concat([
  "InvoiceAmountPaid",
  "InvoiceAmountDue",
  "Currency",
  "Type",
  "Sent",
  "Status",
  "Reference"
])
const ZERO = BigDecimal.fromBigInt(0n)
const ONE = BigDecimal.fromBigInt(1n)

describe.each([
  { invoices: 150, seed: 42 },
  { invoices: 900, seed: 7 },
  { invoices: 12, seed: 3 }
])("the documents of a generated company with $invoices invoices (seed $seed)", ({ invoices, seed }) => {
  let dir = ""

  beforeAll(() => {
    dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xero-documents-"))
    generateCompany({ invoices, seed, out: dir })
    return () => NodeFs.rmSync(dir, { recursive: true, force: true })
  })

  const documents = (name: Files.DocumentsFile) => Files.documents(dir, name)

  /**
   * Checks every line's arithmetic (LineAmount = round2(Quantity × UnitAmount × (1 − Discount/100)), TaxAmount
   * = round2(LineAmount × rate)), tax type, discount (only where `discounts`) and tracking; returns the sums
   * of the amounts and taxes.
   */
  const lineSums = (
    key: string,
    lines: ReadonlyArray<Row>,
    taxTypes: ReadonlyArray<string>,
    discounts: boolean
  ) => {
    let lineSum = ZERO
    let taxSum = ZERO
    const first = lines[0] as Row
    for (const l of lines) {
      const quantity = dec(l.Quantity ?? "")
      assert.isTrue(BigDecimal.isPositive(quantity), `${key} quantity`)
      let exact = BigDecimal.multiply(quantity, money(l.UnitAmount ?? ""))
      if (!discounts) assert.strictEqual(l.Discount, "", `${key}: no discount`)
      else if (l.Discount !== "") {
        const discount = dec(l.Discount ?? "")
        assert.isTrue(BigDecimal.isPositive(discount), `${key} discount`)
        assert.isTrue(BigDecimal.lessThan(discount, BigDecimal.fromBigInt(100n)), `${key} discount`)
        const kept = BigDecimal.subtract(ONE, BigDecimal.multiply(discount, BigDecimal.make(1n, 2)))
        exact = BigDecimal.multiply(exact, kept)
      }
      const lineAmount = money(l.LineAmount ?? "")
      same(r2(exact), lineAmount, `${key} line`)
      const rate = RATES[l.TaxType ?? ""]
      assert.isDefined(rate, `${key} tax type ${l.TaxType}`)
      assert.include(taxTypes, l.TaxType, `${key} tax type`)
      same(
        r2(BigDecimal.multiply(lineAmount, BigDecimal.make(BigInt(rate ?? 0), 2))),
        money(l.TaxAmount ?? ""),
        `${key} tax`
      )
      lineSum = BigDecimal.sum(lineSum, lineAmount)
      taxSum = BigDecimal.sum(taxSum, money(l.TaxAmount ?? ""))
      const tracking = ["TrackingName1", "TrackingOption1", "TrackingName2", "TrackingOption2"]
      assert.deepStrictEqual(
        tracking.map((t) => l[t]),
        tracking.map((t) => first[t]),
        `${key}: the same tracking on every line`
      )
      for (const [name = "", option = ""] of [
        [l.TrackingName1, l.TrackingOption1],
        [l.TrackingName2, l.TrackingOption2]
      ])
        if (name === "") assert.strictEqual(option, "", `${key}: no option without a category`)
        else assert.include(TRACKING[name] ?? [], option, `${key} ${name} option`)
      if (l.TrackingName2 !== "")
        assert.deepStrictEqual([l.TrackingName1, l.TrackingName2], ["Region", "Channel"], key)
    }
    return { lineSum, taxSum }
  }

  /** Checks Total − InvoiceAmountPaid = InvoiceAmountDue and the Status that goes with them. */
  const settlement = (key: string, head: Row, sign: 1 | -1) => {
    const paid = money(head.InvoiceAmountPaid ?? "")
    const due = money(head.InvoiceAmountDue ?? "")
    same(BigDecimal.subtract(money(head.Total ?? ""), paid), due, `${key} Due`)
    const signed = (x: BigDecimal.BigDecimal) => (sign === 1 ? x : BigDecimal.negate(x))
    assert.isFalse(BigDecimal.isNegative(signed(paid)), `${key} paid`)
    assert.isFalse(BigDecimal.isNegative(signed(due)), `${key} due`)
    switch (head.Status) {
      case "Paid":
        assert.isTrue(BigDecimal.isZero(due), `${key} paid in full`)
        break
      case "Awaiting Payment":
        assert.isFalse(BigDecimal.isZero(due), `${key} still due`)
        break
      case "Draft":
      case "Voided":
        assert.isTrue(BigDecimal.isZero(paid), `${key} has no payments`)
        break
      default:
        assert.fail(`${key} status ${head.Status}`)
    }
  }

  it("follows the exact arithmetic on every invoice, bill, credit note, overpayment and prepayment", () => {
    for (const name of Files.DOCUMENT_FILES) {
      const kinds = Files.KINDS[name]
      const sales = name === "SalesInvoices.csv"
      const docs = documents(name)
      const numbers = new Set<string>()
      for (const [key, lines] of docs) {
        const first = lines[0] as Row
        const number = first.InvoiceNumber ?? ""
        for (const l of lines)
          for (const f of DOC_FIELDS) assert.strictEqual(l[f], first[f], `${key} ${f} repeats`)
        assert.include(Object.values(kinds), first.Type, `${key} is a kind of ${name}`)
        assert.include(["SGD", "USD", "EUR"], first.Currency)
        const day = dayOf(first.InvoiceDate ?? "")
        assert.isTrue(day >= Y2025[0] && day <= Y2025[1], `${key} dated in 2025`)
        if (number !== "") {
          assert.isFalse(numbers.has(number), `${number} is unique`)
          numbers.add(number)
        }
        const foreign = first.Currency !== "SGD"
        const taxTypes = sales
          ? foreign
            ? ["Zero-Rated Supplies", "Out Of Scope Supplies"]
            : SALES_TYPES
          : foreign
            ? ["No GST"]
            : ["Standard-Rated Purchases", "No GST"]
        if (first.Type === kinds.document || first.Type === kinds.creditNote) {
          const note = first.Type === kinds.creditNote
          const { lineSum, taxSum } = lineSums(key, lines, taxTypes, sales)
          const sign = (x: BigDecimal.BigDecimal) => (note ? BigDecimal.negate(x) : x)
          same(sign(taxSum), money(first.TaxTotal ?? ""), `${key} TaxTotal`)
          same(sign(BigDecimal.sum(lineSum, taxSum)), money(first.Total ?? ""), `${key} Total`)
          settlement(key, first, note ? -1 : 1)
          if (!note) {
            assert.notStrictEqual(number, "", `${key} has a number`)
            assert.isAtMost(lines.length, 4)
            assert.strictEqual(first.Sent, sales ? (first.Status === "Draft" ? "Not Sent" : "Sent") : "")
            assert.include([7, 14, 30], dayOf(first.DueDate ?? "") - day, `${key} terms`)
            continue
          }
          assert.match(number, sales ? /^CN-\d{4}$/ : /^SCN-\d{4}$/)
          assert.isAtMost(lines.length, 2)
          assert.include(["Paid", "Awaiting Payment", "Voided"], first.Status)
          assert.deepStrictEqual([first.DueDate, first.Sent], ["", ""], `${key}: no due date, not sent`)
          const doc = docs.get(Files.keyOf(kinds.document, first.Reference ?? ""))?.[0]
          assert.isDefined(doc, `${key} credits the document it names`)
          assert.notInclude(["Draft", "Voided"], doc?.Status, `${key} credits an approved document`)
          assert.deepStrictEqual([doc?.ContactName, doc?.Currency], [first.ContactName, first.Currency], key)
          const docDay = dayOf(doc?.InvoiceDate ?? "")
          assert.isTrue(day > docDay || day === Y2025[1], `${key} after its document`)
          assert.isTrue(
            BigDecimal.lessThanOrEqualTo(
              BigDecimal.negate(money(first.Total ?? "")),
              money(doc?.Total ?? "")
            ),
            `${key} credits at most its document`
          )
          const docLines = (docs.get(Files.keyOf(kinds.document, doc?.InvoiceNumber ?? "")) ?? []).map(
            (l) => `${l.AccountCode}|${l.TaxType}|${l.TrackingOption1}|${l.TrackingOption2}`
          )
          for (const l of lines)
            assert.include(
              docLines,
              `${l.AccountCode}|${l.TaxType}|${l.TrackingOption1}|${l.TrackingOption2}`,
              `${key} returns a line of its document`
            )
        } else {
          const prepayment = first.Type === kinds.prepayment
          const { lineSum } = lineSums(key, lines, [prepayment ? "No GST" : "Tax Exempt"], false)
          assert.strictEqual(lines.length, 1, `${key} has one line`)
          assert.deepStrictEqual(
            [number, first.Reference, first.DueDate, first.Sent, first.Currency, first.Quantity],
            ["", "", "", "", "SGD", "1"],
            `${key}: no number, reference or due date; one SGD amount`
          )
          const account = prepayment ? (sales ? "835" : "620") : sales ? "610" : "800"
          assert.strictEqual(first.AccountCode, account, `${key} account`)
          assert.strictEqual(first.TaxTotal, "0.00")
          same(lineSum, money(first.Total ?? ""), `${key} Total`)
          assert.isTrue(BigDecimal.isPositive(lineSum), `${key} holds money`)
          settlement(key, first, 1)
          assert.include(["Paid", "Awaiting Payment"], first.Status)
          if (prepayment) assert.strictEqual(first.Status, "Paid", `${key} is used up by the year end`)
        }
      }
    }
  })
})
