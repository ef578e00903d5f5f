/**
 * The column profiles a workspace's files were staged with, kept in its staging database
 * (`generic_profiles`: kind → the profile's JSON) so that plan and reconcile read the staged rows as the
 * profile says — dates, amounts, postings, account codes — even when the profile was a `--profile` file
 * given to extract only. A kind staged before this table existed falls back to the shipped profile.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as ColumnProfile from "./ColumnProfile.js"

const ensure = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS generic_profiles (kind TEXT PRIMARY KEY, profile TEXT NOT NULL)`
  return sql
})

const encode = Schema.encodeSync(Schema.parseJson(ColumnProfile.ColumnProfile))
const decode = Schema.decodeUnknownSync(Schema.parseJson(ColumnProfile.ColumnProfile))

/** Records the profiles of the kinds just staged (a later extract with another profile replaces it). */
export const record = (
  profiles: ReadonlyArray<ColumnProfile.ColumnProfile>,
  stagedKinds: ReadonlyArray<string>
) =>
  Effect.gen(function* () {
    const kinds = new Set(stagedKinds)
    const used = profiles.filter((p) => kinds.has(p.kind))
    if (used.length === 0) return
    const sql = yield* ensure
    yield* sql.withTransaction(
      Effect.forEach(
        used,
        (p) => sql`INSERT OR REPLACE INTO generic_profiles (kind, profile) VALUES (${p.kind}, ${encode(p)})`,
        { discard: true }
      )
    )
  })

/** The profile of every staged kind that has one: recorded at extract, else shipped. */
export const staged = Effect.gen(function* () {
  const sql = yield* ensure
  const recorded = yield* sql<{ kind: string; profile: string }>`SELECT kind, profile FROM generic_profiles`
  const shipped = yield* ColumnProfile.shipped.pipe(Effect.orElseSucceed(() => []))
  const out = new Map<string, ColumnProfile.ColumnProfile>(shipped.map((p) => [p.kind, p]))
  for (const r of recorded) out.set(r.kind, decode(r.profile))
  return out as ReadonlyMap<string, ColumnProfile.ColumnProfile>
}).pipe(Effect.orDie)
