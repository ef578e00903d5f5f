import { afterEach, assert, beforeEach, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import { vi } from "vitest"
import * as RateLimiter from "../../src/load/RateLimiter.js"

// The limiter reads the wall clock (`Date.now`) and sleeps on Effect's clock: the first is set by hand here,
// the second is the test clock, moved as far as the wall clock.
const T0 = Date.UTC(2026, 11, 1, 9, 0, 0)
const at = (ms: number) => vi.setSystemTime(T0 + ms)

describe("rate limiter", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] })
    at(0)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it.effect("holds only the last second's send times, however many sends a load makes", () =>
    Effect.gen(function* () {
      const limiter = RateLimiter.make()
      for (let i = 0; i < 5_000; i++) yield* limiter.acquire
      assert.strictEqual(limiter.held(), 5_000)
      at(1_500)
      yield* limiter.acquire
      assert.strictEqual(limiter.held(), 1)
      at(1_600)
      for (let i = 0; i < 9; i++) yield* limiter.acquire
      assert.strictEqual(limiter.held(), 10)
    })
  )

  it.effect("a 429 cuts the rate to 70% of the last second's sends and pauses them for its Retry-After", () =>
    Effect.gen(function* () {
      const limiter = RateLimiter.make()
      at(-2_000)
      for (let i = 0; i < 300; i++) yield* limiter.acquire
      at(0)
      for (let i = 0; i < 200; i++) yield* limiter.acquire
      yield* limiter.throttled(2_000)
      assert.strictEqual(limiter.throttles(), 1)
      assert.strictEqual(limiter.rate(), 140)
      const waiting = yield* Effect.fork(limiter.acquire)
      yield* TestClock.adjust(1_999)
      assert.isTrue(Option.isNone(yield* Fiber.poll(waiting)))
      yield* TestClock.adjust(1)
      yield* Fiber.join(waiting)
    })
  )

  it.effect("the rate climbs back by 10% after each 5 s without a 429, never above the ceiling", () =>
    Effect.gen(function* () {
      const limiter = RateLimiter.make(100)
      // Spaced at 100 a second, the sends wait on the test clock: each is started, and left waiting.
      const send = Effect.zipLeft(Effect.fork(limiter.acquire), Effect.yieldNow())
      for (let i = 0; i < 100; i++) yield* send
      yield* limiter.throttled(0)
      assert.strictEqual(limiter.rate(), 70)
      at(4_999)
      yield* send
      assert.strictEqual(limiter.rate(), 70)
      at(5_001)
      yield* send
      assert.closeTo(limiter.rate(), 77, 1e-9)
      for (let step = 2; step <= 6; step++) {
        at(5_001 * step)
        yield* send
      }
      assert.strictEqual(limiter.rate(), 100)
    })
  )
})
