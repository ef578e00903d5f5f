/**
 * The QuickBooks sample's chart of accounts: QuickBooks types and detail types, `Parent:Child` sub-accounts
 * (some without a number), in the Account List's order, and the accounts the generator posts to by role.
 */
/** A QuickBooks account: `full` is the `Parent:Child` full name reports show. */
export interface Account {
  readonly number: string
  readonly full: string
  readonly type: QboType
  readonly detail: string
  readonly description: string
}

/** QuickBooks Online's account types, in the order its lists and Trial Balance show them. */
export const TYPES = [
  "Bank",
  "Accounts receivable (A/R)",
  "Other Current Assets",
  "Fixed Assets",
  "Accounts payable (A/P)",
  "Credit Card",
  "Other Current Liabilities",
  "Long Term Liabilities",
  "Equity",
  "Income",
  "Cost of Goods Sold",
  "Expenses",
  "Other Income",
  "Other Expense"
] as const
export type QboType = (typeof TYPES)[number]

/** Whether an account of the type is a balance sheet account (the Account List shows its balance). */
export const isBalanceSheet = (type: QboType): boolean => TYPES.indexOf(type) <= TYPES.indexOf("Equity")

/** Whether an account of the type normally has a credit balance (the Account List shows it positive). */
export const isCreditNature = (type: QboType): boolean =>
  [
    "Accounts payable (A/P)",
    "Credit Card",
    "Other Current Liabilities",
    "Long Term Liabilities",
    "Equity",
    "Income",
    "Other Income"
  ].includes(type)

const a = (number: string, full: string, type: QboType, detail: string, description = ""): Account => ({
  number,
  full,
  type,
  detail,
  description
})

/** The accounts the generator posts to, by role. */
export const ACC = {
  checking: "Checking",
  savings: "Savings",
  ar: "Accounts Receivable (A/R)",
  undeposited: "Undeposited Funds",
  prepaid: "Prepaid Expenses",
  truckCost: "Truck:Original Cost",
  truckDepreciation: "Truck:Depreciation",
  equipment: "Equipment",
  ap: "Accounts Payable (A/P)",
  card: "Visa Business Card",
  salesTax: "Sales Tax Payable",
  loan: "Truck Loan",
  openingEquity: "Opening Balance Equity",
  retained: "Retained Earnings",
  design: "Landscaping Services:Design",
  lawnCare: "Landscaping Services:Lawn Care",
  installation: "Landscaping Services:Installation",
  productSales: "Sales of Product Income",
  plants: "Cost of Goods Sold:Plants and Soil",
  stone: "Cost of Goods Sold:Stone and Hardscape",
  advertising: "Advertising",
  fuel: "Automobile:Fuel",
  bankCharges: "Bank Charges",
  insurance: "Insurance",
  legal: "Legal & Professional Fees",
  office: "Office Expenses",
  rent: "Rent or Lease",
  repairs: "Repair & Maintenance",
  electric: "Utilities:Gas and Electric",
  phone: "Utilities:Telephone",
  otherIncome: "Other Income",
  depreciation: "Depreciation",
  interest: "Interest Expense"
} as const

/** The chart of accounts in the Account List's order (by type, then full name). */
export const ACCOUNTS: ReadonlyArray<Account> = [
  a("1000", ACC.checking, "Bank", "Checking", "Frost Bank operating account"),
  a("1010", ACC.savings, "Bank", "Savings", "Frost Bank business savings"),
  a("1200", ACC.ar, "Accounts receivable (A/R)", "Accounts Receivable (A/R)"),
  a("1350", ACC.prepaid, "Other Current Assets", "Prepaid Expenses"),
  a("1300", ACC.undeposited, "Other Current Assets", "Undeposited Funds"),
  a("1600", ACC.equipment, "Fixed Assets", "Machinery & Equipment", "Mowers, trimmers and trailers"),
  a("1500", "Truck", "Fixed Assets", "Vehicles", "2022 Ford F-250"),
  a("1520", ACC.truckDepreciation, "Fixed Assets", "Accumulated Depreciation"),
  a("1510", ACC.truckCost, "Fixed Assets", "Vehicles"),
  a("2000", ACC.ap, "Accounts payable (A/P)", "Accounts Payable (A/P)"),
  a("2100", ACC.card, "Credit Card", "Credit Card", "Chase Ink business Visa"),
  a("2200", ACC.salesTax, "Other Current Liabilities", "Sales Tax Payable", "Texas sales and use tax"),
  a("2500", ACC.loan, "Long Term Liabilities", "Notes Payable", "Frost Bank truck loan"),
  a("3000", ACC.openingEquity, "Equity", "Opening Balance Equity"),
  a("3200", ACC.retained, "Equity", "Retained Earnings"),
  a("4000", "Landscaping Services", "Income", "Service/Fee Income"),
  a("4010", ACC.design, "Income", "Service/Fee Income", "Garden design and consultations"),
  a("", ACC.installation, "Income", "Service/Fee Income"),
  a("4030", ACC.lawnCare, "Income", "Service/Fee Income", "Recurring lawn and bed maintenance"),
  a("4100", ACC.productSales, "Income", "Sales of Product Income", "Plants, mulch and stone"),
  a("5000", "Cost of Goods Sold", "Cost of Goods Sold", "Supplies & Materials - COGS"),
  a("5010", ACC.plants, "Cost of Goods Sold", "Supplies & Materials - COGS"),
  a("", ACC.stone, "Cost of Goods Sold", "Supplies & Materials - COGS"),
  a("6000", ACC.advertising, "Expenses", "Advertising/Promotional"),
  a("6100", "Automobile", "Expenses", "Auto"),
  a("", ACC.fuel, "Expenses", "Auto"),
  a("6200", ACC.bankCharges, "Expenses", "Bank Charges"),
  a("6300", ACC.insurance, "Expenses", "Insurance", "General liability and auto"),
  a("6400", ACC.legal, "Expenses", "Legal & Professional Fees"),
  a("6500", ACC.office, "Expenses", "Office/General Administrative Expenses"),
  a("6600", ACC.rent, "Expenses", "Rent or Lease of Buildings", "Yard and office on Burleson Rd"),
  a("6700", ACC.repairs, "Expenses", "Repair & Maintenance"),
  a("6800", "Utilities", "Expenses", "Utilities"),
  a("6810", ACC.electric, "Expenses", "Utilities"),
  a("", ACC.phone, "Expenses", "Utilities"),
  a("7000", ACC.otherIncome, "Other Income", "Other Miscellaneous Income"),
  a("8000", ACC.depreciation, "Other Expense", "Depreciation"),
  a("8100", ACC.interest, "Other Expense", "Other Miscellaneous Expense", "Truck loan interest")
]
