/**
 * Group commit for checkpoints: concurrent operations queue their updates and one fiber writes whatever has
 * queued in a single transaction. An intent is awaited (it must be durable before the request is sent); an
 * outcome is not (if the process dies before it is written, the operation is in doubt and is resolved by a
 * lookup on the next run), so checkpoint writes never dominate a load.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import * as Checkpoints from "../staging/Checkpoints.js"

/**
 * How long the writer lets updates gather before a transaction: a millisecond turns about two transactions
 * per operation into one per wave of concurrent operations, and delays an intent by at most that much.
 */
const gatherWindow = Duration.millis(1)

interface Item {
  readonly updates: ReadonlyArray<Checkpoints.Update>
  readonly written: Deferred.Deferred<void>
}

export interface CheckpointWriter {
  /** Records updates and waits until they are durable. */
  readonly durable: (updates: ReadonlyArray<Checkpoints.Update>) => Effect.Effect<void>
  /** Records updates without waiting. */
  readonly later: (updates: ReadonlyArray<Checkpoints.Update>) => Effect.Effect<void>
  /** Waits until everything queued so far is durable. */
  readonly flush: Effect.Effect<void>
  /** How many transactions were written (for the benchmark's report). */
  readonly transactions: () => number
}

export const make: Effect.Effect<CheckpointWriter, never, SqlClient.SqlClient | Scope.Scope> = Effect.gen(
  function* () {
    const queue = yield* Queue.unbounded<Item>()
    let transactions = 0
    yield* Effect.gen(function* () {
      const first = yield* Queue.take(queue)
      yield* Effect.sleep(gatherWindow)
      const rest = yield* Queue.takeAll(queue)
      const batch = [first, ...rest]
      const updates = batch.flatMap((i) => i.updates)
      if (updates.length > 0) {
        yield* Checkpoints.write(updates)
        transactions++
      }
      yield* Effect.forEach(batch, (i) => Deferred.succeed(i.written, undefined), { discard: true })
    }).pipe(Effect.forever, Effect.forkScoped)

    const submit = (updates: ReadonlyArray<Checkpoints.Update>) =>
      Effect.gen(function* () {
        const written = yield* Deferred.make<void>()
        yield* Queue.offer(queue, { updates, written })
        return written
      })
    return {
      durable: (updates) => submit(updates).pipe(Effect.flatMap(Deferred.await)),
      later: (updates) => submit(updates).pipe(Effect.asVoid),
      flush: submit([]).pipe(Effect.flatMap(Deferred.await)),
      transactions: () => transactions
    }
  }
)
