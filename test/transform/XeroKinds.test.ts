/**
 * Xero's other kinds read into source books, from extract to books: credit notes, overpayments and
 * prepayments from the document exports; refunds, overpayment funding, Receive/Spend Money (grouped across
 * the report's account sections) and bank transfers from Account Transactions; the allocations file;
 * tracking options on lines and a bank account's currency. Unreadable or unpairable rows are rejects.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Money from "../../src/transform/Money.js"
import type { SourceBooks } from "../../src/transform/SourceModel.js"
import * as XeroKinds from "../../src/transform/xero/XeroKinds.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { fixture, inputDir } from "../extract/support.js"
import * as Books from "./Books.js"

const fmt = (m: Money.Money) => Money.toFixed(m)

const booksOf = (dir: Effect.Effect<string, never, any>) =>
  Effect.gen(function* () {
    yield* Extract.run({ source: "xero", inputDir: yield* dir })
    return yield* XeroSource.read
  })

const allKinds = booksOf(Effect.succeed(fixture("xero", "all-kinds")))

const CHART = [
  "*Code,*Name,*Type,*Tax Code,Description,Dashboard,Expense Claims,Enable Payments,Balance",
  "090,DBS,Bank,,,Yes,No,No,",
  "091,OCBC,Bank,,,Yes,No,No,",
  "469,Rent,Expense,,,No,No,No,"
].join("\n")

const report = (sections: Record<string, ReadonlyArray<string>>) =>
  [
    "Account Transactions",
    "Demo",
    "For the period 1 January 2025 to 31 March 2025",
    "",
    "Date,Source,Description,Reference,Debit,Credit,Running Balance",
    ...Object.entries(sections).flatMap(([name, rows]) => [name, ...rows, ""])
  ].join("\n")

const rejectsOf = (b: SourceBooks) =>
  b.issues.filter((i) => i.severity === "reject").map((i) => `${i.lineage.join(",")} ${i.why}`)

describe("Xero kinds beyond invoices and bills", () => {
  it.effect(
    "credit notes, overpayments and prepayments: positive amounts, used and remaining, tracking",
    () =>
      Effect.gen(function* () {
        const books = yield* allKinds
        assert.deepStrictEqual(rejectsOf(books), [])
        assert.deepStrictEqual(
          (books.credits ?? []).map((c) => [
            c.side,
            c.origin,
            c.number,
            c.contactName,
            c.date,
            c.currency,
            c.state,
            fmt(c.total),
            fmt(c.used),
            fmt(c.remaining)
          ]),
          [
            [
              "sale",
              "credit-note",
              "CN-001",
              "Acme Pte Ltd",
              "2025-01-10",
              "SGD",
              "open",
              "109.00",
              "109.00",
              "0.00"
            ],
            [
              "sale",
              "credit-note",
              "CN-002",
              "Acme Pte Ltd",
              "2025-01-20",
              "SGD",
              "open",
              "218.00",
              "218.00",
              "0.00"
            ],
            [
              "sale",
              "overpayment",
              "",
              "Gamma Retail",
              "2025-01-25",
              "SGD",
              "open",
              "50.00",
              "30.00",
              "20.00"
            ],
            [
              "sale",
              "credit-note",
              "CN-004",
              "Acme Pte Ltd",
              "2025-02-02",
              "SGD",
              "voided",
              "54.50",
              "0.00",
              "54.50"
            ],
            [
              "sale",
              "credit-note",
              "CN-003",
              "Acme Pte Ltd",
              "2025-02-05",
              "USD",
              "open",
              "100.00",
              "100.00",
              "0.00"
            ],
            [
              "purchase",
              "credit-note",
              "SCN-001",
              "Beta Supplies",
              "2025-01-12",
              "SGD",
              "open",
              "109.00",
              "109.00",
              "0.00"
            ],
            [
              "purchase",
              "credit-note",
              "SCN-002",
              "Beta Supplies",
              "2025-01-14",
              "SGD",
              "open",
              "54.50",
              "54.50",
              "0.00"
            ],
            [
              "purchase",
              "prepayment",
              "",
              "Delta Services",
              "2025-01-18",
              "SGD",
              "open",
              "200.00",
              "200.00",
              "0.00"
            ]
          ]
        )
        const cn1 = books.credits![0]!
        assert.deepStrictEqual(
          cn1.lines.map((l) => [fmt(l.lineAmount), fmt(l.taxAmount), l.tracking, l.lineage]),
          [["100.00", "9.00", [{ category: "Region", option: "North" }], "SalesInvoices.csv:4"]]
        )
        const inv1 = books.documents.find((d) => d.number === "INV-001")!
        assert.deepStrictEqual(
          inv1.lines.map((l) => [fmt(l.discount), fmt(l.lineAmount), l.tracking?.map((t) => t.option)]),
          [
            ["10.00", "900.00", ["North"]],
            ["0.00", "200.00", ["South"]]
          ]
        )
        assert.deepStrictEqual(
          books.journals[0]!.lines.map((l) => l.tracking?.[0]?.option),
          ["North", "North"]
        )
        assert.deepStrictEqual(
          books.accounts.filter((a) => a.currency).map((a) => [a.name, a.currency]),
          [["USD Account", "USD"]]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.effect(
    "Account Transactions: payments only from bank sections; refunds, funding, cash entries across sections, transfers",
    () =>
      Effect.gen(function* () {
        const books = yield* allKinds
        assert.deepStrictEqual(
          books.payments.map((p) => [p.documentNumber, p.bankAccountName, fmt(p.amount)]),
          [
            ["INV-001", "DBS Business Account", "1090.00"],
            ["BILL-001", "DBS Business Account", "218.00"],
            ["INV-002", "DBS Business Account", "400.00"],
            ["INV-003", "DBS Business Account", "79.00"],
            ["INV-006", "USD Account", "900.00"]
          ],
          "the Sales section's Receivable Invoice row is not read as a payment"
        )
        assert.deepStrictEqual(
          (books.refunds ?? []).map((r) => [r.side, r.creditNumber, r.contactName, fmt(r.amount), r.lineage]),
          [
            ["sale", "CN-002", "Acme Pte Ltd", "118.00", "AccountTransactions.csv:13"],
            ["purchase", "SCN-002", "Beta Supplies", "54.50", "AccountTransactions.csv:15"]
          ]
        )
        assert.deepStrictEqual(
          (books.creditFundings ?? []).map((f) => [f.side, f.origin, f.contactName, f.date, fmt(f.amount)]),
          [
            ["purchase", "prepayment", "Delta Services", "2025-01-18", "200.00"],
            ["sale", "overpayment", "Gamma Retail", "2025-01-25", "50.00"]
          ]
        )
        assert.deepStrictEqual(
          (books.cashEntries ?? []).map((e) => [
            e.direction,
            e.reference,
            e.contactName,
            e.description,
            fmt(e.amount),
            e.lines.map((l) => `${l.accountName} ${fmt(l.amount)}`),
            e.lineage.length
          ]),
          [
            ["in", "RM-1", "Walk-in Customer", "Cash sale", "109.00", ["Sales 100.00", "GST 9.00"], 3],
            ["out", "", "Orchard Landlord", "January rent", "1090.00", ["GST 90.00", "Rent 1000.00"], 3],
            ["out", "FEE-0125", "", "Bank fee", "15.00", ["Bank Fees 15.00"], 2]
          ]
        )
        assert.deepStrictEqual(
          (books.transfers ?? []).map((t) => [
            t.fromAccountName,
            t.toAccountName,
            t.reference,
            fmt(t.amountOut),
            fmt(t.amountIn),
            t.lineage
          ]),
          [
            [
              "DBS Business Account",
              "OCBC Savings Account",
              "TRF-1",
              "500.00",
              "500.00",
              ["AccountTransactions.csv:9", "AccountTransactions.csv:25"]
            ],
            [
              "DBS Business Account",
              "USD Account",
              "TRF-2",
              "1350.00",
              "1000.00",
              ["AccountTransactions.csv:20", "AccountTransactions.csv:30"]
            ]
          ]
        )
        assert.deepStrictEqual(
          (books.allocations ?? []).map((a) => [a.creditNumber, a.documentNumber, fmt(a.amount), a.lineage]),
          [["CN-001", "INV-001", "109.00", "Allocations.csv:2"]]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "rows that cannot be read or paired are rejects naming them; the allocations file's headers are matched loosely",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf(
          inputDir({
            "ChartOfAccounts.csv": CHART,
            "AccountTransactions.csv": report({
              DBS: [
                "05 Jan 2025,Spend Money,Landlord - Rent,,,100.00,",
                "06 Jan 2025,Bank Transfer,Bank Transfer,T-1,,50.00,",
                "06 Jan 2025,Bank Transfer,Bank Transfer,T-1,,60.00,",
                "07 Jan 2025,Expense Claim Payment,Jo - Claim,,,5.00,",
                "Total DBS,,,,0.00,215.00,"
              ],
              OCBC: ["06 Jan 2025,Bank Transfer,Bank Transfer,T-1,50.00,,", "Total OCBC,,,,50.00,0.00,"]
            }),
            "CreditAllocations.csv": "CreditNoteNumber,DocumentNumber,Amount\nCN-9,INV-9,12.50\n"
          })
        )
        assert.deepStrictEqual(rejectsOf(books), [
          "AccountTransactions.csv:10 it is not a kind of bank transaction this migration reads",
          "AccountTransactions.csv:7 the report has only its bank row, not the accounts it was coded to",
          "AccountTransactions.csv:9 their money-out and money-in sides cannot be paired (one of each, between two accounts)"
        ])
        assert.deepStrictEqual(
          (books.transfers ?? []).map((t) => t.lineage),
          [["AccountTransactions.csv:8", "AccountTransactions.csv:14"]],
          "the out row of 50.00 pairs with the in row of 50.00; the 60.00 is left"
        )
        assert.deepStrictEqual(
          (books.allocations ?? []).map((a) => [a.creditNumber, a.documentNumber, fmt(a.amount)]),
          [["CN-9", "INV-9", "12.50"]]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped(
    "credits read as their rows stream past: a number's rows together wherever they stand, an unnumbered run ended by a document, a credit rejected at its first row",
    () =>
      Effect.gen(function* () {
        const header =
          "ContactName,InvoiceNumber,Reference,InvoiceDate,DueDate,Total,TaxTotal,InvoiceAmountPaid,InvoiceAmountDue,InventoryItemCode,Description,Quantity,UnitAmount,Discount,LineAmount,AccountCode,TaxType,TaxAmount,Currency,Type,Status"
        const row = (
          contact: string,
          number: string,
          date: string,
          total: string,
          amount: string,
          type: string
        ) =>
          `${contact},${number},,${date},,${total},0.00,0.00,${total.replace("-", "")},,Work,1,${amount},,${amount},200,Tax Exempt,0.00,SGD,${type},Awaiting Payment`
        const sales = [
          header,
          row("Acme", "CN-1", "10/01/2025", "-30.00", "10.00", "Sales credit note"),
          row("Gamma", "", "12/01/2025", "50.00", "20.00", "Sales overpayment"),
          row("Gamma", "", "12/01/2025", "50.00", "30.00", "Sales overpayment"),
          row("Acme", "INV-1", "13/01/2025", "10.00", "10.00", "Sales invoice"),
          row("Gamma", "", "12/01/2025", "50.00", "50.00", "Sales overpayment"),
          row("Acme", "CN-1", "10/01/2025", "-30.00", "20.00", "Sales credit note"),
          row("Acme", "", "14/01/2025", "-5.00", "5.00", "Sales credit note"),
          row("Beta", "CN-2", "15/01/2025", "-40.00", "40.00", "Sales credit note"),
          row("Beta", "CN-2", "15/01/2025", "-40.00", "lots", "Sales credit note"),
          row("Beta", "X-1", "16/01/2025", "-1.00", "1.00", "Sales quote"),
          row("Delta", "CN-3", "17/01/2025", "-7.00", "7.00", "Sales credit note")
        ].join("\n")
        const books = yield* booksOf(inputDir({ "ChartOfAccounts.csv": CHART, "SalesInvoices.csv": sales }))
        assert.deepStrictEqual(
          (books.credits ?? []).map((c) => [c.origin, c.number, c.contactName, fmt(c.total), c.lineage]),
          [
            ["credit-note", "CN-1", "Acme", "30.00", ["SalesInvoices.csv:2", "SalesInvoices.csv:7"]],
            ["overpayment", "", "Gamma", "50.00", ["SalesInvoices.csv:3", "SalesInvoices.csv:4"]],
            ["overpayment", "", "Gamma", "50.00", ["SalesInvoices.csv:6"]],
            ["credit-note", "CN-3", "Delta", "7.00", ["SalesInvoices.csv:12"]]
          ]
        )
        assert.deepStrictEqual(
          books.issues.filter((i) => i.severity === "reject").map((i) => `${i.lineage.join(",")} ${i.what}`),
          [
            'SalesInvoices.csv:11 a "Sales quote" row',
            "SalesInvoices.csv:8 a credit note without a number",
            'SalesInvoices.csv:9 UnitAmount "lots" is not an amount'
          ]
        )
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.effect(
    "the other kinds' rows are taken as each kind is read, not held to the end of the read; credits are read as they stream past",
    () =>
      Effect.gen(function* () {
        yield* Extract.run({ source: "xero", inputDir: fixture("xero", "all-kinds") })
        const rows = yield* XeroKinds.staged({ document: () => undefined, payment: () => undefined })
        assert.isAbove(rows.credits.sale.pending + rows.credits.purchase.pending, 0)
        assert.isAbove(rows.transactions.size, 0)
        assert.isAbove(rows.allocations.length, 0)
        const books = XeroKinds.complete(rows, [], Books.books({ accounts: [] }))
        assert.isAbove((books.credits ?? []).length, 0)
        assert.isAbove((books.cashEntries ?? []).length + (books.refunds ?? []).length, 0)
        assert.deepStrictEqual(
          [
            rows.credits.sale.pending,
            rows.credits.purchase.pending,
            rows.transactions.size,
            rows.allocations.length
          ],
          [0, 0, 0, 0]
        )
        const journals = rows.journals.length
        assert.isAbove(journals, 0)
        assert.strictEqual(XeroKinds.taken(rows.journals).length, journals)
        assert.strictEqual(rows.journals.length, 0)
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
