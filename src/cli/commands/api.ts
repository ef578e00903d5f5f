/** `api <endpoint>`: generate the OpenAPI 3.0 document of one endpoint, review it, and write it when approved. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Answers from "../../api/Answers.js"
import * as Approval from "../../api/Approval.js"
import { fieldUsage } from "../../api/Fields.js"
import * as Resource from "../../api/Resource.js"
import { exitWith } from "../common.js"

export const api = Command.make(
  "api",
  {
    endpoint: Args.text({ name: "endpoint" }).pipe(
      Args.withDescription("the resource, plural (products, line-items), or auth for the login endpoint")
    ),
    fields: Options.text("field").pipe(
      Options.repeated,
      Options.withDescription(
        `a field of the resource, ${fieldUsage}; repeat for more. Replaces the built-in fields of known resources`
      )
    ),
    outDir: Options.directory("out-dir").pipe(
      Options.withDefault("docs/api"),
      Options.withDescription("where the document (<endpoint>.yaml) and rejections.log are written")
    ),
    yes: Options.boolean("yes").pipe(
      Options.withAlias("y"),
      Options.withDescription("approve without asking, replacing an existing document")
    )
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        const { resource, renamedFrom } = yield* Resource.resolve(args.endpoint, args.fields)
        if (renamedFrom) {
          yield* Console.error(
            `note: endpoints are plural: '${renamedFrom}' is specified as /${resource.endpoint}`
          )
        }
        return yield* Approval.review({ resource, outDir: args.outDir, yes: args.yes }).pipe(
          Effect.provide(args.yes ? Answers.none : Answers.layer)
        )
      })
    )
).pipe(
  Command.withDescription(
    "Generate docs/api/<endpoint>.yaml, the OpenAPI 3.0 document of an endpoint (list and create, or login for auth): shown, then written when approved (Y), discarded (n) or revised (reject add field NAME:TYPE, remove field NAME, rename field OLD to NEW, remove get, remove post)."
  )
)
