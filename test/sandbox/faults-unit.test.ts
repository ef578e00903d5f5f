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
    const seqA = Array.from({ length: 200 }, (_, i) => a.plan(`POST /v1/invoices\n{"n":${i % 50}}`))
    const seqB = Array.from({ length: 200 }, (_, i) => b.plan(`POST /v1/invoices\n{"n":${i % 50}}`))
    expect(seqA).toEqual(seqB)
    expect(seqA.some((p) => p.failStatus !== undefined)).toBe(true)
    expect(seqA.some((p) => p.reset)).toBe(true)
    expect(seqA.some((p) => p.dropAfterCommit)).toBe(true)
  })

  it("faults: a request's plan does not depend on where it arrives among the others", () => {
    const opts = { failRate: 0.3, resetRate: 0.2, dropAfterCommitRate: 0.3, jitterMs: 20, seed: 11 }
    const requests = Array.from({ length: 40 }, (_, i) => `POST /v1/refunds\n{"reference":"CN-${i}"}`)
    // Each request twice (a first attempt and its retry), in arrival order and then reversed and interleaved.
    const plansIn = (order: ReadonlyArray<string>) => {
      const f = new Faults(opts)
      const byRequest = new Map<string, Array<ReturnType<Faults["plan"]>>>()
      for (const r of order) byRequest.set(r, [...(byRequest.get(r) ?? []), f.plan(r)])
      return byRequest
    }
    const inOrder = plansIn([...requests, ...requests])
    const reversed = plansIn([...requests].reverse().flatMap((r) => [r, r]))
    for (const r of requests) expect(reversed.get(r)).toEqual(inOrder.get(r))
    // A retry draws afresh: the two attempts of some request differ.
    expect(
      requests.some((r) => JSON.stringify(inOrder.get(r)![0]) !== JSON.stringify(inOrder.get(r)![1]))
    ).toBe(true)
    // And the requests do not all share one plan.
    expect(new Set(requests.map((r) => inOrder.get(r)![0]!.dropAfterCommit)).size).toBe(2)
  })

  it("faults: a different seed gives a different sequence", () => {
    const a = prng(1)
    const b = prng(2)
    expect(Array.from({ length: 5 }, a)).not.toEqual(Array.from({ length: 5 }, b))
  })

  it("faults: failures pick 500, 502 and 503", () => {
    const f = new Faults({ failRate: 1, seed: 7 })
    const codes = new Set(
      Array.from({ length: 100 }, (_, i) => f.plan(`GET /v1/accounts?page=${i}\n`).failStatus)
    )
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
