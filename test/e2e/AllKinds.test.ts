/**
 * Every kind of Xero transaction end to end, in process: a small Xero folder holding invoices with a line
 * discount and tracking, a draft and a voided one, sales and bill credit notes applied and refunded (one by
 * the allocations file, the rest inferred), an overpayment, a prepayment, Receive and Spend Money, bank
 * transfers (one between currencies), a USD invoice settled by a USD credit note and a USD payment, and a
 * tracked journal — extracted, planned against a fresh sandbox, loaded; the target then holds each record
 * exactly once, AR and AP per contact and the bank balances are what the source implies, the clearing account
 * is at zero; a second load sends nothing, and a rollback removes it all.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as Rollback from "../../src/load/Rollback.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { accountNets, aging, allKindsDir, assertNewKindsOnce } from "../support/AllKinds.js"
import { assertExactlyOnce, call, inProcessIn, sandbox, searchAll, tempDir } from "../support/Harness.js"

const migrate = Effect.gen(function* () {
  yield* Extract.run({ source: "xero", inputDir: allKindsDir })
  const snapshot = yield* ReadSnapshot.read
  const plan = PlanBuilder.build(yield* XeroSource.read, snapshot, yield* Mappings.load("xero"))
  yield* PlanStore.save(plan, snapshot.baseCurrency)
  return plan
})

describe("every kind of Xero transaction → sandbox", () => {
  it.scopedLive(
    "loads each record exactly once with its applications and refunds; AR/AP and banks match the source; rerun sends nothing; rollback removes it all",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const workspace = tempDir("allkinds")
        const run = <A, E, R>(e: Effect.Effect<A, E, R>) => e.pipe(inProcessIn(s, workspace))

        const plan = yield* run(migrate)
        assert.deepStrictEqual(
          plan.issues.map((i) => `${i.severity} ${i.lineage.join(",")} ${i.what}`),
          [
            "warning SalesInvoices.csv:10 invoice INV-005 (Voided)",
            "warning SalesInvoices.csv:11 credit note CN-004 (Voided)"
          ],
          "the voided invoice and credit note are listed with their rows; nothing is rejected or ambiguous"
        )
        assert.deepStrictEqual(plan.clearingAccounts, ["Overpayment and Prepayment Clearing"])
        const loaded = yield* run(Executor.load({ concurrency: 4 }))
        assert.isTrue(loaded.complete)
        assert.strictEqual(loaded.sent, plan.ops.length, "one request per operation")

        const ops = yield* run(PlanStore.ops)
        yield* Effect.promise(() => assertExactlyOnce(s, ops))
        yield* Effect.promise(() => assertNewKindsOnce(s, ops))

        const invoices = yield* Effect.promise(() => searchAll(s, "invoices", "reference"))
        const byRef = (ref: string) => invoices.find((i) => i.reference === ref)
        assert.isUndefined(byRef("INV-005"), "the voided invoice is not migrated")
        assert.strictEqual(byRef("INV-004").status, "DRAFT", "the draft is migrated as a draft")
        const inv1 = (yield* Effect.promise(() => call(s, "GET", `/invoices/${byRef("INV-001").resourceId}`)))
          .body
        assert.strictEqual(inv1.totalAmount, 1199, "the discounted line reproduces Xero's total")
        assert.deepStrictEqual(
          inv1.lineItems.map((l: any) => [l.discount, l.lineAmount]),
          [
            [100, 900],
            [0, 200]
          ],
          "a 10% discount on 10 × 100.00 is the flat discount 100.00: LineAmount 900.00 to the cent"
        )
        assert.sameMembers(inv1.tags, ["Region: North", "Region: South"], "tracking options become tags")
        assert.strictEqual(inv1.status, "PAID", "paid by cash and CN-001 (the allocations file)")

        // What the source implies: the invoices' amounts due less the credits' remaining, per contact.
        assert.deepStrictEqual(yield* Effect.promise(() => aging(s, "ar")), {
          "Acme Pte Ltd SGD": 45,
          "Gamma Retail SGD": -20
        })
        assert.deepStrictEqual(yield* Effect.promise(() => aging(s, "ap")), {})
        // The Account Transactions report's section totals, each in its account's own currency.
        const nets = yield* Effect.promise(() => accountNets(s))
        assert.strictEqual(nets.get("DBS Business Account"), -1708.5)
        assert.strictEqual(nets.get("OCBC Savings Account"), 500)
        assert.strictEqual(nets.get("USD Account"), 1900)
        assert.strictEqual(
          nets.get("Overpayment and Prepayment Clearing") ?? 0,
          0,
          "the clearing account nets to zero"
        )
        assert.strictEqual(nets.get("Rent"), 1100, "Spend Money 1,000 and the accrual journal 100")
        const tb = (yield* Effect.promise(() =>
          call(s, "POST", "/generate-reports/trial-balance", {
            startDate: "2000-01-01",
            endDate: "2099-12-31"
          })
        )).body.data
        const fx = tb.rows.find((r: any) => r.accountName === "Foreign Exchange Gain/Loss")
        assert.deepStrictEqual(
          [fx?.debitAmount, fx?.creditAmount],
          [0, 9],
          "900 USD received at 1.36 against an invoice booked at 1.35: a realised gain the ledger computes"
        )

        const again = yield* run(Executor.load({ concurrency: 4 }))
        assert.isTrue(again.complete)
        assert.strictEqual(again.sent, 0, "a second load sends nothing")

        const rolled = yield* run(Rollback.rollback({ concurrency: 4 }))
        assert.isTrue(rolled.complete, JSON.stringify(rolled.outcomes))
        for (const resource of [
          "invoices",
          "bills",
          "customer-credit-notes",
          "supplier-credit-notes",
          "tags"
        ]) {
          const left = yield* Effect.promise(() =>
            searchAll(s, resource, resource === "tags" ? "tagName" : "reference")
          )
          assert.deepStrictEqual(left, [], `${resource}: none left after the rollback`)
        }
        const cash = yield* Effect.promise(() => searchAll(s, "cashflow-transactions", "valueDate"))
        assert.deepStrictEqual(
          cash,
          [],
          "no cash entry, transfer, payment or refund is left, not even voided"
        )
        const after = (yield* Effect.promise(() =>
          call(s, "POST", "/generate-reports/trial-balance", {
            startDate: "2000-01-01",
            endDate: "2099-12-31"
          })
        )).body.data
        assert.deepStrictEqual(after.rows, [], "the ledger is empty again")
      }),
    120_000
  )
})
