/**
 * Who the QuickBooks Online sample company is: Bluebonnet Landscape & Garden Co., a small landscaping business
 * in Austin, Texas, reporting in USD for the calendar year 2025. Its chart of accounts (QuickBooks types and
 * detail types, `Parent:Child` sub-accounts, some without numbers), its customers and vendors, its products
 * and services and its two sales tax rates are fixed; only the transactions depend on the seed.
 */
import * as CalendarDate from "../CalendarDate.js"

/** The company name of every report's preamble. */
export const COMPANY = "Bluebonnet Landscape & Garden Co."

/** The financial year. */
export const YEAR = 2025
export const FIRST_DAY: CalendarDate.Day = CalendarDate.make(YEAR, 1, 1)
export const LAST_DAY: CalendarDate.Day = CalendarDate.make(YEAR, 12, 31)
/** The day the reports were run (their footers; Unpaid Bills' "Past due" counts to it). */
export const RUN_DAY: CalendarDate.Day = CalendarDate.make(YEAR + 1, 1, 2)

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

/** A sales tax rate: QuickBooks writes its name on the Sales Tax Payable line of a sale. */
export interface TaxRate {
  readonly name: string
  /** The rate in basis points of a percent (8.25% = 825). */
  readonly basisPoints: number
  readonly agency: string
}

export const AGENCY = "Texas Comptroller of Public Accounts"
export const AUSTIN: TaxRate = { name: "Austin TX 8.25%", basisPoints: 825, agency: AGENCY }
export const STATE: TaxRate = { name: "Texas State 6.25%", basisPoints: 625, agency: AGENCY }
export const TAX_RATES: ReadonlyArray<TaxRate> = [AUSTIN, STATE]

/** A customer: display name (the only key QuickBooks exports), contact details, terms and tax rate. */
export interface Customer {
  readonly name: string
  readonly phone: string
  readonly email: string
  readonly person: string
  readonly address: string
  readonly accountNo: string
  readonly termsDays: number
  readonly tax: TaxRate
}

const c = (
  name: string,
  person: string,
  street: string,
  city: string,
  termsDays: number,
  phone: string,
  email: string,
  accountNo = ""
): Customer => ({
  name,
  phone,
  email,
  person,
  address: street === "" ? city : `${street}\n${city}`,
  accountNo,
  termsDays,
  tax: /^Austin,/.test(city) ? AUSTIN : STATE
})

/** The customers; the last one is the walk-in customer of sales receipts. */
export const CUSTOMERS: ReadonlyArray<Customer> = [
  c(
    "Amaya Residence",
    "Lucia Amaya",
    "2207 Bluebonnet Ln",
    "Austin, TX 78704",
    30,
    "(512) 555-0134",
    "lucia.amaya@example.com"
  ),
  c(
    "Barton Creek HOA",
    "Dale Whitfield",
    "4100 Barton Creek Blvd",
    "Austin, TX 78735",
    30,
    "(512) 555-0190",
    "board@bartoncreekhoa.example.org",
    "HOA-01"
  ),
  c(
    "Cedar Park Dental, PLLC",
    "Dr. Nina Patel",
    "1890 Ranch Rd 1431",
    "Cedar Park, TX 78613",
    30,
    "(512) 555-0177",
    "office@cpdental.example.com"
  ),
  c(
    "Dripping Springs Winery",
    "Marcus Hale",
    "601 Mercer St",
    "Dripping Springs, TX 78620",
    15,
    "(512) 555-0121",
    "events@dswinery.example.com"
  ),
  c(
    "East Side Café",
    "Rosa Delgado",
    "1100 E 6th St",
    "Austin, TX 78702",
    15,
    "(512) 555-0148",
    "rosa@eastsidecafe.example.com"
  ),
  c(
    "Franklin & Sons Builders",
    "Tom Franklin",
    "8800 N Lamar Blvd",
    "Austin, TX 78753",
    30,
    "(512) 555-0165",
    "ap@franklinsons.example.com",
    "FSB-7"
  ),
  c(
    "Greenway Property Management",
    "Alicia Greene",
    "300 W 15th St Ste 210",
    "Austin, TX 78701",
    30,
    "(512) 555-0112",
    "payables@greenwaypm.example.com"
  ),
  c(
    "Hyde Park Montessori",
    "Claire O'Neil",
    "4500 Speedway",
    "Austin, TX 78751",
    30,
    "(512) 555-0156",
    "admin@hpmontessori.example.org"
  ),
  c(
    "Johnson, Kim",
    "Kim Johnson",
    "12 Lakeway Dr",
    "Lakeway, TX 78734",
    0,
    "(512) 555-0183",
    "kim.johnson@example.net"
  ),
  c(
    "Lakeline Medical Plaza",
    "Victor Ruiz",
    "11111 Lakeline Blvd",
    "Austin, TX 78717",
    30,
    "(512) 555-0139",
    "facilities@lakelinemed.example.com"
  ),
  c(
    "Mueller Townhomes",
    "Priya Shah",
    "1900 Aldrich St",
    "Austin, TX 78723",
    30,
    "(512) 555-0102",
    "manager@muellerth.example.com"
  ),
  c(
    "Pflugerville ISD",
    "Grounds Department",
    "1401 W Pecan St",
    "Pflugerville, TX 78660",
    30,
    "(512) 555-0170",
    "grounds@pfisd.example.org",
    "PISD-22"
  ),
  c(
    "D'Amato Residence",
    "Daniel D'Amato",
    "715 Oltorf St",
    "Austin, TX 78704",
    0,
    "(512) 555-0125",
    "ddamato@example.com"
  ),
  c(
    "South Congress Boutique Hotel",
    "Evan Brooks",
    "1603 S Congress Ave",
    "Austin, TX 78704",
    15,
    "(512) 555-0199",
    "engineering@socohotel.example.com"
  ),
  c("Walk-in Customer", "", "", "Austin, TX 78744", 0, "", "")
]

/** The customer of sales receipts and refund receipts with no account. */
export const WALK_IN: Customer = CUSTOMERS[CUSTOMERS.length - 1]!

/** A vendor: contact details, terms, and what its bills are for (accounts with a range of amounts in dollars). */
export interface Vendor {
  readonly name: string
  readonly phone: string
  readonly email: string
  readonly person: string
  readonly address: string
  readonly accountNo: string
  readonly termsDays: number
  /** Bill lines: account, description, lowest and highest dollars. */
  readonly lines: ReadonlyArray<readonly [string, string, number, number]>
  /** Whether its bills are paid with the credit card rather than a check. */
  readonly paidByCard: boolean
}

const v = (
  name: string,
  person: string,
  address: string,
  termsDays: number,
  paidByCard: boolean,
  lines: Vendor["lines"],
  phone = "",
  email = "",
  accountNo = ""
): Vendor => ({ name, person, address, termsDays, paidByCard, lines, phone, email, accountNo })

/** The vendors whose bills the generator writes. */
export const BILL_VENDORS: ReadonlyArray<Vendor> = [
  v(
    "Hill Country Nursery",
    "Sam Ortiz",
    "9100 FM 1826\nAustin, TX 78737",
    30,
    false,
    [
      [ACC.plants, "Shrubs, perennials and annuals", 250, 2400],
      [ACC.plants, "Bulk mulch and compost", 120, 900]
    ],
    "(512) 555-0211",
    "orders@hcnursery.example.com",
    "BLG-4410"
  ),
  v(
    "Texas Stone & Supply",
    "Ray Dunn",
    "2500 E Ben White Blvd\nAustin, TX 78741",
    30,
    false,
    [
      [ACC.stone, "Flagstone and river rock", 400, 3200],
      [ACC.stone, "Pavers and edging", 180, 1400]
    ],
    "(512) 555-0222",
    "sales@txstone.example.com"
  ),
  v(
    "Lone Star Irrigation Parts",
    "",
    "700 Industrial Blvd\nPflugerville, TX 78660",
    15,
    true,
    [[ACC.stone, "Irrigation valves and heads", 90, 750]],
    "(512) 555-0233"
  ),
  v(
    "Austin Energy",
    "",
    "P.O. Box 2267\nAustin, TX 78783",
    15,
    false,
    [[ACC.electric, "Electric service, yard and office", 180, 420]],
    "(512) 494-9400",
    "",
    "40021-77318"
  ),
  v(
    "AT&T Business",
    "",
    "P.O. Box 5001\nCarol Stream, IL 60197",
    15,
    true,
    [[ACC.phone, "Phones and internet", 140, 230]],
    "(800) 321-2000",
    "",
    "512-555-0100-441"
  ),
  v(
    "Capital City Insurance Agency",
    "Megan Cole",
    "500 W 5th St Ste 900\nAustin, TX 78701",
    30,
    false,
    [[ACC.insurance, "Quarterly liability and auto premium", 1100, 1600]],
    "(512) 555-0244",
    "service@ccia.example.com",
    "POL-88213"
  ),
  v(
    "Martinez CPA Group",
    "Ana Martinez",
    "1301 S Mopac Expy Ste 300\nAustin, TX 78746",
    30,
    false,
    [[ACC.legal, "Bookkeeping review and tax advice", 350, 1800]],
    "(512) 555-0255",
    "ana@martinezcpa.example.com"
  ),
  v(
    "Cen-Tex Equipment Repair",
    "Bobby Lee",
    "4410 Manchaca Rd\nAustin, TX 78745",
    15,
    false,
    [[ACC.repairs, "Mower and trimmer service", 120, 950]],
    "(512) 555-0266"
  ),
  v(
    "Austin Chronicle Advertising",
    "",
    "4000 N IH-35\nAustin, TX 78751",
    30,
    true,
    [[ACC.advertising, "Print and online advertising", 200, 900]],
    "(512) 555-0277",
    "ads@chronicle.example.com"
  )
]

/** Vendors of checks, expenses and credit card charges (no bills). */
export const LANDLORD = "Burleson Road Properties LLC"
export const LENDER = "Frost Bank"
export const FUEL_VENDOR = "Shell"
export const OFFICE_VENDOR = "Office Depot"
export const HARDWARE_VENDOR = "The Home Depot"

/** Every vendor of the Vendor list: the bill vendors and those paid by check, expense or card. */
export const VENDORS: ReadonlyArray<Vendor> = [
  ...BILL_VENDORS,
  v(
    LANDLORD,
    "Gil Moreno",
    "2800 Burleson Rd\nAustin, TX 78741",
    0,
    false,
    [],
    "(512) 555-0288",
    "gil@burlesonprops.example.com"
  ),
  v(LENDER, "", "P.O. Box 1600\nSan Antonio, TX 78296", 0, false, [], "(800) 513-7678", "", "LN-0072231"),
  v(FUEL_VENDOR, "", "", 0, true, []),
  v(OFFICE_VENDOR, "", "", 0, true, []),
  v(HARDWARE_VENDOR, "", "", 0, true, []),
  v(AGENCY, "", "P.O. Box 13528\nAustin, TX 78711", 0, false, [], "(800) 252-5555", "", "3-20145-6789-0")
].sort((x, y) => x.name.localeCompare(y.name))

/** A product or service of the Products and Services list. */
export interface Product {
  readonly name: string
  readonly sku: string
  readonly type: "Service" | "Non-inventory"
  readonly description: string
  /** Sales price in cents. */
  readonly priceCents: number
  readonly income: string
  readonly taxable: boolean
  /** Quantities an invoice line draws (hours, visits, yards). */
  readonly qty: readonly [number, number]
  readonly purchase?: { readonly description: string; readonly costCents: number; readonly expense: string }
}

/** The products and services, in the list's order. */
export const PRODUCTS: ReadonlyArray<Product> = [
  {
    name: "Design Consultation",
    sku: "",
    type: "Service",
    description: "Garden design consultation (per hour)",
    priceCents: 9500,
    income: ACC.design,
    taxable: false,
    qty: [1, 6]
  },
  {
    name: "Flagstone",
    sku: "HS-FLAG",
    type: "Non-inventory",
    description: "Flagstone, installed (per sq ft)",
    priceCents: 1850,
    income: ACC.productSales,
    taxable: true,
    qty: [20, 160],
    purchase: { description: "Flagstone", costCents: 900, expense: ACC.stone }
  },
  {
    name: "Irrigation Repair",
    sku: "",
    type: "Service",
    description: "Irrigation system repair (per hour)",
    priceCents: 8500,
    income: ACC.installation,
    taxable: true,
    qty: [1, 5]
  },
  {
    name: "Landscape Installation",
    sku: "",
    type: "Service",
    description: "Landscape installation labor (per hour)",
    priceCents: 6500,
    income: ACC.installation,
    taxable: true,
    qty: [4, 40]
  },
  {
    name: "Lawn Maintenance",
    sku: "",
    type: "Service",
    description: "Lawn and bed maintenance visit",
    priceCents: 14500,
    income: ACC.lawnCare,
    taxable: true,
    qty: [1, 4]
  },
  {
    name: "Mulch",
    sku: "MAT-MULCH",
    type: "Non-inventory",
    description: "Hardwood mulch (per cubic yard)",
    priceCents: 6800,
    income: ACC.productSales,
    taxable: true,
    qty: [2, 12],
    purchase: { description: "Bulk hardwood mulch", costCents: 3200, expense: ACC.plants }
  },
  {
    name: "Plants",
    sku: "MAT-PLNT",
    type: "Non-inventory",
    description: "Shrubs and perennials",
    priceCents: 3400,
    income: ACC.productSales,
    taxable: true,
    qty: [3, 30],
    purchase: { description: "Nursery stock", costCents: 1600, expense: ACC.plants }
  },
  {
    name: "Site Survey",
    sku: "",
    type: "Service",
    description: "Site survey and plan drawing",
    priceCents: 45000,
    income: ACC.design,
    taxable: false,
    qty: [1, 1]
  }
]
