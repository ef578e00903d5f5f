/**
 * Symbolic references inside planned bodies. A plan never holds a target `resourceId` it cannot know:
 * a `*ResourceId` field holds `@<entity>:<natural key>` (e.g. `@account:Sales`, `@contact:Acme Pte Ltd`),
 * which is also the key of the plan operation that creates that record when the plan creates it. The
 * loader resolves each reference at send time, from checkpoints or by a natural-key lookup in the target.
 */
import * as Schema from "effect/Schema"

/** The kinds of target record a reference can name. */
export type RefEntity =
  | "account"
  | "taxProfile"
  | "contact"
  | "item"
  | "invoice"
  | "bill"
  | "journal"
  | "currency"
  | "customer-credit-note"
  | "supplier-credit-note"

export const refPrefix = "@"

/** `@account:Sales` for entity `account` and natural key `Sales`. */
export const ref = (entity: RefEntity, naturalKey: string): string => `${refPrefix}${entity}:${naturalKey}`

/** The operation key of the record a reference names (the reference without its `@`). */
export const opKey = (entity: RefEntity, naturalKey: string): string => `${entity}:${naturalKey}`

export interface ParsedRef {
  readonly entity: RefEntity
  readonly naturalKey: string
  readonly key: string
}

const entities = new Set<string>([
  "account",
  "taxProfile",
  "contact",
  "item",
  "invoice",
  "bill",
  "journal",
  "currency",
  "customer-credit-note",
  "supplier-credit-note"
])

/** Parses `@entity:natural key`; undefined for anything else (a real resource id). */
export const parse = (value: string): ParsedRef | undefined => {
  if (!value.startsWith(refPrefix)) return undefined
  const colon = value.indexOf(":")
  const entity = value.slice(1, colon)
  if (colon < 0 || !entities.has(entity)) return undefined
  return { entity: entity as RefEntity, naturalKey: value.slice(colon + 1), key: value.slice(1) }
}

/** A reference field: a symbolic reference in a plan, a real resource id once resolved. */
export const ResourceRef = Schema.NonEmptyTrimmedString.annotations({ identifier: "ResourceRef" })

/** Every symbolic reference in a JSON value, in document order. */
export const collect = (value: unknown, into: Array<ParsedRef> = []): Array<ParsedRef> => {
  if (typeof value === "string") {
    const p = parse(value)
    if (p) into.push(p)
  } else if (Array.isArray(value)) {
    for (const v of value) collect(v, into)
  } else if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) collect(v, into)
  }
  return into
}

/** Replaces every symbolic reference using `lookup`; a reference `lookup` cannot resolve is returned in `missing`. */
export const resolve = (
  value: unknown,
  lookup: (r: ParsedRef) => string | undefined
): { readonly value: unknown; readonly missing: ReadonlyArray<ParsedRef> } => {
  const missing: Array<ParsedRef> = []
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const p = parse(v)
      if (!p) return v
      const id = lookup(p)
      if (id === undefined) missing.push(p)
      return id ?? v
    }
    // Plain loops: the loader resolves every body it sends, and entries/fromEntries allocated a pair per field.
    if (Array.isArray(v)) {
      const out = new Array<unknown>(v.length)
      for (let i = 0; i < v.length; i++) out[i] = walk(v[i])
      return out
    }
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {}
      for (const k of Object.keys(v)) out[k] = walk((v as Record<string, unknown>)[k])
      return out
    }
    return v
  }
  return { value: walk(value), missing }
}

/**
 * The references `bodies` make that `known` does not hold (the target's own records to look up), as the natural
 * keys wanted per entity.
 */
export const wanted = (
  bodies: Iterable<unknown>,
  known: (key: string) => boolean
): Map<RefEntity, Set<string>> => {
  const out = new Map<RefEntity, Set<string>>()
  for (const body of bodies)
    for (const r of collect(body)) {
      if (known(r.key)) continue
      const keys = out.get(r.entity) ?? new Set<string>()
      out.set(r.entity, keys.add(r.naturalKey))
    }
  return out
}
