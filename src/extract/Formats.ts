/**
 * Watches a file's staged rows for its date order (over every `…Date…` column together) and its decimal
 * separator (over the other columns), and says what it found — decided, or a warning that the file needs a
 * profile setting. The values themselves are staged untouched; the transform converts them.
 */
import * as Amount from "./Amount.js"
import * as DateOrder from "./DateOrder.js"
import type { DeclaredFormats } from "./Profile.js"

/** What a file's columns say about their formats. */
export interface Formats {
  readonly dateOrder?: DateOrder.Order
  readonly decimal?: Amount.DecimalSeparator
  readonly warnings: ReadonlyArray<string>
  /** Set when numeric dates never show their order: the warning to give unless other files decide it. */
  readonly undecided?: string
}

/** Observes staged rows of one file (each as its values in the order of its `keys`). */
export interface Observer {
  /** The reject reason of a row holding an impossible date (see `DateOrder.impossible`), if it does. */
  readonly impossibleDate: (
    keys: ReadonlyArray<string>,
    values: ReadonlyArray<string>,
    line: number
  ) => string | undefined
  readonly observe: (keys: ReadonlyArray<string>, values: ReadonlyArray<string>, line: number) => void
  readonly result: () => Formats
}

const DATE_KEY = /date|^as of$/i
const NUMBERISH = /\d[.,]\d/

/** Where a shape's date columns and other columns are. */
interface Columns {
  readonly dates: ReadonlyArray<number>
  readonly others: ReadonlyArray<number>
}

/** Memoised answers about cell texts, dropped when the table grows large (dates repeat, most amounts do not). */
const memo = <A>(f: (text: string) => A) => {
  const known = new Map<string, A>()
  return (text: string): A => {
    let a = known.get(text)
    if (a === undefined) {
      if (known.size >= 4096) known.clear()
      known.set(text, (a = f(text)))
    }
    return a
  }
}

/** An observer for `file`; `declared` formats (from a column profile) win, and disagreeing data is a warning. */
export const observer = (file: string, declared: DeclaredFormats = {}): Observer => {
  const dates = DateOrder.detector()
  const evidence: Array<string> = []
  const seen = new Set<Amount.DecimalSeparator>()
  const impossible = memo((v) => v !== "" && DateOrder.impossible(v))
  const columnsOf = new Map<ReadonlyArray<string>, Columns>()
  const columns = (keys: ReadonlyArray<string>): Columns => {
    let c = columnsOf.get(keys)
    if (c === undefined) {
      const dates: Array<number> = []
      const others: Array<number> = []
      keys.forEach((k, i) => (DATE_KEY.test(k) ? dates : others).push(i))
      columnsOf.set(keys, (c = { dates, others }))
    }
    return c
  }
  return {
    impossibleDate: (keys, values, line) => {
      for (const i of columns(keys).dates) {
        const v = values[i] ?? ""
        if (impossible(v))
          return (
            `impossible date at ${file}:${line}: ${keys[i]} "${v}" is no calendar date in either day/month ` +
            `order; correct it in the source system, export again and extract again`
          )
      }
      return undefined
    },
    observe: (keys, values, line) => {
      const { dates: at, others } = columns(keys)
      for (const i of at) dates.add(values[i] ?? "", line)
      if (seen.size < 2) {
        // Only a value holding a separator not seen yet can show it (`decimalOf` needs the character).
        const dot = !seen.has(".")
        const comma = !seen.has(",")
        for (const i of others) {
          const v = values[i] ?? ""
          if (v.length < 3 || !((dot && v.includes(".")) || (comma && v.includes(","))) || !NUMBERISH.test(v))
            continue
          const sep = Amount.decimalOf(v)
          if (sep !== undefined && !seen.has(sep)) (seen.add(sep), evidence.push(v))
        }
      }
    },
    result: () => {
      const warnings: Array<string> = []
      const d = dates.result()
      const a = Amount.detectDecimal(evidence)
      if (declared.dateOrder !== undefined) {
        if (d._tag === "Decided" && d.order !== declared.dateOrder)
          warnings.push(
            `${file}: the profile says ${declared.dateOrder} dates but the file has ${d.order} (${d.evidence})`
          )
        if (d._tag === "Conflict") warnings.push(`${file}: dates disagree on their order (${d.evidence})`)
      } else if (d._tag === "Conflict")
        warnings.push(
          `${file}: dates disagree on their order (${d.evidence}): fix the export or set the order in a profile`
        )
      if (declared.decimal !== undefined) {
        if (a._tag === "Decided" && a.decimal !== declared.decimal)
          warnings.push(
            `${file}: the profile says decimal "${declared.decimal}" but the amounts use "${a.decimal}"`
          )
      } else if (a._tag === "Conflict")
        warnings.push(
          `${file}: amounts disagree on their decimal separator (${a.evidence}): set it in a profile`
        )
      const dateOrder = declared.dateOrder ?? (d._tag === "Decided" ? d.order : undefined)
      const decimal = declared.decimal ?? (a._tag === "Decided" ? a.decimal : undefined)
      const undecided =
        declared.dateOrder === undefined && d._tag === "Ambiguous"
          ? `${file}: the date order cannot be told from the file (${d.evidence}; 03/04/2025 could be 3 April ` +
            `or March 4): set the date order in a column profile`
          : undefined
      return {
        ...(dateOrder !== undefined ? { dateOrder } : {}),
        ...(decimal !== undefined ? { decimal } : {}),
        ...(undecided !== undefined ? { undecided } : {}),
        warnings
      }
    }
  }
}
