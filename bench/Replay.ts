/**
 * The bodies a bare client replays: planned bodies with every symbolic reference resolved to the target's
 * ids and passed through the kind's canonical schema, exactly as the loader would send them.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as NodeFs from "node:fs"
import { canonicalBody, lookupEntity } from "../src/load/Operations.js"
import type { StoredOp } from "../src/staging/PlanStore.js"
import * as Refs from "../src/transform/Refs.js"
import * as Pipeline from "./Pipeline.js"

/** Resolves `ops` against the target at `baseUrl` and writes their wire bodies to `file`, one JSON a line. */
export const writeResolvedBodies = (ops: ReadonlyArray<StoredOp>, baseUrl: string, file: string) =>
  Effect.gen(function* () {
    const wanted = new Map<Refs.RefEntity, Set<string>>()
    for (const op of ops)
      for (const r of Refs.collect(op.body))
        wanted.set(r.entity, (wanted.get(r.entity) ?? new Set()).add(r.naturalKey))
    const ids = new Map<string, string>()
    for (const [entity, keys] of wanted)
      for (const [key, id] of yield* lookupEntity(entity, [...keys])) ids.set(Refs.opKey(entity, key), id)
    const lines = ops.map((op) => {
      const { value, missing } = Refs.resolve(op.body, (r) => ids.get(r.key))
      if (missing.length > 0) throw new Error(`${op.key}: ${missing[0]!.key} is not in the target`)
      const canonical = canonicalBody(op.kind, value)
      if (Either.isLeft(canonical)) throw new Error(`${op.key}: ${canonical.left}`)
      return JSON.stringify(canonical.right)
    })
    NodeFs.writeFileSync(file, lines.join("\n") + "\n")
    return lines.length
  }).pipe(Effect.provide(Pipeline.target(baseUrl)), Effect.provide(Pipeline.quiet), Effect.runPromise)
