/** `extract`: stream a source's export files into the workspace's staging database. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Pipeline from "../Pipeline.js"
import * as Run from "../Run.js"
import { exitWith, runsDir, staging, workspace } from "../common.js"

export const extract = Command.make(
  "extract",
  {
    source: Options.choice("source", ["xero"]).pipe(
      Options.withDescription("the system the exports come from")
    ),
    input: Options.directory("input", { exists: "yes" }).pipe(
      Options.withDescription("the directory of export files")
    ),
    workspace,
    runsDir
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        const run = yield* Run.open(args.runsDir, "extract", { workspace: args.workspace, input: args.input })
        const files = yield* Pipeline.extract(args.input).pipe(Effect.provide(Run.loggerLayer(run)))
        const rejected = files.reduce((n, f) => n + f.rejected, 0)
        yield* Run.record(run, { files, finishedAt: new Date().toISOString() })
        return rejected > 0 ? 1 : 0
      }).pipe(Effect.provide(staging(args.workspace)))
    )
).pipe(
  Command.withDescription(
    "Extract a source system's export files into staging, every row with its file:line."
  )
)
