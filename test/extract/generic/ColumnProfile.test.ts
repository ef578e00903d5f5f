import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../../src/extract/Extract.js"
import * as ColumnProfile from "../../../src/extract/generic/ColumnProfile.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import { dirOf, fixture, inputDir, rejectedLines, skippedLines, stagedRows } from "../support.js"

describe("column profiles", () => {
  it.effect("the shipped profiles decode", () =>
    Effect.gen(function* () {
      const profiles = yield* ColumnProfile.shipped
      assert.deepStrictEqual(
        profiles.map((p) => [p.kind, p.rows, p.dateOrder, p.sign]),
        [
          ["generic.myob_general_journal", "ledger", "DMY", "debit-credit-columns"],
          ["generic.myob_trial_balance", "trial_balance", "DMY", "debit-credit-columns"],
          ["generic.sage50_audit_trail", "ledger", "DMY", "by-type"],
          ["generic.sage50_trial_balance", "trial_balance", "DMY", "debit-credit-columns"]
        ]
      )
    })
  )

  it.scoped("Sage 50 audit trail: mapped columns staged under the profile's field names", () =>
    Effect.gen(function* () {
      const dir = yield* dirOf("generic", ["AuditTrail.csv"])
      const [s] = yield* Extract.run({ source: "generic", inputDir: dir })
      assert.deepStrictEqual(
        [s?.kind, s?.lines, s?.staged, s?.skipped, s?.dateOrder, s?.decimal, s?.warnings],
        ["generic.sage50_audit_trail", 5, 4, 1, "DMY", ".", []]
      )
      const [first] = yield* stagedRows("AuditTrail.csv")
      assert.deepStrictEqual(first, {
        line: 2,
        kind: "generic.sage50_audit_trail",
        data: {
          type: "SI",
          contact: "ABS001",
          account: "4000",
          department: "0",
          date: "05/01/2025",
          reference: "INV101",
          description: "Consultancy, January",
          amount: "1000.00",
          taxCode: "T1",
          taxAmount: "200.00",
          exchangeRate: "1",
          extraReference: "",
          user: "MANAGER"
        }
      })
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "MYOB general journal: tab-delimited TXT, $57.2 and ($220.00) kept as read, EP numbers repeat",
    () =>
      Effect.gen(function* () {
        const dir = yield* dirOf("generic", ["GeneralJournal.txt"])
        const [s] = yield* Extract.run({ source: "generic", inputDir: dir })
        assert.deepStrictEqual([s?.kind, s?.lines, s?.staged], ["generic.myob_general_journal", 5, 4])
        assert.deepStrictEqual(
          (yield* stagedRows("GeneralJournal.txt")).map((r) => [
            r.line,
            r.data["journalNumber"],
            r.data["date"],
            r.data["account"],
            r.data["debit"],
            r.data["credit"]
          ]),
          [
            [2, "GJ000001", "1/07/2024", "1-1110", "$57.2", ""],
            [3, "GJ000001", "1/07/2024", "3-1100", "", "$57.2"],
            [4, "EP", "15/08/2024", "6-1100", "($220.00)", ""],
            [5, "EP", "16/08/2024", "1-1110", "", "($220.00)"]
          ]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "a given profile reads a 12-line preamble, duplicated headers by position and a trailing footer",
    () =>
      Effect.gen(function* () {
        const dir = yield* dirOf("generic", ["LegacyLedger.csv"])
        const [s] = yield* Extract.run({
          source: "xero",
          inputDir: dir,
          profileFiles: [fixture("generic", "legacy-ledger.profile.json")]
        })
        assert.deepStrictEqual(
          [s?.kind, s?.lines, s?.staged, s?.skipped, s?.rejected, s?.dateOrder, s?.decimal, s?.warnings],
          ["generic.legacy_ledger", 17, 2, 15, 0, "DMY", ",", []]
        )
        assert.deepStrictEqual(
          (yield* stagedRows("LegacyLedger.csv")).map((r) => [r.line, r.data]),
          [
            [
              14,
              {
                date: "31.01.2025",
                account: "4000",
                debit: "1.234,50",
                credit: "-1.234,50",
                memo: "Sales Jan"
              }
            ],
            [15, { date: "28.02.2025", account: "4000", debit: "99,00", credit: "-99,00", memo: "Sales Feb" }]
          ]
        )
        assert.deepStrictEqual(yield* skippedLines("LegacyLedger.csv"), [
          [1, "title"],
          [2, "title"],
          [3, "title"],
          [4, "blank"],
          [5, "title"],
          [6, "title"],
          [7, "title"],
          [8, "title"],
          [9, "blank"],
          [10, "title"],
          [11, "title"],
          [12, "blank"],
          [13, "header"],
          [16, "blank"],
          [17, "footer"]
        ])
        assert.deepStrictEqual(yield* rejectedLines("LegacyLedger.csv"), [])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("an invalid profile file fails with the decode path", () =>
    Effect.gen(function* () {
      const dir = yield* inputDir({
        "p.json": '{"kind":"Bad Kind","description":"x","header":{"required":[]},"columns":{}}'
      })
      const error = yield* Effect.flip(
        Extract.run({ source: "generic", inputDir: dir, profileFiles: [`${dir}/p.json`] })
      )
      assert.strictEqual(error.what, "invalid column profile")
      assert.include(error.why, '["kind"]')
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("a file that lacks a profile's required or essential column is refused naming it", () =>
    Effect.gen(function* () {
      const dir = yield* inputDir({
        "GeneralJournal.txt":
          "Journal Number\tDate\tMemo\tAccount Number\tDebit Amount\tCredit\nGJ1\t1/07/2024\tx\t1-1110\t$5\t\n"
      })
      const journal = yield* Effect.flip(Extract.survey({ source: "generic", inputDir: dir }))
      assert.strictEqual(journal.what, "unrecognised file")
      assert.strictEqual(journal.where, "GeneralJournal.txt")
      assert.include(
        journal.why,
        'generic.myob_general_journal (0%: profile "MYOB AccountRight general journal export (tab-delimited)" does not match: the header on line 1 lacks the column "Credit Amount")'
      )
      const other = yield* inputDir({
        "Listing.csv": "Date,Account,Credit\n01/02/2025,4000,5.00\n",
        "p.json": JSON.stringify({
          kind: "generic.listing",
          description: "a listing",
          header: { required: ["Date", "Account"] },
          columns: { date: "Date", account: "Account", debit: "Debit", credit: "Credit" }
        })
      })
      const listing = yield* Effect.flip(
        Extract.survey({ source: "xero", inputDir: other, profileFiles: [`${other}/p.json`] })
      )
      assert.strictEqual(listing.where, "Listing.csv")
      assert.include(listing.why, 'does not match: the header on line 1 lacks the column "Debit"')
    })
  )
})
