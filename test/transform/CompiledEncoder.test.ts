/**
 * The plan's compiled body encoders, and the loader's compiled decoders, give what the body schemas give: the
 * same JSON for every body of whole plans (the all-kinds Xero fixture and a generated company, each body
 * encoded and canonicalised both ways and compared, none by the schema alone), and a refusal wherever the
 * schema refuses, so that the schema's own error still names the field.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Extract from "../../src/extract/Extract.js"
import * as Operations from "../../src/load/Operations.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import { generateCompany } from "../../src/sample/Generator.js"
import * as Bodies from "../../src/transform/Bodies.js"
import * as CompiledEncoder from "../../src/transform/CompiledEncoder.js"
import * as Mappings from "../../src/transform/Mappings.js"
import type { Plan } from "../../src/transform/Plan.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { allKindsDir } from "../support/AllKinds.js"
import { inProcessIn, sandbox, tempDir } from "../support/Harness.js"
import { m } from "./Books.js"
import { documentBody, lineItem } from "./RequestBodies.js"

const bodySchemas = Object.entries(Bodies).filter(([, v]) => Schema.isSchema(v)) as Array<
  [string, Schema.Schema<unknown, unknown>]
>

/** The plan of the Xero exports in `dir` against a fresh sandbox, every body encoded both ways. */
const planChecked = (dir: string, label: string) =>
  Effect.gen(function* () {
    const s = yield* sandbox()
    return yield* Effect.gen(function* () {
      yield* Extract.run({ source: "xero", inputDir: dir })
      const books = yield* XeroSource.read
      const snapshot = yield* ReadSnapshot.read
      const mappings = yield* Mappings.load("xero")
      CompiledEncoder.checkAgainstSchema(true)
      try {
        const plan = PlanBuilder.build(books, snapshot, mappings)
        return { plan, counts: CompiledEncoder.parsedCounts().encoded }
      } finally {
        CompiledEncoder.checkAgainstSchema(false)
      }
    }).pipe(inProcessIn(s, tempDir(label)))
  })

/** What the loader sends for a body when it goes through the schema alone: decoded, then encoded. */
const canonicalBySchema = (kind: keyof typeof Operations.schemas, body: unknown) =>
  Either.map(Schema.decodeUnknownEither(Operations.schemas[kind])(body), (d) =>
    Schema.encodeSync(Operations.schemas[kind])(d)
  )

/** Every operation's body canonicalised by the loader (compiled) and by the schema alone: equal JSON. */
const assertCanonicalAsSchema = (plan: Plan) => {
  const before = CompiledEncoder.parsedCounts().decoded
  for (const op of plan.ops) {
    const fast = Operations.canonicalBody(op.kind, op.body)
    const slow = canonicalBySchema(op.kind, op.body)
    // Decoded by the compiled decoder, not the schema's fallback.
    const decoder = CompiledEncoder.compileDecoder(Operations.schemas[op.kind].ast)
    assert.notStrictEqual(
      decoder?.(op.body),
      CompiledEncoder.FAIL,
      `${op.key}: the compiled decoder takes it`
    )
    assert.isTrue(Either.isRight(fast) && Either.isRight(slow), `${op.key} decodes both ways`)
    assert.strictEqual(
      JSON.stringify(Either.getOrThrow(fast)),
      JSON.stringify(Either.getOrThrow(slow)),
      op.key
    )
  }
  // The loader decoded every body with the compiled decoder (`decoderOf`), none with the schema alone.
  const after = CompiledEncoder.parsedCounts().decoded
  assert.strictEqual(after.compiled - before.compiled, plan.ops.length)
  assert.strictEqual(after.schema - before.schema, 0)
}

describe("the compiled body encoders", () => {
  it("compile every body schema", () => {
    assert.isAbove(bodySchemas.length, 20)
    for (const [name, schema] of bodySchemas)
      assert.isDefined(CompiledEncoder.compile(schema.ast), `${name} compiles`)
  })

  it.scopedLive("encode every body of the all-kinds fixture's plan as its schema does", () =>
    Effect.gen(function* () {
      const { plan, counts } = yield* planChecked(allKindsDir, "compiled-all-kinds")
      const kinds = new Set(plan.ops.map((o) => o.kind))
      for (const kind of ["invoice", "customer-credit-note", "journal", "cash-in", "cash-transfer", "tag"])
        assert.isTrue(kinds.has(kind as never), `the fixture plans a ${kind}`)
      // Every operation's body went through a compiled encoder and matched the schema's; none fell back.
      assert.strictEqual(counts.compiled, plan.ops.length)
      assert.strictEqual(counts.schema, 0)
      // The loader decodes and encodes each body again before it sends it: the same as the schema does.
      assertCanonicalAsSchema(plan)
    })
  )

  it.scopedLive("encode every body of a generated company's plan as its schema does", () =>
    Effect.gen(function* () {
      const exports = tempDir("compiled-company-exports")
      generateCompany({ invoices: 120, seed: 11, out: exports })
      const { plan, counts } = yield* planChecked(exports, "compiled-company")
      assert.isAbove(plan.ops.length, 300)
      assert.strictEqual(counts.compiled, plan.ops.length)
      assertCanonicalAsSchema(plan)
    })
  )

  it("the loader's compiled decoder refuses what the schema refuses, with the schema's message", () => {
    const invoice = {
      reference: "INV-1",
      valueDate: "2025-03-10",
      contactResourceId: "con-1",
      taxInclusion: false,
      saveAsDraft: false,
      lineItems: [{ name: "Consulting", quantity: 2, unitPrice: 10.5, accountResourceId: "acc-1" }]
    }
    const payment = {
      resourceId: "inv-1",
      payments: [
        {
          paymentAmount: 10,
          transactionAmount: 10,
          accountResourceId: "bank-1",
          paymentMethod: "BANK_TRANSFER",
          reference: "P-1",
          valueDate: "2025-03-11"
        }
      ]
    }
    assert.isDefined(CompiledEncoder.compileDecoder(Bodies.Document.ast))
    const refused: Array<[string, keyof typeof Operations.schemas, unknown]> = [
      [
        "an amount as text",
        "invoice",
        { ...invoice, lineItems: [{ ...invoice.lineItems[0], quantity: "2" }] }
      ],
      ["a missing reference", "invoice", { ...invoice, reference: undefined }],
      ["no lines", "invoice", { ...invoice, lineItems: [] }],
      [
        "a zero payment",
        "invoice-payment",
        { ...payment, payments: [{ ...payment.payments[0], paymentAmount: 0 }] }
      ],
      [
        "an unknown method",
        "invoice-payment",
        { ...payment, payments: [{ ...payment.payments[0], paymentMethod: "GOLD" }] }
      ],
      [
        "an impossible date",
        "invoice-payment",
        { ...payment, payments: [{ ...payment.payments[0], valueDate: "2025-13-01" }] }
      ]
    ]
    for (const [what, kind, body] of refused) {
      const slow = canonicalBySchema(kind, body)
      assert.isTrue(Either.isLeft(slow), `the schema refuses ${what}`)
      const fast = Operations.canonicalBody(kind, body)
      assert.isTrue(Either.isLeft(fast), `the loader refuses ${what}`)
      assert.include(
        Either.isLeft(fast) ? fast.left : "",
        Either.isLeft(slow) ? slow.left.message : "?",
        what
      )
    }
    // And what both accept comes out the same, money as numbers.
    assert.deepStrictEqual(Operations.canonicalBody("invoice", invoice), Either.right(invoice))
    assert.deepStrictEqual(Operations.canonicalBody("invoice-payment", payment), Either.right(payment))
  })

  const line = (over: Record<string, unknown> = {}) =>
    lineItem({ quantity: m("2"), unitPrice: m("10.50"), ...over })
  const document = (over: Record<string, unknown> = {}) => documentBody({ lineItems: [line()], ...over })
  const journal = (debit: string, credit: string, over: Record<string, unknown> = {}) =>
    new Bodies.Journal({
      reference: "MJ-1",
      valueDate: "2025-03-10",
      saveAsDraft: false,
      journalEntries: [
        new Bodies.JournalEntry({ accountResourceId: "a", type: "DEBIT", amount: m(debit) }),
        new Bodies.JournalEntry({ accountResourceId: "b", type: "CREDIT", amount: m(credit) })
      ],
      ...over
    } as never)
  const item = (over: Record<string, unknown>) =>
    new Bodies.Item({
      itemCode: "W1",
      internalName: "Widget",
      itemCategory: "NON_INVENTORY",
      appliesToSale: true,
      appliesToPurchase: false,
      saleItemName: "Widget",
      saleAccountResourceId: "acc-1",
      ...over
    } as never)

  const compiled = (schema: Schema.Schema<any, any>) => CompiledEncoder.compile(schema.ast)!

  it("give the schema's output for valid bodies: key order, optional fields absent or undefined, money as numbers", () => {
    const cases: Array<[Schema.Schema<any, any>, unknown]> = [
      [Bodies.Document, document()],
      [Bodies.Document, document({ dueDate: undefined, tags: ["North"] })],
      [
        Bodies.Document,
        document({
          currency: new Bodies.TransactionCurrency({ sourceCurrency: "USD", exchangeRate: m("0.74") }),
          lineItems: [line({ discount: m("1.25"), taxProfileResourceId: "tp-1" }), line()]
        })
      ],
      // A plain object where a class is expected: the schema encodes its fields, and so does the compiled encoder.
      [Bodies.Document, document({ lineItems: [{ ...line() }] })],
      [Bodies.Tag, { tagName: "North" }],
      [Bodies.Journal, journal("10.00", "10.00")],
      [Bodies.Item, item({})],
      [
        Bodies.CurrencyRate,
        new Bodies.CurrencyRate({ currencyCode: "USD", rate: m("1.35"), rateApplicableFrom: "2025-01-01" })
      ]
    ]
    for (const [schema, body] of cases) {
      const fast = compiled(schema)(body)
      assert.notStrictEqual(fast, CompiledEncoder.FAIL)
      assert.strictEqual(JSON.stringify(fast), JSON.stringify(Schema.encodeSync(schema)(body)))
    }
    assert.strictEqual(
      JSON.stringify(compiled(Bodies.Document)(document())),
      '{"reference":"INV-1","valueDate":"2025-03-10","contactResourceId":"con-1","taxInclusion":false,"saveAsDraft":false,"lineItems":[{"name":"Consulting","quantity":2,"unitPrice":10.5,"accountResourceId":"acc-1"}]}'
    )
  })

  it("refuse what the schema refuses, and the encoder then throws the schema's error", () => {
    const refused: Array<[string, Schema.Schema<any, any>, unknown]> = [
      ["an empty line name", Bodies.Document, document({ lineItems: [line({ name: "" })] })],
      ["a name with trailing blanks", Bodies.Document, document({ reference: "INV-1 " })],
      ["a zero discount", Bodies.Document, document({ lineItems: [line({ discount: m("0") })] })],
      ["no lines", Bodies.Document, document({ lineItems: [] })],
      ["a 31st of February", Bodies.Document, document({ valueDate: "2025-02-31" })],
      [
        "a lowercase currency",
        Bodies.Document,
        document({ currency: new Bodies.TransactionCurrency({ sourceCurrency: "usd" }) })
      ],
      ["51 tags", Bodies.Document, document({ tags: Array.from({ length: 51 }, (_, i) => `T${i}`) })],
      ["a quantity that is no BigDecimal", Bodies.Document, document({ lineItems: [line({ quantity: 2 })] })],
      ["an unbalanced journal", Bodies.Journal, journal("10.00", "10.01")],
      ["a journal of one entry", Bodies.Journal, journal("10.00", "10.00", { journalEntries: [] })],
      ["a zero journal amount", Bodies.Journal, journal("0", "0")],
      ["a sale item without its account", Bodies.Item, item({ saleAccountResourceId: undefined })],
      ["an unknown item category", Bodies.Item, item({ itemCategory: "SERVICE" })],
      [
        "a negative rate",
        Bodies.CurrencyRate,
        new Bodies.CurrencyRate({ currencyCode: "USD", rate: m("-1"), rateApplicableFrom: "2025-01-01" })
      ]
    ]
    const thrown = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return e as Error
      }
      return undefined
    }
    for (const [what, schema, body] of refused) {
      const bySchema = thrown(() => Schema.encodeSync(schema)(body))
      assert.strictEqual(bySchema?.name, "ParseError", `the schema refuses ${what}`)
      assert.strictEqual(compiled(schema)(body), CompiledEncoder.FAIL, `the compiled encoder refuses ${what}`)
      const byEncoder = thrown(() => CompiledEncoder.encoderOf(schema)(body))
      assert.strictEqual(byEncoder?.name, "ParseError", `encoderOf refuses ${what}`)
      assert.strictEqual(byEncoder?.message, bySchema?.message, `with the schema's own message for ${what}`)
    }
  })
})
