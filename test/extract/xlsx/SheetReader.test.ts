import { afterAll, assert, describe, it } from "@effect/vitest"
import ExcelJS from "exceljs"
import { readSheet, removeTemps, sharedStrings, sheet, styles, table, writeTemp, xlsx } from "./support.js"

afterAll(removeTemps)

/** Writes a workbook built with exceljs and returns its path. */
const written = async (build: (wb: ExcelJS.Workbook) => void): Promise<string> => {
  const wb = new ExcelJS.Workbook()
  build(wb)
  return writeTemp("Book.xlsx", Buffer.from(await wb.xlsx.writeBuffer()))
}

const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`
const number = (ref: string, v: string | number, s = 0) => `<c r="${ref}" s="${s}"><v>${v}</v></c>`

const UNCALCULATED = (ref: string, formula: string) =>
  `formula without a cached value in cell Book.xlsx#${ref} (=${formula}): the workbook was saved without ` +
  `calculating it; open it in Excel, let it recalculate, save, and extract again`

describe("SheetReader", () => {
  it("shared strings: plain, rich-text runs joined, phonetic runs left out, spaces kept, entities and escapes", async () => {
    const items = [
      "<t>plain</t>",
      `<r><t xml:space="preserve">Sales, </t></r><r><rPr><b/><sz val="11"/></rPr><t>services</t></r>`,
      `<t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/>`,
      `<t xml:space="preserve">  two  spaces </t>`,
      "<t>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#65;&#x42; &#x1F600; &amp;lt;</t>",
      "<t>tab_x0009_here _x005F_x0041_</t>",
      "<t/>",
      "<t>line 1\nline 2</t>"
    ]
    const path = await writeTemp(
      "Book.xlsx",
      xlsx({
        sheets: [
          [
            "Sheet1",
            sheet(
              `<row r="1">${items.map((_, i) => `<c r="${String.fromCharCode(65 + i)}1" t="s"><v>${i}</v></c>`).join("")}</row>`
            )
          ]
        ],
        sharedStrings: sharedStrings(items)
      })
    )
    const { rows, counted } = await readSheet(path)
    assert.deepStrictEqual(table(rows), [
      [
        1,
        [
          "plain",
          "Sales, services",
          "東京",
          "  two  spaces ",
          `a & b <c> "d" 'e' AB 😀 &lt;`,
          "tab\there _x0041_",
          "",
          "line 1\nline 2"
        ]
      ]
    ])
    assert.strictEqual(counted, 1)
  })

  it("a shared-string index past the table is a problem naming the cell", async () => {
    const path = await writeTemp(
      "Book.xlsx",
      xlsx({
        sheets: [
          ["Sheet1", sheet(`<row r="3"><c r="A3" t="s"><v>0</v></c><c r="B3" t="s"><v>7</v></c></row>`)]
        ],
        sharedStrings: sharedStrings(["<t>only</t>"])
      })
    )
    assert.deepStrictEqual(table((await readSheet(path)).rows), [
      [
        3,
        ["only", ""],
        "cell Book.xlsx#Sheet1!B3 points at shared string 7 but the workbook has 1: the workbook is damaged; " +
          "save it again from Excel and extract again"
      ]
    ])
  })

  it("inline strings (rich text joined, CDATA kept), formula strings and entities in them", async () => {
    const path = await writeTemp(
      "Book.xlsx",
      xlsx({
        sheets: [
          [
            "Sheet1",
            sheet(
              `<row r="1">${inline("A1", "inline &amp; co &#x41;")}` +
                `<c r="B1" t="inlineStr"><is><r><t>ri</t></r><r><rPr><i/></rPr><t>ch</t></r></is></c>` +
                `<c r="C1" t="str"><f>A1&amp;"!"</f><v>inline &amp; co A!</v></c>` +
                `<c r="D1" t="inlineStr"><is><t><![CDATA[<raw & cdata>]]></t></is></c>` +
                `<c r="E1" t="inlineStr"><is><t/></is></c></row>`
            )
          ]
        ]
      })
    )
    assert.deepStrictEqual(table((await readSheet(path)).rows), [
      [1, ["inline & co A", "rich", "inline & co A!", "<raw & cdata>", ""]]
    ])
  })

  it("numbers as String(n); dates under built-in and custom date formats, not under other formats", async () => {
    const formats: ReadonlyArray<readonly [number, string]> = [
      [164, "dd mmm yyyy"],
      [165, "h:mm AM/PM"],
      [166, `&quot;days: &quot;0`],
      [167, "[Red]#,##0;[Blue]-#,##0"],
      [168, "[$-409]d-mmm-yy;@"],
      [169, "0.00\\ \\m"]
    ]
    //               s: 0  1   2   3  4    5    6    7    8    9   10  11  12   13
    const cellXfs = [0, 14, 22, 2, 164, 165, 166, 167, 168, 169, 30, 47, 49, 0]
    const cells = [
      number("A1", "12586.840"),
      number("B1", "1E-3"),
      number("C1", "007"),
      number("D1", "-45.5", 3),
      number("E1", 45731, 1),
      number("F1", 45731.5729166667, 2),
      number("G1", 45731, 3),
      number("H1", 45731, 4),
      number("I1", 0.75, 5),
      number("J1", 45731, 6),
      number("K1", 45731, 7),
      number("L1", 45731, 8),
      number("M1", 45731, 9),
      number("N1", 45731, 10),
      number("O1", 0.5, 11),
      number("P1", 45731, 12),
      `<c r="Q1" t="n"><v>45731</v></c>`,
      `<c r="R1" t="d"><v>2025-03-15T10:20:30Z</v></c>`,
      `<c r="S1" t="d"><v>2025-03-15</v></c>`
    ]
    const path = await writeTemp(
      "Book.xlsx",
      xlsx({
        sheets: [["Sheet1", sheet(`<row r="1">${cells.join("")}</row>`)]],
        styles: styles(formats, cellXfs)
      })
    )
    assert.deepStrictEqual(table((await readSheet(path)).rows), [
      [
        1,
        [
          "12586.84",
          "0.001",
          "7",
          "-45.5",
          "2025-03-15",
          "2025-03-15T13:45:00",
          "45731",
          "2025-03-15",
          "1899-12-30T18:00:00",
          "45731",
          "45731",
          "2025-03-15",
          "45731",
          "2025-03-15",
          "1899-12-30T12:00:00",
          "45731",
          "45731",
          "2025-03-15T10:20:30",
          "2025-03-15"
        ]
      ]
    ])
  })

  it("any number's text is String(parseFloat(v)), whatever its shape (the canonical fast path included)", async () => {
    let seed = 20_251_122
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648), seed % n)
    const digits = (n: number) => Array.from({ length: n }, () => random(10)).join("")
    const shapes = [
      () => digits(1 + random(18)),
      () => `${random(2) === 0 ? "-" : ""}${digits(1 + random(17))}.${digits(1 + random(8))}`,
      () => `0.${"0".repeat(random(9))}${digits(1 + random(12))}`,
      () => `-0.${"0".repeat(random(9))}${digits(1 + random(12))}`,
      () => `${digits(1 + random(4))}${"0".repeat(random(20))}`,
      () => `${digits(1 + random(3))}.${digits(random(3))}E${random(2) === 0 ? "-" : ""}${random(30)}`,
      () =>
        ["0", "-0", "0.0", "-0.0", "00", "01.5", "1.", ".5", "-", "", " 12 ", "+3", "1e21", "NaN"][
          random(14)
        ]!
    ]
    const values = Array.from({ length: 5_000 }, () => shapes[random(shapes.length)]!())
    const path = await writeTemp(
      "Book.xlsx",
      xlsx({
        sheets: [
          ["Sheet1", sheet(values.map((v, i) => `<row r="${i + 1}">${number("A1", v)}</row>`).join(""))]
        ]
      })
    )
    const read = (await readSheet(path)).rows.map((r) => r.cells[0])
    const expected = values.map((v) => (Number.isFinite(parseFloat(v)) ? String(parseFloat(v)) : ""))
    assert.deepStrictEqual(read, expected)
  })

  it("dates in the 1904 date system (workbookPr date1904), hand-written and written by exceljs", async () => {
    const path = await writeTemp(
      "Book.xlsx",
      xlsx({
        sheets: [["Sheet1", sheet(`<row r="1">${number("A1", 44269, 1)}${number("B1", 44269)}</row>`)]],
        styles: styles([], [0, 14]),
        workbookPr: `<workbookPr date1904="1" defaultThemeVersion="164011"/>`
      })
    )
    assert.deepStrictEqual(table((await readSheet(path)).rows), [[1, ["2025-03-15", "44269"]]])
    const byExceljs = await written((wb) => {
      wb.properties.date1904 = true
      wb.addWorksheet("Dates").addRow([
        new Date(Date.UTC(2025, 2, 15)),
        new Date(Date.UTC(2025, 2, 15, 13, 45, 30))
      ])
    })
    assert.deepStrictEqual(table((await readSheet(byExceljs)).rows), [
      [1, ["2025-03-15", "2025-03-15T13:45:30"]]
    ])
  })

  it("written by exceljs: strings, rich text, booleans, errors, dates, hyperlinks, formulas with and without cached values", async () => {
    const path = await written((wb) => {
      const ws = wb.addWorksheet("Mixed")
      ws.getRow(1).values = [
        `a & <b> "c"`,
        { richText: [{ text: "Sales, " }, { text: "services", font: { bold: true } }] },
        true,
        false,
        { error: "#DIV/0!" },
        { text: "the link", hyperlink: "https://example.com/?a=1&b=2" }
      ]
      ws.getRow(2).values = [
        new Date(Date.UTC(2025, 2, 15)),
        new Date(Date.UTC(2025, 2, 15, 13, 45, 30)),
        45.5,
        { formula: "C2*2", result: 91 },
        { formula: `A1&"x"`, result: `a & <b> "c"x` },
        { formula: "SUM(C2:D2)" },
        { formula: "100" },
        { formula: "1/0", result: { error: "#DIV/0!" } }
      ]
      ws.getCell("B2").numFmt = "dd/mm/yyyy hh:mm:ss"
      ws.getRow(4).values = [null, "after a gap"]
      ws.getCell("D4").numFmt = "0.00"
    })
    const { rows, counted } = await readSheet(path)
    assert.deepStrictEqual(table(rows), [
      [1, [`a & <b> "c"`, "Sales, services", "TRUE", "FALSE", "#DIV/0!", "the link"]],
      [
        2,
        ["2025-03-15", "2025-03-15T13:45:30", "45.5", "91", `a & <b> "c"x`, "=SUM(C2:D2)", "100", "#DIV/0!"],
        UNCALCULATED("Mixed!F2", "SUM(C2:D2)")
      ],
      [4, ["", "after a gap"]]
    ])
    assert.strictEqual(counted, 3)
  })

  it("formulas: cached numbers, strings, booleans and errors; literal and uncalculated formulas", async () => {
    const path = await writeTemp(
      "Book.xlsx",
      xlsx({
        sheets: [
          [
            "Sheet1",
            sheet(
              `<row r="1"><c r="A1"><f>1+1</f><v>2</v></c><c r="B1" t="str"><f>"a"</f><v>a</v></c>` +
                `<c r="C1" t="b"><f>TRUE()</f><v>1</v></c><c r="D1" t="e"><f>NA()</f><v>#N/A</v></c>` +
                `<c r="E1"><f t="shared" ref="E1:E2" si="0">A1*2</f><v>4</v></c></row>` +
                `<row r="2"><c r="A2"><f>=-1,250.50</f></c><c r="B2"><f>A1&amp;"&lt;"</f></c>` +
                `<c r="C2"><f>A1/0</f></c><c r="E2"><f t="shared" si="0"/><v>8</v></c></row>`
            )
          ]
        ]
      })
    )
    assert.deepStrictEqual(table((await readSheet(path)).rows), [
      [1, ["2", "a", "TRUE", "#N/A", "4"]],
      [2, ["-1,250.50", `=A1&"<"`, "=A1/0", "", "8"], UNCALCULATED("Sheet1!B2", `A1&"<"`)]
    ])
  })

  it("row gaps, missing and empty cells, cells and rows without r", async () => {
    const path = await writeTemp(
      "Book.xlsx",
      xlsx({
        sheets: [
          [
            "Sheet1",
            sheet(
              `<row r="1" spans="1:3">${inline("A1", "a")}${number("C1", 3)}</row>` +
                `<row r="4" spans="1:3" ht="20" customHeight="1"/>` +
                `<row><c t="inlineStr"><is><t>x</t></is></c><c><v>2</v></c>${number("E5", 5)}<c><v>6</v></c></row>` +
                `<row r="7"><c r="A7" s="1"/><c r="B7" t="inlineStr"><is><t>b</t></is></c><c r="C7" s="1"/></row>` +
                `<row><c r="B8"><v>1</v></c><c r="D8" s="1"></c></row>`
            )
          ]
        ]
      })
    )
    const { rows, counted } = await readSheet(path)
    assert.deepStrictEqual(table(rows), [
      [1, ["a", "", "3"]],
      [4, []],
      [5, ["x", "2", "", "", "5", "6"]],
      [7, ["", "b"]],
      [8, ["", "1"]]
    ])
    assert.strictEqual(counted, 5)
  })

  it("a namespace-prefixed sheet and shared-string table", async () => {
    const main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    const path = await writeTemp(
      "Book.xlsx",
      xlsx({
        sheets: [
          [
            "Sheet1",
            `<?xml version="1.0" encoding="UTF-8"?>\n<x:worksheet xmlns:x="${main}"><x:sheetData>` +
              `<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1"><x:v>2.50</x:v></x:c></x:row>` +
              `<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:r><x:t>in</x:t></x:r><x:r><x:t>line</x:t></x:r></x:is></x:c></x:row>` +
              `</x:sheetData></x:worksheet>`
          ]
        ],
        sharedStrings: `<x:sst xmlns:x="${main}"><x:si><x:r><x:t>pre</x:t></x:r><x:r><x:t>fixed</x:t></x:r></x:si></x:sst>`
      })
    )
    const { rows, counted } = await readSheet(path)
    assert.deepStrictEqual(table(rows), [
      [1, ["prefixed", "2.5"]],
      [2, ["inline"]]
    ])
    assert.strictEqual(counted, 2)
  })

  it("streams a long sheet whose rows straddle chunk boundaries, deflated or stored", async () => {
    const count = 20_000
    const xml = sheet(
      Array.from(
        { length: count },
        (_, i) =>
          `<row r="${i + 1}">\n  ${inline(`A${i + 1}`, `name ${i + 1} &amp; ${"x".repeat(i % 50)}`)}` +
          `<c r="B${i + 1}"><v>${(i + 1) * 1.5}</v></c>${i % 997 === 0 ? "<!-- a comment, <c>not a cell</c> -->" : ""}</row>\n`
      ).join("")
    )
    for (const stored of [false, true]) {
      const { rows, counted } = await readSheet(
        await writeTemp("Book.xlsx", xlsx({ sheets: [["Long", xml]], stored }))
      )
      assert.strictEqual(rows.length, count)
      assert.strictEqual(counted, count)
      rows.forEach((r, i) =>
        assert.deepStrictEqual(
          [r.number, r.cells],
          [i + 1, [`name ${i + 1} & ${"x".repeat(i % 50)}`, String((i + 1) * 1.5)]]
        )
      )
    }
  })

  it("a sheet whose XML breaks off inside a row fails", async () => {
    const xml = sheet(`<row r="1">${number("A1", 1)}</row>`).replace(/<\/row>.*$/s, "")
    const path = await writeTemp("Book.xlsx", xlsx({ sheets: [["Sheet1", xml]] }))
    let failure: unknown
    await readSheet(path).catch((e: unknown) => (failure = e))
    assert.match(String(failure), /the XML ends inside an element or is not well formed/)
  })
})
