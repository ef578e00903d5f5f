import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Extract from "../../../src/extract/Extract.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import * as ProfiledCells from "../../../src/transform/generic/ProfiledCells.js"
import * as ProfiledSource from "../../../src/transform/generic/ProfiledSource.js"
import * as Money from "../../../src/transform/Money.js"
import { inputDir } from "../../extract/support.js"
import { ColumnProfile } from "../../../src/extract/generic/ColumnProfile.js"

const AUDIT_HEADER =
  "Type,Account Reference,Nominal A/C Ref,Department Code,Date,Reference,Details,Net Amount,Tax Code,Tax Amount,Exchange Rate,Extra Reference,User Name"

/** The books of `files` extracted as the generic source (with `profiles`: name → JSON). */
const booksOf = (files: Record<string, string>, profiles: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const dir = yield* inputDir(files)
    const pdir = yield* inputDir(profiles)
    yield* Extract.run({
      source: "generic",
      inputDir: dir,
      profileFiles: Object.keys(profiles).map((p) => `${pdir}/${p}`)
    })
    return yield* ProfiledSource.read
  }).pipe(Effect.provide(StagingDb.layer(":memory:")))

const show = (m: Money.Money) => Money.toFixed(m)

describe("profiled cells", () => {
  const profile = (decimal: "." | ",", thousands: "," | "." | " " | "") =>
    new ColumnProfile({
      kind: "generic.x",
      description: "x",
      header: { required: [] },
      columns: {},
      decimal,
      thousands
    })

  it("reads amounts with currency symbols, separators and the three negative forms", () => {
    const dot = profile(".", ",")
    const read = (p: ColumnProfile, t: string) => Option.map(ProfiledCells.parseAmount(p, t), show)
    assert.deepStrictEqual(
      ["$57.2", "($220.00)", "£1,234.50", "-$5", "12.00-", "1,000", "12.3.4", "", "abc"].map((t) =>
        Option.getOrUndefined(read(dot, t))
      ),
      ["57.20", "-220.00", "1234.50", "-5.00", "-12.00", "1000.00", undefined, undefined, undefined]
    )
    assert.deepStrictEqual(Option.getOrUndefined(read(profile(",", "."), "-1.234,50")), "-1234.50")
    assert.deepStrictEqual(Option.getOrUndefined(read(profile(",", " "), "1 234,50")), "1234.50")
  })

  it("reads dates in the profile's order, two-digit years as 20xx, ISO whatever the order", () => {
    const d = (o: "DMY" | "MDY" | "YMD", t: string) => Option.getOrUndefined(ProfiledCells.parseDate(o, t))
    assert.deepStrictEqual(
      [
        d("DMY", "1/07/2024"),
        d("MDY", "7/1/24"),
        d("DMY", "31.01.2025"),
        d("MDY", "2025-12-31"),
        d("DMY", "31/02/2025")
      ],
      ["2024-07-01", "2024-07-01", "2025-01-31", "2025-12-31", undefined]
    )
  })
})

describe("profiled ledgers read into source books", () => {
  it.scoped(
    "Sage 50 rows post by type into balanced journals per reference and date; lost leading zeros come back",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf({
          "AuditTrail.csv": [
            AUDIT_HEADER,
            "SI,ABS001,4000,0,05/01/2025,INV101,Consultancy,1000.00,T1,200.00,1,,MANAGER",
            "PI,SUP002,30,0,17/01/2025,B-77,Desk,250.00,T1,50.00,1,,MANAGER",
            "BP,1200,7502,0,20/01/2025,DD1,Telephone,45.00,T1,9.00,1,,MANAGER",
            "JD,,1200,0,31/01/2025,JNL1,Transfer,500.00,T9,0.00,1,,MANAGER",
            "JC,,1210,0,31/01/2025,JNL1,Transfer,500.00,T9,0.00,1,,MANAGER"
          ].join("\n")
        })
        assert.deepStrictEqual(books.issues, [])
        assert.deepStrictEqual(
          books.journals.map((j) => [
            j.date,
            j.narration,
            j.lines.map((l) => [l.accountCode, show(l.amount)])
          ]),
          [
            [
              "2025-01-05",
              "INV101: Consultancy",
              [
                ["4000", "-1000.00"],
                ["2200", "-200.00"],
                ["1100", "1200.00"]
              ]
            ],
            [
              "2025-01-17",
              "B-77: Desk",
              [
                ["0030", "250.00"],
                ["2201", "50.00"],
                ["2100", "-300.00"]
              ]
            ],
            [
              "2025-01-20",
              "DD1: Telephone",
              [
                ["7502", "45.00"],
                ["2201", "9.00"],
                ["1200", "-54.00"]
              ]
            ],
            [
              "2025-01-31",
              "JNL1: Transfer",
              [
                ["1200", "500.00"],
                ["1210", "-500.00"]
              ]
            ]
          ]
        )
        assert.deepStrictEqual(
          books.accounts.map((a) => [a.code, a.name, a.type, a.control ?? ""]),
          [
            ["0030", "Account 0030", "Fixed Assets", ""],
            ["1100", "Debtors Control Account", "Current Assets", "AR"],
            ["1200", "Bank Current Account", "Bank", ""],
            ["1210", "Account 1210", "Bank", ""],
            ["2100", "Creditors Control Account", "Liabilities", "AP"],
            ["2200", "Sales Tax Control Account", "Liabilities", ""],
            ["2201", "Purchase Tax Control Account", "Liabilities", ""],
            ["4000", "Account 4000", "Sales", ""],
            ["7502", "Account 7502", "Overheads", ""]
          ]
        )
      })
  )

  it.scoped("a group whose debits and credits differ is rejected with all its file:lines", () =>
    Effect.gen(function* () {
      const books = yield* booksOf({
        "AuditTrail.csv": [
          AUDIT_HEADER,
          "JD,,1200,0,31/01/2025,JNL1,Transfer,500.00,T9,0.00,1,,MANAGER",
          "JC,,1210,0,31/01/2025,JNL1,Transfer,450.00,T9,0.00,1,,MANAGER",
          "JD,,1200,0,31/01/2025,JNL2,Other,10.00,T9,0.00,1,,MANAGER",
          "JC,,1210,0,31/01/2025,JNL2,Other,10.00,T9,0.00,1,,MANAGER",
          "XX,,1210,0,31/01/2025,JNL3,Odd,10.00,T9,0.00,1,,MANAGER"
        ].join("\n")
      })
      assert.deepStrictEqual(
        books.journals.map((j) => j.narration),
        ["JNL2: Other"]
      )
      const [unknownType, unbalanced] = books.issues
      assert.deepStrictEqual(books.issues.length, 2)
      assert.deepStrictEqual(unknownType?.lineage, ["AuditTrail.csv:6"])
      assert.include(unknownType?.what, 'Type "XX" has no posting rule')
      assert.deepStrictEqual(unbalanced?.severity, "reject")
      assert.deepStrictEqual(unbalanced?.lineage, ["AuditTrail.csv:2", "AuditTrail.csv:3"])
      assert.include(
        unbalanced?.what,
        'the journal "JNL1" of 2025-01-31 (AuditTrail.csv:2, AuditTrail.csv:3)'
      )
      assert.include(unbalanced?.why, "debits 500.00 and credits 450.00 differ by 50.00")
      assert.include(unbalanced?.fix, "Reference and date balance")
    })
  )

  it.scoped(
    "MYOB journals group by number and date; an account no range covers is Unmapped with a warning",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf({
          "GeneralJournal.txt": [
            "Journal Number\tDate\tMemo\tAccount Number\tAccount Name\tDebit Amount\tCredit Amount",
            "EP\t15/08/2024\tFees\t6-1100\tBank Fees\t$22.00\t",
            "EP\t15/08/2024\tFees\t1-1110\tCheque Account\t\t$22.00",
            "EP\t16/08/2024\tFees\t7-0001\tOdd Account\t$5.00\t",
            "EP\t16/08/2024\tFees\t1-1110\tCheque Account\t($5.00)\t"
          ].join("\n")
        })
        assert.deepStrictEqual(
          books.journals.map((j) => [j.date, j.lineage]),
          [
            ["2024-08-15", ["GeneralJournal.txt:2", "GeneralJournal.txt:3"]],
            ["2024-08-16", ["GeneralJournal.txt:4", "GeneralJournal.txt:5"]]
          ]
        )
        assert.deepStrictEqual(
          books.accounts.map((a) => [a.code, a.name, a.type]),
          [
            ["1-1110", "Cheque Account", "Bank"],
            ["6-1100", "Bank Fees", "Expense"],
            ["7-0001", "Odd Account", ProfiledSource.UNMAPPED]
          ]
        )
        const [warning] = books.issues
        assert.deepStrictEqual(books.issues.length, 1)
        assert.deepStrictEqual([warning?.severity, warning?.lineage], ["warning", ["GeneralJournal.txt:4"]])
        assert.include(warning?.why, "classified Unmapped")
        assert.include(warning?.fix, "accountCodes.classes")
      })
  )

  it.scoped("a given profile: a chart, a signed trial balance dated by its file name", () =>
    Effect.gen(function* () {
      const books = yield* booksOf(
        {
          "Chart.csv": "Code,Name,Kind\n100,Cash at bank,Bank\n300,Capital,Equity\n",
          "TB-2025-03-31.csv": "Code,Balance\n100,250.00\n300,-250.00\n"
        },
        {
          "chart.json": JSON.stringify({
            kind: "generic.chart",
            description: "a chart",
            rows: "accounts",
            header: { required: ["Code", "Name", "Kind"] },
            columns: { account: "Code", accountName: "Name", type: "Kind" }
          }),
          "tb.json": JSON.stringify({
            kind: "generic.tb",
            description: "a signed trial balance",
            rows: "trial_balance",
            header: { required: ["Code", "Balance"] },
            columns: { account: "Code", amount: "Balance" },
            sign: "signed"
          })
        }
      )
      assert.deepStrictEqual(books.issues, [])
      assert.deepStrictEqual(
        books.accounts.map((a) => [a.code, a.name, a.type]),
        [
          ["100", "Cash at bank", "Bank"],
          ["300", "Capital", "Equity"]
        ]
      )
      const [tb] = books.trialBalances
      assert.deepStrictEqual(
        [tb?.asAt, tb?.lines.map((l) => [l.accountCode, l.accountName, show(l.debit), show(l.credit)])],
        [
          "2025-03-31",
          [
            ["100", "Cash at bank", "250.00", "0.00"],
            ["300", "Capital", "0.00", "250.00"]
          ]
        ]
      )
    })
  )
})
