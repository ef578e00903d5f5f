/**
 * What the load did, for the sign-off pack: the records of each kind the plan holds and how many the target
 * now has because this workspace created them, adopted them (they existed already), refused them or never
 * reached them; and the exchange rates the plan set, next to the source's own rates.
 */
import * as Effect from "effect/Effect"
import * as Checkpoints from "../staging/Checkpoints.js"
import * as PlanStore from "../staging/PlanStore.js"
import * as Money from "../transform/Money.js"
import type { SourceRate } from "../transform/SourceModel.js"
import type { AppliedRate, EntityCount } from "./Model.js"

interface Op {
  readonly key: string
  readonly kind: string
  readonly body: unknown
  readonly lineage: ReadonlyArray<string>
}

/** A rate as a plain decimal: up to 10 places, trailing zeros dropped (at least 2 places kept). */
const plain = (m: Money.Money) => Money.toFixed(m, 10).replace(/(\.\d\d\d*?)0+$/, "$1")

const statusOf = (c: Checkpoints.Checkpoint | undefined) =>
  c === undefined ? "not loaded" : c.status === "done" ? (c.origin ?? "created") : c.status

/** Counts per kind, in plan order of first appearance. */
export const entities = (
  ops: ReadonlyArray<Op>,
  checkpoints: ReadonlyMap<string, Checkpoints.Checkpoint>
): Array<EntityCount> => {
  const out = new Map<
    string,
    { planned: number; created: number; adopted: number; rejected: number; notDone: number }
  >()
  for (const op of ops) {
    const c = out.get(op.kind) ?? { planned: 0, created: 0, adopted: 0, rejected: 0, notDone: 0 }
    out.set(op.kind, c)
    c.planned++
    const s = statusOf(checkpoints.get(op.key))
    if (s === "created") c.created++
    else if (s === "adopted") c.adopted++
    else if (s === "rejected") c.rejected++
    else c.notDone++
  }
  return [...out].map(([kind, c]) => ({ kind, ...c }))
}

/** The rates the plan set, each with the source rate it came from. */
export const rates = (
  ops: ReadonlyArray<Op>,
  checkpoints: ReadonlyMap<string, Checkpoints.Checkpoint>,
  source: ReadonlyArray<SourceRate>
): Array<AppliedRate> =>
  ops
    .filter((op) => op.kind === "rate")
    .map((op) => {
      const body = op.body as {
        currencyCode: string
        rate: number
        rateApplicableFrom: string
        rateApplicableTo?: string
      }
      const from = source.find((r) => op.lineage.includes(r.lineage))
      return {
        currency: body.currencyCode,
        from: body.rateApplicableFrom,
        to: body.rateApplicableTo ?? "",
        sourceBasePerUnit: from ? plain(from.basePerUnit) : "",
        targetRate: String(body.rate),
        status: statusOf(checkpoints.get(op.key)),
        lineage: op.lineage
      }
    })

/** Both, read from the workspace's plan and checkpoints. */
export const read = (source: ReadonlyArray<SourceRate>) =>
  Effect.gen(function* () {
    // Keys and kinds for the counts, bodies only of the rate operations: a big plan's every parsed body
    // was most of reconcile's peak memory.
    const kinds = (yield* PlanStore.keysAndKinds).map((o) => ({ ...o, body: undefined, lineage: [] }))
    const rateOps = yield* PlanStore.opsOfKinds(["rate"])
    const checkpoints = yield* Checkpoints.all
    return { entities: entities(kinds, checkpoints), rates: rates(rateOps, checkpoints, source) }
  })
