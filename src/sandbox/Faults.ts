/** Injected faults: latency with jitter, per-key rate limiting, 5xx, resets and commit-then-drop, from a seeded PRNG. */

/** Fault settings; rates are probabilities in [0, 1]. */
export interface FaultOptions {
  readonly latencyMs?: number
  readonly jitterMs?: number
  /** Requests per second per API key; beyond it 429 with Retry-After. */
  readonly rateLimit?: number
  readonly failRate?: number
  readonly resetRate?: number
  readonly dropAfterCommitRate?: number
  readonly seed?: number
}

/** What happens to one request, decided on arrival. */
export interface FaultPlan {
  readonly delayMs: number
  readonly reset: boolean
  readonly failStatus: 500 | 502 | 503 | undefined
  readonly dropAfterCommit: boolean
}

/** mulberry32: a small, fast, seedable PRNG. */
export const prng = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const FAIL_CODES = [500, 502, 503] as const

/** Draws a fixed number of values per request so that a sequence of plans depends only on the seed. */
export class Faults {
  private readonly next: () => number
  private readonly buckets = new Map<string, { tokens: number; at: number }>()

  constructor(readonly options: FaultOptions = {}) {
    this.next = prng(options.seed ?? 1)
  }

  get active(): boolean {
    const o = this.options
    return (
      (o.latencyMs ?? 0) > 0 ||
      (o.jitterMs ?? 0) > 0 ||
      (o.failRate ?? 0) > 0 ||
      (o.resetRate ?? 0) > 0 ||
      (o.dropAfterCommitRate ?? 0) > 0
    )
  }

  plan(): FaultPlan {
    const o = this.options
    const jitter = this.next()
    const reset = this.next()
    const fail = this.next()
    const code = this.next()
    const drop = this.next()
    return {
      delayMs: (o.latencyMs ?? 0) + Math.floor(jitter * (o.jitterMs ?? 0)),
      reset: reset < (o.resetRate ?? 0),
      failStatus: fail < (o.failRate ?? 0) ? FAIL_CODES[Math.floor(code * 3)] : undefined,
      dropAfterCommit: drop < (o.dropAfterCommitRate ?? 0)
    }
  }

  /** Takes a token for `key`; returns the seconds to wait when none is left. */
  throttle(key: string, now: number = Date.now()): number | undefined {
    const limit = this.options.rateLimit
    if (limit === undefined || limit <= 0) return undefined
    const b = this.buckets.get(key) ?? { tokens: limit, at: now }
    b.tokens = Math.min(limit, b.tokens + ((now - b.at) / 1000) * limit)
    b.at = now
    this.buckets.set(key, b)
    if (b.tokens >= 1) {
      b.tokens -= 1
      return undefined
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / limit))
  }
}
