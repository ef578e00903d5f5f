/**
 * The plan's spill: operations' texts kept in a file while a plan is built, read back exactly, and a plan
 * built through it stored exactly as one built in memory.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { BLOCK, OpSpill } from "../../src/transform/OpSpill.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import {
  EncodedOp,
  jsonOf,
  order,
  planHash,
  SpilledOp,
  textsOf,
  type PlannedOp
} from "../../src/transform/Plan.js"
import {
  books,
  credit,
  invoice,
  mappings,
  paid,
  payment,
  refund,
  snapshot,
  spend,
  transfer
} from "./Books.js"

const withDir = <A>(f: (dir: string) => A): A => {
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "opspill-"))
  try {
    return f(dir)
  } finally {
    NodeFs.rmSync(dir, { recursive: true, force: true })
  }
}

/** `use` with a spill in a temporary directory, both removed after. */
const withSpill = <A, E, R>(use: (spill: OpSpill) => Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "opspill-"))
      return { dir, spill: OpSpill.open(dir) }
    }),
    ({ spill }) => use(spill),
    ({ dir, spill }) =>
      Effect.sync(() => {
        spill.close()
        NodeFs.rmSync(dir, { recursive: true, force: true })
      })
  ).pipe(Effect.provide(StagingDb.layer(":memory:")))

/** Texts of every width UTF-8 has, and the separators the store and the row format use. */
const texts = [
  "",
  "plain",
  "café €12 — ½",
  "😀 astral \u{1F4B0}",
  "unit\u001Fsep\u001Egroup\u001Drecord",
  JSON.stringify({ note: "a\nb", quote: '"' })
]

type Put = readonly [text: string, at: number, bytes: number]

/**
 * `use` with a spill open in a temporary directory (closed and removed after), a way to put a text in it, and
 * each text put so far with where it starts and its bytes.
 */
const withTexts = (use: (spill: OpSpill, add: (text: string) => void, put: ReadonlyArray<Put>) => void) =>
  withDir((dir) => {
    const spill = OpSpill.open(dir)
    try {
      const put: Array<Put> = []
      use(
        spill,
        (text) => {
          const bytes = Buffer.byteLength(text)
          put.push([text, spill.put(text, bytes), bytes])
        },
        put
      )
    } finally {
      spill.close()
    }
  })

/** Each text read back from `spill` is the text put. */
const readsBack = (spill: OpSpill, put: ReadonlyArray<Put>) => {
  for (const [text, at, bytes] of put) assert.strictEqual(spill.read(at, bytes), text)
}

describe("OpSpill", () => {
  it("reads back each text exactly, before and after it is written, across chunks", () =>
    withTexts((spill, add, put) => {
      texts.forEach(add)
      // Still gathered, not yet written.
      readsBack(spill, put)
      // 3 MB more, so that several chunks are written, one text straddling a chunk's end.
      for (let i = 0; i < 30; i++) add(`${i}:${"é".repeat(50_000)}😀`)
      texts.forEach(add)
      readsBack(spill, put)
      assert.strictEqual(
        spill.size,
        put.reduce((n, [, , b]) => n + b, 0)
      )
    }))

  it("reads texts read in the order they were put from a few blocks of the file, and in any order exactly", () =>
    withTexts((spill, add, put) => {
      // 4,000 texts of 120 to 420 bytes (about 1 MB: a chunk is written), one larger than a block, and 1,000
      // short ones after it.
      for (let i = 0; i < 4000; i++) add(`${i}:${"é€x".repeat(20 + (i % 50))}`)
      add("big:" + "😀".repeat(40_000))
      for (let i = 0; i < 1000; i++) add(`tail ${i}`)
      readsBack(spill, put)
      // In order, each block is read once: reading each text by itself made 5,001 reads of the file.
      assert.isAtMost(spill.blockReads, Math.ceil(spill.size / BLOCK) + 2)
      // Back and forth, by strides, and the same again: still exact.
      const shuffled = put.map((_, i) => put[(i * 7919) % put.length]!)
      readsBack(spill, [...shuffled, ...shuffled.reverse()])
    }))

  it("leaves no file behind, open or closed, and refuses to be used once closed", () =>
    withDir((dir) => {
      const spill = OpSpill.open(dir)
      const at = spill.put("kept", 4)
      // Unlinked as soon as it is open (POSIX); the open file still holds the texts.
      assert.deepStrictEqual(NodeFs.readdirSync(dir), [])
      assert.strictEqual(spill.read(at, 4), "kept")
      spill.close()
      spill.close()
      assert.deepStrictEqual(NodeFs.readdirSync(dir), [])
      assert.throws(() => spill.read(at, 4), /used after it was closed/)
      assert.throws(() => spill.put("more", 4), /used after it was closed/)
    }))
})

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

const ops = (): Array<EncodedOp> => [
  new EncodedOp(
    "contact:Café",
    "contacts",
    "contact",
    "Café",
    [],
    '{"name":"Café"}',
    ["Contacts.csv:2"],
    "Café"
  ),
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
  paymentOp("Payments.csv:2")
]

const spilled = (spill: OpSpill, from: ReadonlyArray<EncodedOp>): Array<SpilledOp> =>
  from.map((o) => SpilledOp.put(spill, o, o.json))

const fields = (o: PlannedOp) => ({
  key: o.key,
  phase: o.phase,
  kind: o.kind,
  naturalKey: o.naturalKey,
  sortKey: o.sortKey,
  dependsOn: o.dependsOn,
  lineage: o.lineage,
  body: o.body,
  json: jsonOf(o),
  texts: { ...textsOf(o) }
})

describe("SpilledOp", () => {
  it("is the operation it was made from: fields, body, texts, a spread copy, and the plan hash", () =>
    withDir((dir) => {
      const spill = OpSpill.open(dir)
      try {
        const memory = ops()
        const disk = spilled(spill, memory)
        assert.deepStrictEqual(disk.map(fields), memory.map(fields))
        assert.deepStrictEqual({ ...disk[1]! }.body, memory[1]!.body)
        assert.deepStrictEqual({ ...disk[1]! }.lineage, ["Invoices.csv:2", "Invoices.csv:3"])
        assert.strictEqual(planHash(order(disk)), planHash(order(memory)))
        // The hash covers the spilled texts: a different lineage is a different plan.
        const other = spilled(spill, [...memory.slice(0, 2), paymentOp("Payments.csv:9")])
        assert.notStrictEqual(planHash(order(other)), planHash(order(memory)))
      } finally {
        spill.close()
      }
    }))

  it.effect("is stored exactly as the operation in memory: rows and plan hash", () =>
    withSpill((spill) =>
      Effect.gen(function* () {
        const memory = ops()
        const inMemory = yield* PlanStore.save({ ops: memory, issues: [] }, "SGD")
        const memoryRows = yield* PlanStore.ops
        const onDisk = yield* PlanStore.save({ ops: spilled(spill, memory), issues: [] }, "SGD")
        const diskRows = yield* PlanStore.ops
        assert.strictEqual(onDisk, inMemory)
        assert.deepStrictEqual(diskRows, memoryRows)
        assert.strictEqual(diskRows.length, 3)
        assert.strictEqual(inMemory, planHash(memory))
      })
    )
  )
})

describe("PlanBuilder.build with a spill", () => {
  // Documents, a payment, a credit note applied and refunded, a spend and a transfer: every planner's ops.
  const company = books({
    documents: [paid("INV-1", "2025-02-01", "109.00"), invoice("INV-2", "2025-02-03")],
    payments: [payment("INV-1", "2025-02-10", "50.00", 7)],
    credits: [credit("CN-1", "2025-02-05", "109.00")],
    refunds: [refund("CN-1", "2025-02-20", "50.00", 9)],
    cashEntries: [spend()],
    transfers: [transfer()]
  })

  it.effect(
    "puts every operation in the spill, and the plan is the one built in memory, stored row for row",
    () =>
      withSpill((spill) =>
        Effect.gen(function* () {
          const memory = PlanBuilder.build(company, snapshot, mappings)
          const disk = PlanBuilder.build(company, snapshot, mappings, spill)
          assert.isAbove(disk.ops.length, 8)
          assert.isTrue(disk.ops.every((o) => o instanceof SpilledOp))
          assert.isTrue(memory.ops.every((o) => o instanceof EncodedOp))
          assert.deepStrictEqual(disk.issues, memory.issues)
          assert.deepStrictEqual(disk.ops.map(fields), memory.ops.map(fields))
          const inMemory = yield* PlanStore.save(memory, "SGD")
          const memoryRows = yield* PlanStore.ops
          assert.strictEqual(yield* PlanStore.save(disk, "SGD"), inMemory)
          assert.deepStrictEqual(yield* PlanStore.ops, memoryRows)
        })
      )
  )
})
