/**
 * Reads the target back for reconciliation. Searches are windowed on `valueDate`: when the target answers
 * `truncated`, or says on the first page that the window holds more rows than it returns, the window is cut
 * narrower and read again, so a large book is never silently cut short.
 */
import * as Effect from "effect/Effect"
import { remembered } from "../Remembered.js"
import { addDays, fromEpochMs } from "../transform/Dates.js"
import { DEFAULT_MAX_ROWS, PAGES_AT_ONCE, TargetApi } from "../load/TargetApi.js"
import { TargetProtocolError, type TargetError } from "../load/TargetErrors.js"

export type Row = Record<string, unknown>

const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000)

/** A window's share of the cap it is cut to hold: dates are not evenly busy. */
const FILL = 0.8

/** [from, to] cut into `parts` windows of (nearly) equal days, at most one a day. */
export const cutWindow = (from: string, to: string, parts: number): Array<readonly [string, string]> => {
  const n = days(from, to) + 1
  const k = Math.max(1, Math.min(parts, n))
  const out: Array<readonly [string, string]> = []
  for (let i = 0; i < k; i++)
    out.push([addDays(from, Math.floor((i * n) / k)), addDays(from, Math.floor(((i + 1) * n) / k) - 1)])
  return out
}

/**
 * Every row of `path` whose valueDate lies in [from, to], handed to `each` a window at a time in date order
 * (one search's rows, sorted by `sortBy`). A search that holds more rows than the target returns is searched
 * again in narrower windows, cut to the count the target gave on its first page: at 100,000 invoices, halving
 * a window only once its tenth page said truncated read 260 pages of invoices for 100 pages of rows.
 */
export const eachByDate = <A, E, R>(
  path: string,
  from: string,
  to: string,
  sortBy: string,
  keep: (row: Row) => A,
  each: (rows: ReadonlyArray<A>) => Effect.Effect<void, E, R>,
  filter: Record<string, unknown> = {}
): Effect.Effect<void, TargetError | E, TargetApi | R> =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    let cap = DEFAULT_MAX_ROWS
    const within = (from: string, to: string): Effect.Effect<void, TargetError | E, R> =>
      Effect.gen(function* () {
        const found = yield* api.searchAll<A>(path, {
          filter: { ...filter, valueDate: { between: [from, to] } },
          sort: { sortBy: [sortBy], order: "ASC" },
          splitAbove: cap,
          pagesAtOnce: PAGES_AT_ONCE,
          keep
        })
        if (found.maxRows !== undefined) cap = found.maxRows
        if (!found.truncated) return yield* each(found.rows)
        if (from === to) {
          return yield* new TargetProtocolError({
            operation: `POST ${path}`,
            detail: `more rows on ${from} than the target returns in one search`
          })
        }
        const parts = found.total === undefined ? 2 : Math.ceil(found.total / Math.max(1, cap * FILL))
        for (const [f, t] of cutWindow(from, to, Math.max(2, parts))) yield* within(f, t)
      })
    return yield* within(from, to)
  })

/**
 * Every row of `path` whose valueDate lies in [from, to] and that `filter` takes (`eachByDate`'s windows, in
 * one array).
 */
export const searchByDate = <A = Row>(
  path: string,
  from: string,
  to: string,
  sortBy = "reference",
  keep: (row: Row) => A = (row) => row as A,
  filter: Record<string, unknown> = {}
): Effect.Effect<Array<A>, TargetError, TargetApi> =>
  Effect.suspend(() => {
    const rows: Array<A> = []
    return Effect.as(
      eachByDate(
        path,
        from,
        to,
        sortBy,
        keep,
        (found) =>
          Effect.sync(() => {
            for (const row of found) rows.push(row)
          }),
        filter
      ),
      rows
    )
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
