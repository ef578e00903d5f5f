import { assert, describe, it } from "@effect/vitest"
import { ORDINARY_CHARS, pieces } from "../src/Pieces.mjs"

describe("texts joined into pieces for V8's ordinary heap", () => {
  const texts = Array.from({ length: 5000 }, (_, i) => `text ${i} ${"v".repeat(i % 97)}`)
  const long = "w".repeat(ORDINARY_CHARS + 10)

  it("give the texts back in order, each piece at most ORDINARY_CHARS with its ends, a longer text alone", () => {
    const all = [...texts.slice(0, 2500), long, ...texts.slice(2500)]
    const made = [...pieces(all, "|", "<<", ">")]
    assert.isAbove(made.length, 4)
    for (const piece of made) {
      assert.isTrue(piece.startsWith("<<") && piece.endsWith(">"))
      assert.isTrue(
        piece.length <= ORDINARY_CHARS || !piece.includes("|"),
        `a piece of ${piece.length} characters holds more than one text`
      )
    }
    assert.include(made, `<<${long}>`)
    assert.deepStrictEqual(
      made.flatMap((p) => p.slice(2, -1).split("|")),
      all
    )
    // Full: a piece ends only where the next text would not fit.
    for (let i = 0; i + 1 < made.length; i++) {
      const next = made[i + 1]!.slice(2, -1).split("|")[0]!
      assert.isAbove(made[i]!.length + 1 + next.length, ORDINARY_CHARS)
    }
  })

  it("none for no texts, one for one empty text", () => {
    assert.deepStrictEqual([...pieces([], ",")], [])
    assert.deepStrictEqual([...pieces([""], ",", "[", "]")], ["[]"])
  })
})
