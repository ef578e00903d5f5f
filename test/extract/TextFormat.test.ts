import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as TextFormat from "../../src/extract/TextFormat.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { dirOf, fixture, skippedLines, stagedRows } from "./support.js"

const bytes = (...b: ReadonlyArray<number>) => Uint8Array.from(b)

describe("TextFormat", () => {
  it("detects encodings from BOMs, zero bytes and UTF-8 validity", () => {
    assert.strictEqual(TextFormat.detectEncoding(bytes(0xef, 0xbb, 0xbf, 0x41)), "utf-8")
    assert.strictEqual(TextFormat.detectEncoding(bytes(0xff, 0xfe, 0x41, 0x00)), "utf-16le")
    assert.strictEqual(TextFormat.detectEncoding(bytes(0xfe, 0xff, 0x00, 0x41)), "utf-16be")
    assert.strictEqual(TextFormat.detectEncoding(bytes(0x41, 0x00, 0x2c, 0x00, 0x42, 0x00)), "utf-16le")
    assert.strictEqual(TextFormat.detectEncoding(new TextEncoder().encode("Café,Zürich")), "utf-8")
    assert.strictEqual(TextFormat.detectEncoding(bytes(0x43, 0x61, 0x66, 0xe9, 0x2c, 0x80)), "windows-1252")
  })

  it("detects comma, semicolon, tab and pipe, ignoring delimiters inside quotes and title lines", () => {
    assert.strictEqual(TextFormat.detectDelimiter("a,b,c\n1,2,3\n"), ",")
    assert.strictEqual(TextFormat.detectDelimiter('Report\n\na;b;c\n"1,5";2;3\n"2,5";3;4\n'), ";")
    assert.strictEqual(TextFormat.detectDelimiter("a\tb\tc\n1,5\t2\t3\n"), "\t")
    assert.strictEqual(TextFormat.detectDelimiter("a|b\n1|2\n"), "|")
    assert.strictEqual(TextFormat.detectDelimiter('"x, y, z"\n"a, b"\n'), ",")
  })

  it.scoped(
    "UTF-8 BOM + CRLF + semicolons: a quoted semicolon stays in its cell, decimal commas kept as read",
    () =>
      Effect.gen(function* () {
        const dir = yield* dirOf("hostile", ["Journals-semicolon.csv"])
        const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
        assert.deepStrictEqual(
          [summary?.kind, summary?.lines, summary?.staged, summary?.skipped, summary?.rejected],
          ["xero.manual_journals", 4, 2, 2, 0]
        )
        const rows = yield* stagedRows("Journals-semicolon.csv")
        assert.deepStrictEqual(
          rows.map((r) => [
            r.line,
            r.data["Narration"],
            r.data["Date"],
            r.data["Description"],
            r.data["Amount"]
          ]),
          [
            [2, "Abgrenzung", "31.12.2024", "Miete; Dezember", "1.250,00"],
            [3, "Abgrenzung", "31.12.2024", "Rückstellung", "-1.250,00"]
          ]
        )
        assert.deepStrictEqual(yield* skippedLines("Journals-semicolon.csv"), [
          [1, "header"],
          [4, "blank"]
        ])
      }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("UTF-16LE with BOM, tab-delimited (Excel's Unicode Text)", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(
        yield* TextFormat.sniff(fixture("hostile", "Accounts-utf16.txt"), "Accounts-utf16.txt"),
        {
          encoding: "utf-16le",
          delimiter: "\t"
        }
      )
      const dir = yield* dirOf("hostile", ["Accounts-utf16.txt"])
      const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.deepStrictEqual([summary?.kind, summary?.lines, summary?.staged], ["xero.accounts", 3, 2])
      assert.deepStrictEqual(
        (yield* stagedRows("Accounts-utf16.txt")).map((r) => r.data),
        [
          {
            Code: "200",
            Name: "Ventes — Café",
            Type: "Revenue",
            "Tax Code": "TVA 20%",
            Description: "Ventes, café"
          },
          { Code: "400", Name: "Publicité", Type: "Expense", "Tax Code": "TVA 20%", Description: "" }
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  it.scoped("Windows-1252 without BOM is decoded (é, ü, €, curly apostrophe)", () =>
    Effect.gen(function* () {
      const dir = yield* dirOf("hostile", ["Contacts-1252.csv"])
      const [summary] = yield* Extract.run({ source: "xero", inputDir: dir })
      assert.strictEqual(summary?.kind, "xero.contacts")
      assert.deepStrictEqual(
        (yield* stagedRows("Contacts-1252.csv")).map((r) => [
          r.line,
          r.data["ContactName"],
          r.data["POCity"]
        ]),
        [
          [2, "Café Müller", "Zürich"],
          [3, "O’Brien € Sons", "Dublin"]
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )
})
