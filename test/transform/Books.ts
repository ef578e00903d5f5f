/**
 * Small synthetic source books for the planner's tests: a target snapshot in SGD with the sandbox's system
 * accounts and tax profiles, the mappings, and builders for documents, credits, payments, refunds, cash
 * entries and transfers whose defaults add up (override one field to make a case).
 */
import * as Option from "effect/Option"
import { NameMap, type Mappings } from "../../src/transform/Mappings.js"
import * as Money from "../../src/transform/Money.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import type {
  SourceAccount,
  SourceBooks,
  SourceCashEntry,
  SourceCredit,
  SourceDocument,
  SourceLine,
  SourcePayment,
  SourceRefund,
  SourceTransfer
} from "../../src/transform/SourceModel.js"
import type { TargetSnapshot } from "../../src/transform/TargetSnapshot.js"

export const m = (s: string) => Option.getOrThrow(Money.parse(s))

const system = (name: string, code: string, accountType: string, controlFlag = false) => ({
  name,
  code,
  accountType,
  controlFlag,
  currencyCode: "SGD"
})

export const snapshot: TargetSnapshot = {
  baseCurrency: "SGD",
  enabledCurrencies: ["SGD"],
  accounts: [
    system("Accounts Receivable", "1100", "Current Asset", true),
    system("Accounts Payable", "2100", "Current Liability", true),
    system("GST Control", "2200", "Current Liability"),
    system("Sales", "4000", "Operating Revenue")
  ],
  taxProfiles: [
    { name: "SR 9%", vatValue: 9, appliesToSale: true, appliesToPurchase: false },
    { name: "TX 9%", vatValue: 9, appliesToSale: false, appliesToPurchase: true },
    { name: "ZR", vatValue: 0, appliesToSale: true, appliesToPurchase: false }
  ],
  contactNames: [],
  itemCodes: [],
  rates: []
}

export const mappings: Mappings = {
  accountTypes: new NameMap("account-types.json", {
    Bank: "Bank Accounts",
    Revenue: "Operating Revenue",
    Expense: "Operating Expense",
    "Current Asset": "Current Asset",
    "Current Liability": "Current Liability"
  }),
  taxCodes: new NameMap("tax-codes.json", {
    "Standard-Rated Supplies": "SR 9%",
    "Standard-Rated Purchases": "TX 9%",
    "Zero-Rated Supplies": "ZR",
    "Tax Exempt": null
  }),
  accounts: new NameMap("accounts.json", { GST: "GST Control" })
}

const account = (
  code: string,
  name: string,
  type: string,
  line: number,
  currency?: string
): SourceAccount => ({
  code,
  name,
  type,
  taxCode: "",
  description: "",
  lineage: `ChartOfAccounts.csv:${line}`,
  ...(currency ? { currency } : {})
})

export const accounts: ReadonlyArray<SourceAccount> = [
  account("090", "DBS", "Bank", 2),
  account("091", "OCBC", "Bank", 3),
  account("092", "USD Bank", "Bank", 4, "USD"),
  account("200", "Sales", "Revenue", 5),
  account("400", "Rent", "Expense", 6),
  account("610", "Accounts Receivable", "Current Asset", 7),
  account("800", "Accounts Payable", "Current Liability", 8),
  account("820", "GST", "Current Liability", 9)
]

/** A sales line: 1 × 100.00 at 9% (a purchase line with `taxType: "Standard-Rated Purchases"`). */
export const line = (over: Partial<SourceLine> = {}): SourceLine => ({
  description: "Work",
  itemCode: "",
  quantity: m("1"),
  unitAmount: m("100.00"),
  discount: Money.zero,
  lineAmount: m("100.00"),
  accountCode: "200",
  taxType: "Standard-Rated Supplies",
  taxAmount: m("9.00"),
  lineage: "SalesInvoices.csv:2",
  ...over
})

/** An open invoice of 109.00 for Acme, unpaid unless told. */
export const invoice = (
  number: string,
  date: string,
  over: Partial<SourceDocument> = {}
): SourceDocument => ({
  kind: "invoice",
  number,
  contactName: "Acme",
  date,
  dueDate: date,
  currency: "SGD",
  state: "open",
  status: "Awaiting Payment",
  total: m("109.00"),
  taxTotal: m("9.00"),
  amountPaid: Money.zero,
  amountDue: m("109.00"),
  lines: [line({ lineage: `SalesInvoices.csv:${number}` })],
  lineage: [`SalesInvoices.csv:${number}`],
  ...over
})

/** A paid invoice: `paid` of its 109.00 settled (by cash and credits), the rest due. */
export const paid = (number: string, date: string, settled: string, over: Partial<SourceDocument> = {}) =>
  invoice(number, date, {
    amountPaid: m(settled),
    amountDue: Money.sub(m("109.00"), m(settled)),
    status: settled === "109.00" ? "Paid" : "Awaiting Payment",
    ...over
  })

/** A sales credit note of 109.00 for Acme, `used` of it allocated or refunded. */
export const credit = (
  number: string,
  date: string,
  used: string,
  over: Partial<SourceCredit> = {}
): SourceCredit => ({
  side: "sale",
  origin: "credit-note",
  number,
  reference: "",
  contactName: "Acme",
  date,
  currency: "SGD",
  state: "open",
  status: "Paid",
  total: m("109.00"),
  taxTotal: m("9.00"),
  used: m(used),
  remaining: Money.sub(m("109.00"), m(used)),
  lines: [line({ lineage: `SalesInvoices.csv:${number}` })],
  lineage: [`SalesInvoices.csv:${number}`],
  ...over
})

export const payment = (number: string, date: string, amount: string, lineNo: number): SourcePayment => ({
  documentKind: "invoice",
  documentNumber: number,
  bankAccountName: "DBS",
  date,
  amount: m(amount),
  lineage: `AccountTransactions.csv:${lineNo}`
})

export const refund = (
  creditNumber: string,
  date: string,
  amount: string,
  lineNo: number,
  over: Partial<SourceRefund> = {}
): SourceRefund => ({
  side: "sale",
  creditNumber,
  contactName: "Acme",
  bankAccountName: "DBS",
  date,
  amount: m(amount),
  lineage: `AccountTransactions.csv:${lineNo}`,
  ...over
})

export const spend = (over: Partial<SourceCashEntry> = {}): SourceCashEntry => ({
  direction: "out",
  bankAccountName: "DBS",
  date: "2025-03-31",
  contactName: "Landlord",
  reference: "",
  description: "March rent",
  amount: m("1090.00"),
  lines: [
    {
      accountName: "Rent",
      amount: m("1000.00"),
      description: "March rent",
      lineage: "AccountTransactions.csv:20"
    },
    {
      accountName: "GST",
      amount: m("90.00"),
      description: "March rent",
      lineage: "AccountTransactions.csv:30"
    }
  ],
  lineage: ["AccountTransactions.csv:5", "AccountTransactions.csv:20", "AccountTransactions.csv:30"],
  ...over
})

export const transfer = (over: Partial<SourceTransfer> = {}): SourceTransfer => ({
  fromAccountName: "DBS",
  toAccountName: "OCBC",
  date: "2025-03-15",
  reference: "TRF-1",
  amountOut: m("500.00"),
  amountIn: m("500.00"),
  lineage: ["AccountTransactions.csv:6", "AccountTransactions.csv:40"],
  ...over
})

export const books = (over: Partial<SourceBooks> = {}): SourceBooks => ({
  accounts,
  contacts: [],
  items: [],
  documents: [],
  payments: [],
  journals: [],
  rates: [],
  trialBalances: [],
  agedReports: [],
  issues: [],
  ...over
})

/**
 * Books that give every planner operations: documents, a payment, a credit note applied and refunded, a spend
 * and a transfer (`over` adds to them).
 */
export const everyPlanner = (over: Partial<SourceBooks> = {}): SourceBooks =>
  books({
    documents: [paid("INV-1", "2025-02-01", "109.00"), invoice("INV-2", "2025-02-03")],
    payments: [payment("INV-1", "2025-02-10", "50.00", 7)],
    credits: [credit("CN-1", "2025-02-05", "109.00")],
    refunds: [refund("CN-1", "2025-02-20", "50.00", 9)],
    cashEntries: [spend()],
    transfers: [transfer()],
    ...over
  })

export const build = (b: SourceBooks) => PlanBuilder.build(b, snapshot, mappings)

/** The plan's credit applications, each as `credit → document amount`. */
export const applications = (b: ReturnType<typeof build>) =>
  b.ops
    .filter((o) => o.kind === "invoice-credit" || o.kind === "bill-credit")
    .map((o) => {
      const body = o.body as { resourceId: string; credits: Array<Record<string, unknown>> }
      return `${String(body.credits[0]!.creditNoteResourceId)} → ${body.resourceId} ${String(body.credits[0]!.amountApplied)}`
    })

export const rejects = (b: SourceBooks) => build(b).issues.filter((i) => i.severity === "reject")
export const warnings = (b: SourceBooks) => build(b).issues.filter((i) => i.severity === "warning")

/** A row of the source's Trial Balance export: one account's debit or credit, with its file:line. */
export const tbLine = (
  code: string,
  name: string,
  debit: string,
  credit: string,
  row: number,
  file = "TrialBalance.csv"
) => ({
  accountName: name,
  accountCode: code,
  section: "",
  debit: m(debit),
  credit: m(credit),
  lineage: `${file}:${row}`
})
