/**
 * Lists grouped in place: `append` adds to the list it created for a key, `groupBy` keeps the values' order
 * within a group and the groups' first-seen order; and no source file copies a group's list to add a value
 * (`[...(m.get(k) ?? []), v]`), which is quadratic in the group's size.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { append, groupBy } from "../src/Multimap.js"

const src = NodePath.resolve(import.meta.dirname, "../src")

const sources = (dir: string): Array<string> =>
  NodeFs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = NodePath.join(dir, e.name)
    if (e.isDirectory()) return sources(path)
    return /\.(ts|mjs)$/.test(e.name) ? [path] : []
  })

describe("Multimap", () => {
  it("append creates a list on first use and then adds to that same list", () => {
    const map = new Map<string, Array<number>>()
    append(map, "a", 1)
    const first = map.get("a")
    append(map, "a", 2)
    append(map, "b", 3)
    assert.strictEqual(map.get("a"), first, "the list is extended, not replaced")
    assert.deepStrictEqual(
      [...map],
      [
        ["a", [1, 2]],
        ["b", [3]]
      ]
    )
  })

  it("groupBy keeps the order of values within a group and of the groups", () => {
    const groups = groupBy(["b1", "a1", "b2", "c1", "a2"], (s) => s[0])
    assert.deepStrictEqual(
      [...groups],
      [
        ["b", ["b1", "b2"]],
        ["a", ["a1", "a2"]],
        ["c", ["c1"]]
      ]
    )
  })

  it("no source file groups by copying the list for each value", () => {
    const quadratic = /(\w+)\.set\(([^,]+), \[\.\.\.\(\1\.get\(\2\) \?\? \[\]\)/
    const found = sources(src).filter((f) => quadratic.test(NodeFs.readFileSync(f, "utf8")))
    assert.deepStrictEqual(
      found.map((f) => NodePath.relative(src, f)),
      [],
      "use Multimap.append instead"
    )
  })
})
