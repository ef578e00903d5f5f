/**
 * `demo` (what `npm start` runs): the bundled Xero sample migrated into an embedded sandbox on a free
 * loopback port — extract, plan, load, reconcile — ending with the reconciliation report.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Layer from "effect/Layer"
import { randomBytes } from "node:crypto"
import * as NodePath from "node:path"
import * as Extract from "../../extract/Extract.js"
import * as TargetApi from "../../load/TargetApi.js"
import { startSandbox } from "../../sandbox/Sandbox.js"
import * as Pipeline from "../Pipeline.js"
import * as Run from "../Run.js"
import { scratchSandbox } from "./plan.js"
import { asAt, concurrency, cutOver, exitWith, from, mode, runsDir, staging } from "../common.js"
import { resource } from "../../Resources.js"
import * as Sources from "../../transform/Sources.js"
import { SOURCE_IDS } from "../../transform/Sources.js"

export const demo = Command.make(
  "demo",
  {
    source: Options.choice("source", SOURCE_IDS).pipe(
      Options.withDefault("xero" as const),
      Options.withDescription("the source system whose bundled sample (or --input) to migrate")
    ),
    input: Options.directory("input", { exists: "yes" }).pipe(
      Options.optional,
      Options.withDescription("an export directory of --source (default: that source's bundled sample)")
    ),
    runsDir,
    concurrency,
    mode,
    asAt,
    from
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        const started = Date.now()
        const cutover = yield* cutOver(args.mode, args.asAt, args.from)
        const source = Sources.profile(args.source)
        const inputDir = Option.getOrElse(args.input, () => resource(source.demo.sample))
        const input = yield* Extract.survey({ source: args.source, inputDir })
        const run = yield* Run.open(args.runsDir, "demo", { source: args.source, input: inputDir })
        const organisation = source.demo.organisation
        const sandbox = yield* Effect.acquireRelease(
          Effect.promise(() =>
            startSandbox({
              port: 0,
              ...(organisation !== undefined ? { fixture: resource(organisation) } : {})
            })
          ),
          (s) => Effect.promise(() => s.close())
        )
        yield* Console.log(`Sandbox on ${sandbox.url}; workspace ${NodePath.join(run.dir, "workspace")}`)
        const apiKey = `jk-demo-${randomBytes(8).toString("hex")}`
        const layers = Layer.mergeAll(
          staging(NodePath.join(run.dir, "workspace")),
          TargetApi.layer({ baseUrl: sandbox.url, apiKey, connections: args.concurrency }),
          Run.loggerLayer(run)
        )
        const outcome = yield* Effect.gen(function* () {
          yield* Pipeline.extract(input)
          const workspace = NodePath.join(run.dir, "workspace")
          const plan = yield* Pipeline.plan(undefined, cutover, {
            workspace,
            preview: { dir: workspace, scratch: scratchSandbox }
          })
          const load = yield* Pipeline.load(run, { concurrency: args.concurrency, retryRejected: false })
          const rec = yield* Pipeline.reconcile(run, undefined)
          return { plan, load, rec }
        }).pipe(Effect.provide(layers))
        const seconds = (Date.now() - started) / 1000
        yield* Run.record(run, {
          planHash: outcome.plan.hash,
          complete: outcome.load.complete,
          matches: outcome.rec.result.matches,
          verdict: outcome.rec.result.verdict,
          seconds,
          finishedAt: new Date().toISOString()
        })
        yield* Console.log(
          `Demo finished in ${seconds.toFixed(1)} s: ${outcome.rec.result.verdict}. Open ${outcome.rec.paths.html} (the workbook: ${outcome.rec.paths.xlsx}); the plan's preview before the load: ${outcome.plan.preview?.html ?? "not written"}`
        )
        return outcome.load.complete && outcome.rec.result.matches ? 0 : 1
      }).pipe(Effect.scoped)
    )
).pipe(
  Command.withDescription(
    "Migrate a bundled sample (Xero by default; --source picks another, --input DIR another folder) into an embedded sandbox and reconcile it: its whole history; with --mode quick --as-at 2025-12-31 the opening position at that date; with --from DATE every transaction from DATE on top of the opening position the day before (the input must hold the reports at that day: npm run sample -- --also-at)."
  )
)
