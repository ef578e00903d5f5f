/**
 * A fast tokenizer for the common shape of delimited text (RFC 4180: plain fields, or quoted fields with
 * `""` escapes, one kind of line break ending records). It gives up — `EXOTIC` — on anything csv-parse's
 * relaxed rules would read differently (a quote inside a plain field, text after a closing quote, a line
 * break of another kind, an unclosed quote), so that the reader can hand the rest of the file to csv-parse.
 */

/** A record found by `next`: its cells, where its text ends (after its terminator) and its terminator. */
export interface Token {
  readonly cells: Array<string>
  readonly end: number
  readonly terminator: number
  /** True when a quoted cell holds a line break (the record spans several lines). */
  readonly multiline: boolean
}

/** `next` needs more text to finish the record (only when the text is not final). */
export const MORE = 0
/** The record is outside the fast path's rules. */
export const EXOTIC = 1

const QUOTE = 34
const CR = 13
const LF = 10

/**
 * A tokenizer for `delimiter` (one character). Like csv-parse, the first line break outside quotes decides
 * the record terminator (`\r\n`, `\n` or `\r`) for the whole file.
 */
export const make = (delimiter: string) => {
  const delim = delimiter.charCodeAt(0)
  let terminator: "" | "\r\n" | "\n" | "\r" = ""

  /** The length of the record terminator at `i`, 0 when none, -1 when more text is needed, -2 when exotic. */
  const breakAt = (s: string, i: number, final: boolean): number => {
    const c = s.charCodeAt(i)
    if (c !== CR && c !== LF) return 0
    if (terminator === "") {
      if (c === LF) terminator = "\n"
      else if (i + 1 >= s.length && !final) return -1
      else terminator = s.charCodeAt(i + 1) === LF ? "\r\n" : "\r"
    }
    if (terminator === "\n") return c === LF ? 1 : -2
    if (terminator === "\r") return c === CR && s.charCodeAt(i + 1) !== LF ? 1 : -2
    if (c !== CR) return -2
    if (i + 1 >= s.length) return final ? -2 : -1
    return s.charCodeAt(i + 1) === LF ? 2 : -2
  }

  /**
   * The record starting at `pos` of `s` (`final`: no text follows `s`), `MORE`, or `EXOTIC`. At the end of
   * final text (`pos === s.length`) there is no record: callers stop before.
   */
  const next = (s: string, pos: number, final: boolean): Token | typeof MORE | typeof EXOTIC => {
    const n = s.length
    const cells: Array<string> = []
    let multiline = false
    let i = pos
    for (;;) {
      if (i >= n) {
        if (!final) return MORE
        cells.push("")
        return { cells, end: n, terminator: 0, multiline }
      }
      let value: string
      if (s.charCodeAt(i) === QUOTE) {
        let from = i + 1
        value = ""
        for (;;) {
          const q = s.indexOf('"', from)
          if (q < 0) return final ? EXOTIC : MORE
          if (q + 1 >= n && !final) return MORE
          if (s.charCodeAt(q + 1) === QUOTE) {
            value += s.slice(from, q + 1)
            from = q + 2
            continue
          }
          value += s.slice(from, q)
          i = q + 1
          break
        }
        if (!multiline && (value.includes("\n") || value.includes("\r"))) multiline = true
        if (i >= n) {
          if (!final) return MORE
          cells.push(value)
          return { cells, end: n, terminator: 0, multiline }
        }
        const c = s.charCodeAt(i)
        if (c === delim) {
          cells.push(value)
          i++
          continue
        }
        const br = breakAt(s, i, final)
        if (br === -1) return MORE
        if (br <= 0) return EXOTIC
        cells.push(value)
        return { cells, end: i + br, terminator: br, multiline }
      }
      let j = i
      for (; j < n; j++) {
        const c = s.charCodeAt(j)
        if (c === delim || c === CR || c === LF) break
        if (c === QUOTE) return EXOTIC
      }
      if (j >= n) {
        if (!final) return MORE
        cells.push(s.slice(i, j))
        return { cells, end: n, terminator: 0, multiline }
      }
      value = s.slice(i, j)
      if (s.charCodeAt(j) === delim) {
        cells.push(value)
        i = j + 1
        continue
      }
      const br = breakAt(s, j, final)
      if (br === -1) return MORE
      if (br < 0) return EXOTIC
      cells.push(value)
      return { cells, end: j + br, terminator: br, multiline }
    }
  }

  return {
    next,
    /** The record terminator decided so far ("" until the first line break). */
    terminator: (): string => terminator
  }
}
