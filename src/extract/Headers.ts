/** Header normalization: the `data` keys of staged rows, and the folded form used to match layouts. */

/** The staged key of a header cell: a leading `*` (Xero's "required" mark) stripped, trimmed; spelling kept. */
export const normalize = (header: string): string =>
  header
    .trim()
    .replace(/^\*+\s*/, "")
    .trim()

/** The matching form of a header: lower case, letters, digits and `<>%#` only (`*Tax Code` → `taxcode`). */
export const fold = (header: string): string =>
  normalize(header)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}<>%#]+/gu, "")

/**
 * The staged keys of a header row: normalized, an empty header named `Column<n>` (1-based position),
 * and a repeated name suffixed ` (2)`, ` (3)`… so that no cell is lost.
 */
export const keys = (cells: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Map<string, number>()
  const out: Array<string> = []
  cells.forEach((c, i) => {
    const base = normalize(c) === "" ? `Column${i + 1}` : normalize(c)
    const n = (seen.get(base) ?? 0) + 1
    seen.set(base, n)
    out.push(n === 1 ? base : `${base} (${n})`)
  })
  return out
}

/** The header row with trailing empty cells dropped (exports often pad rows with bare delimiters). */
export const trimTrailing = (cells: ReadonlyArray<string>): ReadonlyArray<string> => {
  let end = cells.length
  while (end > 0 && cells[end - 1]!.trim() === "") end--
  return cells.slice(0, end)
}
