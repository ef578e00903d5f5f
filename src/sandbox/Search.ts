/**
 * The shared search request (`filter`, `sort`, `limit`, `offset` as a zero-indexed page) and the list page
 * `{ totalElements, totalPages, truncated, data }`, with a server-side row cap reported as `truncated` + `_meta`.
 */
import { isObj } from "./Body.js"
import { invalid } from "./Http.js"
import { all, at, compileFilter, isComputed, isStr, type Fields } from "./Filter.js"

export type { Computed, Field, Fields, Scalar } from "./Filter.js"

/** A resource's search behaviour. */
export interface SearchSpec {
  readonly fields: Fields
  readonly defaultSort?: { readonly field: string; readonly order: "ASC" | "DESC" }
  readonly sortMax?: number
  readonly groups?: boolean
  readonly unsortable?: ReadonlyArray<string>
}

/** The list page answered by every search and list endpoint. */
export interface ListPage {
  readonly totalElements: number
  readonly totalPages: number
  readonly truncated: boolean
  readonly data: ReadonlyArray<unknown>
  readonly _meta?: { readonly fetchedRows: number; readonly maxRows: number }
}

const sortValue = (fields: Fields, name: string): ((row: unknown) => unknown) | undefined => {
  let f: Fields = fields
  const parts = name.split(".")
  const getters: Array<(r: unknown) => unknown> = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? ""
    const field = f[part]
    if (field === undefined) return undefined
    if (typeof field === "string") getters.push((r) => at(r, part))
    else if (isComputed(field)) getters.push(field.get)
    else {
      getters.push((r) => at(r, part))
      f = field
      continue
    }
    if (i !== parts.length - 1) return undefined
  }
  if (getters.length !== parts.length) return undefined
  return (row) => getters.reduce<unknown>((r, g) => g(r), row)
}

const cmp = (a: unknown, b: unknown): number => {
  if (a === b) return 0
  if (a === undefined || a === null) return 1
  if (b === undefined || b === null) return -1
  if (typeof a === "number" && typeof b === "number") return a - b
  return String(a).localeCompare(String(b))
}

const intParam = (v: unknown, name: string, lo: number, hi: number): number => {
  if (typeof v !== "number" || !Number.isInteger(v) || v < lo || v > hi)
    throw invalid(`${name} must be an integer from ${lo} to ${hi}`)
  return v
}

interface Order {
  readonly keys: ReadonlyArray<(row: unknown) => unknown>
  readonly desc: boolean
}

const orderOf = (sort: unknown, spec: SearchSpec): Order | undefined => {
  if (sort === undefined || sort === null) return undefined
  if (!isObj(sort)) throw invalid("sort must be an object { sortBy: [field], order: ASC | DESC }")
  const by = sort["sortBy"]
  if (!Array.isArray(by) || by.length === 0 || !by.every(isStr))
    throw invalid("sort.sortBy must be a non-empty array of field names")
  const max = spec.sortMax ?? 10
  if (by.length > max) throw invalid(`sort.sortBy accepts at most ${max} fields`)
  const order = sort["order"]
  if (order !== "ASC" && order !== "asc" && order !== "DESC" && order !== "desc")
    throw invalid("sort.order must be ASC or DESC")
  const keys = by.map((name) => {
    if (spec.unsortable?.includes(name)) throw invalid(`sort.sortBy: sorting on ${name} is not allowed`)
    const get = sortValue(spec.fields, name)
    if (get === undefined) throw invalid(`sort.sortBy: unknown sort field "${name}"`)
    return get
  })
  return { keys, desc: order === "DESC" || order === "desc" }
}

const ordered = (rows: ReadonlyArray<unknown>, order: Order | undefined, spec: SearchSpec): unknown[] => {
  const o =
    order ??
    (spec.defaultSort === undefined
      ? undefined
      : {
          keys: [sortValue(spec.fields, spec.defaultSort.field) ?? (() => undefined)],
          desc: spec.defaultSort.order === "DESC"
        })
  const copy = rows.slice()
  if (o === undefined) return copy
  const sign = o.desc ? -1 : 1
  return copy.sort((a, b) => {
    for (const k of o.keys) {
      const c = cmp(k(a), k(b))
      if (c !== 0) return sign * c
    }
    return 0
  })
}

/** Cuts one page out of ordered rows, applying the row cap. */
export const pageOf = (
  rows: ReadonlyArray<unknown>,
  limit: number,
  offset: number,
  maxRows: number
): ListPage => {
  const total = rows.length
  const start = offset * limit
  const end = Math.min(start + limit, total, maxRows)
  const data = start < end ? rows.slice(start, end) : []
  const totalPages = Math.ceil(total / limit)
  if (total > maxRows && start + limit >= maxRows) {
    return {
      totalElements: total,
      totalPages,
      truncated: true,
      data,
      _meta: { fetchedRows: Math.max(end, Math.min(start, maxRows)), maxRows }
    }
  }
  return { totalElements: total, totalPages, truncated: false, data }
}

/** Answers a `POST …/search` body over the given rows (views). */
export const search = (
  rows: ReadonlyArray<unknown>,
  body: unknown,
  spec: SearchSpec,
  maxRows: number
): ListPage => {
  const b = body === undefined || body === null ? {} : body
  if (!isObj(b)) throw invalid("search body must be a JSON object")
  const limit = b["limit"] === undefined ? 100 : intParam(b["limit"], "limit", 1, 1000)
  const offset = b["offset"] === undefined ? 0 : intParam(b["offset"], "offset", 0, 65536)
  if (b["offset"] !== undefined && (b["sort"] === undefined || b["sort"] === null))
    throw invalid("sort is required whenever offset is present (even when offset is 0)")
  const order = orderOf(b["sort"], spec)
  const f = b["filter"]
  if (f !== undefined && f !== null && !isObj(f)) throw invalid("filter must be an object")
  const pred =
    f === undefined || f === null ? undefined : all(compileFilter(f, spec.fields, spec.groups ?? false))
  const matched = pred === undefined ? rows : rows.filter(pred)
  return pageOf(ordered(matched, order, spec), limit, offset, maxRows)
}

/** Answers a `GET` list endpoint with `limit` and `offset` query parameters. */
export const listing = (
  rows: ReadonlyArray<unknown>,
  query: URLSearchParams,
  spec: SearchSpec,
  maxRows: number
): ListPage => {
  const num = (name: string, dflt: number, lo: number, hi: number): number => {
    const v = query.get(name)
    if (v === null) return dflt
    if (!/^\d+$/.test(v)) throw invalid(`${name} must be an integer from ${lo} to ${hi}`)
    return intParam(Number(v), name, lo, hi)
  }
  const limit = num("limit", 100, 1, 1000)
  const offset = num("offset", 0, 0, 65536)
  return pageOf(ordered(rows, undefined, spec), limit, offset, maxRows)
}
