import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import * as CheckpointWriter from "../../src/load/CheckpointWriter.js"

/** A group-commit writer whose transactions are recorded instead of written to SQLite. */
const recorded = Effect.gen(function* () {
  const transactions: Array<ReadonlyArray<number>> = []
  const writer = yield* CheckpointWriter.makeFor((updates: ReadonlyArray<number>) =>
    Effect.sync(() => transactions.push([...updates]))
  )
  return { writer, transactions }
})

/** Lets every fiber that can run do so, without moving the test clock. */
const settle = Effect.yieldNow().pipe(Effect.repeatN(20))

describe("group commit of checkpoints", () => {
  it.scoped("a durable update waits for its transaction, which takes every update gathered meanwhile", () =>
    Effect.gen(function* () {
      const { writer, transactions } = yield* recorded
      yield* writer.later([1])
      const waiting = yield* Effect.forEach([2, 3, 4, 5], (n) => Effect.fork(writer.durable([n])), {
        concurrency: "unbounded"
      })
      yield* settle
      assert.deepStrictEqual(transactions, [], "nothing is written before the gather window has passed")
      for (const f of waiting) assert.isNull(f.unsafePoll(), "a durable caller waits until it is written")
      yield* TestClock.adjust("1 millis")
      yield* Effect.forEach(waiting, Fiber.join)
      assert.deepStrictEqual(transactions, [[1, 2, 3, 4, 5]], "one transaction for the whole wave")
      assert.strictEqual(writer.transactions(), 1)
    })
  )

  it.scoped("an outcome nobody waits for is written within the lazy window, or sooner with an intent", () =>
    Effect.gen(function* () {
      const { writer, transactions } = yield* recorded
      yield* writer.later([1])
      yield* TestClock.adjust("40 millis")
      assert.deepStrictEqual(transactions, [], "outcomes gather for tens of milliseconds")
      yield* TestClock.adjust("11 millis")
      yield* settle
      yield* TestClock.adjust("1 millis")
      yield* settle
      assert.deepStrictEqual(transactions, [[1]], "and are written once the window has passed")

      yield* writer.later([2])
      yield* TestClock.adjust("10 millis")
      const intent = yield* Effect.fork(writer.durable([3]))
      yield* settle
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(intent)
      assert.deepStrictEqual(transactions, [[1], [2, 3]], "an intent cuts the outcomes' wait short")
    })
  )

  it.scoped(
    "flush waits for what was gathered before it; an update during a write goes in the next one",
    () =>
      Effect.gen(function* () {
        const transactions: Array<ReadonlyArray<number>> = []
        let inWrite = false
        let lateWriter: CheckpointWriter.GroupCommit<number> | undefined
        const writer = yield* CheckpointWriter.makeFor((updates: ReadonlyArray<number>) =>
          Effect.sync(() => {
            transactions.push([...updates])
            if (!inWrite && lateWriter !== undefined) {
              inWrite = true
              Effect.runSync(lateWriter.later([99]))
            }
          })
        )
        lateWriter = writer
        yield* writer.later([1, 2])
        const flushed = yield* Effect.fork(writer.flush)
        yield* settle
        assert.isNull(flushed.unsafePoll())
        yield* TestClock.adjust("1 millis")
        yield* Fiber.join(flushed)
        assert.deepStrictEqual(transactions, [[1, 2]])

        const again = yield* Effect.fork(writer.flush)
        yield* settle
        yield* TestClock.adjust("1 millis")
        yield* Fiber.join(again)
        assert.deepStrictEqual(transactions, [[1, 2], [99]], "the update made during a write is not lost")
        assert.strictEqual(writer.transactions(), 2)
      })
  )

  it.scoped("a flush with nothing gathered returns without writing a transaction", () =>
    Effect.gen(function* () {
      const { writer, transactions } = yield* recorded
      const flushed = yield* Effect.fork(writer.flush)
      yield* settle
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(flushed)
      assert.deepStrictEqual(transactions, [])
      assert.strictEqual(writer.transactions(), 0)
    })
  )
})
