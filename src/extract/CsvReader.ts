/**
 * The streaming delimited-text reader: file bytes → decoder → csv-parse, pulled in batches, each record
 * with the physical line it starts on. Blank lines are records too, so every line is accounted for.
 */
import { parse } from "csv-parse"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as NodeCrypto from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodeStream from "node:stream"
import { ExtractError } from "./ExtractError.js"
import type { SourceRecord } from "./SourceRecord.js"
import type { TextFormat } from "./TextFormat.js"

/** Pulls records in order; an empty batch means the end of the file. `sha256` is final once it has ended. */
export interface RecordCursor {
  readonly next: (max: number) => Effect.Effect<ReadonlyArray<SourceRecord>, ExtractError>
  readonly sha256: () => string
}

interface Parsed {
  readonly record: Array<string>
  readonly raw: string
}

const TERMINATOR = /(?:\r\n|\n|\r)$/
const BREAK = /\r\n|\n|\r/g

/** Line breaks inside a record's raw text (quoted multi-line cells), its own terminator excluded. */
const innerBreaks = (raw: string): number => raw.replace(TERMINATOR, "").match(BREAK)?.length ?? 0

const decoder = (format: TextFormat, hash: NodeCrypto.Hash): NodeStream.Transform => {
  const text = new TextDecoder(format.encoding, { fatal: format.encoding === "utf-8" })
  return new NodeStream.Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk)
      try {
        done(null, text.decode(chunk, { stream: true }))
      } catch (e) {
        done(e as Error)
      }
    },
    flush(done) {
      try {
        done(null, text.decode())
      } catch (e) {
        done(e as Error)
      }
    }
  })
}

/**
 * Opens `path` for reading records. Line numbers are counted from the raw text of each record
 * (csv-parse's own `info.lines` counts a CRLF inside quotes twice).
 */
export const open = (
  path: string,
  where: string,
  format: TextFormat
): Effect.Effect<RecordCursor, ExtractError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const parser = parse({
        delimiter: format.delimiter,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: false,
        raw: true,
        bom: true
      })
      const source = NodeFs.createReadStream(path, { highWaterMark: 256 * 1024 })
      const hash = NodeCrypto.createHash("sha256")
      NodeStream.pipeline(source, decoder(format, hash), parser, () => {})
      return { parser, hash, iterator: parser[Symbol.asyncIterator]() as AsyncIterator<Parsed> }
    }),
    ({ parser }) => Effect.sync(() => parser.destroy())
  ).pipe(
    Effect.map(({ iterator, hash }): RecordCursor => {
      let nextLine = 1
      let done = false
      const pull = async (max: number): Promise<ReadonlyArray<SourceRecord>> => {
        const out: Array<SourceRecord> = []
        while (!done && out.length < max) {
          const step = await iterator.next()
          if (step.done) {
            done = true
            break
          }
          const { record, raw } = step.value
          out.push({ line: nextLine, cells: record, raw: raw.replace(TERMINATOR, "") })
          nextLine += 1 + innerBreaks(raw)
        }
        return out
      }
      let digest: string | undefined
      return {
        sha256: () => (digest ??= hash.digest("hex")),
        next: (max) =>
          Effect.tryPromise({
            try: () => pull(max),
            catch: (e) => {
              const err = e as { code?: string; lines?: number; message?: string }
              return new ExtractError({
                what: "cannot parse the file",
                where: err.lines === undefined ? where : `${where}:${err.lines}`,
                why: `${err.code ?? "read error"}: ${err.message ?? String(e)}`,
                fix:
                  err.code === "ERR_ENCODING_INVALID_ENCODED_DATA"
                    ? "the file is not valid UTF-8 past its first 64 KiB: re-save it as UTF-8"
                    : "repair the line (an unclosed quote usually swallows the rest of the file) or re-export"
              })
            }
          })
      }
    })
  )
