import { assert, describe, it } from "@effect/vitest"
import * as RowText from "../../src/staging/RowText.js"

const roundTrip = (values: ReadonlyArray<string>) => RowText.decode(RowText.encode(values), values.length)

describe("RowText (a staged row's stored values)", () => {
  it("joins plain values with U+001F, one byte a value, and reads them back", () => {
    const values = ["INV-0001", "Acme, Inc.", '27" monitor', "line one\nline two", "", "1,234.50"]
    assert.strictEqual(RowText.encode(values), values.join("\u001f"))
    assert.deepStrictEqual(roundTrip(values), values)
  })

  it("stores a row whose value holds a separator as JSON behind a marker, and reads it back", () => {
    for (const odd of ["a\u001fb", "\u001e", "\u001dstarts with the marker"]) {
      const values = ["x", odd, ""]
      const text = RowText.encode(values)
      assert.strictEqual(text[0], "\u001d")
      assert.notInclude(text, "\u001e", "a stored text never holds the batch separator")
      assert.deepStrictEqual(roundTrip(values), values)
    }
  })

  it("tells a row of one empty value from a row of none by the shape's key count", () => {
    assert.deepStrictEqual(roundTrip([""]), [""])
    assert.deepStrictEqual(roundTrip([]), [])
  })

  it("refuses a text that does not hold as many values as its shape has keys", () => {
    assert.isUndefined(RowText.decode("a\u001fb", 3))
    assert.isUndefined(RowText.decode(`\u001d${JSON.stringify(["a"])}`, 2))
  })
})
