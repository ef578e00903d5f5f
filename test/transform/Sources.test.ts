/**
 * Which source a workspace holds is what extract recorded for its files: its profile is found, a workspace
 * holding two sources is refused naming both, and an empty one says to run extract first.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Sources from "../../src/transform/Sources.js"

const stage = (file: string, source: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO src_files (file, source, kind, confidence, sha256, lines, staged, skipped, rejected)
      VALUES (${file}, ${source}, 'x.y', 1, ${"0".repeat(64)}, 1, 1, 0, 0)`
  })

const failure = <A, R>(effect: Effect.Effect<A, never, R>) =>
  Effect.map(Effect.exit(effect), (exit) => (Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "succeeded"))

describe("the staged source", () => {
  it.effect("is the source extract recorded, with its mappings folder and the system's name", () =>
    Effect.gen(function* () {
      yield* stage("a.csv", "xero")
      yield* stage("b.csv", "xero")
      const profile = yield* Sources.staged
      assert.strictEqual(profile.id, "xero")
      assert.strictEqual(profile.mappings, "xero")
      assert.strictEqual(profile.system.name, "Xero")
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.effect("refuses a workspace holding two sources, naming both", () =>
    Effect.gen(function* () {
      yield* stage("a.csv", "xero")
      yield* stage("b.csv", "qbo")
      const message = yield* failure(Sources.staged)
      assert.include(message, "2 sources (qbo: 1 file, xero: 1 file)")
      assert.include(message, "extract each source into its own workspace")
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.effect("says to run extract first when nothing is staged", () =>
    Effect.gen(function* () {
      assert.include(yield* failure(Sources.staged), "run extract --input DIR --workspace WS first")
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
