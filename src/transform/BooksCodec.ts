/**
 * The books' records as text and back, money kept exactly (a `BigDecimal` as its unscaled value and scale):
 * what a plan keeps of the books for reconcile (`PlanBooks`) and the documents and payments a plan keeps out
 * of the heap while it is built (`BooksSpill`). A record's text is its JSON, its own keys in their own order,
 * each amount as `{ "$d": [value, scale] }` and every character outside ASCII as its `\u` escape.
 */
import * as BigDecimal from "effect/BigDecimal"
import { remembered } from "../Remembered.js"

const MONEY = "$d"

/**
 * `value` with its money as unscaled value and scale (`{ "$d": [value, scale] }`), copied as it is walked: plain
 * `JSON.stringify` of the copy took about half the time of `JSON.stringify` with a replacer that did the same
 * (V8 calls a replacer for every value), 45-53 against 83-110 ms for 20,000 kept documents.
 */
const withMoney = (value: unknown): unknown => {
  if (value === null || typeof value !== "object") return value
  if (BigDecimal.isBigDecimal(value)) return { [MONEY]: [value.value.toString(), value.scale] }
  if (Array.isArray(value)) return value.map(withMoney)
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) copy[key] = withMoney((value as Record<string, unknown>)[key])
  return copy
}

/** Every character outside ASCII of a JSON text as its `\u` escape (which means the same in JSON). */
export const asciiJson = (json: string): string =>
  json.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/**
 * A record's text: JSON, money kept exactly, and every character outside ASCII written as its `\u` escape. One
 * such character (an item named "Whiteboard 120 × 90 cm") makes SQLite's text a two-byte string in V8:
 * reading and parsing the chunks of 20,000 invoices took 225 and 380-440 ms against 90-100 and 270-360 ms in
 * ASCII.
 */
export const encodeItem = (item: unknown): string => asciiJson(JSON.stringify(withMoney(item)) ?? "null")

/**
 * One `BigDecimal` for each amount (unscaled value and scale), as the books read from staging share each
 * amount's text: a `BigDecimal` never changes, so the same amount may be held once. The kept books of 20,000
 * invoices hold 183,041 amounts, 63,579 of them different (47,869 zeros); at 56 bytes an object and about 22 a
 * `bigint`, 14.4 MB of the 53.6 MB of heap they took once read. Heap in use once read (forced collections): 49
 * against 54 MB at 20,000 invoices, 130 against 183 MB at 100,000. `limit`: the answers held at most.
 */
const sharedMoney = (limit = Infinity) =>
  remembered((key: string): BigDecimal.BigDecimal => {
    const at = key.indexOf(":")
    return BigDecimal.make(BigInt(key.slice(at + 1)), Number(key.slice(0, at)))
  }, limit)

/** Texts longer than this are not shared: few repeat (descriptions, narrations). */
const SHARED_LENGTH = 40

/**
 * A reader of records' texts (one, or a JSON array of them): parsed, then walked once to make money of its
 * `$d` pairs and to share texts repeated from record to record (contact and account names, references), as
 * the books read from staging share them. Texts of up to 10 characters (dates, currencies, states) the parser
 * already shares. A reviver did the same at twice the cost: V8 calls it for every value, and parses slower
 * with one (980-1,500 against 460-600 ms for the books of 20,000 invoices; 6 MB of their 46 MB are the texts
 * shared). `limit`: the texts and amounts each memo holds at most; 0 shares none (records that are let go of
 * soon after they are read, for which a memo's lookups cost more than they save).
 */
export const recordDecoder = (limit = Infinity) => {
  const share = limit === 0 ? (text: string) => text : remembered((text: string) => text, limit)
  const money =
    limit === 0
      ? (key: string) => {
          const at = key.indexOf(":")
          return BigDecimal.make(BigInt(key.slice(at + 1)), Number(key.slice(0, at)))
        }
      : sharedMoney(limit)
  const revived = (value: unknown): unknown => {
    if (typeof value === "string")
      return limit !== 0 && value.length > 10 && value.length <= SHARED_LENGTH ? share(value) : value
    if (value === null || typeof value !== "object") return value
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = revived(value[i])
      return value
    }
    const record = value as Record<string, unknown>
    const pair = record[MONEY] as [string, number] | undefined
    if (pair !== undefined) return money(`${pair[1]}:${pair[0]}`)
    for (const key in record) record[key] = revived(record[key])
    return record
  }
  return (text: string): unknown => revived(JSON.parse(text))
}
