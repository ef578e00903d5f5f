/**
 * The chart of accounts of Demo Trading Pte. Ltd.: Xero's Singapore defaults trimmed to about forty
 * accounts, with Xero's system accounts, two SGD bank accounts and a USD one, written as Xero's
 * `ChartOfAccounts.csv` with a trailing `Currency` column that names a foreign bank account's currency.
 */
import { CsvFile } from "./CsvFile.js"
import * as TaxRates from "./TaxRates.js"

/** One account as Xero exports it. */
export interface Account {
  readonly code: string
  readonly name: string
  readonly type: string
  readonly taxCode: string
  readonly description: string
  readonly dashboard: boolean
  readonly expenseClaims: boolean
  readonly enablePayments: boolean
  /** A bank account's currency when it is not the base currency. */
  readonly currency?: "USD"
}

/** Well-known codes the generator posts to. */
export const CODES = {
  dbs: "090",
  ocbc: "091",
  usdBank: "092",
  sales: "200",
  serviceIncome: "210",
  otherRevenue: "260",
  interestIncome: "270",
  costOfGoodsSold: "310",
  advertising: "400",
  bankFees: "404",
  consulting: "412",
  depreciation: "416",
  freight: "425",
  insurance: "433",
  utilities: "445",
  officeExpenses: "453",
  rent: "469",
  wages: "477",
  subscriptions: "485",
  telephone: "489",
  travel: "493",
  realisedCurrencyGains: "499",
  accountsReceivable: "610",
  prepayments: "620",
  officeEquipment: "710",
  officeEquipmentDepreciation: "711",
  computerEquipment: "720",
  computerEquipmentDepreciation: "721",
  rentalDeposit: "750",
  accountsPayable: "800",
  gst: "820",
  accruals: "825",
  cpfPayable: "826",
  customerDeposits: "835",
  rounding: "860",
  fundsIntroduced: "881",
  retainedEarnings: "960"
} as const

const account = (
  code: string,
  name: string,
  type: string,
  taxCode: string,
  description = "",
  flags: { dashboard?: boolean; expenseClaims?: boolean; enablePayments?: boolean; currency?: "USD" } = {}
): Account => ({
  code,
  name,
  type,
  taxCode,
  description,
  dashboard: flags.dashboard ?? false,
  expenseClaims: flags.expenseClaims ?? false,
  enablePayments: flags.enablePayments ?? false,
  ...(flags.currency === undefined ? {} : { currency: flags.currency })
})

const SALES = TaxRates.STANDARD_SUPPLIES
const PURCHASES = TaxRates.STANDARD_PURCHASES
const NONE = TaxRates.NO_GST
const claim = { expenseClaims: true }

/** The whole chart, in code order. */
export const ACCOUNTS: ReadonlyArray<Account> = [
  account("090", "DBS Business Account", "Bank", "", "Main operating account", { dashboard: true }),
  account("091", "OCBC Savings Account", "Bank", "", "Reserve account", { dashboard: true }),
  account("092", "DBS USD Account", "Bank", "", "US dollar account for export receipts", {
    dashboard: true,
    currency: "USD"
  }),
  account("200", "Sales", "Revenue", SALES, "Income from the sale of goods"),
  account("210", "Service Income", "Sales", SALES, "Installation, consulting and maintenance services"),
  account(
    "260",
    "Other Revenue",
    "Revenue",
    SALES,
    "Any other income that does not relate to normal business"
  ),
  account(
    "270",
    "Interest Income",
    "Other Income",
    TaxRates.EXEMPT_SUPPLIES,
    "Interest earned on bank balances"
  ),
  account("310", "Cost of Goods Sold", "Direct Costs", PURCHASES, "Cost of goods bought for resale"),
  account("400", "Advertising", "Expense", PURCHASES, "Advertising and marketing", claim),
  account("404", "Bank Fees", "Expense", NONE, "Bank account and transaction fees", claim),
  account("412", "Consulting & Accounting", "Expense", PURCHASES, "Accounting, tax and advisory fees", claim),
  account("416", "Depreciation", "Depreciation", NONE, "Depreciation of fixed assets"),
  account("425", "Freight & Courier", "Expense", PURCHASES, "Delivery and courier charges", claim),
  account("433", "Insurance", "Expense", PURCHASES, "Business insurance premiums", claim),
  account("445", "Light, Power, Heating", "Overhead", PURCHASES, "Electricity and water", claim),
  account("453", "Office Expenses", "Expense", PURCHASES, "Office supplies, printing and cleaning", claim),
  account("469", "Rent", "Overhead", PURCHASES, "Office and warehouse rent"),
  account("477", "Wages and Salaries", "Expense", NONE, "Payroll including bonuses"),
  account("485", "Subscriptions", "Expense", PURCHASES, "Software and memberships", claim),
  account("489", "Telephone & Internet", "Expense", PURCHASES, "Phone and broadband", claim),
  account("493", "Travel - National", "Expense", PURCHASES, "Local transport and taxis", claim),
  account("498", "Unrealised Currency Gains", "Expense", NONE, "Unrealised gains and losses on open items"),
  account("499", "Realised Currency Gains", "Expense", NONE, "Gains and losses on settled foreign items"),
  account("610", "Accounts Receivable", "Current Asset", "", "Outstanding invoices"),
  account("620", "Prepayments", "Current Asset", NONE, "Expenses paid in advance"),
  account("630", "Inventory", "Inventory", NONE, "Value of tracked stock (unused: items are untracked)"),
  account("710", "Office Equipment", "Fixed Asset", NONE, "Furniture and office equipment"),
  account("711", "Less Accumulated Depreciation on Office Equipment", "Fixed Asset", NONE),
  account("720", "Computer Equipment", "Fixed Asset", NONE, "Computers and servers"),
  account("721", "Less Accumulated Depreciation on Computer Equipment", "Fixed Asset", NONE),
  account("750", "Rental Deposit", "Non-current Asset", NONE, "Security deposit on the office lease"),
  account("800", "Accounts Payable", "Current Liability", "", "Outstanding bills"),
  account("801", "Unpaid Expense Claims", "Current Liability", "", "Expense claims not yet reimbursed"),
  account("820", "GST", "Current Liability", "", "GST collected less GST paid"),
  account("825", "Accrued Liabilities", "Current Liability", NONE, "Expenses incurred but not yet billed"),
  account("826", "CPF Payable", "Current Liability", NONE, "Central Provident Fund contributions owed"),
  account("835", "Customer Deposits", "Current Liability", NONE, "Prepayments received before invoicing"),
  account("840", "Historical Adjustment", "Current Liability", "", "Conversion balance adjustments"),
  account("860", "Rounding", "Current Liability", "", "Rounding differences"),
  account("877", "Tracking Transfers", "Current Liability", "", "Transfers between tracking categories"),
  account("881", "Owner A Funds Introduced", "Equity", NONE, "Capital introduced by the owner"),
  account("900", "Bank Loan - DBS", "Non-current Liability", NONE, "Term loan repayable after 12 months"),
  account("960", "Retained Earnings", "Equity", "", "Profits kept in the business"),
  account("970", "Owner A Share Capital", "Equity", NONE, "Paid-up share capital")
]

/** The codes Xero reserves for its own postings: never used in manual journals. */
export const SYSTEM_CODES: ReadonlySet<string> = new Set([
  "610",
  "800",
  "801",
  "820",
  "840",
  "860",
  "877",
  "960"
])

/** The bank accounts, in report order. */
export const BANKS: ReadonlyArray<Account> = ACCOUNTS.filter((a) => a.type === "Bank")

/** Indexes into `BANKS`: the SGD operating and reserve accounts and the USD account. */
export const BANK = { dbs: 0, ocbc: 1, usd: 2 } as const

/** The currency of the bank with index `bank` in `BANKS`. */
export const bankCurrency = (bank: number): "SGD" | "USD" => BANKS[bank]?.currency ?? "SGD"

/** The header of Xero's chart of accounts export. */
export const HEADER = [
  "*Code",
  "*Name",
  "*Type",
  "*Tax Code",
  "Description",
  "Dashboard",
  "Expense Claims",
  "Enable Payments",
  "Balance",
  "Currency"
] as const

const yesNo = (flag: boolean): string => (flag ? "Yes" : "No")

/** Writes `ChartOfAccounts.csv`; returns the number of data rows. */
export const write = (path: string): number => {
  const file = new CsvFile(path)
  file.row(HEADER)
  for (const a of ACCOUNTS) {
    file.row([
      a.code,
      a.name,
      a.type,
      a.taxCode,
      a.description,
      yesNo(a.dashboard),
      yesNo(a.expenseClaims),
      yesNo(a.enablePayments),
      "",
      a.currency ?? ""
    ])
  }
  return file.close() - 1
}
