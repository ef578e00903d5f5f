import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as StagingDb from "../../src/staging/StagingDb.js"

describe("StagingDb", () => {
  it.effect("creates every staging table on a fresh database", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{
        name: string
      }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
      const names = rows.map((r) => r.name)
      for (const t of [
        "checkpoints",
        "plan_meta",
        "plan_ops",
        "rejects",
        "skipped",
        "src_files",
        "src_rows"
      ]) {
        assert.include(names, t)
      }
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
