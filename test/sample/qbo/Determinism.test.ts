import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { FILES, generateQbo } from "../../../src/sample/qbo/Generator.js"
import { tempDir } from "../../support/TempDir.js"

const COMMITTED = NodePath.join(import.meta.dirname, "..", "..", "..", "samples", "qbo-demo")

const generate = (invoices: number, seed: number): Map<string, Buffer> => {
  const dir = tempDir("qbo-sample")
  generateQbo({ invoices, seed, out: dir })
  assert.deepStrictEqual(NodeFs.readdirSync(dir).sort(), [...FILES].sort())
  return new Map(FILES.map((name) => [name, NodeFs.readFileSync(NodePath.join(dir, name))]))
}

describe("QuickBooks sample generator determinism", () => {
  it("writes byte-identical files for the same seed and size", () => {
    const first = generate(120, 7)
    const second = generate(120, 7)
    for (const name of FILES) assert.isTrue(first.get(name)?.equals(second.get(name)!), name)
  })

  it("writes different transactions for a different seed, over the same fixed lists", () => {
    const a = generate(120, 7)
    const b = generate(120, 8)
    for (const name of ["Journal.csv", "TrialBalance.csv", "ARAgingDetail.csv", "APAgingDetail.csv"])
      assert.isFalse(a.get(name)?.equals(b.get(name)!), name)
    for (const name of ["Customers.csv", "Vendors.csv", "ProductsAndServices.csv"])
      assert.isTrue(a.get(name)?.equals(b.get(name)!), name)
  })

  it("matches the committed samples/qbo-demo byte for byte (npm run sample -- --source qbo --out samples/qbo-demo)", () => {
    assert.deepStrictEqual(NodeFs.readdirSync(COMMITTED).sort(), [...FILES].sort())
    const fresh = generate(80, 42)
    for (const name of FILES) {
      const committed = NodeFs.readFileSync(NodePath.join(COMMITTED, name))
      assert.isTrue(committed.equals(fresh.get(name)!), `${name} drifted: regenerate the sample`)
    }
  })

  it("refuses a size too small to hold every kind of transaction", () => {
    assert.throws(
      () => generateQbo({ invoices: 10, seed: 1, out: "unused" }),
      /--invoices must be an integer from 40/
    )
  })
})
