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

/** What a reader decided for one record. */
export type Outcome =
  | { readonly _tag: "Staged"; readonly data: Readonly<Record<string, string>> }
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

/** Outcome constructors. */
export const staged = (data: Readonly<Record<string, string>>): Outcome => ({ _tag: "Staged", data })
export const skipped = (reason: SkipReason): Outcome => ({ _tag: "Skipped", reason })
export const rejected = (reason: string): Outcome => ({ _tag: "Rejected", reason })
