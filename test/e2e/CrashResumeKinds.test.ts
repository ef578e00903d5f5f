/**
 * Invariant 4 in the new kinds' phases: a loader SIGKILLed at seeded points chosen inside each of them — a
 * credit note, a cash-in, a cash-out and a transfer being created, a credit application and a refund being
 * recorded — and resumed each time, leaves every record exactly once: what the killed process sent is
 * found by natural key (credit notes by reference, cash entries through the cashflow search, applications
 * and refunds on their credit note) and never sent again.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import * as Extract from "../../src/extract/Extract.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { assertNewKindsOnce } from "../support/AllKinds.js"
import {
  apiKey,
  assertExactlyOnce,
  inProcessIn,
  layers,
  runCli,
  sandbox,
  tempDir
} from "../support/Harness.js"
import { writeKindsFolder } from "../support/KindsFolder.js"
import { startLoad } from "../support/Kill.js"

/** The plan's op kind of a write's path. */
const kindOf = (path: string): string => {
  if (/\/invoices\/[^/]+\/credits$/.test(path)) return "invoice-credit"
  if (/\/customer-credit-notes\/[^/]+\/refunds$/.test(path)) return "customer-refund"
  if (/\/invoices\/[^/]+\/payments$/.test(path)) return "invoice-payment"
  const top: Record<string, string> = {
    "/api/v1/cash-in-entries": "cash-in",
    "/api/v1/cash-out-entries": "cash-out",
    "/api/v1/cash-transfers": "cash-transfer",
    "/api/v1/customer-credit-notes": "customer-credit-note",
    "/api/v1/invoices": "invoice"
  }
  return top[path] ?? path
}

/** Seeded kill points: the nth write of an op kind, counted from each resumed run's start. */
const killPoints: ReadonlyArray<readonly [string, number]> = [
  ["customer-credit-note", 4],
  ["cash-in", 5],
  ["cash-out", 3],
  ["cash-transfer", 2],
  ["invoice-credit", 5],
  ["customer-refund", 4]
]

describe("crash and resume in the new kinds' phases", () => {
  it.scopedLive(
    "a loader killed while creating credit notes, cash entries and transfers and while applying and refunding credits leaves each record exactly once",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("crash-kinds")
        // Each write the sandbox commits, counted by kind as it is committed; the load running is killed at
        // its chosen write before that write is answered (a request log, written asynchronously, lagged
        // behind a whole stretch of writes under load, and the kill came after it).
        const sent = new Map<string, number>()
        let atWrite = (_kind: string): void => {}
        const s = yield* sandbox({
          faults: { latencyMs: 3 },
          onWrite: (method, path) => {
            if (method !== "POST") return
            const kind = kindOf(path)
            sent.set(kind, (sent.get(kind) ?? 0) + 1)
            atWrite(kind)
          }
        })
        const workspace = NodePath.join(dir, "ws")
        const input = writeKindsFolder(NodePath.join(dir, "input"), 24)
        const env = { JK_API_KEY: apiKey }
        const common = [
          "--workspace",
          workspace,
          "--base-url",
          s.url,
          "--runs-dir",
          NodePath.join(dir, "runs")
        ]
        const planned = yield* Effect.gen(function* () {
          yield* Extract.run({ source: "xero", inputDir: input })
          const snapshot = yield* ReadSnapshot.read
          const plan = PlanBuilder.build(yield* XeroSource.read, snapshot, yield* Mappings.load("xero"))
          assert.deepStrictEqual(
            plan.issues.filter((i) => i.severity === "reject"),
            []
          )
          yield* PlanStore.save(plan, snapshot.baseCurrency)
          return yield* PlanStore.ops
        }).pipe(inProcessIn(s, workspace))
        for (const [kind, nth] of killPoints) {
          const load = startLoad([...common, "--concurrency", "4"], env)
          let seen = 0
          atWrite = (written) => {
            if (written === kind && ++seen === nth) load.kill()
          }
          const code = yield* Effect.promise(() => load.exited)
          atWrite = () => {}
          assert.notStrictEqual(code, 0, `the load was killed at the ${nth}th ${kind}, not finished`)
          const all = planned.filter((o) => o.kind === kind).length
          assert.isAbove(sent.get(kind) ?? 0, 0, `${kind}: the kill came after some were created`)
          assert.isBelow(
            sent.get(kind) ?? 0,
            all,
            `${kind}: and before all ${all} were: it landed inside their stretch`
          )
        }

        const finish = yield* Effect.promise(() => runCli(["load", ...common, "--concurrency", "4"], env))
        assert.strictEqual(finish.status, 0, finish.stdout + finish.stderr)
        assert.match(finish.stdout, /Load complete/)
        assert.match(finish.stdout, /[1-9]\d* adopted/, "what the killed loads sent was found by natural key")
        const ops = yield* PlanStore.ops.pipe(Effect.provide(layers(s, workspace)))
        assert.strictEqual(ops.filter((o) => o.kind === "invoice-credit").length, 24)
        assert.strictEqual(ops.filter((o) => o.kind === "customer-refund").length, 24)
        yield* Effect.promise(() => assertExactlyOnce(s, ops))
        yield* Effect.promise(() => assertNewKindsOnce(s, ops))
      }),
    240_000
  )
})
