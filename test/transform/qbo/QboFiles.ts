/**
 * A small set of QuickBooks Online exports for the transform's tests: an Account List, products (one not
 * taxable), customers, a Journal with invoices (one whose per-line tax rounding is a cent off), payments (one
 * ambiguous), a deposit, an unbalanced sales receipt, a voided invoice and an expense to an account the
 * Account List lacks, and an A/R Aging Detail; `booksOf` extracts them and reads the source books.
 */
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
export const txn = (
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

export const AR = "Accounts Receivable (A/R)"
export const UF = "Undeposited Funds"
export const LAWN = "Landscaping Services:Lawn Care"
export const DESIGN = "Landscaping Services:Design"

export const JOURNAL = [
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

export const AGING = [
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

export const FILES = {
  "AccountList.csv": ACCOUNTS,
  "ProductsAndServices.csv": PRODUCTS,
  "Customers.csv": CUSTOMERS,
  "Journal.csv": JOURNAL,
  "ARAgingDetail.csv": AGING
}

/**
 * FILES with payment 5150 of 2025-04-01 (Amaya Residence, 120.00) that no invoice can take, and that the
 * aging lists as an unapplied payment: an overpayment.
 */
export const UNAPPLIED_PAYMENT = {
  ...FILES,
  "Journal.csv": JOURNAL.replace(
    "TOTAL,",
    `${txn("04/01/2025", "Payment", "5150", "Amaya Residence", [
      [UF, "120.00", ""],
      [AR, "", "120.00"]
    ]).join("\n")}\nTOTAL,`
  ),
  "ARAgingDetail.csv": AGING.replace(
    "Total for 31 - 60 days past due",
    ",04/01/2025,Payment,5150,Amaya Residence,,-$120.00,-$120.00\nTotal for 31 - 60 days past due"
  )
}

export const booksOf = (files: Readonly<Record<string, string>>) =>
  Effect.gen(function* () {
    const dir = yield* inputDir(files)
    yield* Extract.run({ source: "qbo", inputDir: dir })
    return yield* QboSource.read
  }).pipe(Effect.provide(StagingDb.layer(":memory:")))
