/**
 * A quick conversion of the bundled sample at its year end, through the command line into the sandbox: the
 * plan holds a conversion document per open item and one trial-balance journal; a load killed in the middle
 * resumes with every record exactly once; the reconciliation proves the trial balance per account, AR and AP
 * per contact and document, and both clearing accounts at zero; rollback leaves the target as it was.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { generateCompany } from "../../src/sample/Generator.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import {
  apiKey,
  assertExactlyOnce,
  layers,
  runCli,
  sampleDir,
  sandbox,
  searchAll,
  tempDir
} from "../support/Harness.js"
import { loadAndKill } from "../support/Kill.js"
import { migration } from "../support/Migration.js"

const cli = (args: ReadonlyArray<string>) => Effect.promise(() => runCli(args, { JK_API_KEY: apiKey }))

describe("quick conversion at a cut-over date", () => {
  it.scopedLive(
    "plans the opening position, resumes a killed load exactly once, reconciles at the date and rolls back",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("quick")
        const requestLog = NodePath.join(dir, "requests.ndjson")
        const s = yield* sandbox({ requestLog, faults: { latencyMs: 3 } })
        const before = {
          invoices: (yield* Effect.promise(() => searchAll(s, "invoices", "reference"))).length,
          journals: (yield* Effect.promise(() => searchAll(s, "journals", "reference"))).length
        }
        const { workspace, common, extract: extractArgs } = migration(dir, s.url)
        const extract = yield* cli(extractArgs(sampleDir))
        assert.strictEqual(extract.status, 0, extract.stderr)

        const refused = yield* cli(["plan", "--mode", "quick", ...common])
        assert.strictEqual(refused.status, 2, "quick mode without a date")
        assert.match(refused.stderr, /--mode quick needs --as-at YYYY-MM-DD/)
        const early = yield* cli(["plan", "--mode", "quick", "--as-at", "2025-06-30", ...common])
        assert.strictEqual(early.status, 2, "no reports at that date")
        assert.match(
          early.stderr,
          /no Trial Balance and no Aged Receivables Detail and no Aged Payables Detail as at 2025-06-30/
        )

        const plan = yield* cli(["plan", "--mode", "quick", "--as-at", "2025-12-31", ...common])
        assert.strictEqual(plan.status, 0, plan.stdout + plan.stderr)
        assert.match(
          plan.stdout,
          /Quick conversion as at 2025-12-31: 106 open items as conversion documents, a trial balance journal of 30 lines, from TrialBalance\.csv, AgedReceivablesDetail\.csv, AgedPayablesDetail\.csv/
        )
        // Again with reviewed copies of the maps: the same plan, and the plan says which maps reconcile must use.
        const reviewed = NodePath.join(dir, "reviewed-maps")
        NodeFs.cpSync(NodePath.resolve(import.meta.dirname, "../../mappings/xero"), reviewed, {
          recursive: true
        })
        const again = yield* cli([
          "plan",
          "--mode",
          "quick",
          "--as-at",
          "2025-12-31",
          "--mappings",
          reviewed,
          ...common
        ])
        const hash = (out: string) => /Plan hash: (\w+)/.exec(out)?.[1]
        assert.strictEqual(hash(again.stdout), hash(plan.stdout), "the same files and options, the same plan")
        const meta = yield* PlanStore.meta.pipe(Effect.provide(layers(s, workspace)))
        assert.deepStrictEqual(meta?.conversion, {
          mode: "quick",
          asAt: "2025-12-31",
          files: ["TrialBalance.csv", "AgedReceivablesDetail.csv", "AgedPayablesDetail.csv"],
          mappings: reviewed
        })
        // The converted books' dates: reconcile reads the target over them while it reads the books again.
        assert.deepStrictEqual(meta?.span, {
          first: "2025-01-01",
          last: "2025-12-31",
          reports: "2025-12-31",
          credits: true
        })

        const code = yield* Effect.promise(() =>
          loadAndKill([...common, "--concurrency", "4"], { JK_API_KEY: apiKey }, requestLog, 150)
        )
        assert.notStrictEqual(code, 0, "the load was killed before it finished")
        const resumed = yield* cli(["load", ...common])
        assert.strictEqual(resumed.status, 0, resumed.stdout + resumed.stderr)
        const ops = yield* PlanStore.ops.pipe(Effect.provide(layers(s, workspace)))
        yield* Effect.promise(() => assertExactlyOnce(s, ops))

        const reconcile = yield* cli(["reconcile", ...common])
        assert.strictEqual(reconcile.status, 0, reconcile.stdout + reconcile.stderr)
        assert.match(reconcile.stdout, /Reconciliation: MATCHES/)
        assert.match(reconcile.stdout, /trial balance at 2025-12-31: 30 accounts, total difference 0\.00/)
        assert.match(reconcile.stdout, /AR at 2025-12-31: 23 contacts, difference 0\.00/)
        assert.match(reconcile.stdout, /AP at 2025-12-31: 16 contacts, difference 0\.00/)
        assert.match(
          reconcile.stdout,
          /AR Conversion Clearing 0\.00 at 2025-12-31, AP Conversion Clearing 0\.00 at 2025-12-31/
        )
        const report = JSON.parse(
          NodeFs.readFileSync(/Report: (.*)report\.html/.exec(reconcile.stdout)![1] + "report.json", "utf8")
        )
        assert.strictEqual(report.header.conversion, "Quick conversion as at 2025-12-31")

        const rollback = yield* cli(["rollback", ...common])
        assert.strictEqual(rollback.status, 0, rollback.stdout + rollback.stderr)
        const after = {
          invoices: (yield* Effect.promise(() => searchAll(s, "invoices", "reference"))).length,
          journals: (yield* Effect.promise(() => searchAll(s, "journals", "reference"))).length
        }
        assert.deepStrictEqual(after, before, "the conversion documents and the journal are gone")
        const clearing = (yield* Effect.promise(() => searchAll(s, "chart-of-accounts", "name"))).filter(
          (a) => String(a.name).includes("Conversion Clearing")
        )
        assert.deepStrictEqual(clearing, [], "so are the clearing accounts")
      }),
    240_000
  )

  it.scopedLive(
    "at a mid-year date: year-to-date results, open foreign items valued from the report, and a match",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("quick-mid")
        const input = NodePath.join(dir, "in")
        generateCompany({ invoices: 150, seed: 42, out: input, alsoAt: ["2025-06-30"] })
        const r = yield* cli([
          "demo",
          "--input",
          input,
          "--mode",
          "quick",
          "--as-at",
          "2025-06-30",
          "--runs-dir",
          NodePath.join(dir, "runs")
        ])
        assert.strictEqual(r.status, 0, r.stdout + r.stderr)
        assert.match(r.stdout, /Quick conversion as at 2025-06-30: \d+ open items as conversion documents/)
        assert.match(r.stdout, /trial balance at 2025-06-30: \d+ accounts, total difference 0\.00/)
        assert.match(
          r.stdout,
          /AR Conversion Clearing 0\.00 at 2025-06-30, AP Conversion Clearing 0\.00 at 2025-06-30/
        )
        assert.match(r.stdout, /Reconciliation: MATCHES/)
      }),
    240_000
  )
})
