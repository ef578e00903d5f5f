/**
 * The loader against a hostile target: together 10% 5xx, 5% connection resets, 5% commit-then-drop-the-
 * response and a rate limit. Loads are repeated until complete; the target then holds every planned record
 * exactly once and the reconciliation matches. The fault sequence is seeded, so a failure reproduces.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeContext from "@effect/platform-node/NodeContext"
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
import { assertExactlyOnce, layers, sampleDir, sandbox, tempDir } from "../support/Harness.js"

describe("faults", () => {
  for (const seed of [7, 2026]) {
    it.scopedLive(
      `seed ${seed}: 10% 5xx + 5% resets + 5% commit-then-drop + 80 req/s limit → every record exactly once`,
      () =>
        Effect.gen(function* () {
          const dir = tempDir("faults")
          const requestLog = NodePath.join(dir, "requests.ndjson")
          const s = yield* sandbox({
            requestLog,
            faults: { failRate: 0.1, resetRate: 0.05, dropAfterCommitRate: 0.05, rateLimit: 80, seed }
          })
          const outcome = yield* Effect.gen(function* () {
            yield* Extract.run({ source: "xero", inputDir: sampleDir })
            const snapshot = yield* ReadSnapshot.read
            const plan = PlanBuilder.build(yield* XeroSource.read, snapshot, yield* Mappings.load("xero"))
            yield* PlanStore.save(plan, snapshot.baseCurrency)
            const runs: Array<Executor.LoadResult> = []
            for (let i = 0; i < 6 && !runs.at(-1)?.complete; i++)
              runs.push(yield* Executor.load({ concurrency: 8, pageSize: 50 }))
            const rec = yield* Reconcile.reconcile(yield* XeroSource.read, "SGD", "2025-12-31")
            return { ops: yield* PlanStore.ops, runs, rec }
          }).pipe(Effect.provide(layers(s, NodePath.join(dir, "ws"))), Effect.provide(NodeContext.layer))

          assert.isTrue(outcome.runs.at(-1)!.complete, `complete after ${outcome.runs.length} loads`)
          yield* Effect.promise(() => assertExactlyOnce(s, outcome.ops))
          assert.deepStrictEqual(outcome.rec.documents.mismatches, [])

          const faults = NodeFs.readFileSync(requestLog, "utf8")
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as { fault?: string; status: number })
          const seen = (f: string) => faults.filter((r) => String(r.fault ?? "").includes(f)).length
          assert.isAbove(seen("drop"), 5, "commits were dropped")
          assert.isAbove(seen("reset"), 5, "connections were reset")
          assert.isAbove(faults.filter((r) => r.status >= 500).length, 20, "5xx were answered")
          const adopted = outcome.runs.reduce((n, r) => n + r.adopted, 0)
          assert.isAbove(adopted, 0, "dropped commits were found by natural key, not re-sent")
          const throttled = outcome.runs.reduce((n, r) => n + r.throttled, 0)
          const limited = faults.filter((r) => r.status === 429).length
          assert.isAbove(limited, 0, "the rate limit was reached")
          console.log(
            `faults seed ${seed}: ${outcome.runs.length} load(s), ${faults.length} requests, ${seen("drop")} dropped commits, ${seen("reset")} resets, ${faults.filter((r) => r.status >= 500).length} 5xx, ${limited} × 429 (${throttled} on creates), ${adopted} adopted after an unknown outcome`
          )
          assert.isAtMost(
            throttled,
            outcome.ops.length / 4,
            "and the limiter kept 429s from becoming a storm"
          )
        }),
      180_000
    )
  }
})
