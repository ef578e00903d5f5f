/**
 * Small synthetic source books and target read-backs for the reconciliation's unit tests: a five-account
 * company whose source Trial Balance and target balances agree until a test changes one of them.
 */
import * as Option from "effect/Option"
import * as AgedCheck from "../../src/reconcile/AgedCheck.js"
import type { Explanation } from "../../src/reconcile/Candidates.js"
import * as DocumentCheck from "../../src/reconcile/DocumentCheck.js"
import type { Reconciliation } from "../../src/reconcile/Model.js"
import * as TrialBalanceCheck from "../../src/reconcile/TrialBalanceCheck.js"
import * as Money from "../../src/transform/Money.js"
import type { AccountPairing } from "../../src/transform/RecordIdentity.js"
import type {
  SourceBooks,
  SourceDocument,
  SourceTrialBalance,
  SourceTrialBalanceLine
} from "../../src/transform/SourceModel.js"
import type {
  TargetChartAccount,
  TargetDocument,
  TargetTrialBalance
} from "../../src/reconcile/TargetBooks.js"

export const m = (s: string) => Option.getOrThrow(Money.parse(s))

const pair = (code: string, sourceName: string, targetName = sourceName, line = 2): AccountPairing => ({
  sourceCode: code,
  sourceName,
  targetName,
  lineage: `ChartOfAccounts.csv:${line}`
})

/** How the plan paired the source chart: GST and both currency-gain accounts onto the target's system accounts. */
export const pairing: ReadonlyArray<AccountPairing> = [
  pair("090", "DBS Business Account", "DBS Business Account", 2),
  pair("200", "Sales", "Sales", 3),
  pair("469", "Rent", "Rent", 4),
  pair("498", "Unrealised Currency Gains", "Foreign Exchange Gain/Loss", 5),
  pair("499", "Realised Currency Gains", "Foreign Exchange Gain/Loss", 6),
  pair("610", "Accounts Receivable", "Accounts Receivable", 7),
  pair("820", "GST", "GST Control", 8),
  pair("433", "Insurance", "Insurance", 9)
]

const account = (
  name: string,
  code: string,
  accountClass: string,
  controlFlag = false
): TargetChartAccount => ({
  name,
  code,
  accountClass,
  accountType: accountClass,
  controlFlag
})

export const chart: Array<TargetChartAccount> = [
  account("DBS Business Account", "090", "Asset"),
  account("Accounts Receivable", "1100", "Asset", true),
  account("Accounts Payable", "2100", "Liability", true),
  account("GST Control", "2200", "Liability"),
  account("Sales", "4000", "Revenue"),
  account("Rent", "469", "Expense"),
  account("Insurance", "433", "Expense"),
  account("Foreign Exchange Gain/Loss", "7100", "Expense")
]

let row = 5
const line = (
  section: string,
  accountName: string,
  accountCode: string,
  debit: string,
  credit = "0"
): SourceTrialBalanceLine => ({
  accountName,
  accountCode,
  section,
  debit: m(debit),
  credit: m(credit),
  lineage: `TrialBalance.csv:${row++}`
})

/** The source's own Trial Balance: balanced, 1,590.00 each side. */
export const sourceTb = (lines?: ReadonlyArray<SourceTrialBalanceLine>): SourceTrialBalance => {
  row = 5
  const all = lines ?? [
    line("Revenue", "Sales", "200", "0", "1000.00"),
    line("Expenses", "Rent", "469", "300.00"),
    line("Expenses", "Realised Currency Gains", "499", "3.00"),
    line("Expenses", "Unrealised Currency Gains", "498", "0", "2.00"),
    line("Assets", "DBS Business Account", "090", "209.00"),
    line("Assets", "Accounts Receivable", "610", "580.00"),
    line("Liabilities", "GST", "820", "0", "90.00")
  ]
  return {
    asAt: "2025-12-31",
    lines: all,
    totalDebit: Money.sum(all.map((l) => l.debit)),
    totalCredit: Money.sum(all.map((l) => l.credit)),
    file: "TrialBalance.csv"
  }
}

export { line as tbLine }

/** The target's trial balance (debit positive) for the given balances by account name. */
export const targetTb = (balances: Record<string, string>): TargetTrialBalance => {
  const rows = Object.entries(balances).map(([accountName, b]) => ({
    accountName,
    accountCode: chart.find((a) => a.name === accountName)?.code ?? "",
    balance: m(b)
  }))
  const debit = Money.sum(rows.filter((r) => !Money.isNegative(r.balance)).map((r) => r.balance))
  const credit = Money.sum(
    rows.filter((r) => Money.isNegative(r.balance)).map((r) => Money.negate(r.balance))
  )
  return { asAt: "2025-12-31", rows, debit, credit }
}

/** The target balances that agree with `sourceTb()`. */
export const agreeing: Record<string, string> = {
  Sales: "-1000.00",
  Rent: "300.00",
  "Foreign Exchange Gain/Loss": "1.00",
  "DBS Business Account": "209.00",
  "Accounts Receivable": "580.00",
  "GST Control": "-90.00"
}

export const invoice = (over: Partial<SourceDocument> = {}): SourceDocument => ({
  kind: "invoice",
  number: "INV-1",
  contactName: "Café Nüsantara Pte. Ltd.",
  date: "2025-03-10",
  dueDate: "2025-04-09",
  currency: "SGD",
  state: "open",
  status: "Awaiting Payment",
  total: m("218.00"),
  taxTotal: m("18.00"),
  amountPaid: Money.zero,
  amountDue: m("218.00"),
  lines: [
    {
      description: "Desk",
      itemCode: "",
      quantity: m("1"),
      unitAmount: m("200.00"),
      discount: Money.zero,
      lineAmount: m("200.00"),
      accountCode: "200",
      taxType: "Standard-Rated Supplies",
      taxAmount: m("18.00"),
      lineage: "SalesInvoices.csv:2"
    }
  ],
  lineage: ["SalesInvoices.csv:2"],
  ...over
})

export const books = (over: Partial<SourceBooks> = {}): SourceBooks => ({
  accounts: pairing.map((p) => ({
    code: p.sourceCode,
    name: p.sourceName,
    type: "",
    taxCode: "",
    description: "",
    lineage: p.lineage
  })),
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

export const targetDoc = (over: Partial<TargetDocument> = {}): TargetDocument => ({
  kind: "invoice",
  reference: "INV-1",
  contact: "Café Nüsantara Pte. Ltd.",
  currency: "SGD",
  exchangeRate: Money.fromNumber(1),
  date: "2025-03-10",
  dueDate: "2025-04-09",
  status: "UNPAID",
  total: m("218.00"),
  payments: [],
  credits: [],
  ...over
})

/**
 * A whole reconciliation built by the real comparisons from the synthetic books: the trial balance with one
 * changed invoice (Sales, GST and receivables differ), receivables per contact, documents, two rates.
 */
export const reconciliation = (options: { readonly proven?: boolean } = {}): Reconciliation => {
  const proven = options.proven ?? true
  const tb = sourceTb()
  const target = targetTb({
    ...agreeing,
    Sales: "-1050.00",
    "GST Control": "-94.50",
    "Accounts Receivable": "634.50"
  })
  const groups = TrialBalanceCheck.groupAccounts(tb, target, chart, pairing)
  const why: Explanation = {
    candidates: [
      {
        kind: "changed",
        entity: "invoice",
        reference: "INV-1",
        date: "2025-03-10",
        source: "-200.00",
        target: "-250.00",
        lineage: ["SalesInvoices.csv:2"]
      }
    ],
    foreign: false
  }
  const tbResult = TrialBalanceCheck.compare(tb, target, groups, new Map(groups.map((g) => [g.key, why])))
  const source = books({ documents: [invoice()] })
  const aged = AgedCheck.compareAged(
    {
      side: "AR",
      asAt: "2025-12-31",
      items: [
        {
          contactName: "Café Nüsantara Pte. Ltd.",
          number: "INV-1",
          reference: "",
          date: "2025-03-10",
          dueDate: "2025-04-09",
          outstanding: m("218.00"),
          currency: undefined,
          lineage: "AgedReceivablesDetail.csv:6"
        }
      ],
      file: "AgedReceivablesDetail.csv"
    },
    [
      {
        contact: "Café Nüsantara Pte. Ltd.",
        currency: "SGD",
        outstanding: m("272.50"),
        outstandingBase: m("272.50")
      }
    ],
    [targetDoc({ total: m("272.50") })],
    source,
    "SGD"
  )
  const documents = DocumentCheck.compareDocuments(
    source,
    { invoices: [targetDoc({ total: m("272.50") })], bills: [], journals: [], AR: [], AP: [] },
    "SGD",
    "2025-12-31"
  )
  const differences = proven ? [...tbResult.differences, ...aged.differences] : []
  return {
    matches: false,
    verdict: proven ? "DIFFERENCES" : "NOT PROVEN",
    header: {
      company: "Demo Trading Pte. Ltd.",
      baseCurrency: "SGD",
      conversion: "Full history",
      asAt: "2025-12-31",
      trialBalanceDates: proven ? ["2025-12-31"] : [],
      agedDates: { AR: proven ? ["2025-12-31"] : [], AP: [] },
      planHash: "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d1f"
    },
    notProven: [
      ...(proven
        ? []
        : [{ what: "Trial balance per account", export: "the Trial Balance as at 2025-12-31" }]),
      { what: "Payables per contact", export: "the Aged Payables Detail as at 2025-12-31" }
    ],
    trialBalances: proven ? [tbResult.comparison] : [],
    aged: proven ? [aged.comparison] : [],
    documents,
    clearing: [],
    entities: [
      { kind: "account", planned: 33, created: 33, adopted: 0, rejected: 0, notDone: 0 },
      { kind: "invoice", planned: 148, created: 147, adopted: 1, rejected: 0, notDone: 0 }
    ],
    rates: [
      {
        currency: "USD",
        from: "2025-01-01",
        to: "2025-01-31",
        sourceBasePerUnit: "1.3412",
        targetRate: "0.7456009544",
        status: "created",
        lineage: ["ExchangeRates.csv:2"]
      }
    ],
    differences: [
      ...differences,
      ...documents.mismatches.map((x) => ({
        class: "document" as const,
        area: "Documents" as const,
        asAt: "2025-12-31",
        subject: `${x.entity} ${x.key}`,
        source: x.source,
        target: x.target,
        difference: "",
        fix: `${x.field} differs`,
        candidates: [],
        lineage: x.lineage
      }))
    ],
    targetTrialBalance: { asAt: "2025-12-31", debit: "1144.50", credit: "1144.50", balanced: true },
    notes: []
  }
}
