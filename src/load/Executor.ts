/**
 * Runs a stored plan against the target, phase by phase in the specification's order, with bounded
 * concurrency. Every operation has a durable intent before it is sent and an outcome after; an operation
 * whose outcome is unknown (a timeout, a reset, a 5xx, a crash) is looked up by its natural key before any
 * retry, so a completed operation is never sent twice, across crashes and re-runs (invariant 4).
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Checkpoints from "../staging/Checkpoints.js"
import * as TargetBinding from "./TargetBinding.js"
import * as PlanStore from "../staging/PlanStore.js"
import { phases, type Phase } from "../transform/Plan.js"
import * as Refs from "../transform/Refs.js"
import * as CheckpointWriter from "./CheckpointWriter.js"
import * as InTurn from "./InTurn.js"
import * as Intents from "./Intents.js"
import * as RateLimiter from "./RateLimiter.js"
import { canonicalBody, createPath, lookupEntity, lookupOps } from "./Operations.js"
import { backoffMs, createdId, TargetApi } from "./TargetApi.js"
import type { TargetError } from "./TargetErrors.js"

export interface LoadOptions {
  readonly concurrency: number
  /** Re-attempt operations that were rejected or skipped in an earlier run. */
  readonly retryRejected?: boolean
  /** Attempts per operation within one run before it is left for the next run. */
  readonly maxAttempts?: number
  readonly onProgress?: (event: ProgressEvent) => void
  /** Requests per second the load must not exceed (default: unlimited until the target answers 429). */
  readonly maxRate?: number
  /** Operations read and worked on at a time (default 5,000). */
  readonly pageSize?: number
  /** Look for records that already exist before creating them (default true). */
  readonly adoptExisting?: boolean
}

/**
 * An operation's state changed. Every change is reported here, with what the run's log records about it: the
 * loader writes no log line of its own per operation (Effect's annotated logging cost 0.15 ms of CPU per
 * operation, a sixth of the loader's), so the caller writes them (`src/cli/Pipeline.ts` to the run's log).
 */
export interface ProgressEvent {
  readonly phase: Phase
  readonly key: string
  readonly status: Checkpoints.Status
  /** The record's id in the target, once done. */
  readonly resourceId: string | null
  /** Why it is not done (rejected, skipped, in doubt, pending after failures). */
  readonly error: string | null
  /** The source rows it comes from (`file:line`). */
  readonly lineage: ReadonlyArray<string>
}

export interface LoadResult {
  readonly sent: number
  readonly adopted: number
  readonly checkpointTransactions: number
  readonly throttled: number
  /** Rejected operations whose planned body changed since they were refused (send them with retryRejected). */
  readonly changedRejected: number
  /** Completed operations whose planned body changed since they were loaded (the target keeps what was sent). */
  readonly changedDone: number
  readonly complete: boolean
  readonly counts: Record<Phase, Record<Checkpoints.Status, number>>
}

interface OpState {
  status: Checkpoints.Status
  resourceId: string | null
  error: string | null
  origin: Checkpoints.Origin | null
  attempts: number
}

type Stored = PlanStore.StoredOp

const describe = (e: TargetError) => e.message

export const load = (options: LoadOptions) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    yield* Checkpoints.ensure
    yield* TargetBinding.bind
    const writer = yield* CheckpointWriter.make
    /**
     * The state of the page being worked on and of every operation it depends on or refers to (read from
     * the checkpoints when the page starts): memory stays flat in the size of the plan, because earlier
     * phases and pages are complete in the database before a page starts (dependencies point to earlier
     * phases only).
     */
    let state = new Map<string, OpState>()
    let changedRejected = 0
    let changedDone = 0
    const asState = (cp: Checkpoints.Checkpoint): OpState => ({
      status: cp.status,
      resourceId: cp.resourceId,
      error: cp.error,
      origin: cp.origin,
      attempts: cp.attempts
    })

    /** Reads the checkpoints of a page and of what it needs; resets what this run is to attempt again. */
    const startPage = (phaseOps: ReadonlyArray<Stored>) =>
      Effect.gen(function* () {
        const own = yield* Checkpoints.ofKeys(phaseOps.map((o) => o.key))
        const outside = new Set<string>()
        for (const op of phaseOps) {
          for (const d of op.dependsOn) if (!own.has(d)) outside.add(d)
          for (const r of Refs.collect(op.body)) if (!own.has(r.key)) outside.add(r.key)
        }
        const needed = yield* Checkpoints.ofKeys(outside)
        const next = new Map<string, OpState>()
        for (const [key, cp] of needed) next.set(key, asState(cp))
        const resets: Array<Checkpoints.Update> = []
        for (const op of phaseOps) {
          const cp = own.get(op.key)!
          let status = cp.status
          if (options.retryRejected && (status === "rejected" || status === "skipped")) status = "pending"
          if (status === "skipped") status = "pending"
          const changed = cp.bodyHash !== op.bodyHash
          if (changed && status === "rejected") changedRejected++
          if (changed && status === "done") changedDone++
          const resend = status === "pending"
          if (status !== cp.status || (changed && resend)) {
            resets.push({ key: op.key, status, ...(resend ? { bodyHash: op.bodyHash, error: null } : {}) })
          }
          next.set(op.key, { ...asState(cp), status, error: status === "pending" ? null : cp.error })
        }
        state = next
        yield* writer.durable(resets)
      })

    const external = new Map<string, string>()
    const idOf = (r: Refs.ParsedRef) => state.get(r.key)?.resourceId ?? external.get(r.key) ?? undefined
    let sent = 0
    let adopted = 0
    const maxAttempts = options.maxAttempts ?? 8
    const pageSize = options.pageSize ?? PlanStore.PAGE_SIZE
    const limiter = RateLimiter.make(options.maxRate)

    const set = (
      op: Stored,
      change: Pick<OpState, "status" | "resourceId" | "error"> & { origin?: Checkpoints.Origin },
      sends = 0
    ) => {
      const s: OpState = { ...state.get(op.key)!, ...change }
      state.set(op.key, s)
      options.onProgress?.({
        phase: op.phase,
        key: op.key,
        status: s.status,
        resourceId: s.resourceId,
        error: s.error,
        lineage: op.lineage
      })
      return writer.later([
        {
          key: op.key,
          status: s.status,
          resourceId: s.resourceId,
          error: s.error,
          origin: s.origin,
          attempts: sends
        }
      ])
    }

    /**
     * An operation's body with its references resolved, decoded into its schema and encoded back (invariant
     * 3), once per page: adoption, in-doubt resolution and the send all use it, and the references it
     * resolves (earlier phases, the target's own records) do not change while the page runs.
     */
    let resolved = new Map<string, Either.Either<Record<string, unknown>, string>>()
    const resolveBody = (op: Stored) => {
      let body = resolved.get(op.key)
      if (body === undefined) resolved.set(op.key, (body = resolveNow(op)))
      return body
    }
    const resolveNow = (op: Stored): Either.Either<Record<string, unknown>, string> => {
      const { value, missing } = Refs.resolve(op.body, idOf)
      if (missing.length > 0) {
        return Either.left(
          `references ${missing.map((m) => m.key).join(", ")}, found neither in this plan's completed operations nor in the target`
        )
      }
      return canonicalBody(op.kind, value)
    }

    /**
     * Resolves in-doubt operations by natural-key lookup: found → done, looked up and not found → pending.
     * An operation that could not be looked up stays in doubt: it is never sent again on a guess.
     */
    const resolveInDoubt = (candidates: ReadonlyArray<Stored>) =>
      Effect.gen(function* () {
        const lookups = candidates.flatMap((op) => {
          const body = resolveBody(op)
          return Either.isRight(body)
            ? [{ key: op.key, kind: op.kind, naturalKey: op.naturalKey, body: body.right }]
            : []
        })
        const looked = new Set(lookups.map((l) => l.key))
        const found = yield* lookupOps(lookups)
        for (const op of candidates) {
          const id = found.get(op.key)
          if (id !== undefined) {
            adopted++
            yield* set(op, { status: "done", resourceId: id, error: null, origin: "created" })
          } else if (looked.has(op.key)) {
            yield* set(op, { status: "pending", resourceId: null, error: state.get(op.key)!.error })
          } else {
            yield* set(op, {
              status: "in_doubt",
              resourceId: null,
              error: "sent earlier with an unknown outcome, and its body cannot be resolved to look it up"
            })
          }
        }
      })

    /**
     * Before anything of a phase is sent: operations never attempted whose record already exists in the
     * target (a lost workspace, a partial earlier migration) are adopted by natural key, not duplicated.
     * Settlements (payments, refunds, credit applications) are looked up only under an adopted document or
     * credit note: one this load created has none yet.
     */
    const adoptExisting = (phaseOps: ReadonlyArray<Stored>) =>
      Effect.gen(function* () {
        const fresh = phaseOps.filter((o) => {
          const s = state.get(o.key)!
          if (s.status !== "pending" || s.attempts > 0) return false
          if (o.phase === "settlements") return o.dependsOn.some((d) => state.get(d)?.origin === "adopted")
          return true
        })
        const lookups = fresh.flatMap((op) => {
          const body = resolveBody(op)
          return Either.isRight(body)
            ? [{ key: op.key, kind: op.kind, naturalKey: op.naturalKey, body: body.right }]
            : []
        })
        const found = yield* lookupOps(lookups)
        for (const op of fresh) {
          const id = found.get(op.key)
          if (id !== undefined) {
            adopted++
            yield* set(op, { status: "done", resourceId: id, error: null, origin: "adopted" })
          }
        }
      })

    const resolveExternal = (phaseOps: ReadonlyArray<Stored>) =>
      Effect.gen(function* () {
        const wanted = Refs.wanted(
          phaseOps.map((op) => op.body),
          (key) => state.has(key) || external.has(key)
        )
        for (const [entity, keys] of wanted) {
          const found = yield* lookupEntity(entity, [...keys])
          for (const [k, id] of found) external.set(Refs.opKey(entity, k), id)
        }
      })

    /** Each page's intents, written ahead (`Intents`): a wave of sends costs one commit instead of one each. */
    const intentWindow = Math.max(64, options.concurrency * 8)
    const makeIntents = (order: ReadonlyArray<Stored>) =>
      Intents.make(
        order.map((o) => o.key),
        (key) => state.get(key)!.status === "pending",
        intentWindow,
        (keys) => writer.durable(keys.map((key) => ({ key, status: "sending" as const })))
      )
    let declareIntent: (key: string) => Effect.Effect<void> = (key) =>
      Effect.dieMessage(`an intent for ${key} was declared before its page's: a defect`)

    const runOp = (op: Stored): Effect.Effect<void, never, TargetApi> =>
      Effect.gen(function* () {
        const s = state.get(op.key)!
        if (s.status !== "pending") return
        for (const dep of op.dependsOn) {
          const d = state.get(dep)
          if (d?.status !== "done") {
            const why =
              d?.status === "rejected" || d?.status === "skipped" ? `was ${d.status}` : "did not complete"
            return yield* set(op, { status: "skipped", resourceId: null, error: `dependency ${dep} ${why}` })
          }
        }
        const body = resolveBody(op)
        if (Either.isLeft(body))
          return yield* set(op, { status: "rejected", resourceId: null, error: body.left })
        const path = createPath(op.kind, body.right)
        let sends = 0
        for (let attempt = 1; attempt <= maxAttempts; attempt++) {
          if (attempt === 1) yield* declareIntent(op.key)
          else yield* writer.durable([{ key: op.key, status: "sending" }])
          sends++
          state.set(op.key, {
            ...state.get(op.key)!,
            status: "sending",
            resourceId: null,
            error: null,
            attempts: state.get(op.key)!.attempts + 1
          })
          yield* limiter.acquire
          sent++
          const outcome = yield* Effect.either(api.send("POST", path, body.right))
          if (
            Either.isLeft(outcome) &&
            outcome.left._tag === "TargetTransient" &&
            outcome.left.status === 429
          ) {
            yield* limiter.throttled(outcome.left.retryAfterMs)
          }
          if (Either.isRight(outcome)) {
            const id = createdId(outcome.right) ?? (op.kind === "currency" ? op.naturalKey : undefined)
            if (id !== undefined)
              return yield* set(op, { status: "done", resourceId: id, error: null, origin: "created" }, sends)
          } else if (outcome.left._tag === "TargetRejected") {
            return yield* set(
              op,
              { status: "rejected", resourceId: null, error: describe(outcome.left) },
              sends
            )
          }
          const failure = Either.isLeft(outcome) ? outcome.left : undefined
          const notProcessed = failure?._tag === "TargetTransient" && failure.status === 429
          if (!notProcessed) {
            const found = yield* Effect.either(
              lookupOps([{ key: op.key, kind: op.kind, naturalKey: op.naturalKey, body: body.right }])
            )
            if (Either.isLeft(found)) {
              return yield* set(
                op,
                {
                  status: "in_doubt",
                  resourceId: null,
                  error: `sent, outcome unknown (${failure ? describe(failure) : "no id in the response"}); the lookup failed too: ${describe(found.left)}`
                },
                sends
              )
            }
            const id = found.right.get(op.key)
            if (id !== undefined) {
              adopted++
              return yield* set(op, { status: "done", resourceId: id, error: null, origin: "created" }, sends)
            }
          }
          const retryAfter = failure?._tag === "TargetTransient" ? failure.retryAfterMs : undefined
          yield* Effect.sleep(Duration.millis(backoffMs(attempt, retryAfter, Math.random())))
        }
        yield* set(
          op,
          {
            status: "pending",
            resourceId: null,
            error: `not created after ${maxAttempts} attempts (transient failures); run load again`
          },
          sends
        )
      }).pipe(
        Effect.catchAll((e: TargetError) =>
          set(op, { status: "in_doubt", resourceId: null, error: describe(e) })
        )
      )

    yield* PlanStore.eachPage(
      (phaseOps) =>
        Effect.gen(function* () {
          yield* startPage(phaseOps)
          resolved = new Map()
          yield* resolveExternal(phaseOps.filter((o) => state.get(o.key)!.status !== "done"))
          const inDoubt = phaseOps.filter((o) => ["sending", "in_doubt"].includes(state.get(o.key)!.status))
          if (inDoubt.length > 0) yield* resolveInDoubt(inDoubt)
          if (options.adoptExisting !== false) yield* adoptExisting(phaseOps)
          declareIntent = makeIntents(phaseOps)
          yield* InTurn.each(phaseOps, options.concurrency, runOp)
          yield* writer.flush
        }),
      pageSize
    )
    yield* writer.flush
    state = new Map()

    const counts = Object.fromEntries(
      phases.map((p) => [p, { pending: 0, sending: 0, done: 0, rejected: 0, skipped: 0, in_doubt: 0 }])
    ) as Record<Phase, Record<Checkpoints.Status, number>>
    for (const row of yield* Checkpoints.summary) counts[row.phase as Phase][row.status ?? "pending"] += row.n
    return {
      sent,
      adopted,
      checkpointTransactions: writer.transactions(),
      throttled: limiter.throttles(),
      changedRejected,
      changedDone,
      complete: phases.every((p) => Object.entries(counts[p]).every(([k, n]) => k === "done" || n === 0)),
      counts
    } satisfies LoadResult
  }).pipe(Effect.scoped)
