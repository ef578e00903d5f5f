/**
 * A workspace belongs to the target it wrote to. Pointed at another target after a load (a rehearsal
 * workspace reused for the real platform), `load` refuses rather than finding every operation done and
 * sending nothing, and `rollback` refuses rather than deleting ids the other target does not have; neither
 * sends a write there. Rolled back from its first target, the workspace is free to load into another.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as Rollback from "../../src/load/Rollback.js"
import type { RunningSandbox } from "../../src/sandbox/Sandbox.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import { WorkspaceTargetMismatch } from "../../src/staging/WorkspaceTarget.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { inProcessIn, sampleDir, sandbox, searchAll, tempDir } from "../support/Harness.js"

const plan = Effect.gen(function* () {
  const snapshot = yield* ReadSnapshot.read
  const built = PlanBuilder.build(yield* XeroSource.read, snapshot, yield* Mappings.load("xero"))
  yield* PlanStore.save(built, snapshot.baseCurrency)
})

const against = <A, E, R>(s: RunningSandbox, workspace: string, effect: Effect.Effect<A, E, R>) =>
  effect.pipe(inProcessIn(s, workspace))

/** Write requests (anything but GET and searches) in a sandbox's request log. */
const writes = (log: string) =>
  (NodeFs.existsSync(log) ? NodeFs.readFileSync(log, "utf8").split("\n") : [])
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { method: string; path: string })
    .filter(
      (r) => r.method !== "GET" && !r.path.endsWith("/search") && !r.path.includes("/generate-reports/")
    )

describe("a workspace and its target", () => {
  it.scopedLive(
    "refuses to load into or roll back from another target while it holds records in the first",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("workspace-target")
        const logB = NodePath.join(dir, "b.ndjson")
        const a = yield* sandbox()
        const b = yield* sandbox({ requestLog: logB })
        const workspace = NodePath.join(dir, "ws")

        yield* against(
          a,
          workspace,
          Effect.zipRight(Extract.run({ source: "xero", inputDir: sampleDir }), plan)
        )
        const first = yield* against(a, workspace, Executor.load({ concurrency: 8 }))
        assert.isTrue(first.complete)

        yield* against(b, workspace, plan)
        const load = yield* against(b, workspace, Effect.either(Executor.load({ concurrency: 8 })))
        assert.isTrue(Either.isLeft(load), "the load into another target is refused")
        const refused = Either.getLeft(load).pipe((o) => (o._tag === "Some" ? o.value : undefined))
        assert.instanceOf(refused, WorkspaceTargetMismatch)
        assert.strictEqual((refused as WorkspaceTargetMismatch).bound, new URL(a.url).origin)
        assert.strictEqual((refused as WorkspaceTargetMismatch).requested, new URL(b.url).origin)
        assert.match(
          (refused as WorkspaceTargetMismatch).message,
          /has \d+ record\(s\) in http:\/\/127\.0\.0\.1:\d+, and is now pointed at .*extract into a new workspace/
        )
        const rollback = yield* against(b, workspace, Effect.either(Rollback.rollback({ concurrency: 8 })))
        assert.isTrue(Either.isLeft(rollback), "so is a rollback from it")
        assert.deepStrictEqual(writes(logB), [], "the other target received no write")
        const inA = yield* Effect.promise(() => searchAll(a, "invoices", "reference"))
        assert.strictEqual(inA.length, 148, "the first target's records are untouched")

        // Rolled back from the first target, the workspace holds nothing there and may load elsewhere.
        yield* against(a, workspace, Rollback.rollback({ concurrency: 8 }))
        yield* against(b, workspace, plan)
        const second = yield* against(b, workspace, Executor.load({ concurrency: 8 }))
        assert.isTrue(second.complete)
        assert.strictEqual(second.sent, (yield* against(b, workspace, PlanStore.ops)).length)
        const inB = yield* Effect.promise(() => searchAll(b, "invoices", "reference"))
        assert.strictEqual(inB.length, 148, "the load into the second target is whole")
      }),
    120_000
  )

  it.scopedLive(
    "recognises its own target at another address by reading records it wrote back by id, and resumes there",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("workspace-moved")
        const statePath = NodePath.join(dir, "target.db")
        const workspace = NodePath.join(dir, "ws")
        const before = yield* Effect.scoped(
          Effect.gen(function* () {
            const s = yield* sandbox({ statePath })
            yield* against(
              s,
              workspace,
              Effect.zipRight(Extract.run({ source: "xero", inputDir: sampleDir }), plan)
            )
            return yield* against(s, workspace, Executor.load({ concurrency: 8 }))
          })
        )
        assert.isTrue(before.complete)
        // The same target, restarted from its state on another port.
        const moved = yield* sandbox({ statePath })
        const again = yield* against(moved, workspace, Executor.load({ concurrency: 8 }))
        assert.isTrue(again.complete)
        assert.strictEqual(again.sent, 0, "nothing is sent again: the records are there")
        const invoices = yield* Effect.promise(() => searchAll(moved, "invoices", "reference"))
        assert.strictEqual(invoices.length, 148)
      }),
    120_000
  )
})
