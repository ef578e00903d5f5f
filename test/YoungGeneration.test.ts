import { assert, describe, it } from "@effect/vitest"
import * as NodeV8 from "node:v8"
import { growingYoungGeneration, steadyYoungGeneration } from "../src/Memory.js"

const newSpace = () => NodeV8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")!.space_size

/** About 200,000 small arrays kept alive, the shape of a plan's operations as they are built. */
const survivors = () => Array.from({ length: 200_000 }, (_, i) => [i, i + 1, i + 2])

describe("Memory.steadyYoungGeneration and growingYoungGeneration (plan's young generation)", () => {
  it("keeps the young generation at its size while what is allocated survives (V8 would grow it)", () => {
    const before = newSpace()
    steadyYoungGeneration()
    const kept = survivors()
    assert.strictEqual(kept.length, 200_000)
    assert.isAtMost(newSpace(), before, `new space ${before} → ${newSpace()} bytes`)
  })

  it("lets it grow again once the books are read (plan's build)", () => {
    steadyYoungGeneration()
    const before = newSpace()
    growingYoungGeneration()
    const kept = [survivors(), survivors(), survivors()]
    assert.strictEqual(kept.length, 3)
    assert.isAbove(newSpace(), before, `new space ${before} → ${newSpace()} bytes`)
  })
})
