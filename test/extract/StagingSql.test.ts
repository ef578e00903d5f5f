import { assert, describe, it } from "@effect/vitest"
import * as Sql from "../../src/extract/StagingSql.mjs"
import { ORDINARY_CHARS } from "../../src/Pieces.mjs"

describe("a batch's texts packed for the writer thread", () => {
  const texts = [
    "",
    "a\u001fb",
    ...Array.from({ length: 3000 }, (_, i) => `row ${i}\u001f${"v".repeat(i % 97)}\u001f\u20ac${i}`),
    "w".repeat(ORDINARY_CHARS + 10),
    "",
    "last"
  ]

  it("come back in order, empty texts and one longer than a piece included", () => {
    assert.deepStrictEqual(Sql.unpackTexts(Sql.packTexts(texts)), texts)
    assert.deepStrictEqual(Sql.unpackTexts(Sql.packTexts([])), [])
    assert.deepStrictEqual(Sql.unpackTexts(Sql.packTexts([""])), [""])
  })

  it("in pieces of at most ORDINARY_CHARS characters, but for a text longer than that alone in its piece", () => {
    const pieces = Sql.packTexts(texts)
    assert.isAbove(pieces.length, 4)
    for (const piece of pieces)
      assert.isTrue(
        piece.length <= ORDINARY_CHARS || !piece.includes(Sql.BATCH_SEPARATOR),
        `a piece of ${piece.length} characters holds more than one text`
      )
    assert.include(pieces, "w".repeat(ORDINARY_CHARS + 10))
  })
})
