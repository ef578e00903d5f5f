/**
 * Group commit for durable records (load checkpoints, rollback entries): concurrent operations queue their
 * updates and one fiber writes whatever has gathered in a single transaction. An intent is awaited (it must
 * be durable before its request is sent); an outcome is not (if the process dies first, the operation is in
 * doubt and is resolved by a lookup on the next run), so these writes never dominate a load.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
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

interface Item<U> {
  readonly updates: ReadonlyArray<U>
  readonly written: Deferred.Deferred<void>
  readonly urgent: boolean
}

/** A group-commit writer over `write`, which must apply its updates in one transaction. */
export const makeFor = <U>(
  write: (updates: ReadonlyArray<U>) => Effect.Effect<void, never, SqlClient.SqlClient>
): Effect.Effect<GroupCommit<U>, never, SqlClient.SqlClient | Scope.Scope> =>
  Effect.gen(function* () {
    const queue = yield* Queue.unbounded<Item<U>>()
    let transactions = 0
    let urgentArrived = yield* Deferred.make<void>()
    yield* Effect.gen(function* () {
      const first = yield* Queue.take(queue)
      if (!first.urgent) yield* Effect.raceFirst(Effect.sleep(lazyWindow), Deferred.await(urgentArrived))
      urgentArrived = yield* Deferred.make<void>()
      yield* Effect.sleep(gatherWindow)
      const batch = [first, ...(yield* Queue.takeAll(queue))]
      const updates = batch.flatMap((i) => i.updates)
      if (updates.length > 0) {
        yield* write(updates)
        transactions++
      }
      yield* Effect.forEach(batch, (i) => Deferred.succeed(i.written, undefined), { discard: true })
    }).pipe(Effect.forever, Effect.forkScoped)

    const submit = (updates: ReadonlyArray<U>, urgent: boolean) =>
      Effect.gen(function* () {
        const written = yield* Deferred.make<void>()
        yield* Queue.offer(queue, { updates, written, urgent })
        if (urgent) yield* Deferred.succeed(urgentArrived, undefined)
        return written
      })
    return {
      durable: (updates) => submit(updates, true).pipe(Effect.flatMap(Deferred.await)),
      later: (updates) => submit(updates, false).pipe(Effect.asVoid),
      flush: submit([], true).pipe(Effect.flatMap(Deferred.await)),
      transactions: () => transactions
    }
  })

/** The load's checkpoint writer. */
export const make = makeFor(Checkpoints.write)
