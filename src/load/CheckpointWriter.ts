/**
 * Group commit for durable records (load checkpoints, rollback entries): concurrent operations queue their
 * updates and one fiber writes whatever has gathered in a single transaction. An intent is awaited (it must
 * be durable before its request is sent); an outcome is not (if the process dies first, the operation is in
 * doubt and is resolved by a lookup on the next run), so these writes never dominate a load.
 */
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"
import type * as Scope from "effect/Scope"
import * as Checkpoints from "../staging/Checkpoints.js"

/**
 * How long updates gather before a transaction. The SQLite driver is synchronous, so without a pause every
 * response arriving during a write would wake the writer alone: a millisecond turns about two transactions
 * per operation into one per wave of concurrent operations, and delays an intent by at most that much.
 */
const gatherWindow = Duration.millis(1)

export interface GroupCommit<U> {
  /** Records updates and waits until they are durable. */
  readonly durable: (updates: ReadonlyArray<U>) => Effect.Effect<void>
  /** Records updates without waiting. */
  readonly later: (updates: ReadonlyArray<U>) => Effect.Effect<void>
  /** Waits until everything queued so far is durable. */
  readonly flush: Effect.Effect<void>
  /** How many transactions were written (for the benchmark's report). */
  readonly transactions: () => number
}

/**
 * How long outcomes (which nobody waits for) may gather when no intent is queued. Each commit of the
 * synchronous SQLite driver blocks the event loop for its fsync, so outcomes are written in tens of
 * milliseconds' worth at a time; an intent arriving meanwhile cuts the wait short.
 */
const lazyWindow = Duration.millis(50)

/** A signal a fiber can wait for, given once: `give` is a plain call (no fiber, no effect to run). */
const signal = () => Deferred.unsafeMake<void>(FiberId.none)
const give = (s: Deferred.Deferred<void>) => Deferred.unsafeDone(s, Effect.void)

/**
 * A group-commit writer over `write`, which must apply its updates in one transaction. The updates gather in
 * a plain array and the callers that wait share one signal per transaction: a queue item and a deferred for
 * each update had cost about 8 µs of CPU per operation in a profile of a load (19,101 operations).
 */
export const makeFor = <U, R>(
  write: (updates: ReadonlyArray<U>) => Effect.Effect<void, never, R>
): Effect.Effect<GroupCommit<U>, never, R | Scope.Scope> =>
  Effect.gen(function* () {
    let gathered: Array<U> = []
    /** Given once the updates gathered so far are durable; made by the first caller that waits for them. */
    let written: Deferred.Deferred<void> | undefined
    /** Given by the first update (or wait) of the next transaction. */
    let arrived = signal()
    /** Given by the first caller that waits for the next transaction. */
    let urgent = signal()
    let transactions = 0
    yield* Effect.gen(function* () {
      yield* Deferred.await(arrived)
      if (written === undefined) yield* Effect.raceFirst(Effect.sleep(lazyWindow), Deferred.await(urgent))
      yield* Effect.sleep(gatherWindow)
      const updates = gathered
      const done = written
      gathered = []
      written = undefined
      arrived = signal()
      urgent = signal()
      if (updates.length > 0) {
        yield* write(updates)
        transactions++
      }
      if (done !== undefined) give(done)
    }).pipe(Effect.forever, Effect.forkScoped)

    const gather = (updates: ReadonlyArray<U>) => {
      for (const u of updates) gathered.push(u)
      give(arrived)
    }
    const durable = (updates: ReadonlyArray<U>) =>
      Effect.suspend(() => {
        gather(updates)
        written ??= signal()
        give(urgent)
        return Deferred.await(written)
      })
    return {
      durable,
      later: (updates) => Effect.sync(() => gather(updates)),
      flush: durable([]),
      transactions: () => transactions
    }
  })

/** The load's checkpoint writer. */
export const make = makeFor(Checkpoints.write)
