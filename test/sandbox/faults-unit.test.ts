import { describe, expect, it } from "vitest"
import { Faults, prng } from "../../src/sandbox/Faults.js"

describe("sandbox fault plans", () => {
  it("faults: the same seed gives the same fault sequence", () => {
    const opts = {
      failRate: 0.3,
      resetRate: 0.2,
      dropAfterCommitRate: 0.2,
      latencyMs: 5,
      jitterMs: 20,
      seed: 42
    }
    const a = new Faults(opts)
    const b = new Faults(opts)
    const seqA = Array.from({ length: 200 }, () => a.plan())
    const seqB = Array.from({ length: 200 }, () => b.plan())
    expect(seqA).toEqual(seqB)
    expect(seqA.some((p) => p.failStatus !== undefined)).toBe(true)
    expect(seqA.some((p) => p.reset)).toBe(true)
    expect(seqA.some((p) => p.dropAfterCommit)).toBe(true)
  })

  it("faults: a different seed gives a different sequence", () => {
    const a = prng(1)
    const b = prng(2)
    expect(Array.from({ length: 5 }, a)).not.toEqual(Array.from({ length: 5 }, b))
  })

  it("faults: failures pick 500, 502 and 503", () => {
    const f = new Faults({ failRate: 1, seed: 7 })
    const codes = new Set(Array.from({ length: 100 }, () => f.plan().failStatus))
    expect([...codes].sort()).toEqual([500, 502, 503])
  })

  it("faults: the rate limiter refuses past R requests per second per key and says how long to wait", () => {
    const f = new Faults({ rateLimit: 2 })
    const t = 1_000_000
    expect(f.throttle("jk-a", t)).toBeUndefined()
    expect(f.throttle("jk-a", t)).toBeUndefined()
    expect(f.throttle("jk-a", t)).toBe(1)
    expect(f.throttle("jk-b", t)).toBeUndefined()
    expect(f.throttle("jk-a", t + 500)).toBeUndefined()
  })
})
