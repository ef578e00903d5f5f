/** Search filters: the operators per expression type and the logical nesting, compiled to a row predicate. */
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

/** A compiled filter. */
export type Pred = (row: unknown) => boolean

/** True for a computed field. */
export const isComputed = (f: Field): f is Computed => typeof f === "object" && typeof f.get === "function"

/** A property of a row, if the row is an object. */
export const at = (row: unknown, key: string): unknown => (isObj(row) ? row[key] : undefined)

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

/** True for a string. */
export const isStr = (x: unknown): x is string => typeof x === "string"
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

/** The conjunction of predicates. */
export const all =
  (preds: ReadonlyArray<Pred>): Pred =>
  (r) =>
    preds.every((p) => p(r))
