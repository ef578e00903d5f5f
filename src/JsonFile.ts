/**
 * A JSON file written as `JSON.stringify(value, null, 2)` would write it, byte for byte, without that whole
 * text in memory at once: a reconciliation's report.json at 100,000 invoices is tens of MB of text (every
 * open document of the aged comparison), and making it in one piece raised reconcile's peak RSS by 44 MB.
 */
import * as NodeFs from "node:fs/promises"

/** Levels of arrays and objects written a member at a time; anything deeper is stringified in one piece. */
const DEPTH = 4

/** Text gathered before it is written to the file. */
const FLUSH_AT = 1 << 20

/** What `JSON.stringify` leaves out of an object, and writes as `null` in an array. */
const omitted = (v: unknown): boolean => v === undefined || typeof v === "function" || typeof v === "symbol"

/** Whether `JSON.stringify` writes `v` as an array or object of its members (not through its own `toJSON`). */
const container = (v: unknown): v is object =>
  v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON !== "function"

/**
 * The pieces of `JSON.stringify(value, null, 2)` for a value `indent` deep: arrays and objects a member at a
 * time down to `depth` levels, each deeper value stringified whole and indented to its place (JSON writes no
 * raw line break inside a string, so every line break in it is the layout's).
 */
export function* pieces(value: unknown, indent = "", depth = DEPTH): Generator<string> {
  if (depth === 0 || !container(value)) {
    const text = JSON.stringify(value, null, 2)
    yield indent === "" ? text : text.replaceAll("\n", `\n${indent}`)
    return
  }
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return yield "[]"
    yield "["
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? "" : ","}\n${inner}`
      const v: unknown = value[i]
      yield* pieces(omitted(v) ? null : v, inner, depth - 1)
    }
    return yield `\n${indent}]`
  }
  const record = value as Record<string, unknown>
  let first = true
  for (const key of Object.keys(record)) {
    const v = record[key]
    if (omitted(v)) continue
    yield `${first ? "{" : ","}\n${inner}${JSON.stringify(key)}: `
    first = false
    yield* pieces(v, inner, depth - 1)
  }
  yield first ? "{}" : `\n${indent}}`
}

/** Writes `value` to `path` as `JSON.stringify(value, null, 2)` and a line break, a megabyte at a time. */
export const writeIndented = async (path: string, value: unknown): Promise<void> => {
  const file = await NodeFs.open(path, "w")
  try {
    let text = ""
    for (const piece of pieces(value)) {
      text += piece
      if (text.length >= FLUSH_AT) {
        await file.write(text)
        text = ""
      }
    }
    await file.write(`${text}\n`)
  } finally {
    await file.close()
  }
}
