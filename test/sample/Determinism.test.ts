import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { FILES, generateCompany } from "../../src/sample/Generator.js"

const COMMITTED = NodePath.join(import.meta.dirname, "..", "..", "samples", "xero-demo")

const generate = (invoices: number, seed: number): Map<string, Buffer> => {
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xero-sample-"))
  try {
    generateCompany({ invoices, seed, out: dir })
    assert.deepStrictEqual(NodeFs.readdirSync(dir).sort(), [...FILES].sort())
    return new Map(FILES.map((name) => [name, NodeFs.readFileSync(NodePath.join(dir, name))]))
  } finally {
    NodeFs.rmSync(dir, { recursive: true, force: true })
  }
}

describe("sample generator determinism", () => {
  it("writes byte-identical files for the same seed and size", () => {
    const first = generate(300, 7)
    const second = generate(300, 7)
    for (const name of FILES) assert.isTrue(first.get(name)?.equals(second.get(name) as Buffer), name)
  })

  it("writes different documents, allocations, payments and journals for a different seed", () => {
    const a = generate(300, 7)
    const b = generate(300, 8)
    for (const name of [
      "SalesInvoices.csv",
      "Bills.csv",
      "Allocations.csv",
      "AccountTransactions.csv",
      "ManualJournals.csv"
    ] as const)
      assert.isFalse(a.get(name)?.equals(b.get(name) as Buffer), name)
    assert.isTrue(
      a.get("ChartOfAccounts.csv")?.equals(b.get("ChartOfAccounts.csv") as Buffer),
      "the chart is fixed"
    )
  })

  it("matches the committed samples/xero-demo byte for byte (npm run sample -- --out samples/xero-demo)", () => {
    const fresh = generate(150, 42)
    for (const name of FILES) {
      const committed = NodeFs.readFileSync(NodePath.join(COMMITTED, name))
      assert.isTrue(committed.equals(fresh.get(name) as Buffer), `${name} drifted: regenerate the sample`)
    }
  })
})
