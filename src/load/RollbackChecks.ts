/**
 * What a rollback settles before it deletes anything: load operations left in doubt (did they create a
 * record?), records this workspace did not create that may refer to one it did (read back, so they are
 * never broken), and records created under an earlier plan that the current plan no longer lists.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Checkpoints from "../staging/Checkpoints.js"
import type { StoredOp } from "../staging/PlanStore.js"
import * as Refs from "../transform/Refs.js"
import * as DeletePlan from "./DeletePlan.js"
import { lookupOps } from "./Operations.js"
import { TargetApi } from "./TargetApi.js"

type LoadState = Map<string, Checkpoints.Checkpoint>

/** Settlements are looked up under their parent documents, which must be resolved to be read. */
const underParent = (op: StoredOp) => op.phase === "settlements"

/**
 * A load operation left `sending` or `in_doubt` may have created its record: it is looked up by natural key
 * as the loader would. Found → this workspace's (`done`, `created`, removed with the rest); not found →
 * nothing was created (`pending`). Updates `load` and the checkpoints; returns those that could not be
 * looked up, with why (they block whatever they depend on).
 */
export const resolveInDoubt = (ops: ReadonlyArray<StoredOp>, load: LoadState) =>
  Effect.gen(function* () {
    const inDoubt = ops.filter((o) => ["sending", "in_doubt"].includes(load.get(o.key)?.status ?? ""))
    const unresolved = new Map<string, string>()
    if (inDoubt.length === 0) return unresolved
    const idOf = (r: Refs.ParsedRef) => load.get(r.key)?.resourceId ?? undefined
    const lookups = inDoubt.flatMap((op) => {
      const body = Refs.resolve(op.body, idOf).value as Record<string, unknown>
      if (underParent(op) && Refs.collect(body).length > 0) return []
      return [{ key: op.key, kind: op.kind, naturalKey: op.naturalKey, body }]
    })
    const found = yield* Effect.either(lookupOps(lookups))
    const ids = Either.getOrElse(found, () => new Map<string, string>())
    const looked = new Set(Either.isRight(found) ? lookups.map((l) => l.key) : [])
    const updates: Array<Checkpoints.Update> = []
    for (const op of inDoubt) {
      const cp = load.get(op.key)!
      const id = ids.get(op.key)
      if (id !== undefined) {
        updates.push({ key: op.key, status: "done", resourceId: id, error: null, origin: "created" })
        load.set(op.key, { ...cp, status: "done", resourceId: id, error: null, origin: "created" })
      } else if (looked.has(op.key)) {
        const error = "was in doubt; the target does not hold it, so nothing was created"
        updates.push({ key: op.key, status: "pending", resourceId: null, error })
        load.set(op.key, { ...cp, status: "pending", resourceId: null, error })
      } else {
        const why = Either.isLeft(found)
          ? `the lookup failed: ${found.left.message}`
          : "it cannot be looked up"
        unresolved.set(
          op.key,
          `the load left it in doubt and ${why}; run load to resolve it, then rollback again`
        )
      }
    }
    yield* Checkpoints.write(updates)
    return unresolved
  })

/** A record this workspace did not create, as read back: its JSON, or why it could not be read. */
export type Foreign = { readonly text: string } | { readonly error: string }

/**
 * Reads back once each record this workspace did not create (adopted, or of unknown origin) that the plan
 * says refers to one it did: a created record is kept exactly when such a record really refers to its id
 * (an adopted document normally predates, and so cannot refer to, what the load created).
 */
export const readForeign = (
  ops: ReadonlyArray<StoredOp>,
  load: LoadState,
  dependentsOf: Map<string, ReadonlyArray<string>>,
  concurrency: number
) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const keys = new Set(
      ops
        .filter((o) => DeletePlan.isCreated(load.get(o.key)))
        .flatMap((o) => dependentsOf.get(o.key) ?? [])
        .filter((d) => load.get(d)?.status === "done" && load.get(d)?.origin !== "created")
    )
    const out = new Map<string, Foreign>()
    yield* Effect.forEach(
      ops.filter((o) => keys.has(o.key)),
      (op) =>
        api.read("GET", DeletePlan.readPath(op.kind, load.get(op.key)!.resourceId ?? "", op.body)).pipe(
          Effect.map((body): Foreign => ({ text: JSON.stringify(body) })),
          Effect.catchAll((e) =>
            Effect.succeed<Foreign>(
              e._tag === "TargetRejected" && e.status === 404 ? { text: "" } : { error: e.message }
            )
          ),
          Effect.map((r) => void out.set(op.key, r))
        ),
      { concurrency, discard: true }
    )
    return out
  })

/**
 * Checkpoints of records this workspace created whose operation the current plan no longer lists (the plan
 * was made again after a load): the plan no longer says how to remove them, so they are reported.
 */
export const orphans = (ops: ReadonlyArray<StoredOp>, load: LoadState): Array<Checkpoints.Checkpoint> => {
  const planned = new Set(ops.map((o) => o.key))
  return [...load.values()].filter((cp) => !planned.has(cp.key) && DeletePlan.isCreated(cp))
}
