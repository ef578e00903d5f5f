/**
 * A lost workspace: the books were loaded from workspace A; a fresh workspace B extracts, plans and loads the
 * same books against the same target. B adopts every existing record by natural key and creates nothing,
 * and B's checkpoints mark them adopted (so a rollback from B would never delete them).
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { layers, sampleDir, sandbox, searchAll, tempDir } from "../support/Harness.js"

const migrate = Effect.gen(function* () {
  yield* Extract.run({ source: "xero", inputDir: sampleDir })
  const snapshot = yield* ReadSnapshot.read
  const plan = PlanBuilder.build(yield* XeroSource.read, snapshot, yield* Mappings.load("xero"))
  yield* PlanStore.save(plan, snapshot.baseCurrency)
  const result = yield* Executor.load({ concurrency: 8 })
  const sql = yield* SqlClient.SqlClient
  const origins = yield* sql<{
    origin: string | null
    n: number
  }>`SELECT origin, COUNT(*) AS n FROM checkpoints GROUP BY origin`
  return { plan, result, origins: Object.fromEntries(origins.map((o) => [o.origin ?? "none", o.n])) }
})

describe("adoption", () => {
  it.scopedLive(
    "a second workspace adopts what the first created and sends no create",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const a = yield* migrate.pipe(
          Effect.provide(layers(s, tempDir("adopt-a"))),
          Effect.provide(NodeContext.layer)
        )
        assert.isTrue(a.result.complete)
        assert.deepStrictEqual(a.origins, { created: a.plan.ops.length })

        const b = yield* migrate.pipe(
          Effect.provide(layers(s, tempDir("adopt-b"))),
          Effect.provide(NodeContext.layer)
        )
        assert.isTrue(b.result.complete)
        assert.strictEqual(b.result.sent, 0, "nothing is created again")
        const kinds = new Set(b.plan.ops.map((o) => o.kind))
        assert.isFalse(
          kinds.has("account") || kinds.has("contact") || kinds.has("item"),
          "master data already in the target is not even planned"
        )
        assert.isTrue(
          kinds.has("invoice") && kinds.has("invoice-payment"),
          "documents and payments are planned and adopted"
        )
        assert.deepStrictEqual(b.origins, { adopted: b.plan.ops.length })
        assert.strictEqual(b.result.adopted, b.plan.ops.length)

        const invoices = yield* Effect.promise(() => searchAll(s, "invoices", "reference"))
        const planned = (kind: string) => a.plan.ops.filter((o) => o.kind === kind).length
        assert.strictEqual(invoices.length, planned("invoice"), "each invoice once")
        assert.strictEqual(invoices.length, 148)
        const payments = invoices.reduce((n, i) => n + i.paymentRecords.length, 0)
        assert.strictEqual(payments, planned("invoice-payment"), "each payment once")
        assert.isAbove(payments, 100)
      }),
    120_000
  )
})
