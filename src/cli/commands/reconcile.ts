/**
 * `reconcile`: read the target back and prove it matches the source, writing the sign-off pack (report.html,
 * report.xlsx, report.json) into the run. Exit 0 only when the independent comparison was made (the source's
 * own Trial Balance and aged reports are in the input) and nothing differs; 1 for differences, or when it is
 * NOT PROVEN for want of those reports.
 */
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
          verdict: result.verdict,
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
    "Prove the target matches the source: its trial balance per account against the source's own Trial Balance, AR/AP per contact against the source's aged reports, clearing accounts at zero, every document; writes report.html/.xlsx/.json. Exit 0 when it matches, 1 otherwise (differences, or not proven without the source's reports)."
  )
)
