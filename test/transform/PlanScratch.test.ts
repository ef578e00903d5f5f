/**
 * The plan's scratch: operations kept in a temporary database while a plan is built, given back in load order
 * exactly as `Plan.order` puts them, and a plan built through it stored exactly as one built in memory.
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { EncodedOp, order, phases, planHash, rowOf, textsOf, type Phase } from "../../src/transform/Plan.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import { PlanScratch, scratchedOps } from "../../src/transform/PlanScratch.js"
import { everyPlanner, mappings, snapshot } from "./Books.js"

/** `use` with a scratch open, closed after. */
const withScratch = <A>(use: (scratch: PlanScratch) => A): A => {
  const scratch = PlanScratch.open()
  try {
    return use(scratch)
  } finally {
    scratch.close()
  }
}

/** The same, for an effect that stores in an in-memory workspace. */
const withStore = <A, E, R>(use: (scratch: PlanScratch) => Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => PlanScratch.open()),
    use,
    (scratch) => Effect.sync(() => scratch.close())
  ).pipe(Effect.provide(StagingDb.layer(":memory:")))

const put = (scratch: PlanScratch, ops: ReadonlyArray<EncodedOp>) => {
  for (const op of ops) scratch.put(op, op.json, JSON.parse(op.json))
}

/** The payment operation of the fixture, from the source row `lineage`. */
const paymentOp = (lineage: string) =>
  new EncodedOp(
    "invoice-payment:INV-1:1",
    "settlements",
    "invoice-payment",
    "INV-1:1",
    ["invoice:INV-1"],
    '{"amount":6}',
    [lineage],
    "2025-01-03"
  )

/** More journals than the batches let wait for the writer thread hold: each after the first depends on it. */
const manyJournals = (): Array<EncodedOp> =>
  Array.from(
    { length: 3000 },
    (_, i) =>
      new EncodedOp(
        `j:${i}`,
        "transactions",
        "journal",
        `${i}`,
        i === 0 ? [] : ["j:0"],
        JSON.stringify({ i }),
        [`J.csv:${i + 2}`],
        `2025-01-${String((i % 28) + 1).padStart(2, "0")}`
      )
  )

const ops = (): Array<EncodedOp> => [
  paymentOp("Payments.csv:2"),
  new EncodedOp(
    "invoice:INV-1",
    "transactions",
    "invoice",
    "INV-1",
    ["contact:Café"],
    JSON.stringify({ reference: "INV-1", contact: "@contact:Café", note: "½ of €12\nnext" }),
    ["Invoices.csv:2", "Invoices.csv:3"],
    "2025-01-02 INV-1"
  ),
  new EncodedOp(
    "contact:Café",
    "contacts",
    "contact",
    "Café",
    [],
    '{"name":"Café"}',
    ["Contacts.csv:2"],
    "Café"
  )
]

/**
 * Operations whose sort keys and keys need every rule of the load order: phases out of order, equal sort keys
 * told apart by their keys, a key that is a prefix of another, and characters that UTF-8 and UTF-16 order
 * differently (above U+FFFF against U+E000-U+FFFF), in the sort key and in the key.
 */
const tricky = (): Array<EncodedOp> => {
  const op = (key: string, phase: Phase, sortKey: string) =>
    new EncodedOp(key, phase, "journal", key, [], JSON.stringify({ key }), [`J.csv:${key.length}`], sortKey)
  return [
    op("j:b", "transactions", "2025-01-01"),
    op("j:a", "transactions", "2025-01-01"),
    op("j:ab", "transactions", "2025-01-01"),
    op("j:\uE000", "transactions", "2025-01-01"),
    op("j:\u{1F600}", "transactions", "2025-01-01"),
    op("j:x1", "transactions", "2025-01-01 \uFFFD"),
    op("j:x2", "transactions", "2025-01-01 \u{10000}"),
    op("j:early", "transactions", "2024-12-31"),
    op("t:late", "tags", "zzz"),
    op("s:first", "settlements", ""),
    op("a:é", "accounts", "é")
  ]
}

describe("PlanScratch", () => {
  it("gives back each operation's row in load order, as JavaScript orders the keys", () =>
    withScratch((scratch) => {
      const all = [...tricky(), ...ops()]
      put(scratch, all)
      const expected = order(all).map((o) => rowOf(o, textsOf(o)))
      assert.deepStrictEqual(
        [...scratch.ordered()].map((r) => ({ ...r })),
        expected
      )
      // The characters that UTF-8 would have put last come first, as in JavaScript.
      assert.deepStrictEqual(
        expected.filter((r) => r.phase === "transactions").map((r) => r.key),
        ["j:early", "j:a", "j:ab", "j:b", "j:\u{1F600}", "j:\uE000", "j:x2", "j:x1", "invoice:INV-1"]
      )
      // Read again, the same.
      assert.strictEqual([...scratch.ordered()].length, all.length)
    }))

  it("hands its operations to its writer thread a batch at a time, waiting for it when it falls behind", () =>
    withScratch((scratch) => {
      // More batches than are let wait for the thread (it is still starting while they are put), in reverse.
      const many = manyJournals().reverse()
      put(scratch, many)
      assert.isAbove(scratch.waits, 0, "the building thread waited for the writer thread to catch up")
      assert.deepStrictEqual(
        [...scratch.ordered()].map((r) => ({ ...r })),
        order(many).map((o) => rowOf(o, textsOf(o)))
      )
    }))

  it("hands big bodies over in batches whose texts stay ordinary young objects (under 64 K two-byte characters)", () =>
    withScratch((scratch) => {
      // 40 documents of 10,000 characters each: 256 to a batch would be one string of 400,000.
      const big = manyJournals()
        .slice(0, 40)
        .map(
          (o) =>
            new EncodedOp(
              o.key,
              o.phase,
              o.kind,
              o.naturalKey,
              o.dependsOn,
              JSON.stringify({ note: "é".repeat(9990) }),
              o.lineage,
              o.sortKey
            )
        )
      put(scratch, big)
      scratch.seal()
      assert.isAtLeast(
        scratch.batches,
        10,
        "at most 32,768 characters' worth (and one operation over) to a batch"
      )
      assert.deepStrictEqual(
        [...scratch.ordered()].map((r) => ({ ...r })),
        order(big).map((o) => rowOf(o, textsOf(o)))
      )
    }))

  it("runs its writer thread with a small young generation: what it allocates is dropped row by row", () =>
    withScratch((scratch) => {
      // Enough batches that the building thread waits for the writer thread, which is then running.
      const many = manyJournals()
      put(scratch, many)
      assert.isAbove(scratch.waits, 0)
      const limits = scratch.writerLimits
      assert.isDefined(limits?.maxYoungGenerationSizeMb, "the writer thread is running")
      assert.isAtMost(limits!.maxYoungGenerationSizeMb!, 4)
      assert.strictEqual([...scratch.ordered()].length, many.length)
    }))

  it("seals with no operations: nothing to give back", () =>
    withScratch((scratch) => {
      assert.deepStrictEqual([...scratch.ordered()], [])
      assert.deepStrictEqual([...scratch.hashLines()], [])
      assert.deepStrictEqual(scratch.kindCounts(), [])
    }))

  it("fails at its seal as its writer thread failed, saying why, and still closes", () => {
    const scratch = PlanScratch.open()
    // A scratch whose directory has gone cannot be opened: the thread fails on it, and the seal tells.
    NodeFs.rmSync(NodePath.dirname(scratch.file), { recursive: true })
    put(scratch, ops())
    assert.throws(
      () => scratch.seal(),
      /the plan's scratch \(.*scratch\.db\) could not be written: .*directory does not exist/
    )
    scratch.close()
    assert.throws(() => scratch.seal(), /used after it was closed/)
  })

  it("closes while its writer thread still writes, before its seal", () => {
    const scratch = PlanScratch.open()
    put(scratch, [...tricky(), ...ops()])
    scratch.close()
    assert.throws(() => scratch.put(paymentOp("Payments.csv:2"), "{}", {}), /used after it was closed/)
  })

  it("counts what it holds by phase, in load order", () =>
    withScratch((scratch) => {
      const before = scratchedOps()
      put(scratch, [...tricky(), ...ops()])
      assert.strictEqual(scratch.size, 14)
      assert.strictEqual(scratchedOps() - before, 14)
      assert.deepStrictEqual(scratch.phaseCounts(), [
        ["tags", 1],
        ["accounts", 1],
        ["contacts", 1],
        ["transactions", 9],
        ["settlements", 2]
      ])
      assert.deepStrictEqual(
        scratch.phaseCounts().map(([p]) => phases.indexOf(p)),
        [0, 3, 4, 6, 7]
      )
    }))

  it("keeps its file in a directory of its own, gone once closed; sealed, it takes no more operations", () => {
    const scratch = PlanScratch.open()
    put(scratch, tricky())
    const file = scratch.seal()
    assert.isTrue(NodeFs.existsSync(file))
    assert.strictEqual(scratch.seal(), file)
    assert.throws(() => scratch.put(paymentOp("Payments.csv:2"), "{}", {}), /once sealed/)
    // Sealed, it reads the same order however often it is read.
    assert.deepStrictEqual(
      [...scratch.hashLines()],
      [...scratch.ordered()].map((r) => r.hash_line)
    )
    scratch.close()
    assert.isFalse(NodeFs.existsSync(NodePath.dirname(file)))
  })

  it("closes with a reading left unfinished, and refuses to be used once closed", () => {
    const scratch = PlanScratch.open()
    put(scratch, tricky())
    const reading = scratch.ordered()
    assert.strictEqual(reading.next().value?.key, "t:late")
    // A store that failed half way leaves its reading unfinished: the scratch still closes.
    scratch.close()
    scratch.close()
    assert.throws(() => reading.next(), /used after it was closed/)
    assert.throws(() => scratch.put(paymentOp("Payments.csv:2"), "{}", {}), /used after it was closed/)
    assert.throws(() => scratch.ordered().next(), /used after it was closed/)
  })

  it.effect("is stored exactly as the operations in memory: rows and plan hash", () =>
    withStore((scratch) =>
      Effect.gen(function* () {
        const memory = order([...ops(), ...tricky()])
        const inMemory = yield* PlanStore.save({ ops: memory, issues: [] }, "SGD")
        const memoryRows = yield* PlanStore.ops
        put(scratch, [...tricky(), ...ops()].reverse())
        const fromScratch = yield* PlanStore.saveBuilt(scratch, { issues: [] }, "SGD")
        assert.strictEqual(fromScratch, inMemory)
        assert.strictEqual(inMemory, planHash(memory))
        assert.deepStrictEqual(yield* PlanStore.ops, memoryRows)
        assert.strictEqual(memoryRows.length, 14)
        // The hash covers every text: a different lineage is a different plan.
        const other = PlanScratch.open()
        try {
          put(other, [...tricky(), ...ops().slice(1), paymentOp("Payments.csv:9")])
          assert.notStrictEqual(yield* PlanStore.saveBuilt(other, { issues: [] }, "SGD"), inMemory)
        } finally {
          other.close()
        }
      })
    )
  )
})

describe("PlanBuilder.buildInto", () => {
  const company = everyPlanner()

  it.effect(
    "puts every operation in the scratch, none in memory, and the plan is the one built in memory, stored row for row",
    () =>
      withStore((scratch) =>
        Effect.gen(function* () {
          const memory = PlanBuilder.build(company, snapshot, mappings)
          const built = PlanBuilder.buildInto(scratch, company, snapshot, mappings)
          assert.isAbove(memory.ops.length, 8)
          assert.strictEqual(scratch.size, memory.ops.length)
          const { ops: _, ...besides } = memory
          assert.notProperty(built, "ops")
          assert.deepStrictEqual(built, besides)
          const inMemory = yield* PlanStore.save(memory, "SGD")
          const memoryRows = yield* PlanStore.ops
          assert.strictEqual(yield* PlanStore.saveBuilt(scratch, built, "SGD"), inMemory)
          assert.deepStrictEqual(yield* PlanStore.ops, memoryRows)
        })
      )
  )
})
