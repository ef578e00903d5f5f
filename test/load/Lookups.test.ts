/**
 * Natural-key lookups of the new kinds against the sandbox, after the all-kinds fixture is loaded: every
 * credit note, cash entry, transfer, tag, application and refund is found by what the plan knows of it — in
 * one batch, as after a crash — and nothing that was not created is found.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import { lookupOps } from "../../src/load/Operations.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as Checkpoints from "../../src/staging/Checkpoints.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as Refs from "../../src/transform/Refs.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { allKindsDir } from "../support/AllKinds.js"
import { layers, sandbox, tempDir } from "../support/Harness.js"

const newKinds = new Set([
  "tag",
  "customer-credit-note",
  "supplier-credit-note",
  "cash-in",
  "cash-out",
  "cash-transfer",
  "invoice-credit",
  "bill-credit",
  "customer-refund",
  "supplier-refund"
])

describe("natural-key lookups of the new kinds", () => {
  it.scopedLive(
    "find every created record in one batch, applications and refunds of one credit note together",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        yield* Effect.gen(function* () {
          yield* Extract.run({ source: "xero", inputDir: allKindsDir })
          const snapshot = yield* ReadSnapshot.read
          const plan = PlanBuilder.build(yield* XeroSource.read, snapshot, yield* Mappings.load("xero"))
          yield* PlanStore.save(plan, snapshot.baseCurrency)
          assert.isTrue((yield* Executor.load({ concurrency: 4 })).complete)
          const done = new Map([...(yield* Checkpoints.all)].map(([k, c]) => [k, c.resourceId]))
          const ops = (yield* PlanStore.ops).filter((o) => newKinds.has(o.kind))
          const lookups = ops.map((o) => ({
            key: o.key,
            kind: o.kind,
            naturalKey: o.naturalKey,
            body: Refs.resolve(o.body, (r) => done.get(r.key) ?? undefined).value as Record<string, unknown>
          }))
          const found = yield* lookupOps(lookups)
          assert.deepStrictEqual(
            ops
              .filter((o) => found.get(o.key) !== done.get(o.key))
              .map((o) => `${o.key}: ${found.get(o.key)} ≠ ${done.get(o.key)}`),
            [],
            "each is found as the id its create returned"
          )
          assert.includeMembers(
            ops.map((o) => o.key),
            ["credit:invoice:INV-002:CN-002", "refund:customer-credit-note:CN-002:1"],
            "CN-002 is both applied and refunded"
          )
          const absent = yield* lookupOps(
            lookups
              .filter((l) => l.kind === "customer-refund" || l.kind === "cash-in" || l.kind === "tag")
              .map((l) => ({
                ...l,
                naturalKey: `${l.naturalKey}-X`,
                body: JSON.parse(
                  JSON.stringify(l.body).replace(/"reference":"([^"]+)"/g, '"reference":"$1-X"')
                )
              }))
          )
          assert.strictEqual(absent.size, 0, "what was not created is not found")
        }).pipe(Effect.provide(layers(s, tempDir("lookups"))), Effect.provide(NodeContext.layer))
      }),
    120_000
  )
})
