/**
 * `sandbox`: run the embedded emulator of the platform on loopback, with optional persistent state and faults,
 * from the shipped organisation or any organisation file (`--organisation`; a bad file is refused naming its
 * first bad field).
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { startSandbox, type SandboxOptions } from "../../sandbox/Sandbox.js"
import { exitWith } from "../common.js"

const num = (name: string, description: string) =>
  Options.float(name).pipe(Options.optional, Options.withDescription(description))

export const sandbox = Command.make(
  "sandbox",
  {
    port: Options.integer("port").pipe(
      Options.withDefault(0),
      Options.withDescription("port on 127.0.0.1 (0: a free one)")
    ),
    state: Options.file("state").pipe(
      Options.optional,
      Options.withDescription("SQLite file that keeps the sandbox's state across restarts")
    ),
    latencyMs: num("latency-ms", "network time added to each answer, after the work is done"),
    jitterMs: num("jitter-ms", "random extra latency, up to this"),
    rateLimit: num("rate-limit", "requests per second per API key; beyond it 429 with Retry-After"),
    failRate: num("fail-rate", "probability of a 500/502/503 before processing"),
    resetRate: num("reset-rate", "probability of a connection reset before processing"),
    dropAfterCommitRate: num(
      "drop-after-commit-rate",
      "probability of committing a write, then dropping the connection"
    ),
    seed: num("seed", "seed of the fault sequence"),
    organisation: Options.file("organisation", { exists: "yes" }).pipe(
      Options.optional,
      Options.withDescription(
        "the organisation file to start from (format of src/sandbox/fixtures/default-organization.json; a rehearsal's mirror is one); default: the shipped demo organisation"
      )
    ),
    requestLog: Options.file("request-log").pipe(
      Options.optional,
      Options.withDescription("NDJSON log of every request")
    )
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        const faults = Object.fromEntries(
          (
            [
              "latencyMs",
              "jitterMs",
              "rateLimit",
              "failRate",
              "resetRate",
              "dropAfterCommitRate",
              "seed"
            ] as const
          ).flatMap((k) => (Option.isSome(args[k]) ? [[k, args[k].value]] : []))
        )
        const options: SandboxOptions = {
          port: args.port,
          faults,
          ...(Option.isSome(args.state) ? { statePath: args.state.value } : {}),
          ...(Option.isSome(args.organisation) ? { fixture: args.organisation.value } : {}),
          ...(Option.isSome(args.requestLog) ? { requestLog: args.requestLog.value } : {})
        }
        const running = yield* Effect.acquireRelease(
          Effect.tryPromise({ try: () => startSandbox(options), catch: (e) => e as Error }),
          (s) => Effect.promise(() => s.close())
        )
        yield* Console.log(
          `Sandbox listening on ${running.url} (any API key starting with jk-). Ctrl-C stops it.`
        )
        return yield* Effect.never
      }).pipe(Effect.scoped)
    )
).pipe(
  Command.withDescription(
    "Run the embedded emulator of the platform's API on loopback (double-entry ledger, injectable faults)."
  )
)
