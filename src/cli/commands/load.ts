/**
 * `load`: execute the plan against the target, resumable and never sending a completed operation twice. When
 * the workspace was rehearsed (`rehearse`), the plan must be the rehearsed one: another plan is refused with
 * the operations that changed, unless `--force`; and before its first write the target must still be the one
 * the rehearsal mirrored (a fresh snapshot, read-only, with the same sha256), else it is refused naming what
 * changed, unless `--force`. The rehearsal's plan and snapshot hashes go in the manifest.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as NodePath from "node:path"
import * as TargetChange from "../../load/TargetChange.js"
import * as Review from "../../review/Review.js"
import * as PlanStore from "../../staging/PlanStore.js"
import * as Rehearsals from "../../staging/Rehearsals.js"
import * as WorkspaceTarget from "../../staging/WorkspaceTarget.js"
import * as Pipeline from "../Pipeline.js"
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

export const load = Command.make(
  "load",
  {
    workspace,
    baseUrl,
    apiKeyFile,
    runsDir,
    concurrency,
    maxRate,
    retryRejected: Options.boolean("retry-rejected").pipe(
      Options.withDescription(
        "attempt again the operations an earlier run had rejected or skipped (after fixing the data or mappings)"
      )
    ),
    acceptSuggestions: Options.boolean("accept-suggestions").pipe(
      Options.withDescription(
        "load although suggestions below the confidence threshold are not confirmed in review.xlsx, accepting them as suggested (they are printed)"
      )
    ),
    force: Options.boolean("force").pipe(
      Options.withDescription(
        "load a plan that differs from the one the last rehearsal rehearsed (otherwise refused, naming the changed operations)"
      )
    )
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        const run = yield* Run.open(args.runsDir, "load", {
          workspace: args.workspace,
          baseUrl: args.baseUrl,
          concurrency: args.concurrency
        })
        const meta = yield* PlanStore.meta
        for (const line of yield* Review.gate(args.workspace, yield* Review.stored, args.acceptSuggestions))
          yield* Console.log(line)
        const gate =
          meta === undefined ? { kind: "none" as const } : yield* Rehearsals.gate(meta.planHash, args.force)
        if (gate.kind === "rehearsed")
          yield* Console.log(
            `Rehearsed in ${gate.rehearsal.runId} against snapshot ${gate.rehearsal.snapshotHash.slice(0, 12)}: ${gate.rehearsal.verdict}`
          )
        if (gate.kind === "none" && gate.unclean !== undefined)
          yield* Console.log(
            `Note: this plan's rehearsal ${gate.unclean.runId} was not clean (${gate.unclean.verdict}); see its rehearsal.html`
          )
        if (gate.kind === "forced") {
          const { added, removed, changed } = gate.changes
          yield* Console.log(
            `--force: loading a plan that differs from the one rehearsed in ${gate.rehearsal.runId} (${added.length} added, ${removed.length} removed, ${changed.length} changed operations)`
          )
        }
        if (gate.kind !== "none" && (yield* WorkspaceTarget.written) === 0) {
          // Before the first write: the target must still be the one the rehearsal mirrored.
          const changed = yield* TargetChange.check(
            gate.rehearsal.snapshotHash,
            gate.rehearsal.runId,
            NodePath.join(args.workspace, "snapshot.json")
          )
          if (changed !== undefined) {
            if (!args.force) return yield* changed
            yield* Console.log(`--force: ${changed.message}`)
          }
        }
        if (gate.kind !== "none")
          yield* Run.record(run, {
            rehearsal: {
              runId: gate.rehearsal.runId,
              planHash: gate.rehearsal.planHash,
              snapshotHash: gate.rehearsal.snapshotHash,
              forced: gate.kind === "forced"
            }
          })
        const result = yield* Pipeline.load(run, {
          concurrency: args.concurrency,
          retryRejected: args.retryRejected,
          ...(Option.isSome(args.maxRate) ? { maxRate: args.maxRate.value } : {})
        }).pipe(Effect.provide(Run.loggerLayer(run)))
        yield* Run.record(run, { ...result, finishedAt: new Date().toISOString() })
        return result.complete ? 0 : 1
      }).pipe(
        Effect.provide(target(args.baseUrl, args.apiKeyFile, Math.max(8, args.concurrency))),
        Effect.provide(staging(args.workspace))
      )
    )
).pipe(Command.withDescription("Load the plan into the target; safe to run again after any interruption."))
