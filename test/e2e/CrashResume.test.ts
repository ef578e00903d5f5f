/**
 * Invariant 4 under a real crash: the loader process is SIGKILLed in the middle of a load (three times, at
 * different points), `load` is run again until complete, and the target's own API then holds every planned
 * record exactly once, and the reconciliation matches.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import Database from "better-sqlite3"
import * as NodePath from "node:path"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { loadAndKill } from "../support/Kill.js"
import {
  apiKey,
  assertExactlyOnce,
  inProcessIn,
  layers,
  runCli,
  sampleDir,
  sandbox,
  tempDir
} from "../support/Harness.js"
import { intentWatch } from "../support/IntentWatch.js"

const cli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.promise(() => runCli(args, env))

/** A small seeded PRNG, so the kill points are the same on every run. */
const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** The phase a killed load was in: that of its operations left sending, else of the first one not done. */
const phaseInFlight = (workspace: string): string => {
  const db = new Database(NodePath.join(workspace, "staging.db"), { readonly: true })
  try {
    const row = db
      .prepare(
        `SELECT p.phase FROM plan_ops p JOIN checkpoints c ON c.key = p.key
         WHERE c.status <> 'done' ORDER BY (c.status IN ('sending', 'in_doubt')) DESC, p.seq LIMIT 1`
      )
      .get() as { phase: string } | undefined
    return row?.phase ?? "none"
  } finally {
    db.close()
  }
}

/** The number of operations in the workspace's stored plan. */
const planSize = (workspace: string): number => {
  const db = new Database(NodePath.join(workspace, "staging.db"), { readonly: true })
  try {
    return (db.prepare("SELECT count(*) AS n FROM plan_ops").get() as { n: number }).n
  } finally {
    db.close()
  }
}

describe("crash and resume", () => {
  it.scopedLive(
    "a loader SIGKILLed at 20+ seeded points across the phases, resumed each time, leaves every record exactly once",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("crash")
        const requestLog = NodePath.join(dir, "requests.ndjson")
        const workspace = NodePath.join(dir, "ws")
        const intents = yield* intentWatch(workspace)
        const s = yield* sandbox({ requestLog, faults: { latencyMs: 3 }, onWrite: intents.onWrite })
        const env = { JK_API_KEY: apiKey }
        const common = [
          "--workspace",
          workspace,
          "--base-url",
          s.url,
          "--runs-dir",
          NodePath.join(dir, "runs")
        ]
        const extract = yield* cli(
          [
            "extract",
            "--source",
            "xero",
            "--input",
            sampleDir,
            "--workspace",
            workspace,
            "--runs-dir",
            NodePath.join(dir, "runs")
          ],
          env
        )
        assert.strictEqual(extract.status, 0, extract.stderr)
        const plan = yield* cli(["plan", ...common], env)
        assert.strictEqual(plan.status, 0, plan.stdout + plan.stderr)

        // Kill points spread over the whole plan: 24 kills a mean of ~1/26 of the operations apart reach
        // the settlements at the end as well as the master data at the start, whatever the sample's size.
        const operations = planSize(workspace)
        const span = Math.max(30, Math.floor((2 * operations) / 26) - 16)
        const random = mulberry32(20261122)
        const phasesHit: Array<string> = []
        for (let i = 0; i < 30 && phasesHit.length < 24; i++) {
          const after = 8 + Math.floor(random() * span)
          const code = yield* Effect.promise(() =>
            loadAndKill([...common, "--concurrency", "4"], env, requestLog, after)
          )
          if (code === 0) break
          phasesHit.push(phaseInFlight(workspace))
        }
        assert.isAtLeast(
          phasesHit.length,
          20,
          `killed ${phasesHit.length} times before the load could finish`
        )
        // Where each kill lands depends on timing; what must hold is that they span the plan: the master
        // data at the start, the transactions, and the settlements at the end.
        const hit = new Set(phasesHit)
        const where = `kills landed in phases ${[...hit].join(", ")}`
        assert.isAtLeast(hit.size, 4, where)
        assert.isTrue(hit.has("transactions") && hit.has("settlements"), where)
        assert.isTrue(
          ["tags", "currencies", "rates", "accounts", "contacts", "items"].some((p) => hit.has(p)),
          where
        )
        console.log(
          `crash: ${phasesHit.length} kills, by phase: ${JSON.stringify(Object.fromEntries([...new Set(phasesHit)].map((p) => [p, phasesHit.filter((x) => x === p).length])))}`
        )
        const finish = yield* cli(["load", ...common, "--concurrency", "4"], env)
        assert.strictEqual(finish.status, 0, finish.stdout + finish.stderr)
        assert.match(finish.stdout, /Load complete/)
        assert.match(
          finish.stdout,
          /[1-9]\d* adopted/,
          "operations left in doubt by the kill were found by natural key, not re-sent"
        )

        assert.deepStrictEqual(
          intents.early.slice(0, 5),
          [],
          "no operation was sent before its intent was durable"
        )
        const ops = yield* PlanStore.ops.pipe(Effect.provide(layers(s, workspace)))
        yield* Effect.promise(() => assertExactlyOnce(s, ops))

        const rec = yield* Effect.gen(function* () {
          const books = yield* XeroSource.read
          return yield* Reconcile.reconcile(books, "SGD", "2025-12-31")
        }).pipe(inProcessIn(s, workspace))
        assert.deepStrictEqual(rec.documents.mismatches, [])
        assert.deepStrictEqual(rec.differences, [])
        assert.strictEqual(rec.verdict, "MATCHES")
      }),
    240_000
  )
})
