/**
 * Writes a Xero export folder of `n` customers, each with an invoice settled by a bank payment and a credit
 * note (the rest of the credit note refunded), a Receive Money, a Spend Money and, every third one, a bank
 * transfer: enough operations of every new kind that a loader killed at seeded points is killed inside each.
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

const DOC_HEAD =
  "ContactName,InvoiceNumber,Reference,InvoiceDate,DueDate,Total,TaxTotal,InvoiceAmountPaid,InvoiceAmountDue,Description,Quantity,UnitAmount,Discount,LineAmount,AccountCode,TaxType,TaxAmount,Currency,Type,Status"

const day = (i: number) => `${String(1 + (i % 28)).padStart(2, "0")}/0${1 + Math.floor(i / 28)}/2025`
const reportDay = (i: number) => `${1 + (i % 28)} ${["Jan", "Feb", "Mar"][Math.floor(i / 28)]} 2025`

/** Writes the folder into `dir` and returns it. */
export const writeKindsFolder = (dir: string, n: number): string => {
  NodeFs.mkdirSync(dir, { recursive: true })
  const write = (name: string, lines: ReadonlyArray<string>) =>
    NodeFs.writeFileSync(NodePath.join(dir, name), `${lines.join("\n")}\n`)
  write("ChartOfAccounts.csv", [
    "*Code,*Name,*Type,*Tax Code,Description,Dashboard,Expense Claims,Enable Payments,Balance",
    "090,DBS Business Account,Bank,,,Yes,No,No,",
    "091,OCBC Savings Account,Bank,,,Yes,No,No,",
    "200,Sales,Revenue,Standard-Rated Supplies,,No,No,No,",
    "469,Rent,Expense,Standard-Rated Purchases,,No,No,No,",
    "610,Accounts Receivable,Current Asset,,,No,No,No,",
    "820,GST,Current Liability,,,No,No,No,"
  ])
  const customers = Array.from({ length: n }, (_, i) => `Customer ${String(i + 1).padStart(3, "0")}`)
  write("Contacts.csv", ["*ContactName", ...customers, "Landlord"])
  const sales: Array<string> = [DOC_HEAD]
  const bank: Array<string> = []
  const salesLines: Array<string> = []
  const gst: Array<string> = []
  const rent: Array<string> = []
  const ocbc: Array<string> = []
  customers.forEach((c, i) => {
    const k = String(i + 1).padStart(3, "0")
    sales.push(
      `${c},INV-${k},,${day(i)},${day(i)},109.00,9.00,109.00,0.00,Work,1,100.00,,100.00,200,Standard-Rated Supplies,9.00,SGD,Sales invoice,Paid`
    )
    sales.push(
      `${c},CN-${k},,${day(i)},,-109.00,-9.00,-109.00,0.00,Credit,1,100.00,,100.00,200,Standard-Rated Supplies,9.00,SGD,Sales credit note,Paid`
    )
    bank.push(`${reportDay(i)},Receivable Payment,${c} - Payment: INV-${k},INV-${k},59.00,,`)
    bank.push(`${reportDay(i)},Receivable Credit Note Refund,${c} - Refund: CN-${k},CN-${k},,59.00,`)
    bank.push(`${reportDay(i)},Receive Money,${c} - Cash sale,RM-${k},109.00,,`)
    salesLines.push(`${reportDay(i)},Receive Money,${c} - Cash sale,RM-${k},,100.00,`)
    gst.push(`${reportDay(i)},Receive Money,${c} - Cash sale,RM-${k},,9.00,`)
    bank.push(`${reportDay(i)},Spend Money,Landlord - Rent ${k},SM-${k},,54.50,`)
    rent.push(`${reportDay(i)},Spend Money,Landlord - Rent ${k},SM-${k},50.00,,`)
    gst.push(`${reportDay(i)},Spend Money,Landlord - Rent ${k},SM-${k},4.50,,`)
    if (i % 3 === 0) {
      bank.push(`${reportDay(i)},Bank Transfer,Bank Transfer to OCBC Savings Account,TRF-${k},,10.00,`)
      ocbc.push(`${reportDay(i)},Bank Transfer,Bank Transfer from DBS Business Account,TRF-${k},10.00,,`)
    }
  })
  write("SalesInvoices.csv", sales)
  const section = (name: string, rows: ReadonlyArray<string>) => [name, ...rows, ""]
  write("AccountTransactions.csv", [
    "Account Transactions",
    "Kinds Pte Ltd",
    "For the period 1 January 2025 to 31 March 2025",
    "",
    "Date,Source,Description,Reference,Debit,Credit,Running Balance",
    ...section("DBS Business Account", bank),
    ...section("OCBC Savings Account", ocbc),
    ...section("Sales", salesLines),
    ...section("GST", gst),
    ...section("Rent", rent)
  ])
  return dir
}
