/** `status`: where a workspace's load stands, per phase (reads staging only; no network). */
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as PlanStore from "../../staging/PlanStore.js"
import * as Pipeline from "../Pipeline.js"
import { exitWith, staging, workspace } from "../common.js"

export const status = Command.make("status", { workspace }, (args) =>
  exitWith(
    Effect.gen(function* () {
      const meta = yield* PlanStore.meta
      if (!meta) {
        yield* Console.log("No plan in this workspace yet: run extract, then plan.")
        return 1
      }
      yield* Console.log(`Plan ${meta.planHash}`)
      yield* Pipeline.printStatus
      return 0
    }).pipe(Effect.provide(staging(args.workspace)))
  )
).pipe(
  Command.withDescription(
    "Show per phase how many operations are planned, done, rejected, skipped, in doubt and remaining."
  )
)
