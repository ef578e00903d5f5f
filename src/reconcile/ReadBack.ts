/**
 * Reads the target back for reconciliation. Searches are windowed on `valueDate`: when the target answers
 * `truncated`, the window is halved and read again, so a large book is never silently cut short.
 */
import * as Effect from "effect/Effect"
import { remembered } from "../Remembered.js"
import { addDays, fromEpochMs } from "../transform/Dates.js"
import { TargetApi } from "../load/TargetApi.js"
import { TargetProtocolError, type TargetError } from "../load/TargetErrors.js"

export type Row = Record<string, unknown>

const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000)

/** Every row of `path` whose valueDate lies in [from, to], splitting the window while the target truncates. */
export const searchByDate = <A = Row>(
  path: string,
  from: string,
  to: string,
  sortBy = "reference",
  keep?: (row: Row) => A
): Effect.Effect<Array<A>, TargetError, TargetApi> =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const { rows, truncated } = yield* api.searchAll<A>(path, {
      filter: { valueDate: { between: [from, to] } },
      sort: { sortBy: [sortBy], order: "ASC" },
      ...(keep === undefined ? {} : { keep })
    })
    if (!truncated) return [...rows]
    if (from === to) {
      return yield* new TargetProtocolError({
        operation: `POST ${path}`,
        detail: `more rows on ${from} than the target returns in one search`
      })
    }
    const mid = addDays(from, Math.floor(days(from, to) / 2))
    const left = yield* searchByDate(path, from, mid, sortBy, keep)
    const right = yield* searchByDate(path, addDays(mid, 1), to, sortBy, keep)
    return [...left, ...right]
  })

/** Rows of `path` whose `field` is one of `values`, batched by 100 (the platform's `in` limit). */
export const searchIn = (path: string, field: string, values: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const out: Array<Row> = []
    const unique = [...new Set(values)]
    for (let i = 0; i < unique.length; i += 100) {
      const { rows, truncated } = yield* api.searchAll(path, {
        filter: { [field]: { in: unique.slice(i, i + 100) } },
        sort: { sortBy: [field], order: "ASC" }
      })
      if (truncated)
        return yield* new TargetProtocolError({
          operation: `POST ${path}`,
          detail: "a 100-key lookup was truncated"
        })
      out.push(...rows)
    }
    return out
  })

/** A report (`POST /generate-reports/<name>`), unwrapped from its `data`. */
export const report = (name: string, body: Record<string, unknown>) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const res = (yield* api.read("POST", `/generate-reports/${name}`, body)) as { data?: Row }
    return res.data ?? {}
  })

export const str = (v: unknown): string => (typeof v === "string" ? v : "")

/**
 * A response date (epoch ms) as YYYY-MM-DD; strings pass through. Each date's text is made once: reconcile
 * holds three dates per document (106,000 texts of a few hundred dates at 20,000 invoices, 3.4 MB).
 */
export const day = (v: unknown): string => (typeof v === "number" ? dayOfEpoch(v) : str(v))
const dayOfEpoch = remembered((ms: number) => fromEpochMs(ms))
