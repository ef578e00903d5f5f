/** Typed reading of JSON request bodies with the platform's aliases, naming the offending field in every error. */
import { parseDate } from "./Dates.js"
import { badRequest, invalid } from "./Http.js"
import { decimals } from "./Money.js"

/** A JSON object. */
export type Obj = Readonly<Record<string, unknown>>

/** True for a plain JSON object. */
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v)

/** A cursor over one JSON object at `path` (for messages such as `lineItems[0].unitPrice`). */
export class Body {
  constructor(
    readonly o: Obj,
    readonly path: string
  ) {}

  /** The request body, which must be a JSON object (400 otherwise). */
  static of(body: unknown): Body {
    if (!isObj(body)) throw badRequest("request body must be a JSON object")
    return new Body(body, "")
  }

  name(field: string): string {
    return this.path === "" ? field : `${this.path}.${field}`
  }

  /** The first present key among the canonical name and its aliases. */
  key(field: string, aliases: ReadonlyArray<string> = []): string | undefined {
    if (this.o[field] !== undefined) return field
    return aliases.find((a) => this.o[a] !== undefined)
  }

  raw(field: string, aliases: ReadonlyArray<string> = []): unknown {
    const k = this.key(field, aliases)
    return k === undefined ? undefined : this.o[k]
  }

  has(field: string, aliases: ReadonlyArray<string> = []): boolean {
    const v = this.raw(field, aliases)
    return v !== undefined && v !== null
  }

  str(field: string, aliases: ReadonlyArray<string> = []): string | undefined {
    const v = this.raw(field, aliases)
    if (v === undefined || v === null) return undefined
    if (typeof v !== "string") throw invalid(`${this.name(field)} must be a string`)
    return v
  }

  reqStr(field: string, aliases: ReadonlyArray<string> = []): string {
    const v = this.str(field, aliases)
    if (v === undefined || v.trim() === "") throw invalid(`${this.name(field)} is required`)
    return v
  }

  bool(field: string): boolean | undefined {
    const v = this.o[field]
    if (v === undefined || v === null) return undefined
    if (typeof v !== "boolean") throw invalid(`${this.name(field)} must be a boolean, not ${typeof v}`)
    return v
  }

  num(field: string, aliases: ReadonlyArray<string> = []): number | undefined {
    const v = this.raw(field, aliases)
    if (v === undefined || v === null) return undefined
    if (typeof v !== "number" || !Number.isFinite(v)) throw invalid(`${this.name(field)} must be a number`)
    return v
  }

  /** A money amount: a non-negative number with at most two decimals. */
  money(field: string, aliases: ReadonlyArray<string> = [], required = false): number | undefined {
    const v = this.num(field, aliases)
    if (v === undefined) {
      if (required) throw invalid(`${this.name(field)} is required`)
      return undefined
    }
    if (v < 0) throw invalid(`${this.name(field)} must not be negative`)
    if (decimals(v) > 2) throw invalid(`${this.name(field)} must have at most 2 decimal places`)
    return v
  }

  /** A `YYYY-MM-DD` date as epoch ms; ISO datetimes and epoch numbers are refused. */
  date(field: string, aliases: ReadonlyArray<string> = []): number | undefined {
    const k = this.key(field, aliases)
    if (k === undefined || this.o[k] === null) return undefined
    const v = this.o[k]
    if (typeof v !== "string")
      throw invalid(`${this.name(k)} must be a YYYY-MM-DD date string, got ${typeof v}`)
    const ms = parseDate(v)
    if (ms === undefined)
      throw invalid(`${this.name(k)} must be a real date in YYYY-MM-DD format, got "${v}"`)
    return ms
  }

  reqDate(field: string, aliases: ReadonlyArray<string> = []): number {
    const v = this.date(field, aliases)
    if (v === undefined) throw invalid(`${this.name(field)} is required`)
    return v
  }

  obj(field: string): Body | undefined {
    const v = this.o[field]
    if (v === undefined || v === null) return undefined
    if (!isObj(v)) throw invalid(`${this.name(field)} must be an object`)
    return new Body(v, this.name(field))
  }

  /** An array of objects, each wrapped in a cursor. */
  objects(field: string, max = 1000): Body[] | undefined {
    const v = this.o[field]
    if (v === undefined || v === null) return undefined
    if (!Array.isArray(v)) throw invalid(`${this.name(field)} must be an array`)
    if (v.length > max) throw invalid(`${this.name(field)} accepts at most ${max} items`)
    return v.map((item, i) => {
      const p = `${this.name(field)}[${i}]`
      if (!isObj(item)) throw invalid(`${p} must be an object`)
      return new Body(item, p)
    })
  }

  strings(field: string): string[] | undefined {
    const v = this.o[field]
    if (v === undefined || v === null) return undefined
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
      throw invalid(`${this.name(field)} must be an array of strings`)
    return v as string[]
  }

  /** Refuses a PUT whose body `resourceId` is missing or differs from the path. */
  requireResourceId(id: string): void {
    const v = this.str("resourceId")
    if (v === undefined) throw invalid("resourceId is required in the body of a PUT")
    if (v !== id) throw invalid(`resourceId in the body (${v}) does not match the path (${id})`)
  }
}
