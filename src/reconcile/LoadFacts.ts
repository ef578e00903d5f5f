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
    // Counted in SQL; bodies and checkpoints only of the rate operations: a big plan's every parsed body was
    // once most of reconcile's peak memory, and its every key and checkpoint tens of MB more.
    const counts = yield* Checkpoints.countsByKind
    const rateOps = yield* PlanStore.opsOfKinds(["rate"])
    const checkpoints = yield* Checkpoints.ofKeys(rateOps.map((o) => o.key))
    return {
      entities: counts.map((c): EntityCount => ({
        ...c,
        notDone: c.planned - c.created - c.adopted - c.rejected
      })),
      rates: rates(rateOps, checkpoints, source)
    }
  })
