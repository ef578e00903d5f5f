/**
 * The target a workspace writes to. Its checkpoints hold the resource ids of one target's records, so a
 * workspace that has written to one target must not load into, or roll back from, another: a rehearsal
 * workspace pointed at the real platform would find every operation `done` and send nothing, and a rollback
 * would delete ids the other target does not have and forget the records it made. This module keeps the
 * binding (`workspace_target`, one row once a load has begun); `load/TargetBinding` decides, against the
 * target, whether a load or rollback may go ahead.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/** A load or rollback aimed at another target than the one the workspace's records are in. */
export class WorkspaceTargetMismatch extends Schema.TaggedError<WorkspaceTargetMismatch>()(
  "WorkspaceTargetMismatch",
  { bound: Schema.String, requested: Schema.String, written: Schema.Number }
) {
  override get message() {
    return (
      `this workspace has ${this.written} record(s) in ${this.bound}, and is now pointed at ${this.requested}, ` +
      `which does not hold them: its checkpoints hold the ids of the first target's records, so it would skip ` +
      `or delete the wrong ones. To migrate into ${this.requested}, extract into a new workspace (or copy this ` +
      `one before its first load); to move this workspace, roll it back from ${this.bound} first.`
    )
  }
}

/** A record this workspace wrote, as its checkpoint and plan operation know it. */
export interface Written {
  readonly key: string
  readonly kind: string
  readonly resourceId: string
  readonly body: unknown
}

/**
 * Operations whose records are (or may be) in the bound target. An enabled currency does not count: it has
 * no id, rollback leaves it enabled (the platform cannot disable one), and enabling it again is harmless.
 */
export const written = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ n: number }>`
    SELECT count(*) AS n FROM checkpoints c JOIN plan_ops p ON p.key = c.key
    WHERE c.status IN ('done', 'sending', 'in_doubt') AND p.kind <> 'currency'`
  return row?.n ?? 0
}).pipe(Effect.orDie)

/** Up to `limit` records the workspace wrote, of `kinds`, with their ids (the first by plan order). */
export const sample = (kinds: ReadonlyArray<string>, limit: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ key: string; kind: string; resource_id: string; body: string }>`
      SELECT c.key, p.kind, c.resource_id, p.body FROM checkpoints c JOIN plan_ops p ON p.key = c.key
      WHERE c.status = 'done' AND c.resource_id IS NOT NULL AND ${sql.in("p.kind", kinds)}
      ORDER BY p.seq LIMIT ${limit}`
    return rows.map((r): Written => ({
      key: r.key,
      kind: r.kind,
      resourceId: r.resource_id,
      body: JSON.parse(r.body)
    }))
  }).pipe(Effect.orDie)

/** The origin the workspace is bound to, if any. */
export const bound = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ base_url: string }>`SELECT base_url FROM workspace_target WHERE id = 1`
  return row?.base_url
}).pipe(Effect.orDie)

/**
 * Binds the workspace to `origin`. With `fresh`, the new target starts from nothing: what the workspace
 * knew of the old one (its enabled currencies, its refusals, its rollback's log) says nothing of it.
 */
export const bindTo = (origin: string, fresh: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = new Date().toISOString()
    yield* sql.withTransaction(
      Effect.gen(function* () {
        if (fresh) {
          yield* sql`UPDATE checkpoints SET status = 'pending', resource_id = NULL, error = NULL, origin = NULL,
            updated_at = ${now} WHERE status <> 'pending'`
          yield* sql`DELETE FROM rollback_ops`
        }
        yield* sql`INSERT INTO workspace_target (id, base_url, bound_at) VALUES (1, ${origin}, ${now})
          ON CONFLICT (id) DO UPDATE SET base_url = excluded.base_url, bound_at = excluded.bound_at`
      })
    )
  }).pipe(Effect.orDie)
