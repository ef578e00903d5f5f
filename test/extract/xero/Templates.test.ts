import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../../src/extract/Extract.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import { dirOf, stagedRows } from "../support.js"

describe("Xero import templates and bank statements", () => {
  it.scoped("29- and 27-column invoice templates, the bill template and a bank statement, by header", () =>
    Effect.gen(function* () {
      const dir = yield* dirOf("xero", [
        ["InvoiceTemplate29.csv", "a.csv"],
        ["InvoiceTemplate27.csv", "b.csv"],
        ["BillTemplate.csv", "c.csv"],
        ["BankStatement.csv", "d.csv"]
      ])
      const summaries = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        summaries.map((s) => [s.file, s.kind, s.lines, s.staged, s.skipped, s.rejected]),
        [
          ["a.csv", "xero.invoice_template", 2, 1, 1, 0],
          ["b.csv", "xero.invoice_template", 2, 1, 1, 0],
          ["c.csv", "xero.bill_template", 2, 1, 1, 0],
          ["d.csv", "xero.bank_statement", 3, 2, 1, 0]
        ]
      )
      const [a] = yield* stagedRows("a.csv")
      assert.deepStrictEqual(
        [
          a?.line,
          a?.data["ContactName"],
          a?.data["InvoiceNumber"],
          a?.data["Description"],
          a?.data["BrandingTheme"]
        ],
        [2, "Ridgeway University", "INV-0100", "Consulting, April", "Standard"]
      )
      assert.strictEqual(Object.keys(a!.data).length, 29)
      const [b] = yield* stagedRows("b.csv")
      assert.strictEqual(Object.keys(b!.data).length, 27)
      assert.deepStrictEqual(
        [b?.data["InvoiceNumber"], b?.data["UnitAmount"], b?.data["TaxType"]],
        ["INV-0101", "300.00", "GST on Income"]
      )
      const [c] = yield* stagedRows("c.csv")
      assert.deepStrictEqual(
        [c?.data["ContactName"], c?.data["InvoiceNumber"], c?.data["AccountCode"], c?.data["Currency"]],
        ["Melrose Parking", "RPT-800", "493", "AUD"]
      )
      assert.deepStrictEqual(
        (yield* stagedRows("d.csv")).map((r) => r.data),
        [
          {
            Date: "03/01/2025",
            Amount: "1500.00",
            Payee: "Ridgeway University",
            Description: "Deposit, January",
            Reference: "RM-1",
            "Cheque Number": ""
          },
          {
            Date: "15/01/2025",
            Amount: "-45.50",
            Payee: "Melrose Parking",
            Description: "Parking",
            Reference: "",
            "Cheque Number": "000123"
          }
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
