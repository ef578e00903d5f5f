/**
 * What the commands share: their options (workspace, base URL, API key file, runs directory), the layers
 * they are composed from (staging per workspace, the network layer only for commands that talk to the
 * target), and how a failure is shown: one clear message and an exit code, never a stack trace.
 */
import * as Options from "@effect/cli/Options"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as NodeFs from "node:fs"
import * as StagingDb from "../staging/StagingDb.js"
import * as TargetApi from "../load/TargetApi.js"
import { TargetConfigError } from "../load/TargetErrors.js"
import * as Dates from "../transform/Dates.js"

export const workspace = Options.directory("workspace").pipe(
  Options.withDescription("the migration's workspace directory (holds staging.db; created if missing)")
)
export const baseUrl = Options.text("base-url").pipe(
  Options.withDescription("the platform's base URL (https://…, or http:// on loopback), without /api/v1")
)
export const apiKeyFile = Options.file("api-key-file", { exists: "yes" }).pipe(
  Options.optional,
  Options.withDescription("a file holding the API key (otherwise the JK_API_KEY environment variable)")
)
export const runsDir = Options.directory("runs-dir").pipe(
  Options.withDefault("runs"),
  Options.withDescription("where run artifacts (manifest, log, reports) are written")
)
export const concurrency = Options.integer("concurrency").pipe(
  Options.withDefault(8),
  Options.withDescription("requests in flight at once")
)
export const maxRate = Options.float("max-rate").pipe(
  Options.optional,
  Options.withDescription("requests per second never to exceed (default: adapt to the target's 429s)")
)
export const mappings = Options.directory("mappings", { exists: "yes" }).pipe(
  Options.optional,
  Options.withDescription("a directory of reviewed mapping overrides (same file names as mappings/xero)")
)

/** The staging database of a workspace (created with its directory if missing). */
export const staging = (dir: string) => StagingDb.layer(StagingDb.pathIn(dir))

/** The API key: from `--api-key-file`, else `JK_API_KEY`; never echoed. */
export const apiKey = (file: Option.Option<string>) =>
  Effect.gen(function* () {
    const key = Option.isSome(file)
      ? NodeFs.readFileSync(file.value, "utf8").trim()
      : (process.env.JK_API_KEY ?? "").trim()
    if (key === "") {
      return yield* new TargetConfigError({
        detail: "no API key: set JK_API_KEY or pass --api-key-file FILE"
      })
    }
    return key
  })

/** The network layer for `url` with the key from the environment or a file. */
export const target = (url: string, file: Option.Option<string>, connections = 64) =>
  Layer.unwrapEffect(
    Effect.map(apiKey(file), (key) => TargetApi.layer({ baseUrl: url, apiKey: key, connections }))
  )

/** One line for any failure: the error's own message (they say what, where, why and how to fix). */
export const describe = (cause: Cause.Cause<unknown>): string => {
  const e = Cause.squash(cause)
  if (e instanceof Error || (typeof e === "object" && e !== null && "message" in e))
    return String((e as Error).message)
  return String(e)
}

/**
 * Runs a command body that yields an exit code (0 complete, 1 incomplete or not matching) and turns any
 * failure into `error: …` on stderr with exit code 2.
 */
export const exitWith = <R>(body: Effect.Effect<number, unknown, R>): Effect.Effect<void, never, R> =>
  body.pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.succeed(130)
        : Console.error(`error: ${describe(cause)}`).pipe(Effect.as(2))
    ),
    Effect.flatMap((code) => Effect.sync(() => void (process.exitCode = code)))
  )

/** `--mode`: a full migration, or a quick conversion at a cut-over date. */
export const mode = Options.choice("mode", ["full", "quick"]).pipe(
  Options.withDefault("full" as const),
  Options.withDescription(
    "full: every transaction of the history; quick: the opening position at --as-at (the trial balance, and each open invoice, bill and credit as a conversion document)"
  )
)

export const asAt = Options.text("as-at").pipe(
  Options.optional,
  Options.withDescription("YYYY-MM-DD: the cut-over date of a quick conversion (required with --mode quick)")
)

/** `--from`: the start date of a full conversion from that date on top of an opening position. */
export const from = Options.text("from").pipe(
  Options.optional,
  Options.withDescription(
    "YYYY-MM-DD: migrate every transaction from this date on, on top of the opening position the day before (from the source's Trial Balance and aged reports at that day)"
  )
)

/** How the books are converted: the whole history, a quick conversion at a date, or a conversion from a date. */
export type Cutover =
  | { readonly mode: "quick"; readonly asAt: string }
  | { readonly mode: "from"; readonly from: string }
  | undefined

const realDate = (d: string) => Schema.is(Dates.DateString)(d)

/** The conversion the options ask for; a wrong combination or a date that is not YYYY-MM-DD fails. */
export const cutOver = (
  m: "full" | "quick",
  date: Option.Option<string>,
  start: Option.Option<string> = Option.none()
): Effect.Effect<Cutover, Error> => {
  const d = Option.getOrUndefined(date)
  const f = Option.getOrUndefined(start)
  if (m === "quick" && (d === undefined || !realDate(d)))
    return Effect.fail(
      new Error(
        `--mode quick needs --as-at YYYY-MM-DD, the cut-over date (given: ${d ?? "none"}): the date of the source's Trial Balance and aged reports to open from`
      )
    )
  if (m === "full" && d !== undefined)
    return Effect.fail(
      new Error("--as-at is the cut-over date of --mode quick; leave it out for a full migration")
    )
  if (f !== undefined && m === "quick")
    return Effect.fail(
      new Error(
        "--from and --mode quick are two ways to migrate: a quick conversion moves the opening position at --as-at only, --from moves every transaction from that date on top of it; choose one"
      )
    )
  if (f !== undefined && !realDate(f))
    return Effect.fail(new Error(`--from needs a date as YYYY-MM-DD (given: ${f})`))
  if (f !== undefined) return Effect.succeed({ mode: "from", from: f })
  return Effect.succeed(m === "quick" && d !== undefined ? { mode: "quick", asAt: d } : undefined)
}
