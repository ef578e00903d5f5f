/**
 * Each case runs in a Node process of its own (`inOwnProcess`): in a test worker that earlier test files
 * had used, the young generation could already be at its largest, and then it cannot be seen to grow (CI on
 * 6c11e7a: "new space 16777216 → 16777216 bytes"). A fresh process starts it small, as `plan` does.
 */
import { assert, describe, it } from "@effect/vitest"
import { inOwnProcess, source } from "./support/OwnProcess.js"

/** The new space's size before and after `steps` (after which about 200,000 small arrays are kept alive per `survivors()`, the shape of a plan's operations as they are built), and how many were kept. */
const sizes = (steps: string) =>
  inOwnProcess<{ before: number; after: number; kept: number }>(`
    import * as NodeV8 from "node:v8"
    import { growingYoungGeneration, steadyYoungGeneration } from "${source("src/Memory.ts")}"
    const newSpace = () => NodeV8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size
    const survivors = () => Array.from({ length: 200_000 }, (_, i) => [i, i + 1, i + 2])
    ${steps}
    globalThis.answer = { before, after: newSpace(), kept: kept.length }`).answer

describe("Memory.steadyYoungGeneration and growingYoungGeneration (plan's young generation)", () => {
  it("keeps the young generation at its size while what is allocated survives (V8 would grow it)", () => {
    const { before, after, kept } = sizes(`
      const before = newSpace()
      steadyYoungGeneration()
      const kept = survivors()`)
    assert.strictEqual(kept, 200_000)
    assert.isAtMost(after, before, `new space ${before} → ${after} bytes`)
  })

  it("lets it grow again once the books are read (plan's build)", () => {
    const { before, after, kept } = sizes(`
      steadyYoungGeneration()
      const before = newSpace()
      growingYoungGeneration()
      const kept = [survivors(), survivors(), survivors()]`)
    assert.strictEqual(kept, 3)
    assert.isAbove(after, before, `new space ${before} → ${after} bytes`)
  })
})
