import { assert, describe, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Intents from "../../src/load/Intents.js"

/** A durable write that finishes only when the test lets it, recording what each write declared. */
const gatedWrites = Effect.gen(function* () {
  const gate = yield* Deferred.make<void>()
  const writes: Array<ReadonlyArray<string>> = []
  const durable = (keys: ReadonlyArray<string>) =>
    Effect.sync(() => writes.push(keys)).pipe(Effect.zipRight(Deferred.await(gate)))
  return { gate, writes, durable }
})

describe("intents written ahead", () => {
  it.effect("an operation declared by another's write is not sent until that write is durable", () =>
    Effect.gen(function* () {
      const { gate, writes, durable } = yield* gatedWrites
      const declare = Intents.make(["a", "b", "c"], () => true, 64, durable)
      const first = yield* Effect.fork(declare("a"))
      yield* Effect.yieldNow()
      assert.deepStrictEqual(writes, [["a", "b", "c"]], "one write declares the page ahead")
      const second = yield* Effect.fork(declare("b"))
      yield* Effect.yieldNow()
      yield* Effect.yieldNow()
      assert.isNull(second.unsafePoll(), "b waits for the write that declared it")
      assert.isNull(first.unsafePoll())
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(second)
      yield* Fiber.join(first)
      yield* declare("c")
      assert.strictEqual(writes.length, 1, "and nothing is written again for b or c")
    })
  )

  it.effect("a write declares the next pending operations, at most the window", () =>
    Effect.gen(function* () {
      const writes: Array<ReadonlyArray<string>> = []
      const durable = (keys: ReadonlyArray<string>) => Effect.sync(() => void writes.push(keys))
      const order = ["a", "done", "b", "c", "d", "e"]
      const declare = Intents.make(order, (k) => k !== "done", 3, durable)
      yield* declare("a")
      yield* declare("c")
      yield* declare("d")
      yield* declare("done")
      assert.deepStrictEqual(writes, [["a", "b", "c"], ["d", "e"], ["done"]])
    })
  )

  it.effect("a failed write fails every operation it declared, instead of leaving them waiting", () =>
    Effect.gen(function* () {
      const declare = Intents.make(
        ["a", "b"],
        () => true,
        64,
        () => Effect.die("disk full")
      )
      const a = yield* Effect.exit(declare("a"))
      const b = yield* Effect.exit(declare("b"))
      assert.isTrue(a._tag === "Failure" && b._tag === "Failure")
    })
  )
})
