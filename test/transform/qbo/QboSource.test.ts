/**
 * QuickBooks Online's exports through the extract into source books: the Journal grouped into transactions
 * (an unbalanced one rejected with its rows, a voided one skipped with a warning), an account the Account List
 * lacks created as Unmapped with a warning, a sale's tax rate and taxable lines inferred, payments linked to
 * invoices from the A/R Aging Detail (an ambiguous one reported) or as a links file states, and a Deposit as a
 * transfer out of Undeposited Funds.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../../src/extract/Extract.js"
import * as StagingDb from "../../../src/staging/StagingDb.js"
import * as Money from "../../../src/transform/Money.js"
import * as QboSource from "../../../src/transform/qbo/QboSource.js"
import { inputDir } from "../../extract/support.js"

const ACCOUNTS = [
  "Account List",
  "",
  "Account #,Full name,Type,Detail type,Description,Balance",
  "1000,Checking,Bank,Checking,,",
  "1200,Accounts Receivable (A/R),Accounts receivable (A/R),Accounts Receivable (A/R),,",
  "1300,Undeposited Funds,Other Current Assets,Undeposited Funds,,",
  "2200,Sales Tax Payable,Other Current Liabilities,Sales Tax Payable,,",
  "4000,Landscaping Services,Income,Service/Fee Income,,",
  "4010,Landscaping Services:Design,Income,Service/Fee Income,,",
  ",Landscaping Services:Lawn Care,Income,Service/Fee Income,,"
].join("\n")

const PRODUCTS = [
  "Name,SKU,Type,Sales Description,Sales Price/Rate,Income Account,Taxable",
  "Design Consultation,,Service,Garden design consultation,95,Landscaping Services:Design,No",
  "Lawn Maintenance,,Service,Lawn maintenance visit,145,Landscaping Services:Lawn Care,Yes"
].join("\n")

const CUSTOMERS = ["Customer,Phone numbers,Email", "Amaya Residence,,", "Barton Creek HOA,,"].join("\n")

const HEADER = ",Transaction date,Transaction type,Num,Name,Description,Account Name,Debit,Credit"
/** Journal lines `[account, debit, credit, description]` of one transaction, with its total line. */
const txn = (
  date: string,
  type: string,
  num: string,
  name: string,
  lines: ReadonlyArray<readonly [string, string, string, string?]>
) => {
  const dr = Money.sum(
    lines.map(([, d]) => Money.parse(d || "0").pipe((o) => (o._tag === "Some" ? o.value : Money.zero)))
  )
  const cr = Money.sum(
    lines.map(([, , c]) => Money.parse(c || "0").pipe((o) => (o._tag === "Some" ? o.value : Money.zero)))
  )
  return [
    ...lines.map(([account, d, c, desc], i) =>
      [
        "",
        i === 0 ? date : "",
        i === 0 ? type : "",
        i === 0 ? num : "",
        `"${name}"`,
        `"${desc ?? ""}"`,
        `"${account}"`,
        d ? `$${d}` : "",
        c ? `$${c}` : ""
      ].join(",")
    ),
    `,,,,,,,$${Money.toFixed(dr)},$${Money.toFixed(cr)}`,
    ",,,,,,,,"
  ]
}

const AR = "Accounts Receivable (A/R)"
const UF = "Undeposited Funds"
const LAWN = "Landscaping Services:Lawn Care"
const DESIGN = "Landscaping Services:Design"

const JOURNAL = [
  "Journal",
  "Test Landscaping Co",
  '"January 1 - December 31, 2025"',
  "",
  HEADER,
  // line 6: an invoice whose tax, on its taxable lines' sum, is a cent under the lines' own roundings
  ...txn("01/10/2025", "Invoice", "1001", "Amaya Residence", [
    [AR, "97.29", ""],
    [LAWN, "", "1.06", "Lawn maintenance visit"],
    [LAWN, "", "1.06", "Lawn maintenance visit"],
    [DESIGN, "", "95.00", "Garden design consultation"],
    ["Sales Tax Payable", "", "0.17", "Austin TX 8.25%"]
  ]),
  // line 13
  ...txn("01/20/2025", "Invoice", "1002", "Amaya Residence", [
    [AR, "216.50", ""],
    [LAWN, "", "200.00", "Lawn maintenance visit"],
    ["Sales Tax Payable", "", "16.50", ""]
  ]),
  // line 18
  ...txn("01/20/2025", "Invoice", "1003", "Barton Creek HOA", [
    [AR, "300.00", ""],
    [DESIGN, "", "300.00", "Garden design consultation"]
  ]),
  // line 22
  ...txn("02/01/2025", "Invoice", "1004", "Barton Creek HOA", [
    [AR, "300.00", ""],
    [DESIGN, "", "300.00", "Garden design consultation"]
  ]),
  // line 26
  ...txn("02/15/2025", "Payment", "", "Amaya Residence", [
    [UF, "216.50", ""],
    [AR, "", "216.50"]
  ]),
  // line 30: two invoices of Barton Creek HOA are paid in full by the aging: ambiguous
  ...txn("02/20/2025", "Payment", "", "Barton Creek HOA", [
    [UF, "300.00", ""],
    [AR, "", "300.00"]
  ]),
  // line 34
  ...txn("03/01/2025", "Payment", "P-77", "Barton Creek HOA", [
    [UF, "300.00", ""],
    [AR, "", "300.00"]
  ]),
  // line 38
  ...txn("03/02/2025", "Deposit", "", "", [
    ["Checking", "816.50", ""],
    [UF, "", "216.50"],
    [UF, "", "300.00"],
    [UF, "", "300.00"]
  ]),
  // line 44: debits and credits differ
  ...txn("03/05/2025", "Sales Receipt", "1010", "Amaya Residence", [
    ["Checking", "50.00", ""],
    [LAWN, "", "45.00", "Lawn maintenance visit"]
  ]),
  // line 48: voided
  ...txn("03/06/2025", "Invoice", "1005", "Amaya Residence", [
    [AR, "0.00", "", "Voided"],
    [LAWN, "", "0.00", "Voided"]
  ]),
  // line 52: an account the Account List lacks
  ...txn("03/07/2025", "Expense", "", "Shell", [
    ["Checking", "", "40.00"],
    ["Automobile:Fuel", "40.00", "", "Diesel"]
  ]),
  'TOTAL,,,,,,,"$1,820.58","$1,815.58"',
  "",
  '"Accrual Basis Monday, January 05, 2026 08:01 PM GMTZ"'
].join("\n")

const AGING = [
  "Test Landscaping Co",
  "A/R Aging Detail",
  "As of December 31, 2025",
  "",
  ",Date,Transaction Type,Num,Customer,Due Date,Amount,Open Balance",
  "31 - 60 days past due,,,,,,,",
  ",01/10/2025,Invoice,1001,Amaya Residence,02/09/2025,$97.29,$97.29",
  "Total for 31 - 60 days past due,,,,,,$97.29,$97.29",
  "TOTAL,,,,,,$97.29,$97.29"
].join("\n")

const FILES = {
  "AccountList.csv": ACCOUNTS,
  "ProductsAndServices.csv": PRODUCTS,
  "Customers.csv": CUSTOMERS,
  "Journal.csv": JOURNAL,
  "ARAgingDetail.csv": AGING
}

const booksOf = (files: Readonly<Record<string, string>>) =>
  Effect.gen(function* () {
    const dir = yield* inputDir(files)
    yield* Extract.run({ source: "qbo", inputDir: dir })
    return yield* QboSource.read
  }).pipe(Effect.provide(StagingDb.layer(":memory:")))

const fixed = (m: Money.Money) => Money.toFixed(m)

describe("QuickBooks Online source books", () => {
  it.scoped(
    "groups the Journal: unbalanced rejected with every row, voided skipped, unmapped account warned",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf(FILES)
        const rejects = books.issues.filter((i) => i.severity === "reject")
        assert.deepStrictEqual(
          rejects.map((i) => [i.what, i.lineage]),
          [["the Sales Receipt transaction 1010 at Journal.csv:44", ["Journal.csv:44", "Journal.csv:45"]]]
        )
        assert.match(rejects[0]!.why, /debits \(50\.00\) and credits \(45\.00\) differ/)
        const warnings = books.issues.filter((i) => i.severity === "warning")
        const voided = warnings.filter((w) => /^voided /.test(w.what))
        assert.deepStrictEqual(
          voided.map((w) => [w.what, w.lineage]),
          [
            [
              "voided Invoice 1005 of 2025-03-06 (Amaya Residence) at Journal.csv:48",
              ["Journal.csv:48", "Journal.csv:49"]
            ]
          ]
        )
        assert.deepStrictEqual(
          books.documents.map((d) => d.number),
          ["1001", "1002", "1003", "1004"],
          "the voided and the unbalanced transactions are not documents"
        )
        const fuel = books.accounts.find((a) => a.name === "Automobile:Fuel")
        assert.deepStrictEqual([fuel?.type, fuel?.lineage], ["Unmapped", "Journal.csv:53"])
        assert.isTrue(
          warnings.some(
            (w) => w.what === 'account "Automobile:Fuel"' && /Account List does not have it/.test(w.why)
          )
        )
        assert.deepStrictEqual(
          books.cashEntries?.map((c) => [
            c.direction,
            c.bankAccountName,
            fixed(c.amount),
            c.lines.map((l) => l.accountName)
          ]),
          [["out", "Checking", "40.00", ["Automobile:Fuel"]]]
        )
        assert.deepStrictEqual(
          books.transfers?.map((t) => [t.fromAccountName, t.toAccountName, fixed(t.amountOut), t.date]),
          [["Undeposited Funds", "Checking", "816.50", "2025-03-02"]]
        )
      })
  )

  it.scoped(
    "infers the sales tax rate and taxable lines, splitting a line where per-line rounding is a cent off",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf(FILES)
        const inv = books.documents.find((d) => d.number === "1001")!
        assert.deepStrictEqual([fixed(inv.total), fixed(inv.taxTotal)], ["97.29", "0.17"])
        assert.deepStrictEqual(
          inv.lines.map((l) => [
            l.accountCode,
            fixed(l.lineAmount),
            l.taxType,
            fixed(l.taxAmount),
            l.lineage
          ]),
          [
            [LAWN, "0.53", "Austin TX 8.25%", "0.04", "Journal.csv:7"],
            [LAWN, "0.53", "Austin TX 8.25%", "0.04", "Journal.csv:7"],
            [LAWN, "1.06", "Austin TX 8.25%", "0.09", "Journal.csv:8"],
            [DESIGN, "95.00", "", "0.00", "Journal.csv:9"]
          ]
        )
        // No rate named on the tax line: the fewest decimals that reproduce it.
        const second = books.documents.find((d) => d.number === "1002")!
        assert.deepStrictEqual(
          second.lines.map((l) => [l.taxType, fixed(l.taxAmount)]),
          [["8.25%", "16.50"]]
        )
      })
  )

  it.scoped("links payments from the aging's open balances, reporting the ambiguous one", () =>
    Effect.gen(function* () {
      const books = yield* booksOf(FILES)
      assert.deepStrictEqual(
        books.documents.map((d) => [d.number, fixed(d.amountPaid), fixed(d.amountDue), d.dueDate]),
        [
          ["1001", "0.00", "97.29", "2025-02-09"],
          ["1002", "216.50", "0.00", undefined],
          ["1003", "300.00", "0.00", undefined],
          ["1004", "300.00", "0.00", undefined]
        ]
      )
      assert.deepStrictEqual(
        books.payments.map((p) => [p.documentNumber, p.date, fixed(p.amount), p.bankAccountName, p.lineage]),
        [
          ["1002", "2025-02-15", "216.50", "Undeposited Funds", "Journal.csv:26"],
          ["1003", "2025-02-20", "300.00", "Undeposited Funds", "Journal.csv:30"],
          ["1004", "2025-03-01", "300.00", "Undeposited Funds", "Journal.csv:34"]
        ]
      )
      const ambiguous = books.issues.filter((i) => i.severity === "warning" && /^payment /.test(i.what))
      assert.deepStrictEqual(
        ambiguous.map((i) => [i.what, i.lineage]),
        [
          [
            "payment 2025-02-20 Barton Creek HOA 300.00 of 2025-02-20 (Barton Creek HOA, 300.00)",
            ["Journal.csv:30", "Journal.csv:31"]
          ]
        ]
      )
      assert.match(
        ambiguous[0]!.why,
        /candidates 1003 of 2025-01-20 \(300\.00 unexplained\), 1004 of 2025-02-01 \(300\.00 unexplained\)/
      )
      assert.deepStrictEqual(
        books.agedReports.map((a) => [a.side, a.asAt, a.items.map((i) => [i.number, fixed(i.outstanding)])]),
        [["AR", "2025-12-31", [["1001", "97.29"]]]]
      )
    })
  )

  it.scoped("a links file overrides the inference for the payments it names", () =>
    Effect.gen(function* () {
      const books = yield* booksOf({
        ...FILES,
        "QuickBooksLinks.csv": ["Credit Note Number,Document Number,Amount", "P-77,1003,300.00"].join("\n")
      })
      assert.deepStrictEqual(
        books.payments.map((p) => [p.documentNumber, p.date, fixed(p.amount)]),
        [
          ["1003", "2025-03-01", "300.00"],
          ["1002", "2025-02-15", "216.50"],
          ["1004", "2025-02-20", "300.00"]
        ]
      )
      assert.deepStrictEqual(books.allocations, [], "a payment's link is not a credit allocation")
      assert.isFalse(
        books.issues.some((i) => /^payment /.test(i.what)),
        "nothing left ambiguous"
      )
    })
  )
})
