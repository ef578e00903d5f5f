/**
 * Removes from the target what this workspace's loads created, phase by phase in reverse dependency order
 * (settlements, transactions, items, contacts, accounts, rates, tags), and never a record the load adopted. Every
 * DELETE has a durable intent before it and an outcome after; a 404 means already gone; transient failures
 * are retried with backoff (DELETE is idempotent, so resending is safe); a rejection is recorded with the
 * platform's words and everything the rejected record depends on is skipped. A removed record's load
 * checkpoint returns to `pending` with its outcome (see RollbackLog), so a rollback interrupted at any point
 * continues where it stopped and a later `load` recreates exactly what was removed.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Checkpoints from "../staging/Checkpoints.js"
import * as TargetBinding from "./TargetBinding.js"
import * as PlanStore from "../staging/PlanStore.js"
import type { Phase } from "../transform/Plan.js"
import * as Refs from "../transform/Refs.js"
import * as DeletePlan from "./DeletePlan.js"
import * as InTurn from "./InTurn.js"
import * as RateLimiter from "./RateLimiter.js"
import * as RollbackChecks from "./RollbackChecks.js"
import * as RollbackLog from "./RollbackLog.js"
import { backoffMs, TargetApi } from "./TargetApi.js"

export interface RollbackOptions {
  readonly concurrency: number
  /** DELETE attempts per record within one run before it is left for the next run. */
  readonly maxAttempts?: number
  /** Requests per second not to exceed (default: unlimited until the target answers 429). */
  readonly maxRate?: number
  /** Called as each phase finishes. */
  readonly onPhase?: (phase: Phase, counts: PhaseCounts) => void
}

/** Per phase: what this run removed, found already gone, could not remove, and left on purpose. */
export interface PhaseCounts {
  deleted: number
  gone: number
  /** Removed by an earlier rollback run (one that was interrupted, or an earlier complete one). */
  earlier: number
  rejected: number
  skipped: number
  /**
   * Not removed this run: transient failures outlasted the retries, the load left it in doubt, or it was
   * loaded before checkpoints recorded who made each record (it may have existed before: never deleted).
   */
  unfinished: number
  /** Left in place on purpose (enabled currencies): not a failure. */
  left: number
}

export interface Outcome {
  readonly key: string
  readonly phase: Phase
  readonly status: "rejected" | "skipped" | "unfinished" | "left"
  readonly reason: string
}

export interface RollbackResult {
  /** Every record this workspace created is gone (currencies left enabled do not count against it). */
  readonly complete: boolean
  readonly deleteRequests: number
  /** How many DELETEs the target answered 429. */
  readonly throttled: number
  readonly logTransactions: number
  readonly counts: Record<Phase, PhaseCounts>
  /** Everything not removed, with the reason, in rollback order. */
  readonly outcomes: ReadonlyArray<Outcome>
  /** Records created under an earlier plan that the current plan no longer lists: not removed. */
  readonly orphans: ReadonlyArray<{ readonly key: string; readonly resourceId: string | null }>
}

type Settled = "deleted" | "gone" | "rejected" | "skipped" | "unfinished"
type Stored = PlanStore.StoredOp

const zero = (): PhaseCounts => ({
  deleted: 0,
  gone: 0,
  earlier: 0,
  rejected: 0,
  skipped: 0,
  unfinished: 0,
  left: 0
})

const unknownOrigin =
  "loaded before this workspace recorded who made each record, so it may have existed before the load: not deleted; check it and remove it by hand if the load made it"

export const rollback = (options: RollbackOptions) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    yield* TargetBinding.bind
    const ops = yield* PlanStore.ops
    const load = new Map(yield* Checkpoints.all)
    const before = yield* RollbackLog.all
    const writer = yield* RollbackLog.writer
    const dependentsOf = DeletePlan.dependents(ops)
    const maxAttempts = options.maxAttempts ?? 8
    const settled = new Map<string, Settled>()
    const counts = Object.fromEntries(DeletePlan.rollbackPhases.map((p) => [p, zero()])) as Record<
      Phase,
      PhaseCounts
    >
    const outcomes: Array<Outcome> = []
    let deleteRequests = 0
    const limiter = RateLimiter.make(options.maxRate)

    const unresolved = yield* RollbackChecks.resolveInDoubt(ops, load)
    for (const [key, reason] of unresolved) {
      const op = ops.find((o) => o.key === key)!
      counts[op.phase].unfinished++
      outcomes.push({ key, phase: op.phase, status: "unfinished", reason })
    }
    const foreign = yield* RollbackChecks.readForeign(ops, load, dependentsOf, options.concurrency)

    /** Why `op` cannot be removed yet: a record referring to it is still in the target. */
    const blocker = (op: Stored): string | undefined => {
      const id = load.get(op.key)?.resourceId
      for (const d of dependentsOf.get(op.key) ?? []) {
        const cp = load.get(d)
        const s = settled.get(d)
        if (unresolved.has(d)) return `${d} refers to it and was left in doubt by the load`
        if (cp?.status !== "done") continue
        if (cp.origin !== "created") {
          const read = foreign.get(d) ?? { error: "not read" }
          if ("error" in read)
            return `${d} existed before the load and could not be read to check that it does not refer to it (${read.error})`
          if (id && read.text.includes(id))
            return `${d}, which existed before the load (adopted), refers to it`
          continue
        }
        if (s === undefined) return `${d} refers to it and is still in the target`
        if (s !== "deleted" && s !== "gone") return `${d} refers to it and could not be removed (${s})`
      }
      return undefined
    }

    const finish = (op: Stored, status: Settled, update: RollbackLog.Update | undefined, reason = "") =>
      Effect.gen(function* () {
        settled.set(op.key, status)
        counts[op.phase][status]++
        if (status === "deleted" || status === "gone") {
          const cp = load.get(op.key)!
          load.set(op.key, { ...cp, status: "pending", resourceId: null, origin: null })
        } else outcomes.push({ key: op.key, phase: op.phase, status, reason })
        const log = status === "deleted" || status === "gone" ? Effect.logInfo : Effect.logWarning
        yield* log(`${op.key} ${status}${reason ? `: ${reason}` : ""}`).pipe(
          Effect.annotateLogs({ op: op.key, phase: op.phase, status, lineage: op.lineage.join(",") })
        )
        if (update) yield* writer.later([update])
      })

    interface Target {
      readonly op: Stored
      readonly at: { readonly key: string; readonly resourceId: string; readonly path: string }
      /** Send the DELETE once more after it succeeds (it may only have voided the record). */
      readonly again: boolean
    }

    /** An operation's body with the references to records still in the target resolved (a document's id). */
    const resolved = (op: Stored) =>
      Refs.resolve(op.body, (r) => load.get(r.key)?.resourceId ?? undefined).value

    /** What of a wave can be sent: the rest is settled here (skipped, or not addressable). */
    const prepare = (wave: ReadonlyArray<Stored>) =>
      Effect.gen(function* () {
        const targets: Array<Target> = []
        for (const op of wave) {
          const id = load.get(op.key)!.resourceId
          const blocked = blocker(op)
          if (blocked !== undefined)
            yield* finish(op, "skipped", { key: op.key, status: "skipped", error: blocked }, blocked)
          else if (id === null)
            yield* finish(op, "unfinished", undefined, "its load checkpoint holds no resourceId")
          else {
            const how = DeletePlan.removal(op.kind, id, resolved(op))
            if (how._tag === "Leave") return yield* Effect.dieMessage(`${op.kind} is never deleted`)
            targets.push({
              op,
              at: { key: op.key, resourceId: id, path: how.path },
              again: how.again === true
            })
          }
        }
        return targets
      })

    const intent = (t: Pick<Target, "at">): RollbackLog.Update => ({
      ...t.at,
      status: "deleting",
      error: null,
      attempt: true
    })

    /** Sends the DELETE (its first intent is already durable), retrying transient failures with backoff. */
    const remove = ({ op, at, again }: Target) =>
      Effect.gen(function* () {
        let last = ""
        let voided = false
        for (let attempt = 1; attempt <= maxAttempts; attempt++) {
          if (attempt > 1) yield* writer.durable([intent({ at })])
          yield* limiter.acquire
          deleteRequests++
          const sent = yield* Effect.either(api.send("DELETE", at.path))
          if (Either.isRight(sent)) {
            if (again && !voided) {
              voided = true
              continue
            }
            return yield* finish(op, "deleted", { ...at, status: "deleted" })
          }
          const e = sent.left
          if (e._tag === "TargetRejected" && e.status === 404)
            return yield* finish(op, voided ? "deleted" : "gone", {
              ...at,
              status: voided ? "deleted" : "gone",
              ...(voided ? {} : { error: e.message })
            })
          if (voided && e._tag === "TargetRejected")
            return yield* finish(op, "deleted", { ...at, status: "deleted", error: `voided; ${e.message}` })
          if (e._tag !== "TargetTransient") {
            return yield* finish(op, "rejected", { ...at, status: "rejected", error: e.message }, e.message)
          }
          if (e.status === 429) yield* limiter.throttled(e.retryAfterMs)
          last = e.message
          if (attempt < maxAttempts)
            yield* Effect.sleep(Duration.millis(backoffMs(attempt, e.retryAfterMs, Math.random())))
        }
        const why = `not removed after ${maxAttempts} attempts (${last}); run rollback again`
        return yield* finish(op, "unfinished", { ...at, status: "deleting", error: why }, why)
      })

    for (const phase of DeletePlan.rollbackPhases) {
      const phaseOps = ops.filter((o) => o.phase === phase)
      for (const op of phaseOps) {
        const earlier = before.get(op.key)
        if (
          load.get(op.key)?.status === "pending" &&
          (earlier?.status === "deleted" || earlier?.status === "gone")
        )
          counts[phase].earlier++
      }
      for (const op of phaseOps.filter(
        (o) => load.get(o.key)?.status === "done" && !load.get(o.key)?.origin
      )) {
        counts[phase].unfinished++
        outcomes.push({ key: op.key, phase, status: "unfinished", reason: unknownOrigin })
      }
      const created = phaseOps.filter((o) => DeletePlan.isCreated(load.get(o.key))).reverse()
      const toDelete: Array<Stored> = []
      for (const op of created) {
        const how = DeletePlan.removal(op.kind, load.get(op.key)!.resourceId ?? "", op.body)
        if (how._tag === "Delete") toDelete.push(op)
        else {
          counts[phase].left++
          outcomes.push({ key: op.key, phase, status: "left", reason: how.reason })
        }
      }
      for (const wave of DeletePlan.waves(toDelete, dependentsOf)) {
        const targets = yield* prepare(wave)
        yield* writer.durable(targets.map(intent))
        yield* InTurn.each(targets, options.concurrency, remove)
      }
      yield* writer.flush
      options.onPhase?.(phase, counts[phase])
    }

    const orphans = RollbackChecks.orphans(ops, load).map((cp) => ({
      key: cp.key,
      resourceId: cp.resourceId
    }))
    const complete =
      orphans.length === 0 && Object.values(counts).every((c) => c.rejected + c.skipped + c.unfinished === 0)
    return {
      complete,
      orphans,
      deleteRequests,
      throttled: limiter.throttles(),
      logTransactions: writer.transactions(),
      counts,
      outcomes
    } satisfies RollbackResult
  }).pipe(Effect.scoped)
