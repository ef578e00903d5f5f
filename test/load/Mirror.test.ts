/**
 * The mirror of a snapshot: system-account roles inferred from the platform's `controlFlag` and
 * `systemAccount` flags, names and classes, whatever the accounts are called; a snapshot without an account
 * for a required role refused naming the candidates; and the organisation file it makes is one the sandbox
 * accepts (`validateOrganisation`), the same for the same snapshot.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Mirror from "../../src/load/Mirror.js"
import type { SnapshotContent } from "../../src/load/MirrorSnapshot.js"
import { validateOrganisation } from "../../src/sandbox/Fixture.js"

const account = (
  name: string,
  classificationType: string,
  accountClass: string,
  flags: { controlFlag?: boolean; systemAccount?: boolean } = {}
) => ({
  name,
  code: null,
  classificationType,
  accountClass,
  currencyCode: "SGD",
  controlFlag: flags.controlFlag ?? false,
  systemAccount: flags.systemAccount ?? flags.controlFlag ?? false
})

const snapshot = (accounts: SnapshotContent["accounts"]): SnapshotContent => ({
  organisation: { name: "Client", baseCurrency: "SGD", timeZone: "Asia/Singapore" },
  enabledCurrencies: ["USD"],
  rates: [{ currencyCode: "USD", rate: 0.74, applicableFrom: "2025-01-01", applicableTo: null }],
  platformRates: { USD: 0.75 },
  classifications: [
    { name: "Current Asset", accountClass: "Asset", normalBalance: "DEBIT" },
    { name: "Bank Accounts", accountClass: "Asset", normalBalance: "DEBIT" },
    { name: "Current Liability", accountClass: "Liability", normalBalance: "CREDIT" },
    { name: "Shareholders Equity", accountClass: "Equity", normalBalance: "CREDIT" },
    { name: "Other Expense", accountClass: "Expense", normalBalance: "DEBIT" }
  ],
  accounts,
  taxProfiles: [
    {
      name: "SR 9%",
      description: "SR",
      vatValue: 9,
      appliesToSale: true,
      appliesToPurchase: false,
      taxTypeCode: "SR"
    }
  ],
  contacts: [{ name: "Acme", customer: true, supplier: false, currencyCode: null }],
  items: [],
  tags: ["Region: Central"],
  documents: [
    {
      kind: "invoice",
      reference: "INV-1",
      date: "2025-02-01",
      contact: "Acme",
      currencyCode: "SGD",
      status: "UNPAID",
      totalAmount: 10
    }
  ],
  journals: [{ reference: "J-1", date: "2025-02-01", status: "APPROVED" }],
  cashEntries: [
    {
      type: "JOURNAL_DIRECT_CASH_IN",
      reference: "C-1",
      date: "2025-02-01",
      bankAccount: "Main Bank",
      amount: 5
    }
  ]
})

const chart = [
  account("Exchange Differences", "Other Expense", "Expense", { systemAccount: true }),
  account("Main Bank", "Bank Accounts", "Asset"),
  account("Output Tax Payable", "Current Liability", "Liability", { systemAccount: true }),
  account("Accumulated Profits", "Shareholders Equity", "Equity", { systemAccount: true }),
  account("Rounding Adjustments", "Other Expense", "Expense", { systemAccount: true }),
  account("Trade Creditors", "Current Liability", "Liability", { controlFlag: true }),
  account("Trade Debtors", "Current Asset", "Asset", { controlFlag: true })
]

describe("the mirror of a snapshot", () => {
  it("infers each system account's role from the platform's flags, names and classes", () => {
    const roles = Mirror.roles(chart)
    assert.notInstanceOf(roles, Mirror.MirrorRefused)
    assert.deepStrictEqual(Object.fromEntries([...(roles as Map<string, string>)].sort()), {
      "Accumulated Profits": "RETAINED_EARNINGS",
      "Exchange Differences": "FX",
      "Output Tax Payable": "TAX",
      "Rounding Adjustments": "ROUNDING",
      "Trade Creditors": "AP",
      "Trade Debtors": "AR"
    })
  })

  it("refuses a chart without an account for a required role, naming the system accounts it has", () => {
    const refused = Mirror.roles(chart.filter((a) => a.name !== "Trade Creditors"))
    assert.instanceOf(refused, Mirror.MirrorRefused)
    assert.match((refused as Mirror.MirrorRefused).message, /no system account of the target plays AP/)
    assert.match((refused as Mirror.MirrorRefused).message, /Trade Debtors \(Asset\)/)
  })

  it("makes an organisation file the sandbox accepts, the same for the same snapshot", () => {
    const org = Mirror.organisation(snapshot(chart), { EUR: 0.68, USD: 0.7 })
    assert.notInstanceOf(org, Mirror.MirrorRefused)
    const valid = validateOrganisation(org, "mirror")
    assert.deepStrictEqual(valid.platformRates, { EUR: 0.68, USD: 0.75 }, "the target's own rate wins")
    assert.strictEqual(valid.accounts.find((a) => a.name === "Trade Debtors")?.role, "AR")
    assert.strictEqual(valid.documents?.[0]?.contact, "Acme")
    assert.strictEqual(valid.cashEntries?.[0]?.bankAccount, "Main Bank")
    assert.deepStrictEqual(valid.tags, ["Region: Central"])
    assert.strictEqual(
      JSON.stringify(Mirror.organisation(snapshot(chart), { EUR: 0.68, USD: 0.7 })),
      JSON.stringify(org)
    )
  })
})
