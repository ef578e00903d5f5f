/**
 * The accountant's review, through the command line, of the bundled sample against an organisation whose chart
 * differs from it (renamed-chart.json): review writes review.xlsx with its drop-downs; a plan with the unedited
 * workbook is the plan without one; a bad decision is refused naming its cell; an edited decision changes only
 * the operations it affects; load refuses the unconfirmed low-confidence suggestions, and loads with
 * --accept-suggestions, printing what it accepted.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import ExcelJS from "exceljs"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as PlanStore from "../../src/staging/PlanStore.js"
import { apiKey, layers, runCli, sampleDir, sandbox, searchAll, tempDir } from "../support/Harness.js"
import { migration } from "../support/Migration.js"

const cli = (args: ReadonlyArray<string>) => Effect.promise(() => runCli(args, { JK_API_KEY: apiKey }))
const fixture = NodePath.resolve(import.meta.dirname, "../fixtures/organisations/renamed-chart.json")
const hashOf = (out: string) => /Plan hash: (\w+)/.exec(out)?.[1]

const readBook = (path: string) =>
  Effect.promise(async () => {
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.readFile(path)
    return wb
  })

/** The row of the source record named `name` (column B) on `sheet`. */
const rowOf = (wb: ExcelJS.Workbook, sheet: string, name: string): number => {
  let found = 0
  wb.getWorksheet(sheet)!.eachRow((row, r) => {
    if (r > 1 && row.getCell(2).text === name) found = r
  })
  assert.isAbove(found, 1, `${sheet} has a row for ${name}`)
  return found
}

/** A copy of the workbook at `from` with decisions typed in column F, written to `to`. */
const edited = (from: string, to: string, decisions: ReadonlyArray<readonly [string, string, string]>) =>
  Effect.gen(function* () {
    const wb = yield* readBook(from)
    for (const [sheet, name, decision] of decisions)
      wb.getWorksheet(sheet)!.getCell(`F${rowOf(wb, sheet, name)}`).value = decision
    yield* Effect.promise(() => wb.xlsx.writeFile(to))
  })

describe("review of the matching against a renamed chart", () => {
  it.scopedLive(
    "writes the workbook, applies its decisions, refuses bad ones by cell and gates the load",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("review")
        const s = yield* sandbox({ fixture })
        const { workspace, common, extract } = migration(dir, s.url)
        const target = ["--workspace", workspace, "--base-url", s.url]
        const ex = yield* cli(extract(sampleDir))
        assert.strictEqual(ex.status, 0, ex.stderr)

        // Without a workbook the plan already applies the suggestions.
        const bare = yield* cli(["plan", ...common])
        assert.strictEqual(bare.status, 0, bare.stdout + bare.stderr)
        assert.match(
          bare.stdout,
          /Review: 0 decisions \(0 other than suggested\) from no review\.xlsx; 12 suggestions below confidence 0\.90/
        )
        const h0 = hashOf(bare.stdout)!
        const ops0 = yield* PlanStore.ops.pipe(Effect.provide(layers(s, workspace)))

        const review = yield* cli(["review", ...target])
        assert.strictEqual(review.status, 0, review.stdout + review.stderr)
        assert.match(review.stdout, /Accounts\s+44\s+34\s+4\s+6/)
        assert.match(review.stdout, /Tax codes\s+7\s+1\s+0\s+6/)
        const path = NodePath.join(workspace, "review.xlsx")
        const original = NodePath.join(dir, "review-original.xlsx")
        NodeFs.copyFileSync(path, original)

        // The workbook: sheets, frozen and filtered headers, drop-downs on a hidden lists sheet, highlights.
        const wb = yield* readBook(path)
        assert.deepStrictEqual(
          wb.worksheets.map((w) => w.name),
          ["Summary", "Lists", "Accounts", "Tax codes", "Contacts", "Items", "Currencies & rates"]
        )
        assert.strictEqual(wb.getWorksheet("Lists")!.state, "hidden")
        const accounts = wb.getWorksheet("Accounts")!
        assert.deepInclude(accounts.views[0]!, { state: "frozen", ySplit: 1 })
        assert.isDefined(accounts.autoFilter)
        assert.deepStrictEqual(accounts.getRow(1).values, [
          undefined,
          "Source code",
          "Source name",
          "Source type / detail",
          "Where",
          "Use",
          "Decision",
          "Suggested",
          "Confidence",
          "Reason",
          "Key (do not edit)"
        ])
        const lists = wb.getWorksheet("Lists")!
        const listA = lists
          .getColumn(1)
          .values.filter((v) => v !== undefined && v !== null)
          .map(String)
        assert.strictEqual(listA.length, 21, "create new and the target's 20 accounts")
        assert.strictEqual(listA[0], "create new")
        assert.include(listA, "General & Administrative")
        assert.isAbove(
          listA.join(",").length,
          255,
          "too long for an inline list: the drop-down references the range"
        )
        const sales = accounts.getRow(rowOf(wb, "Accounts", "Sales"))
        assert.deepStrictEqual(
          [
            sales.getCell(1).text,
            sales.getCell(4).text,
            sales.getCell(6).text,
            sales.getCell(7).text,
            sales.getCell(8).value,
            sales.getCell(9).text
          ],
          ["200", "ChartOfAccounts.csv:5", "", "Sales Revenue", 0.88, "name 0.88"]
        )
        assert.strictEqual(
          (sales.getCell(1).fill as ExcelJS.FillPattern).fgColor?.argb,
          "FFFFF1CC",
          "low confidence"
        )
        assert.deepInclude(sales.getCell(6).dataValidation, { type: "list", formulae: ["Lists!$A$1:$A$21"] })
        const ar = accounts.getRow(rowOf(wb, "Accounts", "Accounts Receivable"))
        assert.deepStrictEqual(
          [ar.getCell(6).text, ar.getCell(8).value, ar.getCell(9).text],
          ["Trade Debtors", 1, "role: AR"]
        )
        const tax = wb.getWorksheet("Tax codes")!
        const zr = tax.getRow(rowOf(wb, "Tax codes", "Zero-Rated Supplies"))
        assert.deepStrictEqual(
          [zr.getCell(6).text, zr.getCell(7).text, zr.getCell(8).value],
          ["", "Zero-rated Sales", 0.6]
        )
        assert.deepInclude(zr.getCell(6).dataValidation, { type: "list", formulae: ["Lists!$B$1:$B$6"] })
        const contact = wb
          .getWorksheet("Contacts")!
          .getRow(rowOf(wb, "Contacts", "Marina Bay Interiors Pte. Ltd."))
        assert.deepStrictEqual(
          [contact.getCell(6).text, contact.getCell(8).value],
          ["MARINA BAY INTERIORS PTE LTD", 0.95]
        )
        const summary: Array<string> = []
        wb.getWorksheet("Summary")!.eachRow((r) =>
          summary.push(r.values ? (r.values as Array<unknown>).slice(1).join("|") : "")
        )
        assert.include(summary, "Accounts|44|34|4|6")

        // An unedited workbook: the same plan as none.
        const same = yield* cli(["plan", ...common])
        assert.strictEqual(hashOf(same.stdout), h0, same.stdout + same.stderr)

        // Load refuses the unconfirmed suggestions, naming their cells.
        const refused = yield* cli(["load", ...common])
        assert.notStrictEqual(refused.status, 0)
        assert.include(refused.stderr, "load refused: 12 suggestions below confidence 0.90 are not confirmed")
        const salesCell = `Accounts!F${rowOf(wb, "Accounts", "Sales")}`
        assert.include(
          refused.stderr,
          `${salesCell}: 200 Sales (ChartOfAccounts.csv:5) → "Sales Revenue" (confidence 0.88: name 0.88)`
        )

        // Bad decisions are refused with their cells; the stored plan stays.
        yield* edited(original, path, [
          ["Accounts", "Rent", "Rental Income"],
          ["Accounts", "Bank Fees", "Bank Fees & Charges"],
          ["Tax codes", "No GST", "GST 7%"]
        ])
        const bad = yield* cli(["plan", ...common])
        assert.notStrictEqual(bad.status, 0)
        assert.include(
          bad.stderr,
          `Accounts!F${rowOf(wb, "Accounts", "Rent")}: "Rental Income" for account "Rent": a Operating Expense account cannot become "Rental Income", a Other Revenue account (incompatible class)`
        )
        assert.include(
          bad.stderr,
          `Accounts!F${rowOf(wb, "Accounts", "Bank Fees")}: "Bank Fees & Charges" for account "Bank Fees": the target has no such account`
        )
        assert.include(
          bad.stderr,
          `Tax codes!F${rowOf(wb, "Tax codes", "No GST")}: "GST 7%" for tax code "No GST": the target has no such tax profile`
        )
        assert.strictEqual((yield* PlanStore.meta.pipe(Effect.provide(layers(s, workspace))))?.planHash, h0)

        // An edited decision changes only the operations it affects.
        yield* edited(original, path, [["Accounts", "Office Expenses", "General & Administrative"]])
        const edit = yield* cli(["plan", ...common])
        assert.strictEqual(edit.status, 0, edit.stdout + edit.stderr)
        assert.match(
          edit.stdout,
          /Review: 95 decisions \(1 other than suggested\) from .*review\.xlsx; 11 suggestions below confidence 0\.90/
        )
        assert.notStrictEqual(hashOf(edit.stdout), h0)
        const ops1 = yield* PlanStore.ops.pipe(Effect.provide(layers(s, workspace)))
        const text = (o: { body: unknown; dependsOn: ReadonlyArray<string> }) =>
          JSON.stringify([o.body, o.dependsOn])
        const before = new Map(ops0.map((o) => [o.key, o]))
        const after = new Map(ops1.map((o) => [o.key, o]))
        assert.deepStrictEqual(
          [...before.keys()].filter((k) => !after.has(k)),
          ["account:Office Expenses"]
        )
        assert.deepStrictEqual(
          [...after.keys()].filter((k) => !before.has(k)),
          []
        )
        const changed = ops1.filter((o) => text(o) !== text(before.get(o.key)!))
        const touching = ops0.filter(
          (o) =>
            text(o).includes("@account:Office Expenses") || o.dependsOn.includes("account:Office Expenses")
        )
        assert.isAbove(changed.length, 5)
        assert.deepStrictEqual(
          changed.map((o) => o.key),
          touching.map((o) => o.key)
        )
        for (const o of changed) {
          assert.notInclude(text(o), "Office Expenses", o.key)
          assert.include(text(o), "@account:General & Administrative", o.key)
        }

        // Load still refuses the other 8; with --accept-suggestions it loads and says what it accepted.
        const still = yield* cli(["load", ...common])
        assert.include(still.stderr, "load refused: 11 suggestions")
        assert.notInclude(still.stderr, `Accounts!F${rowOf(wb, "Accounts", "Office Expenses")}`)
        const load = yield* cli(["load", "--accept-suggestions", ...common])
        assert.strictEqual(load.status, 0, load.stdout + load.stderr)
        assert.include(load.stdout, "--accept-suggestions: accepted 11 unconfirmed suggestions:")
        assert.include(load.stdout, `${salesCell}: 200 Sales (ChartOfAccounts.csv:5) → "Sales Revenue"`)
        assert.match(load.stdout, /Load complete/)
        const names = (yield* Effect.promise(() => searchAll(s, "chart-of-accounts", "name"))).map(
          (a) => a.name as string
        )
        assert.notInclude(names, "Office Expenses")
        assert.notInclude(names, "Sales")
        assert.include(names, "General & Administrative")

        // A workbook changed after the plan: load asks for the plan again.
        yield* edited(original, path, [["Accounts", "Sales", "Sales Revenue"]])
        const stale = yield* cli(["load", "--accept-suggestions", ...common])
        assert.notStrictEqual(stale.status, 0)
        assert.match(stale.stderr, /review\.xlsx changed after the plan was made: run plan again/)
      }),
    480_000
  )
})
