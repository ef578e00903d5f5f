/**
 * The matching against a target whose chart differs from the source's (the renamed-chart organisation):
 * each suggestion with its confidence and reason, classes never crossed, tax codes by rate and side, contacts
 * merged and adopted across legal-form variants, items by code; and the plan applying those choices.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Matching from "../../src/review/Matching.js"
import { NameMap, type Mappings } from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import type { SourceAccount, SourceBooks } from "../../src/transform/SourceModel.js"
import type { TargetSnapshot } from "../../src/transform/TargetSnapshot.js"
import { books, invoice, line, m } from "../transform/Books.js"
import { renamedChart, snapshotOf } from "./Organisation.js"

const root = NodePath.resolve(import.meta.dirname, "../..")
const renamed = snapshotOf(renamedChart)

const json = (file: string) =>
  JSON.parse(NodeFs.readFileSync(NodePath.join(root, "mappings/xero", file), "utf8")) as Record<
    string,
    string
  >
/** The shipped Xero maps: their tax and account names are the default organisation's, not this one's. */
const mappings: Mappings = {
  accountTypes: new NameMap("account-types.json", json("account-types.json")),
  taxCodes: new NameMap("tax-codes.json", json("tax-codes.json")),
  accounts: new NameMap("accounts.json", json("accounts.json"))
}

let row = 1
const account = (code: string, name: string, type: string): SourceAccount => ({
  code,
  name,
  type,
  taxCode: "",
  description: "",
  lineage: `ChartOfAccounts.csv:${++row}`
})

const chart = [
  account("090", "DBS Business Account", "Bank"),
  account("200", "Sales", "Revenue"),
  account("210", "Service Income", "Sales"),
  account("310", "Cost of Goods Sold", "Direct Costs"),
  account("412", "Consulting & Accounting", "Expense"),
  account("453", "Office Expenses", "Expense"),
  account("469", "Rent", "Overhead"),
  account("477", "Wages and Salaries", "Expense"),
  account("499", "Realised Currency Gains", "Expense"),
  account("610", "Accounts Receivable", "Current Asset"),
  account("800", "Accounts Payable", "Current Liability"),
  account("820", "GST", "Current Liability"),
  account("860", "Rounding", "Current Liability"),
  account("960", "Retained Earnings", "Equity"),
  account("270", "Interest Income", "Other Income")
]

const suggestionsOf = (b: SourceBooks, snapshot = renamed, maps = mappings) =>
  Matching.suggest(b, snapshot, maps)

const table = (xs: ReadonlyArray<Matching.Suggestion>, sheet: Matching.Sheet) =>
  Object.fromEntries(
    xs
      .filter((s) => s.sheet === sheet)
      .map((s) => [s.label, `${Matching.choiceText(s.choice) || "?"} | ${s.confidence} | ${s.reason}`])
  )

describe("account suggestions against a renamed chart", () => {
  it("match by role, code, name, normalised name and alike name, with confidences and reasons", () => {
    assert.deepStrictEqual(table(suggestionsOf(books({ accounts: chart })), "Accounts"), {
      "Accounts Payable": "Trade Creditors | 1 | role: AP",
      "Accounts Receivable": "Trade Debtors | 1 | role: AR",
      "Consulting & Accounting":
        "Consulting and Accounting | 0.97 | same name once punctuation and case are set aside",
      "Cost of Goods Sold": "Cost of Sales | 0.87 | name 0.87",
      "DBS Business Account": 'create new | 1 | not in the target (nearest "Cash on Hand", name 0.60)',
      GST: "GST Payable | 1 | role: TAX",
      "Interest Income": "Interest Income | 1 | same name",
      "Office Expenses":
        'create new | 0.7 | no account alike enough; nearest "Income Tax Expense" (name 0.75)',
      "Realised Currency Gains": "Exchange Gains and Losses | 1 | role: FX",
      Rent: 'create new | 1 | not in the target (nearest "Salaries & Wages", name 0.64)',
      "Retained Earnings": "Retained Profits | 1 | role: RETAINED_EARNINGS",
      Rounding: "Rounding Adjustments | 1 | role: ROUNDING",
      Sales: "Sales Revenue | 0.88 | name 0.88",
      "Service Income": "Services Revenue | 0.95 | same code 210 (name 0.85)",
      "Wages and Salaries": "Salaries & Wages | 0.95 | name 1.00"
    })
  })

  it("never crosses incompatible classes: revenue does not become an asset, an expense not a revenue", () => {
    const snapshot: TargetSnapshot = {
      ...renamed,
      accounts: [
        ...renamed.accounts,
        { name: "Sales", code: "", accountType: "Current Asset", controlFlag: false, currencyCode: "SGD" },
        { name: "Rent", code: "469", accountType: "Other Revenue", controlFlag: false, currencyCode: "SGD" }
      ]
    }
    const b = books({ accounts: chart })
    const s = table(suggestionsOf(b, snapshot), "Accounts")
    assert.strictEqual(s.Sales, "Sales Revenue | 0.88 | name 0.88", "the same-named asset is passed over")
    assert.match(s.Rent!, /^\? \| 0 \| the target's "Rent" is a Revenue account/, "not by code 469 either")
    // the plan refuses the account (and so its lines) until the accountant decides
    const plan = PlanBuilder.build(b, snapshot, mappings)
    assert.isFalse(plan.ops.some((o) => o.key === "account:Rent"))
    const refused = plan.issues.filter((i) => i.severity === "reject").map((i) => i.what)
    assert.deepStrictEqual(refused, ['account "Rent"'])
    // a decision settles it
    const decided = PlanBuilder.build(b, snapshot, {
      ...mappings,
      decisions: new Map([
        [Matching.choiceKey("Accounts", "200"), { kind: "adopt", target: "Sales Revenue" }],
        [Matching.choiceKey("Accounts", "469"), { kind: "adopt", target: "General & Administrative" }]
      ])
    })
    assert.deepStrictEqual(
      decided.issues.filter((i) => i.severity === "reject"),
      []
    )
    assert.includeDeepMembers(
      (decided.accounts ?? []).map((p) => [p.sourceName, p.targetName]),
      [
        ["Sales", "Sales Revenue"],
        ["Rent", "General & Administrative"]
      ]
    )
  })

  it("the plan follows the suggestions: adopted accounts are not created, the rest are", () => {
    const plan = PlanBuilder.build(books({ accounts: chart }), renamed, mappings)
    assert.deepStrictEqual(
      plan.ops.filter((o) => o.kind === "account").map((o) => o.naturalKey),
      ["DBS Business Account", "Office Expenses", "Rent"]
    )
    const pairs = Object.fromEntries((plan.accounts ?? []).map((p) => [p.sourceName, p.targetName]))
    assert.strictEqual(pairs["Sales"], "Sales Revenue")
    assert.strictEqual(pairs["Accounts Receivable"], "Trade Debtors")
    assert.strictEqual(pairs["Rounding"], "Rounding Adjustments")
  })
})

describe("tax code suggestions", () => {
  const taxBooks = books({
    accounts: chart,
    documents: [
      invoice("INV-1", "2025-01-10", {
        total: m("209.00"),
        taxTotal: m("9.00"),
        amountDue: m("209.00"),
        lines: [
          line({ accountCode: "200", taxType: "Standard-Rated Supplies", lineage: "SalesInvoices.csv:2" }),
          line({
            accountCode: "200",
            taxType: "Zero-Rated Supplies",
            taxAmount: m("0.00"),
            lineage: "SalesInvoices.csv:3"
          }),
          line({
            accountCode: "200",
            taxType: "GST 7%",
            description: "Free sample",
            unitAmount: m("0.00"),
            lineAmount: m("0.00"),
            taxAmount: m("0.00"),
            lineage: "SalesInvoices.csv:4"
          })
        ]
      }),
      invoice("BILL-1", "2025-01-11", {
        kind: "bill",
        contactName: "Keppel",
        total: m("209.00"),
        taxTotal: m("9.00"),
        amountDue: m("209.00"),
        lines: [
          line({ accountCode: "453", taxType: "Standard-Rated Purchases", lineage: "Bills.csv:2" }),
          line({ accountCode: "453", taxType: "No GST", taxAmount: m("0.00"), lineage: "Bills.csv:3" })
        ]
      })
    ]
  })

  it("by the tax map, the name, then the rate the lines carry and the side they are on", () => {
    assert.deepStrictEqual(table(suggestionsOf(taxBooks), "Tax codes"), {
      "GST 7%":
        '? | 0 | no tax profile of the target fits (no priced lines, sales); the platform cannot create tax profiles: choose one, or "no tax profile"',
      "No GST":
        'Out of Scope | 0.85 | rate 0% on 1 lines, purchases: the only such profile (the tax map\'s "NR" is not in the target)',
      "Standard-Rated Purchases":
        'GST 9% Purchases | 0.85 | rate 9% on 1 lines, purchases: the only such profile (the tax map\'s "TX 9%" is not in the target)',
      "Standard-Rated Supplies":
        'GST 9% Sales | 0.85 | rate 9% on 1 lines, sales: the only such profile (the tax map\'s "SR 9%" is not in the target)',
      "Zero-Rated Supplies":
        'Zero-rated Sales | 0.6 | rate 0% on 1 lines, sales: 3 profiles fit, nearest name 0.95 (the tax map\'s "ZR" is not in the target)'
    })
  })

  it("an unmatched tax code is a decision: the plan refuses its document until it is made", () => {
    const plan = PlanBuilder.build(taxBooks, renamed, mappings)
    const refused = plan.issues.filter((i) => i.severity === "reject")
    assert.strictEqual(refused.length, 1)
    assert.match(refused[0]!.what, /invoice:INV-1: no tax profile of rate GST 7% exists in the target/)
    assert.match(refused[0]!.fix, /Tax codes sheet of review\.xlsx/)
    const decided = PlanBuilder.build(taxBooks, renamed, {
      ...mappings,
      decisions: new Map([[Matching.choiceKey("Tax codes", "gst 7%"), { kind: "no-profile" }]])
    })
    assert.deepStrictEqual(
      decided.issues.filter((i) => i.severity === "reject"),
      []
    )
    const inv = decided.ops.find((o) => o.key === "invoice:INV-1")!.body as {
      lineItems: Array<{ taxProfileResourceId?: string }>
    }
    assert.deepStrictEqual(
      inv.lineItems.map((l) => l.taxProfileResourceId),
      ["@taxProfile:GST 9% Sales", "@taxProfile:Zero-rated Sales", undefined]
    )
  })
})

describe("contacts and items", () => {
  const contactBooks = books({
    accounts: chart,
    contacts: [
      { name: "Acme Pte Ltd", email: "", phone: "", taxId: "", lineage: "Contacts.csv:2" },
      { name: "ACME Pte. Ltd.", email: "", phone: "", taxId: "", lineage: "Contacts.csv:3" },
      { name: "Marina Bay Interiors Pte. Ltd.", email: "", phone: "", taxId: "", lineage: "Contacts.csv:4" },
      { name: "Acme Trading", email: "", phone: "", taxId: "", lineage: "Contacts.csv:5" }
    ],
    items: [
      {
        code: "SVC-CONSULT",
        name: "Consulting",
        sale: undefined,
        purchase: undefined,
        tracked: false,
        lineage: "InventoryItems.csv:2"
      },
      {
        code: "DESK",
        name: "Desk",
        sale: undefined,
        purchase: undefined,
        tracked: false,
        lineage: "InventoryItems.csv:3"
      }
    ],
    documents: [
      invoice("INV-1", "2025-01-10", { contactName: "Acme Pte Ltd" }),
      invoice("INV-2", "2025-01-11", { contactName: "ACME Pte. Ltd." }),
      invoice("INV-3", "2025-01-12", {
        contactName: "Marina Bay Interiors Pte. Ltd.",
        lines: [line({ itemCode: "SVC-CONSULT" })]
      })
    ]
  })

  it("duplicates within the source merge, variants of a target contact adopt it, alike ones are flagged", () => {
    assert.deepStrictEqual(table(suggestionsOf(contactBooks), "Contacts"), {
      "Acme Pte Ltd": "create new | 1 | not in the target",
      "ACME Pte. Ltd.":
        'Acme Pte Ltd | 0.95 | a duplicate in the source of "Acme Pte Ltd" (legal form, punctuation, case or spacing)',
      "Marina Bay Interiors Pte. Ltd.":
        'MARINA BAY INTERIORS PTE LTD | 0.95 | the target\'s "MARINA BAY INTERIORS PTE LTD" once legal form, punctuation, case and spacing are set aside',
      "Acme Trading": "create new | 1 | not in the target"
    })
    assert.deepStrictEqual(table(suggestionsOf(contactBooks), "Items"), {
      Consulting: "svc-consult | 0.95 | same code but for case",
      Desk: "create new | 1 | no such code in the target"
    })
  })

  it("the plan creates one contact for a merged pair and none for an adopted one; keeping apart changes only those", () => {
    const ref = (ops: ReadonlyArray<{ key: string; body: unknown }>, key: string) =>
      (ops.find((o) => o.key === key)!.body as { contactResourceId: string }).contactResourceId
    const plan = PlanBuilder.build(contactBooks, renamed, mappings)
    const contacts = plan.ops.filter((o) => o.kind === "contact")
    assert.deepStrictEqual(
      contacts.map((o) => [o.naturalKey, o.lineage]),
      [
        ["Acme Pte Ltd", ["Contacts.csv:2", "Contacts.csv:3"]],
        ["Acme Trading", ["Contacts.csv:5"]]
      ]
    )
    assert.strictEqual(ref(plan.ops, "invoice:INV-1"), "@contact:Acme Pte Ltd")
    assert.strictEqual(ref(plan.ops, "invoice:INV-2"), "@contact:Acme Pte Ltd")
    assert.strictEqual(ref(plan.ops, "invoice:INV-3"), "@contact:MARINA BAY INTERIORS PTE LTD")
    const inv3 = plan.ops.find((o) => o.key === "invoice:INV-3")!.body as {
      lineItems: Array<{ itemResourceId?: string }>
    }
    assert.strictEqual(inv3.lineItems[0]!.itemResourceId, "@item:svc-consult")
    assert.deepStrictEqual(
      plan.ops.filter((o) => o.kind === "item").map((o) => o.naturalKey),
      ["DESK"]
    )

    const apart = PlanBuilder.build(contactBooks, renamed, {
      ...mappings,
      decisions: new Map([[Matching.choiceKey("Contacts", "acme pte. ltd."), { kind: "create" }]])
    })
    const before = new Map(plan.ops.map((o) => [o.key, JSON.stringify([o.body, o.lineage, o.dependsOn])]))
    const after = new Map(apart.ops.map((o) => [o.key, JSON.stringify([o.body, o.lineage, o.dependsOn])]))
    const changed = [...new Set([...before.keys(), ...after.keys()])]
      .filter((k) => before.get(k) !== after.get(k))
      .sort()
    assert.deepStrictEqual(changed, ["contact:ACME Pte. Ltd.", "contact:Acme Pte Ltd", "invoice:INV-2"])
  })
})
