/**
 * QuickBooks books planned with the shipped `mappings/qbo` against a US target: Undeposited Funds and the card
 * become bank accounts by `Type: Detail type`, an account the Account List lacks is created under the
 * mappings' explicit Unmapped classification, and an inferred sales tax rate resolves to the target's profile
 * of that rate — or, when the target has none, is a plan issue saying so.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { NameMap, type Mappings } from "../../../src/transform/Mappings.js"
import type { Plan } from "../../../src/transform/Plan.js"
import * as PlanBuilder from "../../../src/transform/PlanBuilder.js"
import type { TargetSnapshot } from "../../../src/transform/TargetSnapshot.js"
import { booksOf, FILES, UNAPPLIED_PAYMENT } from "./QboFiles.js"

const shipped = (name: string) => {
  const file = NodePath.resolve(import.meta.dirname, "../../../mappings/qbo", name)
  return new NameMap(file, JSON.parse(NodeFs.readFileSync(file, "utf8")) as Record<string, string | null>)
}
const mappings: Mappings = {
  accountTypes: shipped("account-types.json"),
  taxCodes: shipped("tax-codes.json"),
  accounts: shipped("accounts.json")
}

const system = (name: string, code: string, accountType: string, controlFlag = false) => ({
  name,
  code,
  accountType,
  controlFlag,
  currencyCode: "USD"
})

const snapshot = (taxProfiles: TargetSnapshot["taxProfiles"]): TargetSnapshot => ({
  baseCurrency: "USD",
  enabledCurrencies: ["USD"],
  accounts: [
    system("Accounts Receivable", "1200", "Current Asset", true),
    system("Accounts Payable", "2000", "Current Liability", true),
    system("Sales Tax Payable", "2200", "Current Liability")
  ],
  taxProfiles,
  contactNames: [],
  itemCodes: [],
  rates: []
})

const US = snapshot([
  { name: "Austin TX 8.25%", vatValue: 8.25, appliesToSale: true, appliesToPurchase: false },
  { name: "Texas State 6.25%", vatValue: 6.25, appliesToSale: true, appliesToPurchase: false }
])

describe("QuickBooks books planned with the shipped mappings", () => {
  it.scoped("bank-like accounts by detail type, the unmapped account's explicit classification", () =>
    Effect.gen(function* () {
      const plan = PlanBuilder.build(yield* booksOf(FILES), US, mappings)
      const classification = (name: string) =>
        (
          plan.ops.find((o) => o.key === `account:${name}`)?.body as
            { classificationType?: string } | undefined
        )?.classificationType
      assert.deepStrictEqual(
        ["Checking", "Undeposited Funds", "Landscaping Services:Lawn Care", "Automobile:Fuel"].map(
          classification
        ),
        ["Bank Accounts", "Bank Accounts", "Operating Revenue", "Current Asset"]
      )
      assert.isUndefined(
        plan.ops.find((o) => o.key === "account:Accounts Receivable (A/R)"),
        "A/R is the target's own receivables account"
      )
    })
  )

  it.scoped(
    "an inferred rate resolves to the target's tax profile of that rate, or is an issue saying none exists",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf(FILES)
        const taxes = (ops: Plan["ops"], key: string) =>
          (
            ops.find((o) => o.key === key)?.body as { lineItems: Array<{ taxProfileResourceId?: string }> }
          ).lineItems.map((l) => l.taxProfileResourceId)
        const plan = PlanBuilder.build(books, US, mappings)
        assert.deepStrictEqual(taxes(plan.ops, "invoice:1002"), ["@taxProfile:Austin TX 8.25%"])
        assert.deepStrictEqual(taxes(plan.ops, "invoice:1001"), [
          "@taxProfile:Austin TX 8.25%",
          "@taxProfile:Austin TX 8.25%",
          "@taxProfile:Austin TX 8.25%",
          undefined
        ])
        const without = PlanBuilder.build(books, snapshot([US.taxProfiles[1]!]), mappings)
        const refused = without.issues.filter(
          (i) => i.severity === "reject" && /^invoice:100[12]/.test(i.what)
        )
        assert.deepStrictEqual(
          refused.map((i) => i.what),
          [
            "invoice:1001: no tax profile of rate Austin TX 8.25% exists in the target",
            "invoice:1002: no tax profile of rate 8.25% exists in the target"
          ]
        )
        assert.match(refused[1]!.fix, /create a 8\.25% sales tax profile on the platform, or add "8\.25%"/)
      })
  )

  it.scoped(
    "an unapplied payment plans as an overpayment: cash in to the clearing account and a credit note",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf(UNAPPLIED_PAYMENT)
        const plan = PlanBuilder.build(books, US, mappings)
        assert.deepStrictEqual(
          plan.issues.filter((i) => i.severity === "reject").map((i) => i.what),
          ["the Sales Receipt transaction 1010 at Journal.csv:44"]
        )
        assert.deepStrictEqual(
          plan.ops
            .filter(
              (o) => o.kind === "cash-in" || o.kind === "customer-credit-note" || /Clearing/.test(o.key)
            )
            .map((o) => [o.kind, o.key.startsWith("account:") ? o.key : o.lineage[0]]),
          [
            ["account", "account:Overpayment and Prepayment Clearing"],
            ["cash-in", "Journal.csv:56"],
            ["customer-credit-note", "Journal.csv:56"]
          ]
        )
      })
  )
})
