/**
 * Bodies are built without validating in their constructors (plan is faster so): the one check is
 * PlanContext.add's encode, which must still refuse a body the platform's schema refuses, nested bodies
 * included, naming the operation and the field, and keep nothing of it in the plan.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Bodies from "../../src/transform/Bodies.js"
import { PlanContext } from "../../src/transform/PlanContext.js"
import { OpsInMemory } from "../../src/transform/Plan.js"
import { m, mappings, snapshot } from "./Books.js"
import { documentBody, lineItem } from "./RequestBodies.js"

/** No source records to match: these tests add bodies directly. */
const nothingMatched = { suggestions: [], choices: new Map() }

const spec = (key: string) => ({
  key,
  phase: "transactions" as const,
  kind: "invoice" as const,
  naturalKey: key,
  sortKey: key,
  lineage: ["SalesInvoices.csv:7"]
})

const document = (lineItems: ReadonlyArray<Bodies.LineItem>) => documentBody({ lineItems })

describe("a body the platform's schema refuses", () => {
  it("is built without throwing, and PlanContext.add rejects it with the field named", () => {
    const memory = new OpsInMemory()
    const ctx = new PlanContext(snapshot, mappings, nothingMatched, memory)
    const bad = document([lineItem(), lineItem({ name: "" })])
    const added = ctx.add(spec("invoice:INV-1"), Bodies.Document, () => ({ body: bad, dependsOn: [] }))
    assert.isFalse(added)
    assert.strictEqual(memory.ops.length, 0)
    const [issue] = ctx.issues
    assert.strictEqual(issue?.severity, "reject")
    assert.deepStrictEqual(issue?.lineage, ["SalesInvoices.csv:7"])
    assert.include(issue?.what ?? "", "invoice:INV-1: the body does not satisfy the platform's schema")
    // The path to the field: the second line's name.
    const why = issue?.why ?? ""
    for (const step of ['["lineItems"]', "[1]", '["name"]', "Expected a non empty string"])
      assert.include(why, step)
    assert.isBelow(why.indexOf('["lineItems"]'), why.indexOf('["name"]'))
  })

  it("a zero discount (not positive) and a malformed date are refused as well", () => {
    const memory = new OpsInMemory()
    const ctx = new PlanContext(snapshot, mappings, nothingMatched, memory)
    ctx.add(spec("invoice:A"), Bodies.Document, () => ({
      body: document([lineItem({ discount: m("0") })]),
      dependsOn: []
    }))
    ctx.add(spec("invoice:B"), Bodies.Document, () => ({
      body: new Bodies.Document({ ...document([lineItem()]), valueDate: "10/03/2025" }),
      dependsOn: []
    }))
    assert.strictEqual(memory.ops.length, 0)
    assert.deepStrictEqual(
      ctx.issues.map((i) => i.what.split(":").slice(0, 2).join(":")),
      ["invoice:A", "invoice:B"]
    )
  })

  it("a valid body is encoded as the platform receives it", () => {
    const memory = new OpsInMemory()
    const ctx = new PlanContext(snapshot, mappings, nothingMatched, memory)
    assert.isTrue(
      ctx.add(spec("invoice:OK"), Bodies.Document, () => ({ body: document([lineItem()]), dependsOn: [] }))
    )
    const body = memory.ops[0]?.body as { lineItems: Array<{ quantity: unknown; name: string }> }
    assert.deepStrictEqual(body.lineItems[0], {
      name: "Consulting",
      quantity: 1,
      unitPrice: 10,
      accountResourceId: "acc-1"
    } as unknown as (typeof body.lineItems)[0])
  })
})
