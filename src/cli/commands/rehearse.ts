/**
 * `rehearse`: the real load, exactly, without one write to the real target. Snapshot the target read-only
 * (`--base-url`, saved as `WS/snapshot.json`) or take a saved snapshot (`--snapshot FILE`, offline), start an
 * embedded sandbox whose organisation is that snapshot, load the stored plan into it from a copy of the
 * workspace, reconcile there, write `rehearsal.html` and `rehearsal.json` into the run, and record the
 * rehearsal (plan and snapshot hashes) in the workspace for `load` to check.
 *
 * Held: the real target sees GETs and searches only (the snapshot), the real workspace's checkpoints are never
 * touched (the load runs in a copy inside the run directory, removed at the end), and the mirror is shut down
 * whatever happens. Exit 0 when every operation completed in the mirror and it reconciles, 1 otherwise, 2 when
 * the snapshot could not be read completely.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Mirror from "../../load/Mirror.js"
import * as MirrorSnapshot from "../../load/MirrorSnapshot.js"
import * as TargetApi from "../../load/TargetApi.js"
import { loadFixture, validateOrganisation } from "../../sandbox/Fixture.js"
import { startSandbox } from "../../sandbox/Sandbox.js"
import * as PlanStore from "../../staging/PlanStore.js"
import * as Rehearsals from "../../staging/Rehearsals.js"
import * as StagingDb from "../../staging/StagingDb.js"
import * as Rehearsal from "../Rehearsal.js"
import * as RehearsalReport from "../RehearsalReport.js"
import * as Run from "../Run.js"
import { apiKeyFile, concurrency, exitWith, runsDir, staging, target, workspace } from "../common.js"

export const rehearse = Command.make(
  "rehearse",
  {
    workspace,
    baseUrl: Options.text("base-url").pipe(
      Options.optional,
      Options.withDescription(
        "the real target's base URL, read (never written) for the snapshot the mirror is made of"
      )
    ),
    snapshot: Options.file("snapshot", { exists: "yes" }).pipe(
      Options.optional,
      Options.withDescription("rehearse offline from a saved snapshot (a WS/snapshot.json) instead")
    ),
    apiKeyFile,
    runsDir,
    concurrency
  },
  (args) =>
    exitWith(
      Effect.gen(function* () {
        if (Option.isSome(args.baseUrl) === Option.isSome(args.snapshot))
          return yield* Effect.fail(
            new Error(
              "rehearse needs either --base-url URL (snapshot the real target, read-only) or --snapshot FILE (a snapshot saved by an earlier rehearsal), not both and not neither"
            )
          )
        const planned = NodeFs.existsSync(StagingDb.pathIn(args.workspace))
          ? yield* PlanStore.meta.pipe(Effect.provide(staging(args.workspace)))
          : undefined
        if (planned === undefined)
          return yield* Effect.fail(
            new Error(
              `no plan in the workspace ${args.workspace}: a rehearsal loads the stored plan, so run extract and plan --workspace ${args.workspace} first`
            )
          )
        const run = yield* Run.open(args.runsDir, "rehearse", {
          workspace: args.workspace,
          ...(Option.isSome(args.baseUrl) ? { baseUrl: args.baseUrl.value } : {}),
          ...(Option.isSome(args.snapshot) ? { snapshot: args.snapshot.value } : {})
        })
        const snapshot = Option.isSome(args.snapshot)
          ? yield* MirrorSnapshot.load(args.snapshot.value)
          : yield* Effect.gen(function* () {
              const s = yield* MirrorSnapshot.take.pipe(
                Effect.provide(target(args.baseUrl.pipe(Option.getOrThrow), args.apiKeyFile, 8))
              )
              NodeFs.mkdirSync(args.workspace, { recursive: true })
              MirrorSnapshot.save(NodePath.join(args.workspace, "snapshot.json"), s)
              return s
            })
        yield* Console.log(
          `Snapshot ${snapshot.sha256.slice(0, 16)} of ${snapshot.baseUrl} taken ${snapshot.takenAt}: ${snapshot.content.accounts.length} accounts, ${snapshot.content.taxProfiles.length} tax profiles, ${snapshot.content.contacts.length} contacts, ${snapshot.content.items.length} items, ${snapshot.content.documents.length} documents, ${snapshot.content.journals.length} journals, ${snapshot.content.cashEntries.length} cash entries`
        )
        const organisation = Mirror.organisation(snapshot.content, loadFixture(undefined).platformRates)
        if (organisation instanceof Mirror.MirrorRefused) return yield* organisation
        const fixture = yield* Effect.try({
          try: () => validateOrganisation(organisation, "the mirror of the snapshot"),
          catch: (e) => e as Error
        })
        // The mirror's organisation, kept with the run: `sandbox --organisation` starts the same mirror again.
        NodeFs.writeFileSync(
          NodePath.join(run.dir, "mirror-organisation.json"),
          `${JSON.stringify(organisation, null, 2)}\n`
        )
        const mirror = yield* Effect.acquireRelease(
          Effect.promise(() => startSandbox({ port: 0, fixture })),
          (s) => Effect.promise(() => s.close())
        )
        const copyDir = NodePath.join(run.dir, "workspace")
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => NodeFs.rmSync(copyDir, { recursive: true, force: true }))
        )
        yield* Rehearsal.copyWorkspace(copyDir).pipe(Effect.provide(staging(args.workspace)))
        yield* Console.log(`Mirror of the target on ${mirror.url}; rehearsing in a copy of the workspace`)
        const { facts, reconciliationReport } = yield* Effect.gen(function* () {
          yield* Rehearsal.resetCopy
          return yield* Rehearsal.rehearse(run, snapshot.sha256, args.concurrency)
        }).pipe(
          Effect.provide(
            Layer.mergeAll(
              StagingDb.layer(StagingDb.pathIn(copyDir)),
              TargetApi.layer({
                baseUrl: mirror.url,
                apiKey: `jk-rehearsal-${randomBytes(8).toString("hex")}`,
                connections: Math.max(8, args.concurrency)
              }),
              Run.loggerLayer(run)
            )
          )
        )
        const paths = yield* Effect.promise(() =>
          RehearsalReport.write(
            run.dir,
            facts,
            {
              runId: run.runId,
              generatedAt: new Date().toISOString(),
              snapshotTakenAt: snapshot.takenAt,
              snapshotSource: snapshot.baseUrl
            },
            reconciliationReport
          )
        )
        yield* Effect.gen(function* () {
          const keys = yield* Rehearsals.planKeys
          yield* Rehearsals.record({
            planHash: facts.planHash,
            snapshotHash: snapshot.sha256,
            clean: facts.clean,
            verdict: RehearsalReport.summary(facts),
            runId: run.runId,
            at: new Date().toISOString(),
            ops: Object.fromEntries(keys.map((o) => [o.key, o.bodyHash]))
          })
        }).pipe(Effect.provide(staging(args.workspace)))
        yield* Run.record(run, {
          planHash: facts.planHash,
          snapshotHash: snapshot.sha256,
          clean: facts.clean,
          verdict: facts.reconciliation.verdict,
          report: paths,
          finishedAt: new Date().toISOString()
        })
        yield* Console.log(RehearsalReport.summary(facts))
        yield* Console.log(`Rehearsal: ${paths.html} (${paths.json})`)
        return facts.clean && facts.reconciliation.matches ? 0 : 1
      }).pipe(Effect.scoped)
    )
).pipe(
  Command.withDescription(
    "Rehearse the load against a mirror of the real target: snapshot it read-only (--base-url, saved as WS/snapshot.json) or use --snapshot FILE, load the plan into an embedded sandbox made of that snapshot, reconcile there, and write rehearsal.html/.json. The real target receives no write; load then checks it loads the rehearsed plan."
  )
)
