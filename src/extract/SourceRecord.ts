/** One physical record read from a source file, with its lineage, and the helpers every reader shares. */
/**
 * A parsed record: its 1-based starting line (a spreadsheet's row number), its cells exactly as parsed, its
 * raw text, and a reason it cannot be trusted if its reader found one (e.g. a formula with no cached value).
 */
export interface SourceRecord {
  readonly line: number
  readonly cells: ReadonlyArray<string>
  readonly raw: string
  readonly problem?: string
}

/** True when every cell is empty or whitespace (a blank line, or a line of bare delimiters). */
export const isBlank = (cells: ReadonlyArray<string>): boolean => {
  for (const c of cells) if (c.trim() !== "") return false
  return true
}

/** How many cells hold something after trimming. */
export const filledCount = (cells: ReadonlyArray<string>): number => {
  let n = 0
  for (const c of cells) if (c.trim() !== "") n++
  return n
}

/** The index of the last non-empty cell, or -1. */
export const lastFilled = (cells: ReadonlyArray<string>): number => {
  for (let i = cells.length - 1; i >= 0; i--) if (cells[i]!.trim() !== "") return i
  return -1
}

/** The trimmed cell at `i`, or "" when the record is shorter. */
export const cell = (cells: ReadonlyArray<string>, i: number): string => (cells[i] ?? "").trim()
