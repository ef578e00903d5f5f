/**
 * The spine end to end, in process: the bundled sample is extracted, planned against a fresh sandbox,
 * loaded and reconciled; the plan is byte-identical when made twice; a second load sends nothing.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { call, inProcessIn, sampleDir, sandbox, searchAll, tempDir } from "../support/Harness.js"
import { intentWatch } from "../support/IntentWatch.js"

const planOnce = Effect.gen(function* () {
  const books = yield* XeroSource.read
  const snapshot = yield* ReadSnapshot.read
  const mappings = yield* Mappings.load("xero")
  const plan = PlanBuilder.build(books, snapshot, mappings)
  const hash = yield* PlanStore.save(plan, snapshot.baseCurrency)
  const sql = yield* SqlClient.SqlClient
  const bodies = yield* sql<{ key: string; body: string }>`SELECT key, body FROM plan_ops ORDER BY seq`
  return { plan, hash, bodies: bodies.map((b) => `${b.key} ${b.body}`).join("\n") }
})

describe("spine: bundled Xero sample → sandbox", () => {
  it.scopedLive(
    "extracts every line, plans deterministically, loads exactly once and reconciles to the cent",
    () =>
      Effect.gen(function* () {
        const workspace = tempDir("spine")
        const intents = yield* intentWatch(workspace)
        const s = yield* sandbox({ onWrite: intents.onWrite })
        const run = Effect.gen(function* () {
          const files = yield* Extract.run({ source: "xero", inputDir: sampleDir })
          for (const f of files) {
            const physical = NodeFs.readFileSync(NodePath.join(sampleDir, f.file), "utf8")
              .replace(/\n$/, "")
              .split("\n").length
            assert.strictEqual(f.lines, physical, `${f.file}: every physical line is counted`)
            assert.strictEqual(
              f.staged + f.skipped + f.rejected,
              f.lines,
              `${f.file}: lines = staged + skipped + rejected`
            )
            assert.strictEqual(f.rejected, 0, `${f.file} has no rejects`)
          }

          const first = yield* planOnce
          const second = yield* planOnce
          assert.strictEqual(second.hash, first.hash, "the same inputs give the same plan hash")
          assert.strictEqual(second.bodies, first.bodies, "and byte-identical bodies")
          const byPhase = (p: string) => first.plan.ops.filter((o) => o.phase === p).length
          assert.deepStrictEqual(
            {
              tags: byPhase("tags"),
              currencies: byPhase("currencies"),
              rates: byPhase("rates"),
              accounts: byPhase("accounts"),
              contacts: byPhase("contacts"),
              items: byPhase("items"),
              transactions: byPhase("transactions"),
              settlements: byPhase("settlements")
            },
            {
              tags: 7,
              currencies: 2,
              rates: 24,
              accounts: 36,
              contacts: 40,
              items: 15,
              // 148 invoices, 100 bills, 12 customer and 10 supplier credit notes, 10 journals, 12 cash-ins,
              // 19 cash-outs, 5 transfers
              // 150 invoices less 2 voided, 100 bills, 11 credit notes less 1 voided, 6 overpayments (a credit
              // note and a cash entry each), 6 prepayments (a cash entry each, and a credit note per application:
              // 4), 10 journals, 19 cash entries and 5 transfers.
              transactions: 314,
              // 135 invoice and 104 bill payments, 8 + 7 credit applications, 5 + 4 refunds
              settlements: 263
            }
          )
          assert.deepStrictEqual(
            first.plan.issues.filter((i) => i.severity === "reject"),
            []
          )

          const loaded = yield* Executor.load({ concurrency: 8, pageSize: 37 })
          assert.isTrue(loaded.complete)
          assert.deepStrictEqual(
            intents.early.slice(0, 5),
            [],
            "no operation was sent before its intent was durable"
          )
          assert.strictEqual(intents.created(), loaded.sent)
          assert.strictEqual(
            loaded.sent,
            first.plan.ops.length,
            "one request per operation, no retries needed"
          )
          assert.isBelow(
            loaded.checkpointTransactions,
            loaded.sent,
            "checkpoint writes are group-committed (an intent and an outcome per operation would be twice this)"
          )

          const again = yield* Executor.load({ concurrency: 8 })
          assert.isTrue(again.complete)
          assert.strictEqual(again.sent, 0, "a second load sends nothing")

          const books = yield* XeroSource.read
          const rec = yield* Reconcile.reconcile(books, "SGD", "2025-12-31")
          assert.deepStrictEqual(rec.documents.mismatches, [])
          assert.isTrue(rec.matches)
          assert.isTrue(rec.targetTrialBalance.balanced)
          return first
        })
        const first = yield* run.pipe(inProcessIn(s, workspace))

        const invoices = yield* Effect.promise(() => searchAll(s, "invoices", "reference"))
        const refs = invoices.map((r: any) => r.reference)
        assert.strictEqual(refs.length, 148, "148 invoices (150 less 2 voided)")
        assert.strictEqual(new Set(refs).size, refs.length, "each invoice exists once")
        const usd = first.plan.ops.find(
          (o) => o.kind === "invoice" && JSON.stringify(o.body).includes('"sourceCurrency":"USD"')
        )
        assert.isDefined(usd, "foreign invoices carry the currency object")
        const sgd = first.plan.ops.find(
          (o) => o.kind === "invoice" && !JSON.stringify(o.body).includes("currency")
        )
        assert.isDefined(sgd, "base-currency invoices omit it")
        const { body } = yield* Effect.promise(() => call(s, "GET", `/invoices/${invoices[0].resourceId}`))
        assert.isNumber(body.valueDate, "response dates are epoch ms")
      }),
    120_000
  )
})
