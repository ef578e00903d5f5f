/** What a source profile is: a recogniser of a file's layout and a per-file reader that classifies its rows. */
import type { SourceRecord } from "./SourceRecord.js"

/** Why a non-data line was skipped; the counting invariant `lines = staged + skipped + rejected` relies on it. */
export type SkipReason =
  | "title"
  | "header"
  | "heading"
  | "opening-balance"
  | "closing-balance"
  | "total"
  | "percentage"
  | "footer"
  | "blank"

/**
 * A staged row: its values in the order of `keys` (the row's shape). Rows of one layout share one `keys`
 * array (see `shape`), so that staging stores each shape once and a row as its values only.
 */
export interface Staged {
  readonly _tag: "Staged"
  readonly keys: ReadonlyArray<string>
  readonly values: ReadonlyArray<string>
}

/** What a reader decided for one record. */
export type Outcome =
  | Staged
  | { readonly _tag: "Skipped"; readonly reason: SkipReason }
  | { readonly _tag: "Rejected"; readonly reason: string }

/** Classifies the records of one file in order; `finish` returns the file's warnings (e.g. totals). */
export interface RowReader {
  readonly read: (record: SourceRecord) => Outcome
  readonly finish: () => ReadonlyArray<string>
}

/** Formats a profile declares for its files (a column profile's settings), overriding detection. */
export interface DeclaredFormats {
  readonly dateOrder?: "DMY" | "MDY"
  readonly decimal?: "." | ","
}

/** A profile's claim on a file: its kind, how sure it is (0–1), why, the reader to use, declared formats. */
export interface Recognition {
  readonly kind: string
  readonly confidence: number
  readonly evidence: string
  readonly reader: () => RowReader
  readonly formats?: DeclaredFormats
}

/** A source layout: it looks at the first records of a file (`file` names it in messages). */
export interface Profile {
  readonly kinds: ReadonlyArray<string>
  /** The headers (and title) a file of this layout must have, for "expected …" messages. */
  readonly expects: string
  readonly recognise: (head: ReadonlyArray<SourceRecord>, file: string) => ReadonlyArray<Recognition>
}

const shapes = new Map<string, ReadonlyArray<string>>()

/** The one shared array of these keys (equal key lists give the same array). */
export const shape = (keys: ReadonlyArray<string>): ReadonlyArray<string> => {
  const id = keys.join("\u0000")
  let known = shapes.get(id)
  if (known === undefined) shapes.set(id, (known = [...keys]))
  return known
}

/** Outcome constructors: a row as an object (its keys in order), or as values of a `shape`d key list. */
export const staged = (data: Readonly<Record<string, string>>): Outcome => ({
  _tag: "Staged",
  keys: shape(Object.keys(data)),
  values: Object.values(data)
})
export const stagedValues = (keys: ReadonlyArray<string>, values: ReadonlyArray<string>): Staged => ({
  _tag: "Staged",
  keys,
  values
})
export const skipped = (reason: SkipReason): Outcome => ({ _tag: "Skipped", reason })
export const rejected = (reason: string): Outcome => ({ _tag: "Rejected", reason })
