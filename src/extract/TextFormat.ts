/** Detects a delimited text file's encoding and delimiter from its first bytes. */
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs/promises"
import { ExtractError } from "./ExtractError.js"

/** The encodings the readers decode. */
export type Encoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252"

/** How a delimited text file is written. */
export interface TextFormat {
  readonly encoding: Encoding
  readonly delimiter: string
}

const SAMPLE_BYTES = 64 * 1024
const DELIMITERS = [",", ";", "\t", "|"] as const

/**
 * The encoding of a sample: a BOM decides (UTF-8, UTF-16 LE/BE); otherwise zero bytes in alternate positions
 * mean BOM-less UTF-16; otherwise valid UTF-8 is UTF-8 and anything else is read as Windows-1252.
 */
export const detectEncoding = (bytes: Uint8Array): Encoding => {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8"
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le"
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be"
  const n = Math.min(bytes.length, 512)
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i < n; i++) if (bytes[i] === 0) i % 2 === 0 ? evenZeros++ : oddZeros++
  if (n >= 4 && oddZeros > n / 4 && evenZeros === 0) return "utf-16le"
  if (n >= 4 && evenZeros > n / 4 && oddZeros === 0) return "utf-16be"
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true })
    return "utf-8"
  } catch {
    return "windows-1252"
  }
}

/** Counts `delimiter` outside double quotes in one line. */
const countOutsideQuotes = (line: string, delimiter: string): number => {
  let n = 0
  let quoted = false
  for (const ch of line) {
    if (ch === '"') quoted = !quoted
    else if (ch === delimiter && !quoted) n++
  }
  return n
}

/**
 * The delimiter of a text sample: among `,` `;` tab `|`, the one that splits the most of the first 50
 * non-blank lines, ties broken by the most frequent per-line count; comma when nothing splits.
 */
export const detectDelimiter = (text: string): string => {
  const lines = text
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== "")
    .slice(0, 50)
  let best: { d: string; lines: number; modeCount: number } = { d: ",", lines: 0, modeCount: 0 }
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => countOutsideQuotes(l, d)).filter((c) => c > 0)
    const freq = new Map<number, number>()
    for (const c of counts) freq.set(c, (freq.get(c) ?? 0) + 1)
    const modeCount = Math.max(0, ...freq.values())
    if (counts.length > best.lines || (counts.length === best.lines && modeCount > best.modeCount)) {
      best = { d, lines: counts.length, modeCount }
    }
  }
  return best.d
}

/** Reads the first 64 KiB of `path` and detects its encoding and delimiter. */
export const sniff = (path: string, where: string): Effect.Effect<TextFormat, ExtractError> =>
  Effect.tryPromise({
    try: async () => {
      const handle = await NodeFs.open(path, "r")
      try {
        const buffer = new Uint8Array(SAMPLE_BYTES)
        const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0)
        const bytes = buffer.subarray(0, bytesRead)
        const encoding = detectEncoding(bytes)
        const text = new TextDecoder(encoding).decode(bytes, { stream: true })
        return { encoding, delimiter: detectDelimiter(text) }
      } finally {
        await handle.close()
      }
    },
    catch: (e) =>
      new ExtractError({
        what: "cannot read the file",
        where,
        why: String(e),
        fix: "check that the file exists and is readable"
      })
  })
