import { assert, describe, it } from "@effect/vitest"
import { parse } from "csv-parse/sync"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs/promises"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as CsvReader from "../../src/extract/CsvReader.js"
import * as CsvTokenizer from "../../src/extract/CsvTokenizer.js"

/** What csv-parse alone (the reader before its fast tokenizer) gives: line, cells and raw of each record. */
const reference = (text: string) => {
  const records = parse(text, {
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    raw: true,
    bom: true
  }) as unknown as Array<{ record: Array<string>; raw: string }>
  let line = 1
  return records.map(({ record, raw }) => {
    const stripped = raw.replace(/(?:\r\n|\n|\r)$/, "")
    const at = line
    line += 1 + (stripped.match(/\r\n|\n|\r/g)?.length ?? 0)
    return { line: at, cells: record, raw: stripped }
  })
}

const readAll = (text: string, chunk: number) =>
  Effect.gen(function* () {
    const dir = yield* Effect.acquireRelease(
      Effect.promise(() => NodeFs.mkdtemp(NodePath.join(NodeOs.tmpdir(), "csvreader-"))),
      (d) => Effect.promise(() => NodeFs.rm(d, { recursive: true, force: true }))
    )
    const path = NodePath.join(dir, "t.csv")
    yield* Effect.promise(() => NodeFs.writeFile(path, text))
    const cursor = yield* CsvReader.open(path, "t.csv", { encoding: "utf-8", delimiter: "," })
    const out: Array<{ line: number; cells: ReadonlyArray<string>; raw: string }> = []
    for (;;) {
      const batch = yield* cursor.next(chunk)
      if (batch.length === 0) return out
      for (const r of batch) out.push({ line: r.line, cells: [...r.cells], raw: r.raw })
    }
  })

const CASES: Record<string, string> = {
  plain: "a,b,c\n1,2,3\n\n4,,6\n7,8",
  quoted: 'a,b\n"x, y","he said ""hi"""\n"multi\nline",z\n"",""\n',
  crlf: 'a,b\r\n"one\r\ntwo",3\r\n\r\n4,5\r\n',
  "bom and lone CR": "\ufeffa,b\r1,2\r3,4",
  "exotic in the middle": `a,b\n${"1,2\n".repeat(3000)}x "quoted" y,2\n"multi\r\nline",3\n5,6\n`,
  "text after a closing quote": 'a,b\n1,2\n"x"y,3\n4,5\n',
  "CR inside a plain cell of an LF file": "a,b\n1,2\nx\ry,3\n4,5\n"
}

/**
 * Text over several of the reader's chunks: characters of two, three and four bytes in UTF-8 throughout, one
 * four-byte character starting on each of the three bytes before the first chunk's end, and a quoted cell with
 * line breaks across the fourth chunk's end.
 */
const acrossChunks = (): string => {
  const parts: Array<string> = []
  let bytes = 0
  const add = (s: string) => {
    parts.push(s)
    bytes += Buffer.byteLength(s)
  }
  add("a,b,c\n")
  for (let k = 1; k <= 3; k++) {
    // The four-byte character starts `k` bytes before the end of chunk `k`.
    add("x".repeat(CsvReader.CHUNK_BYTES * k - k - 2 - bytes))
    add(`,"\u{1f600}",${k}\n`)
  }
  for (let i = 0; bytes < 4 * CsvReader.CHUNK_BYTES - 40; i++) add(`${i},Caf\u00e9 \u20ac${i},\u00d7\n`)
  add('"one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\nthirteen",\u00e9,end\n')
  while (bytes < 6 * CsvReader.CHUNK_BYTES) add("\u{1f600}\u20ac\u00e9,\u00d7,z\n")
  return parts.join("")
}

describe("CsvReader", () => {
  it.scoped(
    "reads text over several chunks, characters and quoted line breaks split between them, as csv-parse does",
    () =>
      Effect.gen(function* () {
        const text = acrossChunks()
        const expected = reference(text)
        assert.isAbove(Buffer.byteLength(text), 4 * CsvReader.CHUNK_BYTES)
        assert.deepStrictEqual(yield* readAll(text, 5000), expected)
        assert.include(expected.map((r) => r.cells.join(",")).join("\n"), "\u{1f600}")
      })
  )

  for (const [name, text] of Object.entries(CASES))
    it.scoped(`reads like csv-parse alone: ${name}`, () =>
      Effect.gen(function* () {
        const expected = reference(text)
        for (const chunk of [1, 7, 5000]) assert.deepStrictEqual(yield* readAll(text, chunk), expected)
      })
    )

  it("the tokenizer gives up on what csv-parse's relaxed rules read differently", () => {
    const t = CsvTokenizer.make(",")
    assert.strictEqual(t.next('a"b,c\n', 0, true), CsvTokenizer.EXOTIC)
    assert.strictEqual(t.next('"a"b,c\n', 0, true), CsvTokenizer.EXOTIC)
    assert.strictEqual(t.next('"unclosed,c\n', 0, true), CsvTokenizer.EXOTIC)
    assert.strictEqual(t.next('"open,c', 0, false), CsvTokenizer.MORE)
    assert.deepStrictEqual(t.next('"a""b",c\nnext', 0, false), {
      cells: ['a"b', "c"],
      end: 9,
      terminator: 1,
      multiline: false
    })
  })
})
