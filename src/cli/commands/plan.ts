/** `plan`: build the deterministic plan from staging, reading (never writing) the target. */
import { steadyYoungGeneration } from "../../Memory.js"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { StartScratch } from "../../preview/Projection.js"
import { loadFixture, validateOrganisation } from "../../sandbox/Fixture.js"
import { startSandbox } from "../../sandbox/Sandbox.js"
import * as Pipeline from "../Pipeline.js"
import * as Run from "../Run.js"
import {
  apiKeyFile,
  asAt,
  baseUrl,
  cutOver,
  exitWith,
  from,
  mappings,
  mode,
  runsDir,
  staging,
  target,
  workspace
} from "../common.js"

/**
 * The scratch copy of the target the plan's preview runs the plan in: an embedded sandbox on a free loopback
 * port, started on the mirror of the target (`Projection`), closed by the preview when it is done.
 */
export const scratchSandbox: StartScratch = {
  fallbackRates: () => loadFixture(undefined).platformRates,
  start: (organisation) =>
    startSandbox({ port: 0, fixture: validateOrganisation(organisation, "the mirror of the target") })
}

export const plan = Command.make(
  "plan",
  {
    workspace,
    baseUrl,
    apiKeyFile,
    mappings,
    runsDir,
    mode,
    asAt,
    from,
    noPreview: Options.boolean("no-preview").pipe(
      Options.withDescription(
        "store the plan without writing plan.html and plan.xlsx (nor running it in a scratch copy of the target)"
      )
    )
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        // Held while the books are read; the build lets it grow again (`Pipeline.build`).
        steadyYoungGeneration()
        const cutover = yield* cutOver(args.mode, args.asAt, args.from)
        const run = yield* Run.open(args.runsDir, "plan", {
          workspace: args.workspace,
          baseUrl: args.baseUrl
        })
        const result = yield* Pipeline.plan(Option.getOrUndefined(args.mappings), cutover, {
          workspace: args.workspace,
          ...(args.noPreview ? {} : { preview: { dir: args.workspace, scratch: scratchSandbox } })
        }).pipe(Effect.provide(Run.loggerLayer(run)))
        yield* Run.record(run, {
          planHash: result.hash,
          operations: result.ops,
          ...(result.preview ? { preview: result.preview } : {}),
          finishedAt: new Date().toISOString()
        })
        return result.rejects > 0 ? 1 : 0
      }).pipe(
        Effect.provide(target(args.baseUrl, args.apiKeyFile, 8)),
        Effect.provide(staging(args.workspace))
      )
    )
).pipe(
  Command.withDescription(
    "Plan every target write from the staged source and the target's chart, tax profiles, currencies and contacts (read-only). --mode quick --as-at DATE plans a quick conversion: the opening position at DATE from the source's own Trial Balance and aged reports; --from DATE plans that opening position the day before DATE and every transaction from DATE on."
  )
)
