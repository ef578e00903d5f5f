/**
 * The rehearsal's steps as `rehearse` runs them, once a mirror of the real target is listening: copy the
 * workspace's staging into the run (`copyWorkspace`), load the stored plan into the mirror and reconcile it
 * there (`rehearse`), and gather what happened into a `RehearsalFacts` the report is written from.
 *
 * Held: the real workspace is only read (its staging is copied with `VACUUM INTO`, and the copy starts with
 * no checkpoints, no target binding and no rehearsal), and the real target is never met here: every request
 * goes to the mirror the command started. The facts hold no resource ids and no times, and are sorted, so
 * the same snapshot and plan give the same facts.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as TargetBooks from "../reconcile/TargetBooks.js"
import * as Money from "../transform/Money.js"
import * as PlanStore from "../staging/PlanStore.js"
import * as Rehearsals from "../staging/Rehearsals.js"
import { phases } from "../transform/Plan.js"
import * as Pipeline from "./Pipeline.js"
import type { Run } from "./Run.js"

/** What one operation did in the mirror. */
export type Outcome = "created" | "adopted" | "rejected" | "skipped" | "in_doubt" | "pending"

export interface RehearsalFacts {
  readonly planHash: string
  readonly snapshotHash: string
  readonly baseCurrency: string
  /** True when every operation completed in the mirror (created or adopted). */
  readonly clean: boolean
  readonly phases: ReadonlyArray<{ readonly phase: string } & Record<Outcome | "planned", number | string>>
  readonly operations: ReadonlyArray<{
    readonly key: string
    readonly phase: string
    readonly kind: string
    readonly outcome: Outcome
  }>
  readonly refused: ReadonlyArray<{
    readonly key: string
    readonly phase: string
    readonly kind: string
    readonly outcome: Outcome
    readonly message: string
    readonly lineage: ReadonlyArray<string>
  }>
  readonly trialBalance: {
    readonly asAt: string
    readonly rows: ReadonlyArray<{
      readonly account: string
      readonly code: string | null
      readonly debit: number
      readonly credit: number
    }>
    readonly totals: { readonly debit: number; readonly credit: number }
  }
  readonly reconciliation: {
    readonly verdict: string
    readonly matches: boolean
    readonly differences: number
  }
}

/** The rehearsal's own workspace inside the run: a copy of the real one's staging, without load state. */
export const copyWorkspace = (dir: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    NodeFs.mkdirSync(dir, { recursive: true })
    const file = NodePath.join(dir, "staging.db")
    NodeFs.rmSync(file, { force: true })
    yield* sql`VACUUM INTO ${file}`
    return file
  }).pipe(Effect.orDie)

/** Empties the copy's load state: a rehearsal loads as a fresh workspace would into the real target. */
export const resetCopy = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM checkpoints`
  yield* sql`DELETE FROM rollback_ops`
  yield* sql`DELETE FROM workspace_target`
  yield* Rehearsals.clear
}).pipe(Effect.orDie)

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
/** A platform message without the resource ids that differ from one mirror to the next. */
const stable = (message: string) => message.replace(UUID, "<id>")

/**
 * The mirror's trial balance at `asAt` (the reconciliation's date), read as the reconciliation reads it, by
 * account name (no resource ids); amounts become numbers only here, for the report.
 */
const trialBalance = (asAt: string) =>
  Effect.map(TargetBooks.trialBalance(asAt, asAt), (tb) => ({
    asAt,
    rows: [...tb.rows]
      .sort((a, b) => (a.accountName < b.accountName ? -1 : a.accountName > b.accountName ? 1 : 0))
      .map((r) => ({
        account: r.accountName,
        code: r.accountCode === "" ? null : r.accountCode,
        debit: Money.isNegative(r.balance) ? 0 : Money.toNumber(r.balance),
        credit: Money.isNegative(r.balance) ? Money.toNumber(Money.negate(r.balance)) : 0
      })),
    totals: { debit: Money.toNumber(tb.debit), credit: Money.toNumber(tb.credit) }
  }))

/** The outcome of each operation, from the copy's checkpoints. */
const outcomes = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{
    key: string
    phase: string
    kind: string
    status: string | null
    origin: string | null
    error: string | null
    lineage: string
  }>`SELECT p.key, p.phase, p.kind, c.status, c.origin, c.error, p.lineage
     FROM plan_ops p LEFT JOIN checkpoints c ON c.key = p.key ORDER BY p.seq`
  return rows.map((r) => ({
    key: r.key,
    phase: r.phase,
    kind: r.kind,
    outcome: (r.status === "done"
      ? r.origin === "adopted"
        ? "adopted"
        : "created"
      : (r.status ?? "pending")) as Outcome,
    message: stable(r.error ?? ""),
    lineage: JSON.parse(r.lineage) as Array<string>
  }))
}).pipe(Effect.orDie)

/**
 * Loads the stored plan into the mirror and reconciles it there (staging: the copy; TargetApi: the mirror),
 * and returns what happened.
 */
export const rehearse = (run: Run, snapshotHash: string, concurrency: number) =>
  Effect.gen(function* () {
    const meta = yield* PlanStore.meta
    if (meta === undefined) return yield* Effect.dieMessage("no plan in this workspace: run plan first")
    const load = yield* Pipeline.load(run, { concurrency, retryRejected: false })
    const ops = yield* outcomes
    const rec = yield* Pipeline.reconcile(run, undefined)
    const tb = yield* trialBalance(rec.result.header.asAt)
    const count = (phase: string, outcome: Outcome) =>
      ops.filter((o) => o.phase === phase && o.outcome === outcome).length
    const facts: RehearsalFacts = {
      planHash: meta.planHash,
      snapshotHash,
      baseCurrency: meta.baseCurrency,
      clean: load.complete && ops.every((o) => o.outcome === "created" || o.outcome === "adopted"),
      phases: phases
        .filter((p) => ops.some((o) => o.phase === p))
        .map((phase) => ({
          phase,
          planned: ops.filter((o) => o.phase === phase).length,
          created: count(phase, "created"),
          adopted: count(phase, "adopted"),
          rejected: count(phase, "rejected"),
          skipped: count(phase, "skipped"),
          in_doubt: count(phase, "in_doubt"),
          pending: count(phase, "pending")
        })),
      operations: ops.map(({ key, phase, kind, outcome }) => ({ key, phase, kind, outcome })),
      refused: ops.filter((o) => o.outcome !== "created" && o.outcome !== "adopted"),
      trialBalance: tb,
      reconciliation: {
        verdict: rec.result.verdict,
        matches: rec.result.matches,
        differences: rec.result.differences.length
      }
    }
    return { facts, reconciliationReport: rec.paths.html }
  })
