import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeCrypto from "node:crypto"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Extract from "../../../src/extract/Extract.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import { dirOf, fileRow, rejectedLines, skippedLines, stagedRows } from "../support.js"

const extractOne = (name: string, source: Extract.ExtractOptions["source"] = "xero") =>
  Effect.gen(function* () {
    const dir = yield* dirOf("xero", [name])
    const [summary] = yield* Extract.run({ source, inputDir: dir })
    assert.isDefined(summary)
    assert.strictEqual(summary!.lines, summary!.staged + summary!.skipped + summary!.rejected)
    const row = yield* fileRow(name)
    assert.deepStrictEqual(
      [row?.kind, row?.lines, row?.staged, row?.skipped, row?.rejected],
      [summary!.kind, summary!.lines, summary!.staged, summary!.skipped, summary!.rejected]
    )
    return summary!
  })

describe("Xero flat exports", () => {
  it.scoped("chart of accounts: UTF-8 BOM, CRLF, a quoted comma, `*` marks stripped from keys", () =>
    Effect.gen(function* () {
      const summary = yield* extractOne("ChartOfAccounts.csv")
      assert.deepStrictEqual(summary, {
        file: "ChartOfAccounts.csv",
        kind: "xero.accounts",
        confidence: 1,
        lines: 4,
        staged: 3,
        skipped: 1,
        rejected: 0,
        warnings: []
      })
      const keys = ["Code", "Name", "Type", "Tax Code", "Description", "Dashboard", "Expense Claims"]
      const row = (line: number, values: ReadonlyArray<string>) => ({
        line,
        kind: "xero.accounts",
        data: Object.fromEntries([...keys, "Enable Payments", "Balance"].map((k, i) => [k, values[i] ?? ""]))
      })
      assert.deepStrictEqual(yield* stagedRows("ChartOfAccounts.csv"), [
        row(2, ["090", "Business Bank Account", "Bank", "Tax Exempt (0%)", "", "Yes", "No", "No", ""]),
        row(3, [
          "200",
          "Sales",
          "Revenue",
          "GST on Income (10%)",
          "Income from any normal business activity, including services",
          "No",
          "No",
          "No",
          ""
        ]),
        row(4, ["400", "Advertising", "Expense", "GST on Expenses (10%)", "", "No", "Yes", "No", ""])
      ])
      assert.deepStrictEqual(yield* skippedLines("ChartOfAccounts.csv"), [[1, "header"]])
      const sql = yield* SqlClient.SqlClient
      const [hash] = yield* sql<{ row_hash: string }>`
        SELECT lower(hex(row_hash)) AS row_hash FROM staged_rows WHERE file = 'ChartOfAccounts.csv' AND line = 2`
      const cells = ["090", "Business Bank Account", "Bank", "Tax Exempt (0%)", "", "Yes", "No", "No", ""]
      assert.strictEqual(
        hash?.row_hash,
        NodeCrypto.createHash("sha256").update(cells.join("\u001f")).digest("hex")
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "contacts: a blank line, a row wider than the header rejected with its reason, cells trimmed",
    () =>
      Effect.gen(function* () {
        const summary = yield* extractOne("Contacts.csv")
        assert.deepStrictEqual(
          [summary.kind, summary.lines, summary.staged, summary.skipped, summary.rejected],
          ["xero.contacts", 6, 3, 2, 1]
        )
        const keys = [
          "ContactName",
          "AccountNumber",
          "EmailAddress",
          "FirstName",
          "LastName",
          "POAddressLine1",
          "POCity",
          "POCountry",
          "TaxNumber",
          "DefaultTaxBills",
          "DefaultTaxSales"
        ]
        const data = (values: ReadonlyArray<string>) =>
          Object.fromEntries(keys.map((k, i) => [k, values[i] ?? ""]))
        assert.deepStrictEqual(yield* stagedRows("Contacts.csv"), [
          {
            line: 2,
            kind: "xero.contacts",
            data: data([
              "Ridgeway University",
              "RU-01",
              "accounts@ridgeway.example",
              "Jo",
              "Ridge",
              "12 High St, Level 3",
              "Sydney",
              "Australia",
              "12 345 678 901",
              "",
              "GST on Income"
            ])
          },
          {
            line: 4,
            kind: "xero.contacts",
            data: data(["Melrose Parking", "", "", "", "", "", "", "", "", "GST on Expenses"])
          },
          {
            line: 6,
            kind: "xero.contacts",
            data: data(["City Agency", "CA-7", "", "", "", "", "Melbourne", "Australia"])
          }
        ])
        assert.deepStrictEqual(yield* skippedLines("Contacts.csv"), [
          [1, "header"],
          [3, "blank"]
        ])
        assert.deepStrictEqual(yield* rejectedLines("Contacts.csv"), [
          {
            line: 5,
            stage: "extract",
            reason:
              "too many cells at Contacts.csv:5: a value in column 12 but the header has 11 columns; a value " +
              "containing the delimiter is probably unquoted — quote it (or remove the extra cells) in the export " +
              "and extract again",
            raw: "Bob's Plumbing,,bob@plumbing.example,Bob,Smith,1 Pipe St, Unit 2,Sydney,Australia,,GST on Expenses,GST on Income"
          }
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("contacts, newer header generation: same kind, the vendor's column names kept", () =>
    Effect.gen(function* () {
      const summary = yield* extractOne("Contacts-v2.csv")
      assert.strictEqual(summary.kind, "xero.contacts")
      assert.deepStrictEqual(yield* stagedRows("Contacts-v2.csv"), [
        {
          line: 2,
          kind: "xero.contacts",
          data: {
            ContactName: "Ridgeway University",
            AccountNumber: "RU-01",
            EmailAddress: "accounts@ridgeway.example",
            TaxNumber: "12 345 678 901",
            TaxNumberName: "ABN",
            DefaultTaxBillsName: "",
            DefaultTaxSalesName: "GST on Income"
          }
        }
      ])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("inventory items", () =>
    Effect.gen(function* () {
      const summary = yield* extractOne("InventoryItems.csv")
      assert.deepStrictEqual([summary.kind, summary.lines, summary.staged], ["xero.items", 3, 2])
      const rows = yield* stagedRows("InventoryItems.csv")
      assert.deepStrictEqual(rows[0], {
        line: 2,
        kind: "xero.items",
        data: {
          ItemCode: "GB1-White",
          ItemName: "Golf balls - white, single",
          Quantity: "",
          PurchasesDescription: "Golf balls, white",
          PurchasesUnitPrice: "4.00",
          PurchasesAccount: "300",
          PurchasesTaxRate: "GST on Expenses",
          SalesDescription: "Golf ball, white, single",
          SalesUnitPrice: "5.95",
          SalesAccount: "200",
          SalesTaxRate: "GST on Income"
        }
      })
      assert.deepStrictEqual(
        rows.map((r) => [r.line, r.data["ItemCode"], r.data["SalesUnitPrice"]]),
        [
          [2, "GB1-White", "5.95"],
          [3, "DESK", "350.00"]
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("manual journals: no final newline, quoted narration with a comma", () =>
    Effect.gen(function* () {
      const summary = yield* extractOne("ManualJournals.csv")
      assert.deepStrictEqual(
        [summary.kind, summary.lines, summary.staged, summary.skipped],
        ["xero.manual_journals", 5, 4, 1]
      )
      const rows = yield* stagedRows("ManualJournals.csv")
      assert.deepStrictEqual(
        rows.map((r) => [
          r.line,
          r.data["Narration"],
          r.data["Date"],
          r.data["AccountCode"],
          r.data["Amount"]
        ]),
        [
          [2, "Opening balances", "30/6/2024", "090", "1000.00"],
          [3, "Opening balances", "30/6/2024", "970", "-1000.00"],
          [4, "Accrual, June", "30 Jun 2024", "800", "-250.00"],
          [5, "Accrual, June", "30 Jun 2024", "412", "250.00"]
        ]
      )
      assert.deepStrictEqual(Object.keys(rows[0]!.data), [
        "Narration",
        "Date",
        "Description",
        "AccountCode",
        "TaxRate",
        "Amount",
        "TrackingName1",
        "TrackingOption1",
        "TrackingName2",
        "TrackingOption2"
      ])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("exchange rates are recognised for every source", () =>
    Effect.gen(function* () {
      for (const source of ["xero", "generic"] as const) {
        const summary = yield* extractOne("ExchangeRates.csv", source)
        assert.strictEqual(summary.kind, "generic.exchange_rates")
        assert.deepStrictEqual(yield* stagedRows("ExchangeRates.csv"), [
          {
            line: 2,
            kind: "generic.exchange_rates",
            data: { Date: "2025-01-31", Currency: "USD", "Base Currency": "AUD", "Base per Unit": "1.6085" }
          },
          {
            line: 3,
            kind: "generic.exchange_rates",
            data: { Date: "2025-02-28", Currency: "USD", "Base Currency": "AUD", "Base per Unit": "1.6112" }
          }
        ])
      }
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
