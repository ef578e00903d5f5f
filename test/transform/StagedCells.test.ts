/**
 * Reading Xero's staged cells: a line's tracking is read from its two category/option pairs, and the books
 * hold one array for each set of options (the same set, line after line, is one object; none is one empty
 * array), until the reader lets go of what it shared.
 */
import { assert, describe, it } from "@effect/vitest"
import { forgetShared, trackingOf } from "../../src/transform/xero/StagedCells.js"

const row = (line: number, data: Record<string, string>) => ({ file: "Invoices.csv", line, data })

describe("StagedCells.trackingOf", () => {
  it("reads each category given with its option", () => {
    assert.deepStrictEqual(
      trackingOf(
        row(2, {
          TrackingName1: "Region",
          TrackingOption1: " North ",
          TrackingName2: "Channel",
          TrackingOption2: "Online"
        })
      ),
      [
        { category: "Region", option: "North" },
        { category: "Channel", option: "Online" }
      ]
    )
    assert.deepStrictEqual(trackingOf(row(3, { TrackingName1: "Region", TrackingOption1: "" })), [])
    assert.deepStrictEqual(
      trackingOf(
        row(4, { TrackingName1: "", TrackingOption1: "", TrackingName2: "Channel", TrackingOption2: "Shop" })
      ),
      [{ category: "Channel", option: "Shop" }]
    )
    assert.deepStrictEqual(trackingOf(row(5, {})), [])
  })

  it("gives lines with the same options one array, and lines without any one empty array", () => {
    forgetShared()
    const north = (line: number) => row(line, { TrackingName1: "Region", TrackingOption1: "North" })
    const a = trackingOf(north(2))
    assert.strictEqual(trackingOf(north(3)), a, "the same set of options is one array")
    assert.notStrictEqual(trackingOf(row(4, { TrackingName1: "Region", TrackingOption1: "South" })), a)
    assert.strictEqual(trackingOf(row(5, {})), trackingOf(row(6, { TrackingName2: "Channel" })))
    assert.isTrue(Object.isFrozen(a), "shared, so it cannot be changed")
    forgetShared()
    const b = trackingOf(north(7))
    assert.notStrictEqual(b, a, "read afresh once the reader has let go")
    assert.deepStrictEqual(b, a)
  })
})
