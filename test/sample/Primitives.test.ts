import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { parse } from "csv-parse/sync"
import * as CalendarDate from "../../src/sample/CalendarDate.js"
import * as CsvFile from "../../src/sample/CsvFile.js"
import * as Money from "../../src/sample/Money.js"
import { Prng } from "../../src/sample/Prng.js"

describe("Money", () => {
  it("rounds half away from zero to two decimals", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["0.005", "0.01"],
      ["-0.005", "-0.01"],
      ["1.0049", "1.00"],
      ["2.675", "2.68"],
      ["0.945", "0.95"],
      ["12", "12.00"],
      ["-3.1", "-3.10"]
    ]
    for (const [input, expected] of cases)
      assert.strictEqual(Money.format2(Money.parse(input)), expected, input)
  })

  it("writes quantities as integers or with two decimals, rates with four", () => {
    assert.strictEqual(Money.formatQuantity(Money.units(3, 0)), "3")
    assert.strictEqual(Money.formatQuantity(Money.cents(275)), "2.75")
    assert.strictEqual(Money.formatQuantity(Money.cents(50)), "0.50")
    assert.strictEqual(Money.formatFixed(Money.units(14580, 4), 4), "1.4580")
  })
})

describe("CsvFile", () => {
  it("quotes only cells that need it and round-trips through csv-parse", () => {
    const cells = [
      "plain",
      "Lim, Tan and Associates LLP",
      '27" 4K monitor',
      "Café Nüsantara",
      "two\nlines",
      ""
    ]
    assert.strictEqual(
      CsvFile.line(cells),
      'plain,"Lim, Tan and Associates LLP","27"" 4K monitor",Café Nüsantara,"two\nlines",'
    )
    const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "csv-"))
    try {
      const file = new CsvFile.CsvFile(NodePath.join(dir, "t.csv"))
      for (let i = 0; i < 5000; i++) file.row(cells)
      assert.strictEqual(file.close(), 5000)
      const back = parse(NodeFs.readFileSync(NodePath.join(dir, "t.csv"), "utf8")) as Array<Array<string>>
      assert.strictEqual(back.length, 5000)
      assert.deepStrictEqual(back[4999], cells)
    } finally {
      NodeFs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("Prng", () => {
  it("repeats a stream for the same seed and separates streams and seeds", () => {
    const draw = (seed: number, stream: string) => {
      const rng = Prng.make(seed, stream)
      return Array.from({ length: 8 }, () => rng.nextUint32())
    }
    assert.deepStrictEqual(draw(42, "invoices"), draw(42, "invoices"))
    assert.notDeepEqual(draw(42, "invoices"), draw(42, "bills"))
    assert.notDeepEqual(draw(42, "invoices"), draw(43, "invoices"))
  })

  it("keeps integers within bounds and picks distinct sorted values", () => {
    const rng = Prng.make(1, "bounds")
    for (let i = 0; i < 10_000; i++) {
      const n = rng.int(-3, 5)
      assert.isTrue(n >= -3 && n <= 5 && Number.isInteger(n))
    }
    const picked = rng.distinct(5, 10, 14)
    assert.deepStrictEqual(picked, [10, 11, 12, 13, 14])
  })
})

describe("CalendarDate", () => {
  it("formats and parses DD/MM/YYYY across month and year ends", () => {
    const day = CalendarDate.make(2025, 12, 20)
    assert.strictEqual(CalendarDate.format(day + 30), "19/01/2026")
    assert.strictEqual(CalendarDate.parse("28/02/2025") + 1, CalendarDate.make(2025, 3, 1))
    assert.strictEqual(CalendarDate.endOfMonth(2025, 2), CalendarDate.make(2025, 2, 28))
  })
})
