/**
 * The loader's durable record per plan operation: `pending` → `sending` (intent recorded, attempts counted)
 * → `done` (with the target resourceId) | `rejected` (the platform's reason) | `skipped` (a dependency did
 * not complete) | `in_doubt` (sent, outcome unknown: resolved by a natural-key lookup before any retry).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

export type Status = "pending" | "sending" | "done" | "rejected" | "skipped" | "in_doubt"

export interface Checkpoint {
  readonly key: string
  readonly status: Status
  readonly resourceId: string | null
  readonly attempts: number
  readonly bodyHash: string
  readonly error: string | null
  readonly origin: Origin | null
}

/** Whether the record was made by this workspace (`created`) or found already in the target (`adopted`). */
export type Origin = "created" | "adopted"

export interface Update {
  readonly key: string
  readonly status: Status
  readonly resourceId?: string | null
  readonly error?: string | null
  /** Counts one more attempt (an intent before a send). */
  readonly attempt?: boolean
  /** Counts this many more attempts (requests actually sent, recorded with the outcome). */
  readonly attempts?: number
  readonly bodyHash?: string
  readonly origin?: Origin | null
}

/**
 * Creates `pending` checkpoints for plan operations that have none yet, in load order: the table keeps its
 * rows in the order they are made, so that the operations the loader updates together share pages.
 */
export const ensure = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const now = new Date().toISOString()
  yield* sql`INSERT OR IGNORE INTO checkpoints (key, status, resource_id, attempts, body_hash, error, updated_at)
    SELECT key, 'pending', NULL, 0, body_hash, NULL, ${now} FROM plan_ops ORDER BY seq`
}).pipe(Effect.orDie)

/** Every checkpoint, creating `pending` ones for plan operations that have none yet. */
export const init = Effect.zipRight(
  ensure,
  Effect.suspend(() => all)
)

interface Row {
  key: string
  status: Status
  resource_id: string | null
  attempts: number
  body_hash: string
  error: string | null
  origin: Origin | null
}

const fromRow = (r: Row): Checkpoint => ({
  key: r.key,
  status: r.status,
  resourceId: r.resource_id,
  attempts: r.attempts,
  bodyHash: r.body_hash,
  error: r.error,
  origin: r.origin
})

/** The checkpoints of `keys` (those that have one), by key: read 500 keys a statement. */
export const ofKeys = (keys: Iterable<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const wanted = [...keys]
    const out = new Map<string, Checkpoint>()
    for (let i = 0; i < wanted.length; i += 500) {
      const rows = yield* sql<Row>`
        SELECT key, status, resource_id, attempts, body_hash, error, origin FROM checkpoints
        WHERE ${sql.in("key", wanted.slice(i, i + 500))}`
      for (const r of rows) out.set(r.key, fromRow(r))
    }
    return out
  }).pipe(Effect.orDie)

/**
 * The stored plan's operations counted per kind, in plan order (a kind where its first operation is), by
 * what their checkpoints say: done and created by us (a checkpoint of no origin was made before origins were
 * kept, by us), done and adopted, rejected, and the rest (not loaded, pending, failed). One statement: read as
 * a row per operation and per checkpoint, a 77,000-operation plan took tens of MB to count.
 */
export const countsByKind = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{
    kind: string
    planned: number
    created: number
    adopted: number
    rejected: number
  }>`
    SELECT p.kind AS kind, COUNT(*) AS planned,
      COUNT(CASE WHEN c.status = 'done' AND COALESCE(c.origin, 'created') = 'created' THEN 1 END) AS created,
      COUNT(CASE WHEN c.status = 'done' AND c.origin = 'adopted' THEN 1 END) AS adopted,
      COUNT(CASE WHEN c.status = 'rejected' THEN 1 END) AS rejected
    FROM plan_ops p LEFT JOIN checkpoints c ON c.key = p.key
    GROUP BY p.kind ORDER BY MIN(p.seq)`
}).pipe(Effect.orDie)

/** Every checkpoint, keyed by operation key. */
export const all = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows =
    yield* sql<Row>`SELECT key, status, resource_id, attempts, body_hash, error, origin FROM checkpoints`
  return new Map(rows.map((r): [string, Checkpoint] => [r.key, fromRow(r)]))
}).pipe(Effect.orDie)

/** Several updates of one key, in order, as the one update with the same effect. */
const merge = (a: Update, b: Update): Update => {
  const resourceId = b.resourceId !== undefined ? b.resourceId : a.resourceId
  const error = b.error !== undefined ? b.error : a.error
  const bodyHash = b.bodyHash ?? a.bodyHash
  const origin = b.origin !== undefined ? b.origin : a.origin
  return {
    key: a.key,
    status: b.status,
    attempts: (a.attempts ?? (a.attempt ? 1 : 0)) + (b.attempts ?? (b.attempt ? 1 : 0)),
    ...(resourceId === undefined ? {} : { resourceId }),
    ...(error === undefined ? {} : { error }),
    ...(bodyHash === undefined ? {} : { bodyHash }),
    ...(origin === undefined ? {} : { origin })
  }
}

/**
 * Applies updates in one transaction and one statement (the loader's group commit): the updates, merged
 * per key in order, travel as one JSON array; a field left out keeps its value.
 */
export const write = (updates: ReadonlyArray<Update>) =>
  Effect.gen(function* () {
    if (updates.length === 0) return
    const sql = yield* SqlClient.SqlClient
    const byKey = new Map<string, Update>()
    for (const u of updates) {
      const before = byKey.get(u.key)
      byKey.set(u.key, before === undefined ? u : merge(before, u))
    }
    const rows = [...byKey.values()].map((u) => ({
      k: u.key,
      s: u.status,
      ...(u.resourceId === undefined ? {} : { r: u.resourceId }),
      ...(u.error === undefined ? {} : { e: u.error }),
      a: u.attempts ?? (u.attempt ? 1 : 0),
      ...(u.bodyHash === undefined ? {} : { h: u.bodyHash }),
      ...(u.origin === undefined ? {} : { o: u.origin })
    }))
    const now = new Date().toISOString()
    yield* sql`UPDATE checkpoints SET
        status = j.value ->> '$.s',
        resource_id = CASE WHEN json_type(j.value, '$.r') IS NULL THEN resource_id ELSE j.value ->> '$.r' END,
        error = CASE WHEN json_type(j.value, '$.e') IS NULL THEN error ELSE j.value ->> '$.e' END,
        attempts = attempts + (j.value ->> '$.a'),
        body_hash = coalesce(j.value ->> '$.h', body_hash),
        origin = CASE WHEN json_type(j.value, '$.o') IS NULL THEN origin ELSE j.value ->> '$.o' END,
        updated_at = ${now}
      FROM json_each(${JSON.stringify(rows)}) AS j
      WHERE checkpoints.key = j.value ->> '$.k'`
  }).pipe(Effect.orDie)

/** Counts per phase and status, for `status` and the report. */
export const summary = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ phase: string; status: Status | null; n: number }>`
    SELECT p.phase AS phase, c.status AS status, COUNT(*) AS n
    FROM plan_ops p LEFT JOIN checkpoints c ON c.key = p.key
    GROUP BY p.phase, c.status ORDER BY MIN(p.seq)`
}).pipe(Effect.orDie)

/** An operation the user must act on: not done, with its reason and source rows. */
export interface Problem {
  readonly key: string
  readonly phase: string
  readonly status: Status
  readonly error: string
  readonly lineage: ReadonlyArray<string>
}

/** Every operation that is rejected, skipped, in doubt or still pending, in plan order. */
export const problems = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{
    key: string
    phase: string
    status: Status
    error: string | null
    lineage: string
  }>`
    SELECT p.key, p.phase, c.status, c.error, p.lineage FROM plan_ops p JOIN checkpoints c ON c.key = p.key
    WHERE c.status <> 'done' ORDER BY p.seq`
  return rows.map((r): Problem => ({
    key: r.key,
    phase: r.phase,
    status: r.status,
    error: r.error ?? "not attempted yet",
    lineage: JSON.parse(r.lineage) as Array<string>
  }))
}).pipe(Effect.orDie)
