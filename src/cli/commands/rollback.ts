/**
 * `rollback`: delete from the target what this workspace's loads created (never what they adopted), in
 * reverse dependency order; resumable like a load. Exit 0 only when every created record is gone; enabled
 * currencies cannot be disabled and are reported as left in place without counting as a failure.
 */
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Rollback from "../../load/Rollback.js"
import * as PlanStore from "../../staging/PlanStore.js"
import type { Phase } from "../../transform/Plan.js"
import * as Run from "../Run.js"
import {
  apiKeyFile,
  baseUrl,
  concurrency,
  exitWith,
  maxRate,
  runsDir,
  staging,
  target,
  workspace
} from "../common.js"

const columns = ["deleted", "gone", "earlier", "rejected", "skipped", "unfinished", "left"] as const
const header = ["deleted", "gone", "earlier", "rejected", "skipped", "unfinished", "left"]

const row = (phase: string, c: Rollback.PhaseCounts) =>
  `  ${phase.padEnd(14)}${columns.map((k) => String(c[k]).padStart(11)).join("")}`

export const rollback = Command.make(
  "rollback",
  {
    workspace,
    baseUrl,
    apiKeyFile,
    runsDir,
    concurrency,
    maxRate
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        if ((yield* PlanStore.ops).length === 0) {
          yield* Console.log(
            "No plan in this workspace: nothing was loaded, so there is nothing to roll back."
          )
          return 0
        }
        const run = yield* Run.open(args.runsDir, "rollback", {
          workspace: args.workspace,
          baseUrl: args.baseUrl,
          concurrency: args.concurrency
        })
        const started = Date.now()
        yield* Console.log(`  ${"phase".padEnd(14)}${header.map((h) => h.padStart(11)).join("")}`)
        const result = yield* Rollback.rollback({
          concurrency: args.concurrency,
          ...(Option.isSome(args.maxRate) ? { maxRate: args.maxRate.value } : {}),
          onPhase: (phase: Phase, c) => void process.stdout.write(`${row(phase, c)}\n`)
        }).pipe(Effect.provide(Run.loggerLayer(run)))
        const seconds = (Date.now() - started) / 1000
        const removed = Object.values(result.counts).reduce((n, c) => n + c.deleted + c.gone, 0)
        yield* Console.log(
          "  (gone: already absent, answered 404; earlier: removed by an earlier rollback run; left: left in place on purpose)"
        )
        const failed = result.outcomes.filter((o) => o.status !== "left")
        for (const o of failed.slice(0, 30)) yield* Console.log(`  ✗ ${o.key} ${o.status}: ${o.reason}`)
        if (failed.length > 30) yield* Console.log(`  … and ${failed.length - 30} more in ${run.dir}`)
        for (const o of result.orphans)
          yield* Console.log(
            `  ✗ ${o.key} (resourceId ${o.resourceId ?? "unknown"}) was created under an earlier plan that no longer lists it: plan again with the mappings it was loaded with, or delete it by hand`
          )
        for (const o of result.outcomes.filter((x) => x.status === "left"))
          yield* Console.log(`  · ${o.key} left in place: ${o.reason} (not a failure)`)
        yield* Console.log(
          `Rollback ${result.complete ? "complete" : "INCOMPLETE"}: ${removed} records removed (${result.deleteRequests} DELETE requests${result.throttled > 0 ? `, ${result.throttled} answered 429` : ""}) in ${seconds.toFixed(1)} s, ${result.logTransactions} log transactions.` +
            (result.complete
              ? " Every record this workspace created is gone; `load` would create them again."
              : " Fix what is listed above (or let it settle) and run rollback again: it continues where it stopped.")
        )
        yield* Run.record(run, { ...result, seconds, finishedAt: new Date().toISOString() })
        return result.complete ? 0 : 1
      }).pipe(
        Effect.provide(target(args.baseUrl, args.apiKeyFile, Math.max(8, args.concurrency))),
        Effect.provide(staging(args.workspace))
      )
    )
).pipe(
  Command.withDescription(
    "Delete from the target what this workspace created (never what it adopted), newest dependencies first; safe to run again after any interruption."
  )
)
