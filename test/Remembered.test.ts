/**
 * A remembered function computes each answer once, undefined answers included, for string and number keys;
 * `forget` and the limit let go of what it holds.
 */
import { assert, describe, it } from "@effect/vitest"
import { remembered } from "../src/Remembered.js"

/** `f` wrapped so that its calls are counted. */
const counted = <A, K extends string | number>(f: (k: K) => A) => {
  const calls: Array<K> = []
  return { calls, f: (k: K) => (calls.push(k), f(k)) }
}

describe("remembered", () => {
  it("computes each answer once and answers again from memory", () => {
    const c = counted((s: string) => s.toUpperCase())
    const g = remembered(c.f)
    assert.deepStrictEqual(
      ["a", "b", "a", "a", "b"].map((s) => g(s)),
      ["A", "B", "A", "A", "B"]
    )
    assert.deepStrictEqual(c.calls, ["a", "b"])
  })

  it("remembers an undefined answer and a falsy one, and takes numbers as keys", () => {
    const c = counted((n: number) => (n < 0 ? undefined : n === 0 ? 0 : String(n)))
    const g = remembered<string | number | undefined, number>(c.f)
    assert.deepStrictEqual(
      [-1, 0, 7, -1, 0, 7].map((n) => g(n)),
      [undefined, 0, "7", undefined, 0, "7"]
    )
    assert.deepStrictEqual(c.calls, [-1, 0, 7], "each computed once, undefined included")
  })

  it("lets go of its answers when told, and when it holds its limit", () => {
    const c = counted((s: string) => s.length)
    const g = remembered(c.f, 2)
    g("a")
    g("bb")
    g("ccc") // the limit: emptied before this answer is held
    g("a")
    g("ccc")
    assert.deepStrictEqual(c.calls, ["a", "bb", "ccc", "a"])
    g.forget()
    g("ccc")
    assert.deepStrictEqual(c.calls, ["a", "bb", "ccc", "a", "ccc"])
  })
})
