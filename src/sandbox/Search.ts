/**
 * The shared search request (`filter`, `sort`, `limit`, `offset` as a zero-indexed page) and the list page
 * `{ totalElements, totalPages, truncated, data }`, with a server-side row cap reported as `truncated` + `_meta`.
 */
import { isObj, type Obj } from "./Body.js"
import { parseDate, parseDateTime } from "./Dates.js"
import { invalid } from "./Http.js"

/** Expression type of a filter field. */
export type Scalar = "string" | "number" | "date" | "datetime" | "boolean" | "json"

/** A field computed from the row rather than read at its own path. */
export interface Computed {
  readonly type: Scalar
  readonly get: (row: unknown) => unknown
}

/** A filter field: a scalar at `row[name]`, a computed field, or a nested object of fields. */
export type Field = Scalar | Computed | Fields

/** The filter fields of a search. */
export interface Fields {
  readonly [name: string]: Field
}

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

type Pred = (row: unknown) => boolean

const isComputed = (f: Field): f is Computed => typeof f === "object" && typeof f.get === "function"

const at = (row: unknown, key: string): unknown => (isObj(row) ? row[key] : undefined)

const MAX_LIST = 100

const regexOf = (p: string, where: string): RegExp => {
  try {
    return new RegExp(p)
  } catch {
    throw invalid(`${where}: invalid regular expression "${p}"`)
  }
}

const likeOf = (p: string): RegExp =>
  new RegExp(
    "^" +
      p
        .split("")
        .map((c) => (c === "%" ? ".*" : c === "_" ? "." : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
        .join("") +
      "$",
    "i"
  )

const list = (v: unknown, where: string, item: (x: unknown) => boolean, what: string): unknown[] => {
  if (!Array.isArray(v)) throw invalid(`${where} must be an array`)
  if (v.length > MAX_LIST) throw invalid(`${where} accepts at most ${MAX_LIST} values, got ${v.length}`)
  if (!v.every(item)) throw invalid(`${where} must hold only ${what}`)
  return v
}

const isStr = (x: unknown): x is string => typeof x === "string"
const isNum = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x)

const timeOf = (type: Scalar, v: unknown, where: string): number => {
  const ms = typeof v === "string" ? (type === "date" ? parseDate(v) : parseDateTime(v)) : undefined
  if (ms === undefined)
    throw invalid(`${where} must be ${type === "date" ? "a YYYY-MM-DD date" : "an RFC 3339 datetime"}`)
  return ms
}

const operator = (type: Scalar, op: string, v: unknown, where: string): ((x: unknown) => boolean) => {
  const bad = (): never => {
    throw invalid(`${where}: operator "${op}" is not supported for a ${type} field`)
  }
  switch (type) {
    case "string": {
      const s = (): string => {
        if (!isStr(v)) throw invalid(`${where} must be a string`)
        return v
      }
      switch (op) {
        case "eq": {
          const e = s()
          return (x) => x === e
        }
        case "neq": {
          const e = s()
          return (x) => x !== e
        }
        case "contains": {
          const e = s()
          return (x) => isStr(x) && x.includes(e)
        }
        case "notContains": {
          const e = s()
          return (x) => !isStr(x) || !x.includes(e)
        }
        case "startWith": {
          const e = s()
          return (x) => isStr(x) && x.startsWith(e)
        }
        case "endWith": {
          const e = s()
          return (x) => isStr(x) && x.endsWith(e)
        }
        case "in": {
          const set = new Set(list(v, where, isStr, "strings"))
          return (x) => set.has(x)
        }
        case "likeIn": {
          const res = (list(v, where, isStr, "strings") as string[]).map(likeOf)
          return (x) => isStr(x) && res.some((r) => r.test(x))
        }
        case "reg": {
          const res = (list(v, where, isStr, "strings") as string[]).map((p) => regexOf(p, where))
          return (x) => isStr(x) && res.some((r) => r.test(x))
        }
        case "isNull": {
          if (typeof v !== "boolean") throw invalid(`${where} must be a boolean`)
          return (x) => (x === null || x === undefined) === v
        }
        default:
          return bad()
      }
    }
    case "number": {
      if (op === "in") {
        const set = new Set(list(v, where, isNum, "numbers"))
        return (x) => set.has(x)
      }
      if (!isNum(v)) throw invalid(`${where} must be a number`)
      return compare(op, v, bad)
    }
    case "date":
    case "datetime": {
      if (op === "between") {
        if (!Array.isArray(v) || v.length !== 2) throw invalid(`${where} takes exactly 2 values`)
        const lo = timeOf(type, v[0], where)
        const hi = timeOf(type, v[1], where)
        return (x) => isNum(x) && x >= lo && x <= hi
      }
      return compare(op, timeOf(type, v, where), bad)
    }
    case "boolean": {
      if (op !== "eq") return bad()
      if (typeof v !== "boolean") throw invalid(`${where} must be a boolean`)
      return (x) => x === v
    }
    case "json": {
      if (op !== "jsonIn" && op !== "jsonNotIn") return bad()
      list(v, where, isObj, "{ key, value } objects")
      return () => op === "jsonNotIn"
    }
  }
}

const compare = (op: string, e: number, bad: () => never): ((x: unknown) => boolean) => {
  switch (op) {
    case "eq":
      return (x) => x === e
    case "neq":
      return (x) => x !== e
    case "gt":
      return (x) => isNum(x) && x > e
    case "gte":
      return (x) => isNum(x) && x >= e
    case "lt":
      return (x) => isNum(x) && x < e
    case "lte":
      return (x) => isNum(x) && x <= e
    default:
      return bad()
  }
}

const LOGICAL = new Set(["and", "or", "not", "andGroup", "orGroup"])

/** Compiles a filter object into a predicate, refusing unknown fields, operators and bad values with 422. */
export const compileFilter = (filter: Obj, fields: Fields, groups: boolean, path = "filter"): Pred[] => {
  const preds: Pred[] = []
  for (const [key, value] of Object.entries(filter)) {
    const where = `${path}.${key}`
    if (value === undefined) continue
    if (LOGICAL.has(key)) {
      if (key === "andGroup" || key === "orGroup") {
        if (!groups) throw invalid(`${where} is not supported by this search`)
        if (!Array.isArray(value)) throw invalid(`${where} must be an array of filter objects`)
        const subs = value.map((v, i) => {
          if (!isObj(v)) throw invalid(`${where}[${i}] must be a filter object`)
          return all(compileFilter(v, fields, groups, `${where}[${i}]`))
        })
        preds.push(key === "andGroup" ? (r) => subs.every((p) => p(r)) : (r) => subs.some((p) => p(r)))
        continue
      }
      if (!isObj(value)) throw invalid(`${where} must be a filter object`)
      const subs = compileFilter(value, fields, groups, where)
      if (key === "and") preds.push(all(subs))
      else if (key === "or") preds.push((r) => subs.length === 0 || subs.some((p) => p(r)))
      else preds.push((r) => !all(subs)(r))
      continue
    }
    const field = fields[key]
    if (field === undefined) throw invalid(`${where}: unknown filter field "${key}"`)
    if (!isObj(value)) throw invalid(`${where} must be an expression object such as { "eq": ... }`)
    if (typeof field === "string" || isComputed(field)) {
      const type = typeof field === "string" ? field : field.type
      const get = typeof field === "string" ? (r: unknown) => at(r, key) : field.get
      const ops = Object.entries(value).map(([op, v]) => operator(type, op, v, `${where}.${op}`))
      if (ops.length === 0) throw invalid(`${where} has no operator`)
      preds.push((r) => {
        const x = get(r)
        return ops.every((o) => o(x))
      })
    } else {
      const subs = compileFilter(value, field, false, where)
      preds.push((r) => all(subs)(at(r, key)))
    }
  }
  return preds
}

const all =
  (preds: ReadonlyArray<Pred>): Pred =>
  (r) =>
    preds.every((p) => p(r))

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
