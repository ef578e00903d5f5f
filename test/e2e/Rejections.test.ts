/**
 * A plan with deliberately bad operations — a journal naming an unknown account, an unbalanced journal,
 * and an invoice the platform refuses (422: a currency the organization has not enabled) — finishes
 * everything else, reports each bad one with its source rows, skips what depends on them, and after the fix
 * (a fresh plan) `load --retry-rejected` completes the load and the target reconciles.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ProblemReport from "../../src/load/ProblemReport.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import * as Checkpoints from "../../src/staging/Checkpoints.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import { bodyHash } from "../../src/transform/Plan.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { assertExactlyOnce, layers, sampleDir, sandbox, tempDir } from "../support/Harness.js"

const plan = Effect.gen(function* () {
  const snapshot = yield* ReadSnapshot.read
  const built = PlanBuilder.build(yield* XeroSource.read, snapshot, yield* Mappings.load("xero"))
  yield* PlanStore.save(built, snapshot.baseCurrency)
  return yield* PlanStore.ops
})

/** Rewrites one planned operation's body in staging, as a broken plan would hold it. */
const tamper = (key: string, edit: (body: any) => void) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ body: string }>`SELECT body FROM plan_ops WHERE key = ${key}`
    const body = JSON.parse(row!.body)
    edit(body)
    yield* sql`UPDATE plan_ops SET body = ${JSON.stringify(body)}, body_hash = ${bodyHash(body)} WHERE key = ${key}`
  })

describe("rejections", () => {
  it.scopedLive(
    "bad operations are reported with their source rows, the rest completes, and --retry-rejected finishes after a fix",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        yield* Effect.gen(function* () {
          yield* Extract.run({ source: "xero", inputDir: sampleDir })
          const ops = yield* plan
          const journals = ops.filter((o) => o.kind === "journal")
          const paidInvoice = ops
            .find((o) => o.kind === "invoice-payment")!
            .dependsOn.find((d) => d.startsWith("invoice:"))!
          const unknownAccount = journals[0]!.key
          const unbalanced = journals[1]!.key
          yield* tamper(
            unknownAccount,
            (b) => void (b.journalEntries[0].accountResourceId = "@account:No Such Account")
          )
          yield* tamper(unbalanced, (b) => void (b.journalEntries[0].amount += 1))
          yield* tamper(paidInvoice, (b) => void (b.currency = { sourceCurrency: "XYZ" }))

          const first = yield* Executor.load({ concurrency: 8 })
          assert.isFalse(first.complete)
          const problems = yield* Checkpoints.problems
          const byKey = new Map(problems.map((p) => [p.key, p]))
          assert.strictEqual(byKey.get(unknownAccount)?.status, "rejected")
          assert.match(byKey.get(unknownAccount)!.error, /account:No Such Account/)
          assert.strictEqual(byKey.get(unbalanced)?.status, "rejected")
          assert.match(byKey.get(unbalanced)!.error, /debits .* credits/)
          assert.strictEqual(byKey.get(paidInvoice)?.status, "rejected")
          assert.match(
            byKey.get(paidInvoice)!.error,
            /HTTP 422/,
            "the platform's own refusal, with its message"
          )
          const payments = ops.filter((o) => o.dependsOn.includes(paidInvoice))
          assert.isAbove(payments.length, 0)
          for (const p of payments) {
            assert.strictEqual(byKey.get(p.key)?.status, "skipped")
            assert.include(byKey.get(p.key)!.error, paidInvoice)
          }
          assert.strictEqual(problems.length, 3 + payments.length, "everything else completed")
          for (const p of problems) assert.isAbove(p.lineage.length, 0, `${p.key} names its source rows`)
          const groups = ProblemReport.group(problems)
          assert.deepStrictEqual(
            groups.map((g) => [g.status, g.problems.length]),
            [
              ["rejected", 3],
              ["skipped", payments.length]
            ]
          )
          assert.match(ProblemReport.lines(groups).join("\n"), /SalesInvoices\.csv:\d+/)

          const fixed = yield* plan
          const unchanged = yield* Executor.load({ concurrency: 8 })
          assert.strictEqual(
            unchanged.sent,
            0,
            "without --retry-rejected, rejected operations are not sent again"
          )
          assert.strictEqual(
            unchanged.changedRejected,
            3,
            "the three fixed bodies are detected by their hash"
          )
          const retried = yield* Executor.load({ concurrency: 8, retryRejected: true })
          assert.isTrue(retried.complete)
          assert.strictEqual(retried.sent, 3 + payments.length)
          yield* Effect.promise(() => assertExactlyOnce(s, fixed))
          const rec = yield* Reconcile.reconcile(yield* XeroSource.read, "SGD", "2025-12-31")
          assert.deepStrictEqual(rec.documents.mismatches, [])
        }).pipe(Effect.provide(layers(s, tempDir("reject"))), Effect.provide(NodeContext.layer))
      }),
    120_000
  )
})
