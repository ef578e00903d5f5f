/**
 * The rollback's durable record per operation (`rollback_ops`) and its group-commit writer. `deleting` is
 * the intent, written and awaited before each DELETE; `deleted` (200) and `gone` (404) are outcomes that
 * remove the record, and each is written in the same transaction that returns the operation's load
 * checkpoint to `pending` (no resource, no origin), so the two tables never disagree and a later `load`
 * creates the record again. `rejected` and `skipped` leave the load checkpoint `done`: the record is still
 * in the target, and the next rollback tries it again.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Checkpoints from "../staging/Checkpoints.js"
import * as CheckpointWriter from "./CheckpointWriter.js"

export type Status = "deleting" | "deleted" | "gone" | "rejected" | "skipped"

export interface Entry {
  readonly key: string
  readonly status: Status
  readonly resourceId: string | null
  readonly path: string | null
  readonly attempts: number
  readonly error: string | null
}

export interface Update {
  readonly key: string
  readonly status: Status
  readonly resourceId?: string | null
  readonly path?: string | null
  readonly error?: string | null
  /** Counts one more attempt (an intent before a DELETE). */
  readonly attempt?: boolean
}

/** What the load checkpoint of a removed record says afterwards (shown by `status`). */
export const resetNote = "rolled back: removed from the target by rollback; load creates it again"

const removes = (s: Status) => s === "deleted" || s === "gone"

/** Every entry, keyed by operation key. */
export const all = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{
    key: string
    status: Status
    resource_id: string | null
    path: string | null
    attempts: number
    error: string | null
  }>`SELECT key, status, resource_id, path, attempts, error FROM rollback_ops`
  return new Map(
    rows.map((r): [string, Entry] => [
      r.key,
      {
        key: r.key,
        status: r.status,
        resourceId: r.resource_id,
        path: r.path,
        attempts: r.attempts,
        error: r.error
      }
    ])
  )
}).pipe(Effect.orDie)

/** Applies updates in one transaction, resetting the load checkpoint of every record removed. */
export const write = (updates: ReadonlyArray<Update>) =>
  Effect.gen(function* () {
    if (updates.length === 0) return
    const sql = yield* SqlClient.SqlClient
    const now = new Date().toISOString()
    yield* sql.withTransaction(
      Effect.gen(function* () {
        for (const u of updates) {
          yield* sql`INSERT INTO rollback_ops (key, status, resource_id, path, attempts, error, updated_at)
            VALUES (${u.key}, ${u.status}, ${u.resourceId ?? null}, ${u.path ?? null}, ${u.attempt ? 1 : 0},
              ${u.error ?? null}, ${now})
            ON CONFLICT (key) DO UPDATE SET
              status = excluded.status,
              resource_id = ${u.resourceId === undefined ? sql`rollback_ops.resource_id` : u.resourceId},
              path = ${u.path === undefined ? sql`rollback_ops.path` : u.path},
              attempts = rollback_ops.attempts + excluded.attempts,
              error = ${u.error === undefined ? sql`rollback_ops.error` : u.error},
              updated_at = excluded.updated_at`
        }
        yield* Checkpoints.write(
          updates
            .filter((u) => removes(u.status))
            .map((u) => ({ key: u.key, status: "pending", resourceId: null, error: resetNote, origin: null }))
        )
      })
    )
  }).pipe(Effect.orDie)

/** The rollback's group-commit writer: intents awaited before each DELETE, outcomes written in batches. */
export const writer = CheckpointWriter.makeFor(write)
