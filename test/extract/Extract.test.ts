import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { dirOf, fileRow, inputDir, read, stagedRows } from "./support.js"

const ALL = [
  "AccountTransactions.csv",
  "Bills.csv",
  "ChartOfAccounts.csv",
  "Contacts-v2.csv",
  "Contacts.csv",
  "ExchangeRates.csv",
  "InventoryItems.csv",
  "ManualJournals.csv",
  "SalesInvoices.csv"
]

describe("Extract.run", () => {
  it.scoped(
    "recognises every Xero fixture by its content; every file keeps lines = staged + skipped + rejected",
    () =>
      Effect.gen(function* () {
        const dir = yield* dirOf("xero", ALL)
        const summaries = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.deepStrictEqual(
          summaries.map((s) => [s.file, s.kind, s.lines, s.staged, s.skipped, s.rejected]),
          [
            ["AccountTransactions.csv", "xero.account_transactions", 16, 4, 12, 0],
            ["Bills.csv", "xero.bills", 3, 2, 1, 0],
            ["ChartOfAccounts.csv", "xero.accounts", 4, 3, 1, 0],
            ["Contacts-v2.csv", "xero.contacts", 2, 1, 1, 0],
            ["Contacts.csv", "xero.contacts", 6, 3, 2, 1],
            ["ExchangeRates.csv", "generic.exchange_rates", 3, 2, 1, 0],
            ["InventoryItems.csv", "xero.items", 3, 2, 1, 0],
            ["ManualJournals.csv", "xero.manual_journals", 5, 4, 1, 0],
            ["SalesInvoices.csv", "xero.invoices", 5, 4, 1, 0]
          ]
        )
        const sql = yield* SqlClient.SqlClient
        const counted = yield* sql<{ file: string; lines: number; n: number }>`
        SELECT f.file, f.lines,
          (SELECT count(*) FROM staged_rows r WHERE r.file = f.file) +
          (SELECT count(*) FROM skipped s WHERE s.file = f.file) +
          (SELECT count(*) FROM rejects j WHERE j.file = f.file) AS n
        FROM src_files f ORDER BY f.file`
        assert.strictEqual(counted.length, ALL.length)
        for (const c of counted) assert.strictEqual(c.n, c.lines, c.file)
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("recognition ignores file names: fixtures under each other's names keep their kinds", () =>
    Effect.gen(function* () {
      const dir = yield* dirOf("xero", [
        ["ChartOfAccounts.csv", "Contacts.csv"],
        ["Contacts.csv", "Chart of Accounts.csv"],
        ["AccountTransactions.csv", "export (3).csv"]
      ])
      const summaries = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        summaries.map((s) => [s.file, s.kind]),
        [
          ["Chart of Accounts.csv", "xero.contacts"],
          ["Contacts.csv", "xero.accounts"],
          ["export (3).csv", "xero.account_transactions"]
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("an unknown file fails the run before anything is staged, naming the expected layouts", () =>
    Effect.gen(function* () {
      const dir = yield* inputDir({
        "ChartOfAccounts.csv": yield* read("xero", "ChartOfAccounts.csv"),
        "payroll.csv": "Employee,Hours,Rate\nAnn,38,45.00\n"
      })
      const error = yield* Effect.flip(Extract.run({ source: "xero", inputDir: dir }))
      assert.strictEqual(error.what, "unrecognised file")
      assert.strictEqual(error.where, "payroll.csv")
      assert.match(
        error.why,
        /^no known layout matches its headers\. Expected one of: xero\.accounts — a header row with Code, Name, Type; /
      )
      for (const kind of [
        "xero.contacts",
        "xero.items",
        "xero.invoices/xero.bills",
        "xero.account_transactions"
      ])
        assert.include(error.why, kind)
      assert.include(error.message, "payroll.csv: unrecognised file.")
      assert.isUndefined(yield* fileRow("ChartOfAccounts.csv"))
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("a file too far from any layout names the closest candidates", () =>
    Effect.gen(function* () {
      const dir = yield* inputDir({
        "people.csv": "ContactName,Shoe size,Favourite colour,Pet\nAnn,5,red,cat\n"
      })
      const error = yield* Effect.flip(Extract.run({ source: "xero", inputDir: dir }))
      assert.strictEqual(error.what, "unrecognised file")
      assert.match(
        error.why,
        /^closest: xero\.contacts \(25%: header on line 1 matches 25%\)\. Expected one of: /
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("notes, READMEs, dotfiles and Excel lock files are not exports; .xls is refused with a fix", () =>
    Effect.gen(function* () {
      const dir = yield* inputDir({
        "README.md": "# exports",
        "notes.md": "ask the client about the Stripe clearing account",
        ".DS_Store": "\u0000\u0001",
        "~$Reports.xlsx": "locked by Excel",
        "ExchangeRates.csv": yield* read("xero", "ExchangeRates.csv")
      })
      const summaries = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual(
        summaries.map((s) => s.file),
        ["ExchangeRates.csv"]
      )
      const legacy = yield* inputDir({ "Ledger.xls": "\u00d0\u00cf" })
      const error = yield* Effect.flip(Extract.run({ source: "xero", inputDir: legacy }))
      assert.deepStrictEqual([error.what, error.where], ["unsupported spreadsheet format", "Ledger.xls"])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "re-extracting replaces the file's rows: same input → same staging; a shorter file leaves no stale rows",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const dump = sql<{ t: string; file: string; line: number; v: string }>`
        SELECT 'row' AS t, file, line, shape || hex(row_hash) || data AS v FROM staged_rows
        UNION ALL SELECT 'shape', file, shape, keys FROM src_shapes
        UNION ALL SELECT 'skip', file, line, reason || raw FROM skipped
        UNION ALL SELECT 'reject', file, line, reason || raw FROM rejects
        UNION ALL SELECT 'file', file, lines, kind || sha256 || staged || skipped || rejected FROM src_files
        ORDER BY 1, 2, 3`
        const dir = yield* dirOf("xero", ALL)
        const first = yield* Extract.run({ source: "xero", inputDir: dir })
        const before = yield* dump
        const second = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.deepStrictEqual(second, first)
        assert.deepStrictEqual(yield* dump, before)

        const shorter = yield* inputDir({
          "Contacts.csv": "*ContactName,AccountNumber\nRidgeway University,RU-01\n"
        })
        const [summary] = yield* Extract.run({ source: "xero", inputDir: shorter })
        assert.deepStrictEqual(
          [summary?.lines, summary?.staged, summary?.skipped, summary?.rejected],
          [2, 1, 1, 0]
        )
        assert.deepStrictEqual(yield* stagedRows("Contacts.csv"), [
          {
            line: 2,
            kind: "xero.contacts",
            data: { ContactName: "Ridgeway University", AccountNumber: "RU-01" }
          }
        ])
        const [rejects] = yield* sql<{
          n: number
        }>`SELECT count(*) AS n FROM rejects WHERE file = 'Contacts.csv'`
        assert.strictEqual(rejects?.n, 0)
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
