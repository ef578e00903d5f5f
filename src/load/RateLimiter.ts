/**
 * Keeps the load under the target's rate limit instead of bouncing off it. Sends are spaced by a token
 * bucket whose rate adapts: a 429 pauses every sender until its Retry-After has passed and cuts the rate to
 * 70% of what was being achieved; each 5 s without a 429 raises it by 10% (up to the configured ceiling).
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

export interface RateLimiter {
  /** Waits for a send slot. */
  readonly acquire: Effect.Effect<void>
  /** Tells the limiter the target answered 429 (with its Retry-After, if any). */
  readonly throttled: (retryAfterMs: number | undefined) => Effect.Effect<void>
  /** The current rate (requests per second; Infinity when unlimited). */
  readonly rate: () => number
  /** How many 429s were seen. */
  readonly throttles: () => number
  /** How many send times it holds: those of the last second, what a 429 measures the achieved rate by. */
  readonly held: () => number
}

export const make = (ceiling = Number.POSITIVE_INFINITY): RateLimiter => {
  let rate = ceiling
  let next = 0
  let pausedUntil = 0
  let lastThrottle = 0
  let throttles = 0
  const recent: Array<number> = []
  const achieved = (now: number) => {
    while (recent.length > 0 && recent[0]! < now - 1000) recent.shift()
    return recent.length
  }
  const acquire = Effect.suspend(() => {
    const now = Date.now()
    if (now - lastThrottle > 5000 && rate < ceiling && lastThrottle > 0) {
      rate = Math.min(ceiling, rate * 1.1)
      lastThrottle = now
    }
    const interval = Number.isFinite(rate) ? 1000 / rate : 0
    const at = Math.max(now, pausedUntil, next)
    next = at + interval
    // Only the last second's sends are kept: a load of 100,000 invoices makes some 330,000 of them.
    achieved(now)
    recent.push(at)
    return at > now ? Effect.sleep(Duration.millis(at - now)) : Effect.void
  })
  const throttled = (retryAfterMs: number | undefined) =>
    Effect.sync(() => {
      const now = Date.now()
      throttles++
      pausedUntil = Math.max(pausedUntil, now + (retryAfterMs ?? 1000))
      if (now - lastThrottle > 500) rate = Math.max(1, Math.min(rate, achieved(now) || rate) * 0.7)
      lastThrottle = now
    })
  return { acquire, throttled, rate: () => rate, throttles: () => throttles, held: () => recent.length }
}
