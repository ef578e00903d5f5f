/**
 * Whether a load or rollback may write to the target it is pointed at, given the target the workspace is
 * bound to (`staging/WorkspaceTarget`). The first write binds the workspace. At another origin, a workspace
 * that holds no records (never loaded, or rolled back) rebinds and starts afresh; one that holds records is
 * the same target reached another way (a sandbox restarted on another port, another host name) only when
 * the records it wrote are there: a few are read back by id, and if any is missing the command is refused
 * before anything is sent.
 */
import * as Effect from "effect/Effect"
import * as WorkspaceTarget from "../staging/WorkspaceTarget.js"
import { readPath } from "./DeletePlan.js"
import { TargetApi } from "./TargetApi.js"
import { TargetRejected } from "./TargetErrors.js"
import type { OpKind } from "../transform/Plan.js"

/** Kinds read back by their own id to recognise the target, and how many of them. */
const PROBED: ReadonlyArray<OpKind> = ["account", "contact", "item", "invoice", "bill", "journal"]
const PROBES = 3

export const bind = Effect.gen(function* () {
  const api = yield* TargetApi
  const origin = api.baseUrl
  const current = yield* WorkspaceTarget.bound
  if (current === origin) return
  const written = yield* WorkspaceTarget.written
  if (current === undefined || written === 0)
    return yield* WorkspaceTarget.bindTo(origin, current !== undefined)
  const probes = yield* WorkspaceTarget.sample(PROBED, PROBES)
  const found = yield* Effect.forEach(probes, (w) =>
    api.read("GET", readPath(w.kind as OpKind, w.resourceId, w.body)).pipe(
      Effect.as(true),
      Effect.catchIf(
        (e) => e instanceof TargetRejected && (e.status === 404 || e.status === 400),
        () => Effect.succeed(false)
      )
    )
  )
  if (probes.length === 0 || found.includes(false))
    return yield* new WorkspaceTarget.WorkspaceTargetMismatch({ bound: current, requested: origin, written })
  yield* Effect.logInfo(
    `the workspace's records are in ${origin} (${probes.length} read back by id): the target moved from ${current}`
  )
  yield* WorkspaceTarget.bindTo(origin, false)
})
