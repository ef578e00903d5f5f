import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../../src/extract/Extract.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import { dirOf, inputDir, read, rejectedLines, skippedLines, stagedRows, zip } from "../support.js"

const HEADER =
  "ContactName,EmailAddress,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion," +
  "POPostalCode,POCountry,SAAddressLine1,SAAddressLine2,SAAddressLine3,SAAddressLine4,SACity,SARegion," +
  "SAPostalCode,SACountry,InvoiceNumber,Reference,InvoiceDate,DueDate,PlannedDate,Total,TaxTotal," +
  "InvoiceAmountPaid,InvoiceAmountDue,InventoryItemCode,Description,Quantity,UnitAmount,Discount,LineAmount," +
  "AccountCode,TaxType,TaxAmount,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2,Currency,Type,Sent,Status"
const KEYS = HEADER.split(",")
const blanks = (n: number) => Array.from({ length: n }, () => "")
const line = (contact: string, document: ReadonlyArray<string>, tail: ReadonlyArray<string>) => [
  contact,
  ...blanks(17),
  ...document,
  ...tail
]

describe("Xero sales invoices and bills exports", () => {
  it.scoped("sales types make xero.invoices; overpayment rows without a number are staged", () =>
    Effect.gen(function* () {
      const dir = yield* dirOf("xero", ["SalesInvoices.csv"])
      const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        [summary?.kind, summary?.lines, summary?.staged, summary?.skipped, summary?.rejected],
        ["xero.invoices", 5, 4, 1, 0]
      )
      const rows = yield* stagedRows("SalesInvoices.csv")
      assert.deepStrictEqual(rows[0], {
        line: 2,
        kind: "xero.invoices",
        data: zip(
          KEYS,
          line(
            "Ridgeway University",
            ["INV-0001", "P/O 9876", "03/01/2025", "17/01/2025", "", "1320.00", "120.00", "0.00", "1320.00"],
            ["", "Consulting, January", "8.0000", "150.00", "", "1200.00", "200", "GST on Income", "120.00"]
              .concat(blanks(4))
              .concat(["AUD", "Sales invoice", "Sent", "Awaiting Payment"])
          )
        )
      })
      assert.deepStrictEqual(
        rows.map((r) => [r.line, r.data["InvoiceNumber"], r.data["Type"], r.data["Description"]]),
        [
          [2, "INV-0001", "Sales invoice", "Consulting, January"],
          [3, "INV-0001", "Sales invoice", "Travel"],
          [4, "CN-0001", "Sales credit note", "Refund"],
          [5, "", "Sales overpayment", "Overpayment"]
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("purchase types make xero.bills, whatever the file is called (CRLF)", () =>
    Effect.gen(function* () {
      const dir = yield* dirOf("xero", [["Bills.csv", "SalesInvoices.csv"]])
      const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        [summary?.file, summary?.kind, summary?.staged],
        ["SalesInvoices.csv", "xero.bills", 2]
      )
      const rows = yield* stagedRows("SalesInvoices.csv")
      assert.deepStrictEqual(
        rows.map((r) => [
          r.line,
          r.kind,
          r.data["ContactName"],
          r.data["Reference"],
          r.data["Type"],
          r.data["Status"]
        ]),
        [
          [2, "xero.bills", "Melrose Parking", "RPT-771", "Bill", "Paid"],
          [3, "xero.bills", "Melrose Parking", "", "Bill credit note", "Awaiting Payment"]
        ]
      )
      assert.deepStrictEqual(yield* skippedLines("SalesInvoices.csv"), [[1, "header"]])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("a purchase document past the recognition window of a sales export is rejected, not staged", () =>
    Effect.gen(function* () {
      const text = (yield* read("xero", "SalesInvoices.csv")).toString("utf8").split("\n")
      const sale = text[1]!
      const bill = sale.replace("Sales invoice", "Bill")
      const content = [text[0], ...Array.from({ length: 250 }, () => sale), bill, ""].join("\n")
      const dir = yield* inputDir({ "Export.csv": content })
      const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        [summary?.kind, summary?.lines, summary?.staged, summary?.skipped, summary?.rejected],
        ["xero.invoices", 252, 250, 1, 1]
      )
      const [reject] = yield* rejectedLines("Export.csv")
      assert.strictEqual(reject?.line, 252)
      assert.strictEqual(
        reject?.reason,
        'wrong document type at Export.csv:252: Type "Bill" is a xero.bills document in a file recognised as ' +
          "xero.invoices; the export mixes sales and purchases — export sales invoices and bills to separate " +
          "files and extract again"
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("a file mixing sales and purchase types is ambiguous, naming both kinds", () =>
    Effect.gen(function* () {
      const sales = (yield* read("xero", "SalesInvoices.csv")).toString("utf8").trimEnd().split("\n")
      const bills = (yield* read("xero", "Bills.csv")).toString("utf8").trimEnd().split("\r\n")
      const dir = yield* inputDir({ "Mixed.csv": [...sales, ...bills.slice(1)].join("\n") })
      const error = yield* Effect.flip(Extract.run({ source: "xero", inputDir: dir }))
      assert.strictEqual(error._tag, "ExtractError")
      assert.strictEqual(error.what, "ambiguous file")
      assert.strictEqual(error.where, "Mixed.csv")
      assert.strictEqual(
        error.why,
        "candidates: xero.bills (100%: 4 sales and 2 purchase Type values); " +
          "xero.invoices (100%: 4 sales and 2 purchase Type values)"
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
