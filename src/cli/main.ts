/** The `ledger-migrate` command line: layers are composed in the commands, nowhere else. */
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import { api } from "./commands/api.js"
import { demo } from "./commands/demo.js"
import { extract } from "./commands/extract.js"
import { load } from "./commands/load.js"
import { plan } from "./commands/plan.js"
import { reconcile } from "./commands/reconcile.js"
import { rehearse } from "./commands/rehearse.js"
import { review } from "./commands/review.js"
import { rollback } from "./commands/rollback.js"
import { sandbox } from "./commands/sandbox.js"
import { status } from "./commands/status.js"

const root = Command.make("ledger-migrate").pipe(
  Command.withDescription(
    "Migrate a business's books from Xero's or QuickBooks Online's exports into the accounting platform: extract, plan, load, reconcile."
  ),
  Command.withSubcommands([
    demo,
    sandbox,
    extract,
    review,
    plan,
    rehearse,
    load,
    reconcile,
    rollback,
    status,
    api
  ])
)

const cli = Command.run(root, { name: "ledger-migrate", version: "0.1.0" })

cli(process.argv).pipe(
  // @effect/cli has already printed what was wrong with the command line (and the usage): exit 2 without
  // logging the same failure again as an internal error.
  Effect.catchIf(ValidationError.isValidationError, () => Effect.sync(() => (process.exitCode = 2))),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
