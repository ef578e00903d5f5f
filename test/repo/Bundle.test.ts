import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as NodeVm from "node:vm"
import { ascii, build, dist, isStale } from "../../scripts/build.mjs"

const nonAscii = /[^\x00-\x7f]/

describe("the CLI's bundle", () => {
  it("is ASCII, so that V8 holds its source at one byte per character", async () => {
    if (isStale()) await build()
    const text = NodeFs.readFileSync(NodePath.join(dist, "ledger-migrate.mjs"), "utf8")
    const at = text.search(nonAscii)
    assert.strictEqual(at, -1, `a non-ASCII character in the bundle: ${text.slice(at - 60, at + 20)}`)
  })

  it("escapes non-ASCII characters to what means the same in strings, templates, regexes and comments", () => {
    const source = [
      "// a comment’s apostrophe → and an arrow",
      "const dash = /^[-\u2013\u2014]?$/",
      "const money = /[$€£¥₹]/g",
      "result = [dash.test('—'), dash.test('x'), 'a’b', `t€${1}`, '😀'.length, '£12'.replace(money, '')]"
    ].join("\n")
    const escaped = ascii(source)
    assert.isFalse(nonAscii.test(escaped))
    const run = (code: string) => {
      const context: { result?: unknown } = {}
      NodeVm.runInNewContext(code, context)
      return context.result
    }
    assert.deepStrictEqual(run(escaped), [true, false, "a’b", "t€1", 2, "12"])
    assert.deepStrictEqual(run(escaped), run(source))
  })
})
