/** Printing the benchmark's tables and rounding its figures. */

/** A number rounded to `digits` decimals (for tables and the JSON alike). */
export const round = (n: number, digits = 0): number => {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

/** `a / b` rounded to 3 decimals. */
export const ratio = (a: number, b: number): number => round(a / b, 3)

/** "ok" or "MISSED" for a figure against its aim. */
export const verdict = (met: boolean): string => (met ? "ok" : "MISSED")

const show = (v: string | number | undefined): string =>
  v === undefined ? "–" : typeof v === "number" ? v.toLocaleString("en-US") : v

/** Prints a titled table: the first column left-aligned, the others right-aligned. */
export const table = (
  title: string,
  headers: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string | number | undefined>>
): void => {
  const cells = [headers, ...rows.map((r) => r.map(show))]
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)))
  const line = (r: ReadonlyArray<string>) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
  console.log(`\n${title}`)
  console.log(line(cells[0]!))
  console.log(widths.map((w) => "-".repeat(w)).join("  "))
  for (const r of cells.slice(1)) console.log(line(r))
}

/** A progress note on stderr, so tables on stdout stay clean. */
export const note = (text: string): void => {
  process.stderr.write(`  … ${text}\n`)
}
