import { assert, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as PlanBooks from "../../src/staging/PlanBooks.js"

describe("the kept books' chunks", () => {
  const items = Array.from({ length: 4000 }, (_, i) => ({
    reference: `INV-${i}`,
    contact: i % 7 === 0 ? "Caf\u00e9 \u00d7 \u20ac" : `Contact ${i % 50}`,
    total: BigDecimal.make(BigInt(i * 137), 2),
    note: "n".repeat(i % 300)
  }))
  const long = { reference: "LONG", note: "x".repeat(PlanBooks.CHUNK_CHARS * 2) }

  it("hold the items in order, as one chunk of them all would, each chunk below the size of one row", () => {
    const chunks = [...PlanBooks.chunksOf([...items.slice(0, 2000), long, ...items.slice(2000)])]
    assert.isAbove(chunks.length, 10)
    for (const chunk of chunks) {
      const inIt = JSON.parse(chunk) as Array<unknown>
      assert.isTrue(
        chunk.length <= PlanBooks.CHUNK_CHARS || inIt.length === 1,
        `a chunk of ${chunk.length} characters holds ${inIt.length} items`
      )
      assert.notMatch(chunk, /[^\x00-\x7f]/, "every character outside ASCII is escaped")
    }
    assert.deepStrictEqual(
      chunks.flatMap((c) => JSON.parse(c) as Array<unknown>),
      JSON.parse(
        PlanBooks.encodeChunk([...items.slice(0, 2000), long, ...items.slice(2000)])
      ) as Array<unknown>
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
