/**
 * Invariant 4 under a real crash: the loader process is SIGKILLed in the middle of a load (three times, at
 * different points), `load` is run again until complete, and the target's own API then holds every planned
 * record exactly once, and the reconciliation matches.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import {
  apiKey,
  assertExactlyOnce,
  cliCommand,
  layers,
  runCli,
  sampleDir,
  sandbox,
  tempDir
} from "../support/Harness.js"

const cli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.promise(() => runCli(args, env))

/** Starts `load` and SIGKILLs it once the sandbox has logged `after` more write requests. */
const loadAndKill = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  requestLog: string,
  after: number
) =>
  new Promise<number | null>((resolve) => {
    const start = NodeFs.existsSync(requestLog)
      ? NodeFs.readFileSync(requestLog, "utf8").split("\n").length
      : 0
    const [cmd, argv] = cliCommand(["load", ...args])
    const child = spawn(cmd, argv, {
      env: { ...process.env, ...env },
      stdio: "ignore"
    })
    const timer = setInterval(() => {
      const lines = NodeFs.existsSync(requestLog)
        ? NodeFs.readFileSync(requestLog, "utf8").split("\n").length
        : 0
      if (lines - start >= after) {
        clearInterval(timer)
        child.kill("SIGKILL")
      }
    }, 5)
    child.on("exit", (code) => {
      clearInterval(timer)
      resolve(code)
    })
  })

describe("crash and resume", () => {
  it.scopedLive(
    "a loader killed mid-load and run again leaves every record exactly once",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("crash")
        const requestLog = NodePath.join(dir, "requests.ndjson")
        const s = yield* sandbox({ requestLog, faults: { latencyMs: 3 } })
        const workspace = NodePath.join(dir, "ws")
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

        for (const after of [40, 200, 150]) {
          const code = yield* Effect.promise(() =>
            loadAndKill([...common, "--concurrency", "4"], env, requestLog, after)
          )
          assert.notStrictEqual(code, 0, `the load was killed after ${after} requests, before it finished`)
        }
        const finish = yield* cli(["load", ...common, "--concurrency", "4"], env)
        assert.strictEqual(finish.status, 0, finish.stdout + finish.stderr)
        assert.match(finish.stdout, /Load complete/)
        assert.match(
          finish.stdout,
          /[1-9]\d* adopted/,
          "operations left in doubt by the kill were found by natural key, not re-sent"
        )

        const ops = yield* PlanStore.ops.pipe(Effect.provide(layers(s, workspace)))
        yield* Effect.promise(() => assertExactlyOnce(s, ops))

        const rec = yield* Effect.gen(function* () {
          const books = yield* XeroSource.read
          return yield* Reconcile.reconcile(books, "SGD", "2025-12-31")
        }).pipe(Effect.provide(layers(s, workspace)), Effect.provide(NodeContext.layer))
        assert.deepStrictEqual(rec.mismatches, [])
      }),
    240_000
  )
})
