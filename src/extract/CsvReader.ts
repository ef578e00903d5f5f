/**
 * The streaming delimited-text reader: file bytes → decoder → the fast tokenizer (csv-parse past anything
 * exotic), pulled in batches, each record with the physical line it starts on. Blank lines are records too,
 * so every line is accounted for.
 */
import { parse } from "csv-parse"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as NodeCrypto from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodeStream from "node:stream"
import { ORDINARY_CHARS } from "../Pieces.mjs"
import * as CsvTokenizer from "./CsvTokenizer.js"
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

/**
 * Bytes read at a time. Each chunk is decoded into one string, which must stay in V8's ordinary heap
 * (`Pieces.ORDINARY_CHARS`; no encoding read here decodes to more characters than bytes). Decoding the 370 MB
 * benchmark export took 1.5 s in chunks of 256 KiB, against 0.04-0.08 s in chunks of 64 or 96 KiB and 0.02 s
 * in chunks of 32 KiB (the reading alone taken off: 0.30-0.45 s).
 */
export const CHUNK_BYTES = ORDINARY_CHARS

/** The decoded text of `path`, chunk by chunk, its bytes hashed on the way. */
async function* decoded(
  source: NodeFs.ReadStream,
  format: TextFormat,
  hash: NodeCrypto.Hash
): AsyncGenerator<string> {
  const text = new TextDecoder(format.encoding, { fatal: format.encoding === "utf-8" })
  for await (const chunk of source) {
    hash.update(chunk as Buffer)
    yield text.decode(chunk as Buffer, { stream: true })
  }
  yield text.decode()
}

const parserFor = (format: TextFormat, terminator: string, atStart: boolean) =>
  parse({
    delimiter: format.delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    raw: true,
    bom: atStart,
    ...(terminator === "" ? {} : { record_delimiter: terminator })
  })

/**
 * Opens `path` for reading records: the fast tokenizer while the text keeps to its rules, then csv-parse
 * from the first record that does not, to the end. Line numbers are counted from the raw text of each record
 * (csv-parse's own `info.lines` counts a CRLF inside quotes twice).
 */
export const open = (
  path: string,
  where: string,
  format: TextFormat
): Effect.Effect<RecordCursor, ExtractError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const source = NodeFs.createReadStream(path, { highWaterMark: CHUNK_BYTES })
      const hash = NodeCrypto.createHash("sha256")
      return { source, hash, parser: undefined as ReturnType<typeof parse> | undefined }
    }),
    (opened) => Effect.sync(() => (opened.parser?.destroy(), opened.source.destroy()))
  ).pipe(
    Effect.map((opened): RecordCursor => {
      const texts = decoded(opened.source, format, opened.hash)
      const tokenizer = CsvTokenizer.make(format.delimiter)
      let text = ""
      let pos = 0
      let started = false
      let final = false
      let nextLine = 1
      let done = false
      let fallback: { iterator: AsyncIterator<Parsed>; firstLine: number } | undefined
      const more = async () => {
        const step = await texts.next()
        let chunk = step.done ? "" : step.value
        if (!started && chunk !== "") {
          started = true
          if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1)
        }
        if (step.done) final = true
        text = text.slice(pos) + chunk
        pos = 0
      }
      const switchToCsvParse = () => {
        const rest = text.slice(pos)
        const atStart = nextLine === 1
        const parser = parserFor(format, tokenizer.terminator(), atStart)
        opened.parser = parser
        const feed = async function* () {
          yield rest
          for await (const chunk of texts) yield chunk
        }
        NodeStream.pipeline(NodeStream.Readable.from(feed(), { objectMode: false }), parser, () => {})
        fallback = { iterator: parser[Symbol.asyncIterator]() as AsyncIterator<Parsed>, firstLine: nextLine }
        text = ""
        pos = 0
      }
      const pullParsed = async (iterator: AsyncIterator<Parsed>, out: Array<SourceRecord>, max: number) => {
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
      }
      const pull = async (max: number): Promise<ReadonlyArray<SourceRecord>> => {
        const out: Array<SourceRecord> = []
        while (!done && out.length < max) {
          if (fallback !== undefined) {
            await pullParsed(fallback.iterator, out, max)
            break
          }
          if (pos >= text.length && final) {
            done = true
            break
          }
          const token = tokenizer.next(text, pos, final)
          if (token === CsvTokenizer.MORE) await more()
          else if (token === CsvTokenizer.EXOTIC) switchToCsvParse()
          else {
            const raw = text.slice(pos, token.end - token.terminator)
            out.push({ line: nextLine, cells: token.cells, raw })
            nextLine += token.multiline ? 1 + innerBreaks(raw) : 1
            pos = token.end
          }
        }
        return out
      }
      let digest: string | undefined
      return {
        sha256: () => (digest ??= opened.hash.digest("hex")),
        next: (max) =>
          Effect.tryPromise({
            try: () => pull(max),
            catch: (e) => {
              const err = e as { code?: string; lines?: number; message?: string }
              const line = err.lines === undefined ? undefined : err.lines + (fallback?.firstLine ?? 1) - 1
              return new ExtractError({
                what: "cannot parse the file",
                where: line === undefined ? where : `${where}:${line}`,
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
