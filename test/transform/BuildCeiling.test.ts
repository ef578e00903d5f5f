/**
 * The build's heap ceiling (`PlanContext.BUILD_FLOOR`): building a plan, and keeping its books for reconcile
 * just before (`PlanBooks.save`), collect their garbage in full once the heap in use passes a floor lower than
 * the other stages' (`Memory.FLOOR`).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeV8 from "node:v8"
import * as Memory from "../../src/Memory.js"
import * as PlanBooks from "../../src/staging/PlanBooks.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Bodies from "../../src/transform/Bodies.js"
import { OpsInMemory } from "../../src/transform/Plan.js"
import { BUILD_FLOOR, PlanContext } from "../../src/transform/PlanContext.js"
import { books, invoice, mappings, payment, snapshot } from "./Books.js"
import { documentBody, lineItem } from "./RequestBodies.js"

const MB = 1024 * 1024
const heapUsed = () => NodeV8.getHeapStatistics().used_heap_size

/** About `mb` megabytes of heap in many small arrays. */
const allocate = (mb: number) =>
  Array.from({ length: Math.ceil(mb * 64) }, () => Array.from({ length: 2048 }, (_, i) => i + 0.5))

/** Garbage that takes the heap in use to a little above the build's floor, well under the stages'. */
const garbageAboveTheBuildFloor = () => {
  assert.isBelow(BUILD_FLOOR, Memory.FLOOR)
  const live = Memory.collectNow()
  assert.isBelow(live + Memory.headroomFor(live), BUILD_FLOOR - 16 * MB, "what the test's process holds live")
  const target = BUILD_FLOOR + 12 * MB
  let garbage: Array<Array<number>> | undefined = allocate((target - heapUsed()) / MB)
  assert.isAbove(garbage.length, 0)
  garbage = undefined
  assert.isAbove(heapUsed(), BUILD_FLOOR + 8 * MB)
  assert.isBelow(heapUsed(), Memory.FLOOR - 8 * MB, "under the stages' floor")
}

describe("the build's heap ceiling", () => {
  it("collects in full when garbage takes the heap past the build's floor, under the stages' floor", () => {
    garbageAboveTheBuildFloor()
    const memory = new OpsInMemory()
    const ctx = new PlanContext(snapshot, mappings, { suggestions: [], choices: new Map() }, memory)
    const before = Memory.collectionCount()
    for (let i = 0; i < 1000; i++) {
      const key = `invoice:INV-${i}`
      ctx.add(
        {
          key,
          phase: "transactions",
          kind: "invoice",
          naturalKey: key,
          sortKey: key,
          lineage: [`S.csv:${i + 2}`]
        },
        Bodies.Document,
        () => ({ body: documentBody({ lineItems: [lineItem()] }), dependsOn: [] })
      )
    }
    assert.strictEqual(memory.ops.length, 1000)
    assert.strictEqual(
      Memory.collectionCount(),
      before + 1,
      "one full collection, at the thousandth operation"
    )
    assert.isBelow(heapUsed(), BUILD_FLOOR, "the garbage is gone")
  })

  // At 100,000 invoices the aged reports' items, matched and kept, took the heap from 63 to 126 MB (the
  // stages' floor) and plan's RSS to 268-274 MB, its peak, before the build began.
  it.effect("keeping the books for reconcile collects under the build's floor too", () =>
    Effect.gen(function* () {
      garbageAboveTheBuildFloor()
      const before = Memory.collectionCount()
      yield* PlanBooks.save(
        "digest",
        books({
          documents: [invoice("INV-1", "2025-02-01"), invoice("INV-2", "2025-02-02")],
          payments: [payment("INV-1", "2025-02-10", "10", 7)]
        })
      )
      assert.isAbove(Memory.collectionCount(), before, "a full collection while the books were kept")
      assert.isBelow(heapUsed(), BUILD_FLOOR, "the garbage is gone")
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
