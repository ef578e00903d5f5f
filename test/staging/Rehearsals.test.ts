/**
 * What `load` checks against the rehearsals recorded in the workspace: no clean rehearsal, go on as before
 * (mentioning one of this plan that was not clean); the plan of the last clean rehearsal, go on; another plan,
 * refused naming the operations added, removed and changed, unless forced.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Rehearsals from "../../src/staging/Rehearsals.js"
import * as StagingDb from "../../src/staging/StagingDb.js"

const setPlan = (ops: ReadonlyArray<[string, string]>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`DELETE FROM plan_ops`
    for (const [i, [key, hash]] of ops.entries())
      yield* sql`INSERT INTO plan_ops (seq, key, phase, kind, natural_key, depends_on, body, body_hash, lineage)
        VALUES (${i + 1}, ${key}, 'accounts', 'account', ${key}, '[]', '{}', ${hash}, '[]')`
  })

const rehearsal = (planHash: string, clean: boolean, at: string, ops: Record<string, string>) =>
  Rehearsals.record({
    planHash,
    snapshotHash: "s".repeat(64),
    clean,
    verdict: "v",
    runId: `run-${at}`,
    at,
    ops
  })

describe("load's check against the rehearsals", () => {
  it.effect(
    "goes on without a clean rehearsal, on the rehearsed plan, and refuses another unless forced",
    () =>
      Effect.gen(function* () {
        yield* setPlan([
          ["account:A", "h1"],
          ["account:B", "h2"]
        ])
        assert.deepStrictEqual(yield* Rehearsals.gate("P1", false), { kind: "none" })

        yield* rehearsal("P1", false, "2026-01-01T00:00:00Z", { "account:A": "h1", "account:B": "h2" })
        const unclean = yield* Rehearsals.gate("P1", false)
        assert.strictEqual(unclean.kind, "none")
        assert.strictEqual(unclean.kind === "none" ? unclean.unclean?.runId : "", "run-2026-01-01T00:00:00Z")

        yield* rehearsal("P1", true, "2026-01-02T00:00:00Z", { "account:A": "h1", "account:B": "h2" })
        assert.strictEqual((yield* Rehearsals.gate("P1", false)).kind, "rehearsed")

        yield* setPlan([
          ["account:A", "h1-changed"],
          ["account:C", "h3"]
        ])
        yield* rehearsal("P2", false, "2026-01-03T00:00:00Z", {
          "account:A": "h1-changed",
          "account:C": "h3"
        })
        const refused = yield* Effect.either(Rehearsals.gate("P2", false))
        assert.isTrue(Either.isLeft(refused))
        const e = Either.isLeft(refused) ? refused.left : undefined
        assert.deepStrictEqual(
          [e?.added, e?.removed, e?.changed],
          [["account:C"], ["account:B"], ["account:A"]]
        )
        assert.match(e?.message ?? "", /not the one cleanly rehearsed in run-2026-01-02T00:00:00Z/)
        assert.match(e?.message ?? "", /its own rehearsal run-2026-01-03T00:00:00Z was not clean/)
        assert.match(
          e?.message ?? "",
          /added \(1\): account:C\n {2}removed \(1\): account:B\n {2}changed \(1\): account:A/
        )

        const forced = yield* Rehearsals.gate("P2", true)
        assert.strictEqual(forced.kind, "forced")
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
