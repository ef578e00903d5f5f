/**
 * The new kinds against a target that commits and then drops the response (and resets and 5xx): every
 * credit note, cash entry, transfer, tag, credit application and refund whose outcome was lost is found by
 * its natural key and never sent twice. The fault sequence is seeded, so a failure reproduces.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { assertNewKindsOnce } from "../support/AllKinds.js"
import { assertExactlyOnce, layers, sandbox, tempDir } from "../support/Harness.js"
import { writeKindsFolder } from "../support/KindsFolder.js"

describe("faults in the new kinds", () => {
  it.scopedLive(
    "25% commit-then-drop + 5% resets + 5% 5xx → each credit note, cash entry, application and refund exactly once",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("faults-kinds")
        const requestLog = NodePath.join(dir, "requests.ndjson")
        const s = yield* sandbox({
          requestLog,
          faults: { dropAfterCommitRate: 0.25, resetRate: 0.05, failRate: 0.05, seed: 11 }
        })
        const input = writeKindsFolder(NodePath.join(dir, "input"), 12)
        const outcome = yield* Effect.gen(function* () {
          yield* Extract.run({ source: "xero", inputDir: input })
          const snapshot = yield* ReadSnapshot.read
          const plan = PlanBuilder.build(yield* XeroSource.read, snapshot, yield* Mappings.load("xero"))
          yield* PlanStore.save(plan, snapshot.baseCurrency)
          const runs: Array<Executor.LoadResult> = []
          for (let i = 0; i < 6 && !runs.at(-1)?.complete; i++)
            runs.push(yield* Executor.load({ concurrency: 4 }))
          return { ops: yield* PlanStore.ops, runs }
        }).pipe(Effect.provide(layers(s, NodePath.join(dir, "ws"))), Effect.provide(NodeContext.layer))
        const last = outcome.runs.at(-1)!
        assert.isTrue(
          last.complete,
          `complete after ${outcome.runs.length} loads: ${JSON.stringify(last.counts)}`
        )
        yield* Effect.promise(() => assertExactlyOnce(s, outcome.ops))
        yield* Effect.promise(() => assertNewKindsOnce(s, outcome.ops))
        const dropped = NodeFs.readFileSync(requestLog, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { path: string; fault?: string })
          .filter((r) => String(r.fault ?? "").includes("drop"))
        for (const path of [
          /\/credits$/,
          /\/refunds$/,
          /\/cash-in-entries$/,
          /\/cash-out-entries$/,
          /\/customer-credit-notes$/
        ])
          assert.isTrue(
            dropped.some((r) => path.test(r.path)),
            `a dropped commit on ${path}`
          )
        assert.isAbove(
          outcome.runs.reduce((n, r) => n + r.adopted, 0),
          0
        )
      }),
    120_000
  )
})
