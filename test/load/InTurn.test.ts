import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Cause from "effect/Cause"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as InTurn from "../../src/load/InTurn.js"

describe("work in turn", () => {
  it.effect("runs every item once, in order of starting, never more than the concurrency at once", () =>
    Effect.gen(function* () {
      const items = Array.from({ length: 50 }, (_, i) => i)
      const started: Array<number> = []
      let running = 0
      let most = 0
      yield* InTurn.each(items, 4, (i) =>
        Effect.gen(function* () {
          started.push(i)
          running++
          most = Math.max(most, running)
          yield* Effect.yieldNow().pipe(Effect.repeatN(i % 5))
          running--
        })
      )
      assert.deepStrictEqual(started, items)
      assert.strictEqual(most, 4)
    })
  )

  it.effect("a failure stops the workers from taking further items", () =>
    Effect.gen(function* () {
      const started: Array<number> = []
      const exit = yield* Effect.exit(
        InTurn.each(
          Array.from({ length: 20 }, (_, i) => i),
          2,
          (i) =>
            Effect.gen(function* () {
              started.push(i)
              yield* Effect.yieldNow()
              if (i === 3) yield* Effect.fail(`item ${i}`)
            })
        )
      )
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) assert.deepStrictEqual(Cause.failureOption(exit.cause), Option.some("item 3"))
      assert.isBelow(started.length, 7, `started ${started.join(", ")}`)
    })
  )

  it.effect("an empty list and a concurrency above its length are fine", () =>
    Effect.gen(function* () {
      yield* InTurn.each([], 8, () => Effect.die("never"))
      const seen: Array<string> = []
      yield* InTurn.each(["a", "b"], 8, (s) => Effect.sync(() => seen.push(s)))
      assert.deepStrictEqual(seen, ["a", "b"])
    })
  )
})
