/**
 * The rehearsals of a workspace's plan (`rehearsal`, migration 0008): the last clean one (every operation done
 * in the mirror) and the last that was not, each with the plan hash it rehearsed, the hash of the snapshot of
 * the real target it mirrored and the rehearsed operations (key → body hash).
 *
 * Held: a `load` whose plan is not the one of the last clean rehearsal is told so, with the operations that
 * differ (`changes`), and refused unless forced (`RehearsalMismatch`); with no clean rehearsal a load goes on
 * as before. A rehearsal records here and nowhere else in the real workspace: its load runs in a copy.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

export interface Rehearsal {
  readonly planHash: string
  readonly snapshotHash: string
  readonly clean: boolean
  readonly verdict: string
  readonly runId: string
  readonly at: string
  /** The rehearsed operations: key → body hash. */
  readonly ops: Readonly<Record<string, string>>
}

/** Records a rehearsal, replacing the previous one of its kind (clean or not). */
export const record = (r: Rehearsal) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT OR REPLACE INTO rehearsal (clean, plan_hash, snapshot_hash, verdict, run_id, at, ops)
      VALUES (${r.clean ? 1 : 0}, ${r.planHash}, ${r.snapshotHash}, ${r.verdict}, ${r.runId}, ${r.at},
        ${JSON.stringify(r.ops)})`
  }).pipe(Effect.orDie)

/** The last clean rehearsal (`clean`) or the last one that was not, if any. */
export const last = (clean: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{
      plan_hash: string
      snapshot_hash: string
      verdict: string
      run_id: string
      at: string
      ops: string
    }>`SELECT plan_hash, snapshot_hash, verdict, run_id, at, ops FROM rehearsal WHERE clean = ${clean ? 1 : 0}`
    if (row === undefined) return undefined
    return {
      planHash: row.plan_hash,
      snapshotHash: row.snapshot_hash,
      clean,
      verdict: row.verdict,
      runId: row.run_id,
      at: row.at,
      ops: JSON.parse(row.ops) as Record<string, string>
    } satisfies Rehearsal
  }).pipe(Effect.orDie)

/** Forgets any rehearsal (the rehearsal's own copy of the workspace starts without one). */
export const clear = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM rehearsal`
}).pipe(Effect.orDie)

/** How the current plan differs from the rehearsed one, operation by operation (keys, sorted). */
export interface Changes {
  readonly added: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
  readonly changed: ReadonlyArray<string>
}

export const changes = (
  rehearsed: Readonly<Record<string, string>>,
  current: ReadonlyArray<{ readonly key: string; readonly bodyHash: string }>
): Changes => {
  const now = new Map(current.map((o) => [o.key, o.bodyHash]))
  const sorted = (xs: Array<string>) => xs.sort()
  return {
    added: sorted([...now.keys()].filter((k) => rehearsed[k] === undefined)),
    removed: sorted(Object.keys(rehearsed).filter((k) => !now.has(k))),
    changed: sorted(
      [...now].filter(([k, h]) => rehearsed[k] !== undefined && rehearsed[k] !== h).map(([k]) => k)
    )
  }
}

const listed = (label: string, keys: ReadonlyArray<string>) =>
  keys.length === 0
    ? []
    : [
        `${label} (${keys.length}): ${keys.slice(0, 20).join(", ")}${keys.length > 20 ? `, and ${keys.length - 20} more` : ""}`
      ]

/** A load of a plan that is not the one the last clean rehearsal rehearsed. */
export class RehearsalMismatch extends Schema.TaggedError<RehearsalMismatch>()("RehearsalMismatch", {
  rehearsedPlan: Schema.String,
  currentPlan: Schema.String,
  runId: Schema.String,
  /** A later rehearsal of this very plan that was not clean. */
  unclean: Schema.optional(Schema.String),
  added: Schema.Array(Schema.String),
  removed: Schema.Array(Schema.String),
  changed: Schema.Array(Schema.String)
}) {
  override get message() {
    const lines = [
      ...listed("added", this.added),
      ...listed("removed", this.removed),
      ...listed("changed", this.changed)
    ]
    return [
      `the plan to load (${this.currentPlan.slice(0, 12)}) is not the one cleanly rehearsed in ${this.runId} (${this.rehearsedPlan.slice(0, 12)})${this.unclean ? `; its own rehearsal ${this.unclean} was not clean (see its rehearsal.html)` : ""}: operations differ from that rehearsal:`,
      ...(lines.length > 0 ? lines : ["the same operations, in another order or with other source rows"]).map(
        (l) => `  ${l}`
      ),
      "Run rehearse again until this plan rehearses clean, or pass --force to load it anyway."
    ].join("\n")
  }
}

/** The stored plan's operations as key and body hash (no bodies: cheap on a large plan). */
export const planKeys = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{
    key: string
    body_hash: string
  }>`SELECT key, body_hash FROM plan_ops ORDER BY seq`
  return rows.map((r) => ({ key: r.key, bodyHash: r.body_hash }))
}).pipe(Effect.orDie)

/** What `load` knows of the rehearsal before it starts. */
export type Gate =
  | { readonly kind: "none"; readonly unclean?: Rehearsal }
  | { readonly kind: "rehearsed"; readonly rehearsal: Rehearsal }
  | { readonly kind: "forced"; readonly rehearsal: Rehearsal; readonly changes: Changes }

/**
 * Checks the stored plan against the last clean rehearsal: none (go on as before; `unclean` is a rehearsal of
 * this plan that was not clean, to mention), the same plan (go on), or another plan — refused with the changed
 * operations unless `force`.
 */
export const gate = (planHash: string, force: boolean) =>
  Effect.gen(function* () {
    const r = yield* last(true)
    const u = yield* last(false)
    const unclean =
      u !== undefined && u.planHash === planHash && (r === undefined || u.at > r.at) ? u : undefined
    if (r === undefined) return (unclean ? { kind: "none", unclean } : { kind: "none" }) as Gate
    if (r.planHash === planHash) return { kind: "rehearsed", rehearsal: r } as Gate
    const c = changes(r.ops, yield* planKeys)
    if (!force)
      return yield* new RehearsalMismatch({
        rehearsedPlan: r.planHash,
        currentPlan: planHash,
        runId: r.runId,
        ...(unclean ? { unclean: unclean.runId } : {}),
        ...c
      })
    return { kind: "forced", rehearsal: r, changes: c } as Gate
  })
