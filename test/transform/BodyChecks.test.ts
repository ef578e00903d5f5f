/**
 * Bodies are built without validating in their constructors (plan is faster so): the one check is
 * PlanContext.add's encode, which must still refuse a body the platform's schema refuses, nested bodies
 * included, naming the operation and the field, and keep nothing of it in the plan.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Equal from "effect/Equal"
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

describe("a body made without its schema's constructor", () => {
  /** Every body class of `Bodies`: what has the fields of a `Schema.Class`. */
  const classes = Object.entries(Bodies as Record<string, unknown>).flatMap(([name, c]) =>
    typeof c === "function" && "fields" in c
      ? [[name, c as unknown as { readonly fields: Record<string, unknown> }] as const]
      : []
  )

  it("is the value the schema's constructor makes, an instance of its class with the same fields", () => {
    const props = { name: "Consulting", quantity: m("2"), unitPrice: m("10.5"), accountResourceId: "acc-1" }
    const fast = new Bodies.LineItem(props)
    // The schema's own constructor, validating.
    const made = new Bodies.LineItem(props, false)
    assert.instanceOf(fast, Bodies.LineItem)
    assert.deepStrictEqual(Object.keys(fast), Object.keys(made))
    assert.isTrue(Equal.equals(fast, made))
    assert.notStrictEqual(fast, props, "a value of its own, not the record it was made from")
    assert.throws(() => new Bodies.LineItem({ ...props, name: "" }, false))
  })

  it("has no field with a default, which only the schema's constructor would fill in", () => {
    assert.isAbove(classes.length, 20)
    for (const [name, c] of classes)
      for (const [field, s] of Object.entries(c.fields)) {
        const ast = (
          s as { ast?: { _tag?: string; defaultValue?: unknown; to?: { defaultValue?: unknown } } }
        ).ast
        const withDefault =
          ast?._tag === "PropertySignatureDeclaration"
            ? ast.defaultValue !== undefined
            : ast?._tag === "PropertySignatureTransformation" && ast.to?.defaultValue !== undefined
        assert.isFalse(withDefault, `${name}.${field} has a default`)
      }
  })
})
