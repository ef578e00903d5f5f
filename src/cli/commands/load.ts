/** `load`: execute the plan against the target, resumable and never sending a completed operation twice. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
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
