/**
 * The load facts of the sign-off pack, read from a workspace's stored plan and checkpoints: records per kind
 * in plan order (created, adopted, rejected, not done) and the rates the plan set beside the source's.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as LoadFacts from "../../src/reconcile/LoadFacts.js"
import * as Checkpoints from "../../src/staging/Checkpoints.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Money from "../../src/transform/Money.js"
import type { PlannedOp } from "../../src/transform/Plan.js"

const op = (
  key: string,
  kind: PlannedOp["kind"],
  phase: PlannedOp["phase"],
  body: unknown = {}
): PlannedOp => ({
  key,
  phase,
  kind,
  naturalKey: key,
  sortKey: key,
  dependsOn: [],
  body,
  lineage: [`${kind}.csv:${key.length}`]
})

describe("LoadFacts.read", () => {
  it.effect("counts each kind's records by outcome in plan order, and lists the rates set", () =>
    Effect.gen(function* () {
      const rate = op("rate:USD", "rate", "rates", {
        currencyCode: "USD",
        rate: 0.74,
        rateApplicableFrom: "2025-01-01"
      })
      yield* PlanStore.save(
        {
          ops: [
            rate,
            op("contact:A", "contact", "contacts"),
            op("contact:B", "contact", "contacts"),
            op("invoice:1", "invoice", "transactions"),
            op("invoice:2", "invoice", "transactions"),
            op("invoice:3", "invoice", "transactions"),
            op("invoice:4", "invoice", "transactions")
          ],
          issues: []
        },
        "SGD"
      )
      yield* Checkpoints.ensure
      yield* Checkpoints.write([
        { key: "rate:USD", status: "done", resourceId: "r1", origin: "created" },
        { key: "contact:A", status: "done", resourceId: "c1", origin: "adopted" },
        { key: "contact:B", status: "done", resourceId: "c2", origin: "created" },
        { key: "invoice:1", status: "done", resourceId: "i1", origin: "created" },
        { key: "invoice:2", status: "rejected", error: "422" },
        // Loaded before checkpoints kept their origin: by us.
        { key: "invoice:3", status: "done", resourceId: "i3" }
      ])
      const facts = yield* LoadFacts.read([
        {
          currency: "USD",
          baseCurrency: "SGD",
          date: "2025-01-01",
          basePerUnit: Option.getOrThrow(Money.parse("1.35")),
          lineage: rate.lineage[0]!
        }
      ])
      assert.deepStrictEqual(facts.entities, [
        { kind: "rate", planned: 1, created: 1, adopted: 0, rejected: 0, notDone: 0 },
        { kind: "contact", planned: 2, created: 1, adopted: 1, rejected: 0, notDone: 0 },
        { kind: "invoice", planned: 4, created: 2, adopted: 0, rejected: 1, notDone: 1 }
      ])
      assert.deepStrictEqual(facts.rates, [
        {
          currency: "USD",
          from: "2025-01-01",
          to: "",
          sourceBasePerUnit: "1.35",
          targetRate: "0.74",
          status: "created",
          lineage: rate.lineage
        }
      ])
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
