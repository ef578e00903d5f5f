/**
 * Injected faults: latency with jitter, per-key rate limiting, 5xx, resets and commit-then-drop, from a seeded
 * PRNG. What happens to a request depends on the seed, the request itself and how many times the same request
 * came before, not on where it fell among the others: a loader sending four at once interleaves them
 * differently on every run, and a fault drawn from one shared sequence landed on a different request each time,
 * so a seeded failure did not reproduce. The target's identifiers are left out of a request's identity, since
 * they are random UUIDs, new on every run: requests that differ only in them (reads of one record each) share
 * one sequence, and which of them draws which fault still depends on their order.
 */

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

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/** FNV-1a over a request's text, its UUIDs left out: the request's identity as a 32-bit number. */
const identity = (request: string): number => {
  const text = request.replace(UUID, "~")
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** Plans each request from the seed, the request's identity and its attempt: the same plans in any arrival order. */
export class Faults {
  private readonly seed: number
  /** False when nothing is left to chance (a fixed latency at most): every plan is the same, nothing is drawn. */
  private readonly drawn: boolean
  private readonly attempts = new Map<number, number>()
  private readonly buckets = new Map<string, { tokens: number; at: number }>()

  constructor(readonly options: FaultOptions = {}) {
    this.seed = (options.seed ?? 1) >>> 0
    const o = options
    this.drawn =
      (o.jitterMs ?? 0) > 0 ||
      (o.failRate ?? 0) > 0 ||
      (o.resetRate ?? 0) > 0 ||
      (o.dropAfterCommitRate ?? 0) > 0
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

  /**
   * The plan for a request whose text is `request` (its method, URL and body: a retry sends the same). The n-th
   * time the same identity arrives draws the n-th plan of that identity's own sequence.
   */
  plan(request: string): FaultPlan {
    const o = this.options
    if (!this.drawn)
      return { delayMs: o.latencyMs ?? 0, reset: false, failStatus: undefined, dropAfterCommit: false }
    const id = identity(request)
    const attempt = this.attempts.get(id) ?? 0
    this.attempts.set(id, attempt + 1)
    const next = prng((this.seed ^ id) + Math.imul(attempt, 0x9e3779b9))
    const jitter = next()
    const reset = next()
    const fail = next()
    const code = next()
    const drop = next()
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
