/** `reconcile`: read the target back and prove it matches the source; exit 0 only when it does. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Pipeline from "../Pipeline.js"
import * as Run from "../Run.js"
import { apiKeyFile, baseUrl, exitWith, runsDir, staging, target, workspace } from "../common.js"

export const reconcile = Command.make(
  "reconcile",
  {
    workspace,
    baseUrl,
    apiKeyFile,
    runsDir,
    asAt: Options.text("as-at").pipe(
      Options.optional,
      Options.withDescription("YYYY-MM-DD; default: the last date in the source")
    )
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        const run = yield* Run.open(args.runsDir, "reconcile", {
          workspace: args.workspace,
          baseUrl: args.baseUrl
        })
        const { result, paths } = yield* Pipeline.reconcile(run, Option.getOrUndefined(args.asAt)).pipe(
          Effect.provide(Run.loggerLayer(run))
        )
        yield* Run.record(run, {
          matches: result.matches,
          report: paths,
          finishedAt: new Date().toISOString()
        })
        return result.matches ? 0 : 1
      }).pipe(
        Effect.provide(target(args.baseUrl, args.apiKeyFile, 8)),
        Effect.provide(staging(args.workspace))
      )
    )
).pipe(
  Command.withDescription(
    "Compare the target with the source: counts, document totals, payments, balances, AR/AP, trial balance."
  )
)
