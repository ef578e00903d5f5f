/** `extract`: stream a source's export files into the workspace's staging database. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Extract from "../../extract/Extract.js"
import { SOURCE_IDS } from "../../transform/Sources.js"
import * as Pipeline from "../Pipeline.js"
import * as Run from "../Run.js"
import { exitWith, runsDir, staging, workspace } from "../common.js"

export const extract = Command.make(
  "extract",
  {
    source: Options.choice("source", SOURCE_IDS).pipe(
      Options.withDescription(
        "the system the exports come from: xero, qbo (QuickBooks Online) or generic (any ledger through column profiles)"
      )
    ),
    input: Options.directory("input").pipe(
      Options.withDescription(
        "the directory of export files (.csv, .tsv, .txt, .xlsx, .xlsm), recognised by their headers"
      )
    ),
    profile: Options.file("profile").pipe(
      Options.repeated,
      Options.withDescription(
        "a column profile (JSON) for files the source's built-in layouts do not know; may be given more than once"
      )
    ),
    workspace,
    runsDir
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        // Checked before the workspace is opened: an input with nothing to extract leaves staging as it was.
        const input = yield* Extract.survey({
          source: args.source,
          inputDir: args.input,
          profileFiles: args.profile
        })
        const run = yield* Run.open(args.runsDir, "extract", { workspace: args.workspace, input: args.input })
        const files = yield* Pipeline.extract(input).pipe(
          Effect.provide(Run.loggerLayer(run)),
          Effect.provide(staging(args.workspace))
        )
        const rejected = files.reduce((n, f) => n + f.rejected, 0)
        yield* Run.record(run, { files, finishedAt: new Date().toISOString() })
        return rejected > 0 ? 1 : 0
      })
    )
).pipe(
  Command.withDescription(
    "Extract a folder of Xero, QuickBooks Online or column-profiled exports (CSV or XLSX) into the workspace's staging, every row with its file:line."
  )
)
