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
import { OpSpill } from "../../src/transform/OpSpill.js"
import {
  EncodedOp,
  jsonOf,
  order,
  planHash,
  SpilledOp,
  textsOf,
  type PlannedOp
} from "../../src/transform/Plan.js"

const withDir = <A>(f: (dir: string) => A): A => {
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "opspill-"))
  try {
    return f(dir)
  } finally {
    NodeFs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Texts of every width UTF-8 has, and the separators the store and the row format use. */
const texts = [
  "",
  "plain",
  "café €12 — ½",
  "😀 astral \u{1F4B0}",
  "unit\u001Fsep\u001Egroup\u001Drecord",
  JSON.stringify({ note: "a\nb", quote: '"' })
]

describe("OpSpill", () => {
  it("reads back each text exactly, before and after it is written, across chunks", () =>
    withDir((dir) => {
      const spill = OpSpill.open(dir)
      try {
        const put: Array<[string, number, number]> = []
        const add = (t: string) => {
          const bytes = Buffer.byteLength(t)
          put.push([t, spill.put(t, bytes), bytes])
        }
        texts.forEach(add)
        // Still gathered, not yet written.
        for (const [t, at, bytes] of put) assert.strictEqual(spill.read(at, bytes), t)
        // 3 MB more, so that several chunks are written, one text straddling a chunk's end.
        for (let i = 0; i < 30; i++) add(`${i}:${"é".repeat(50_000)}😀`)
        texts.forEach(add)
        for (const [t, at, bytes] of put) assert.strictEqual(spill.read(at, bytes), t)
        assert.strictEqual(
          spill.size,
          put.reduce((n, [, , b]) => n + b, 0)
        )
      } finally {
        spill.close()
      }
    }))

  it("leaves no file behind, open or closed, and refuses to be read once closed", () =>
    withDir((dir) => {
      const spill = OpSpill.open(dir)
      const at = spill.put("kept", 4)
      // Unlinked as soon as it is open (POSIX); the open file still holds the texts.
      assert.deepStrictEqual(NodeFs.readdirSync(dir), [])
      assert.strictEqual(spill.read(at, 4), "kept")
      spill.close()
      spill.close()
      assert.deepStrictEqual(NodeFs.readdirSync(dir), [])
      assert.throws(() => spill.read(at, 4), /read after it was closed/)
    }))
})

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
  new EncodedOp(
    "invoice-payment:INV-1:1",
    "settlements",
    "invoice-payment",
    "INV-1:1",
    ["invoice:INV-1"],
    '{"amount":6}',
    ["Payments.csv:2"],
    "2025-01-03"
  )
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
        const other = spilled(spill, [
          ...memory.slice(0, 2),
          new EncodedOp(
            "invoice-payment:INV-1:1",
            "settlements",
            "invoice-payment",
            "INV-1:1",
            ["invoice:INV-1"],
            '{"amount":6}',
            ["Payments.csv:9"],
            "2025-01-03"
          )
        ])
        assert.notStrictEqual(planHash(order(other)), planHash(order(memory)))
      } finally {
        spill.close()
      }
    }))

  it.effect("is stored exactly as the operation in memory: rows and plan hash", () => {
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "opspill-"))
    const spill = OpSpill.open(dir)
    return Effect.gen(function* () {
      const memory = ops()
      const inMemory = yield* PlanStore.save({ ops: memory, issues: [] }, "SGD")
      const memoryRows = yield* PlanStore.ops
      const onDisk = yield* PlanStore.save({ ops: spilled(spill, memory), issues: [] }, "SGD")
      const diskRows = yield* PlanStore.ops
      assert.strictEqual(onDisk, inMemory)
      assert.deepStrictEqual(diskRows, memoryRows)
      assert.strictEqual(diskRows.length, 3)
      assert.strictEqual(inMemory, planHash(memory))
    }).pipe(
      Effect.provide(StagingDb.layer(":memory:")),
      Effect.ensuring(
        Effect.sync(() => {
          spill.close()
          NodeFs.rmSync(dir, { recursive: true, force: true })
        })
      )
    )
  })
})
