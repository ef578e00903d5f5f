import { assert, describe, it } from "@effect/vitest"
import * as Memory from "../src/Memory.js"

/** About `mb` megabytes of heap in many small arrays, the shape of parsed rows and planned operations. */
const allocate = (mb: number) =>
  Array.from({ length: mb * 64 }, () => Array.from({ length: 2048 }, (_, i) => i + 0.5))

describe("Memory.relieve (the batch stages' heap ceiling)", () => {
  it("collects in full once garbage takes the heap past the ceiling, then leaves it be", () => {
    let garbage: Array<Array<number>> | undefined = allocate(Memory.FLOOR / (1024 * 1024) + 64)
    assert.isAbove(garbage.length, 0)
    garbage = undefined
    const before = process.memoryUsage().heapUsed
    assert.isAbove(before, Memory.FLOOR, "the dropped arrays are still on the heap")
    const count = Memory.collectionCount()
    assert.isTrue(Memory.relieve())
    assert.strictEqual(Memory.collectionCount(), count + 1)
    assert.isBelow(process.memoryUsage().heapUsed, Memory.FLOOR, "the garbage is gone")
    assert.isFalse(Memory.relieve(), "nothing to do below the ceiling")
  })

  it("raises the ceiling above a live heap larger than the floor, so that it does not collect on every call", () => {
    const live = allocate(Memory.FLOOR / (1024 * 1024) + 32)
    Memory.relieve()
    assert.isFalse(Memory.relieve(), "the live arrays alone do not pass the new ceiling")
    assert.isAbove(live.length, 0)
  })

  it("collects above a stage's own floor where the default floor leaves the heap be (extract's)", () => {
    Memory.collectNow()
    let garbage: Array<Array<number>> | undefined = allocate(Memory.HEADROOM / (1024 * 1024) + 16)
    assert.isAbove(garbage.length, 0)
    garbage = undefined
    const heap = process.memoryUsage().heapUsed
    assert.isBelow(heap, Memory.FLOOR, "the test's heap, garbage included, is under the default floor")
    assert.isFalse(Memory.relieve(), "under the default floor")
    const count = Memory.collectionCount()
    assert.isTrue(Memory.relieve(1024 * 1024), "past its own headroom and a floor of 1 MB")
    assert.strictEqual(Memory.collectionCount(), count + 1)
    assert.isFalse(Memory.relieve(1024 * 1024), "the garbage is gone: under the new ceiling")
  })

  it("counts the buffers the heap's objects hold outside it when asked (the preview's workbook chunks)", async () => {
    Memory.collectNow()
    const MB = 1024 * 1024
    // 48 MB of dropped buffers: outside the heap, which holds little more than their handles.
    const held = process.memoryUsage().arrayBuffers
    let garbage: Array<Buffer> | undefined = Array.from({ length: 48 * 16 }, () => Buffer.alloc(64 * 1024, 1))
    assert.isAbove(garbage.length, 0)
    garbage = undefined
    const floor = 32 * MB
    assert.isAbove(
      process.memoryUsage().arrayBuffers - held,
      40 * MB,
      "the dropped buffers are not freed yet"
    )
    assert.isFalse(
      Memory.relieve(floor),
      "the heap alone does not pass the ceiling (what was live, and its headroom)"
    )
    const count = Memory.collectionCount()
    assert.isTrue(Memory.relieve(floor, { buffers: true }), "the heap and its buffers do")
    assert.strictEqual(Memory.collectionCount(), count + 1)
    // Their memory is given back by a sweeper beside the collection: soon after it, not at once.
    for (let waited = 0; waited < 2000 && process.memoryUsage().arrayBuffers - held >= 8 * MB; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20))
    assert.isBelow(process.memoryUsage().arrayBuffers - held, 8 * MB, "the buffers are freed")
  })

  it("reads the heap in use without measuring the resident set (1.3 ms a call in reconcile)", () => {
    const measure = process.memoryUsage
    process.memoryUsage = Object.assign(
      () => {
        throw new Error("process.memoryUsage measures the resident set as well")
      },
      { rss: measure.rss }
    )
    try {
      Memory.relieve()
      Memory.collectNow()
    } finally {
      process.memoryUsage = measure
    }
  })

  it("allows garbage in proportion to what is live (a quarter), never less than the headroom", () => {
    const MB = 1024 * 1024
    assert.strictEqual(Memory.headroomFor(100 * MB), Memory.HEADROOM)
    assert.strictEqual(Memory.headroomFor(4 * Memory.HEADROOM), Memory.HEADROOM)
    assert.strictEqual(Memory.headroomFor(192 * MB), 48 * MB)
    assert.strictEqual(Memory.headroomFor(800 * MB), 200 * MB)
  })

  it("collects now when asked at the end of a phase, garbage below the ceiling included", () => {
    let garbage: Array<Array<number>> | undefined = allocate(16)
    assert.isAbove(garbage.length, 0)
    garbage = undefined
    const before = process.memoryUsage().heapUsed
    assert.isFalse(Memory.relieve(), "16 MB of garbage is under the ceiling")
    const count = Memory.collectionCount()
    Memory.collectNow()
    assert.strictEqual(Memory.collectionCount(), count + 1)
    const after = process.memoryUsage().heapUsed
    assert.isBelow(after, before - 8 * 1024 * 1024, `${before} → ${after} bytes in use`)
  })
})
