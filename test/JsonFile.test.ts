/**
 * A JSON file written a piece at a time reads exactly as `JSON.stringify(value, null, 2)` writes it (members
 * left out or written as null, `toJSON`, empty arrays and objects, text with line breaks and quotes), and no
 * piece holds more than one member below the levels it writes a member at a time.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as JsonFile from "../src/JsonFile.js"

const awkward = {
  text: 'a "quoted"\nline\tand \u00e9 \u2028',
  number: -1.5e-7,
  nothing: null,
  gone: undefined,
  fn: () => 1,
  empty: { array: [], object: {} },
  holes: [undefined, () => 2, Symbol("s"), 0, false, ""],
  dated: new Date(Date.UTC(2025, 11, 31)),
  own: { toJSON: () => ({ as: ["json", { deep: [[[1]]] }] }) },
  nested: [[{ a: [{ b: { c: [1, { d: "e" }] } }] }], []],
  map: new Map([["k", 1]])
}

/** A report's shape: contacts, each with its open documents. */
const report = {
  runId: "r",
  aged: [
    {
      side: "AR",
      contacts: Array.from({ length: 300 }, (_, c) => ({
        contact: `Contact ${c}`,
        documents: Array.from({ length: 40 }, (_, d) => ({
          number: `INV-${c}-${d}`,
          source: "1.00",
          lineage: [`a.csv:${c}`, `b.csv:${d}`]
        }))
      }))
    }
  ]
}

describe("JsonFile", () => {
  it("writes what JSON.stringify(value, null, 2) writes, piece by piece", () => {
    for (const value of [awkward, report, [awkward, [awkward]], [], {}, "text", 3, null])
      assert.strictEqual([...JsonFile.pieces(value)].join(""), JSON.stringify(value, null, 2))
  })

  it("holds one member of the levels it writes member by member, not the whole text", () => {
    const whole = JSON.stringify(report, null, 2).length
    const largest = Math.max(...[...JsonFile.pieces(report)].map((p) => p.length))
    // A contact is four levels down, each of its lines indented by eight spaces.
    const contact = Math.max(
      ...report.aged[0]!.contacts.map((c) => JSON.stringify(c, null, 2).replaceAll("\n", "\n        ").length)
    )
    assert.strictEqual(largest, contact, `largest piece ${largest} characters of ${whole}`)
    assert.isAbove(whole, 100 * largest)
  })

  it("writes the file with a final line break", async () => {
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "json-file-"))
    try {
      const path = NodePath.join(dir, "report.json")
      await JsonFile.writeIndented(path, report)
      assert.strictEqual(NodeFs.readFileSync(path, "utf8"), `${JSON.stringify(report, null, 2)}\n`)
    } finally {
      NodeFs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
