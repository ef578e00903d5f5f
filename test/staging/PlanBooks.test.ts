import { assert, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import { ORDINARY_CHARS } from "../../src/Pieces.mjs"
import * as PlanBooks from "../../src/staging/PlanBooks.js"

describe("the kept books' chunks", () => {
  const items = Array.from({ length: 4000 }, (_, i) => ({
    reference: `INV-${i}`,
    contact: i % 7 === 0 ? "Caf\u00e9 \u00d7 \u20ac" : `Contact ${i % 50}`,
    total: BigDecimal.make(BigInt(i * 137), 2),
    note: "n".repeat(i % 300)
  }))
  /** An item as its chunk holds it: money as `$d`, its unscaled value and scale. */
  const asKept = (item: (typeof items)[number]) => ({
    ...item,
    total: { $d: [item.total.value.toString(), item.total.scale] }
  })
  const long = { reference: "LONG", note: "x".repeat(ORDINARY_CHARS * 2) }

  it("hold the items in order, money as its unscaled value and scale, each chunk below the size of one row", () => {
    const all = [...items.slice(0, 2000), long, ...items.slice(2000)]
    const chunks = [...PlanBooks.chunksOf(all)]
    assert.isAbove(chunks.length, 10)
    for (const chunk of chunks) {
      const inIt = JSON.parse(chunk) as Array<unknown>
      assert.isTrue(
        chunk.length <= ORDINARY_CHARS || inIt.length === 1,
        `a chunk of ${chunk.length} characters holds ${inIt.length} items`
      )
      assert.notMatch(chunk, /[^\x00-\x7f]/, "every character outside ASCII is escaped")
    }
    assert.deepStrictEqual(
      chunks.flatMap((c) => JSON.parse(c) as Array<unknown>),
      [...items.slice(0, 2000).map(asKept), long, ...items.slice(2000).map(asKept)]
    )
  })

  it("keep an empty collection as one empty chunk, and each item as it is kept", () => {
    assert.deepStrictEqual([...PlanBooks.chunksOf([])], ["[]"])
    assert.deepStrictEqual(
      [...PlanBooks.chunksOf([1, 2], (n) => [n, "\u00e9"])],
      ['[[1,"\\u00e9"],[2,"\\u00e9"]]']
    )
  })
})
