/**
 * `extract` on an input with nothing to extract — a folder that is empty, holds no export files, does not
 * exist, or holds only files no layout recognises — stops with exit code 2 and a message naming the folder,
 * what it looked for and what to do, and writes nothing to the workspace's staging.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeCrypto from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { runCli, tempDir } from "../support/Harness.js"

const fixture = (name: string) => NodePath.resolve(import.meta.dirname, "../fixtures/extract/xero", name)

/** A new input folder holding `files` (name → content). */
const folderWith = (files: Readonly<Record<string, string>>) => {
  const dir = tempDir("input")
  for (const [name, content] of Object.entries(files)) NodeFs.writeFileSync(NodePath.join(dir, name), content)
  return dir
}

/** Runs `extract --source xero` on `input` into `workspace`, its runs under the workspace's parent. */
const extract = (input: string, workspace: string) =>
  Effect.promise(() =>
    runCli([
      "extract",
      "--source",
      "xero",
      "--input",
      input,
      "--workspace",
      workspace,
      "--runs-dir",
      NodePath.join(NodePath.dirname(workspace), "runs")
    ])
  )

/** Every file of the workspace with the sha256 of its bytes (none when it does not exist). */
const contents = (workspace: string): Record<string, string> =>
  Object.fromEntries(
    (NodeFs.existsSync(workspace) ? NodeFs.readdirSync(workspace) : []).map((name) => [
      name,
      NodeCrypto.createHash("sha256")
        .update(NodeFs.readFileSync(NodePath.join(workspace, name)))
        .digest("hex")
    ])
  )

/** The layouts of source xero, as the messages list them. */
const LAYOUTS = [
  "xero.accounts — a header row with Code, Name, Type",
  "xero.contacts",
  "xero.items",
  "xero.manual_journals",
  "xero.invoices/xero.bills",
  "xero.account_transactions",
  "generic.exchange_rates"
]

describe("extract on an input with nothing to extract", () => {
  it.live(
    "an empty folder: exit 2 naming the folder, the file kinds looked for and what to do; no staging",
    () =>
      Effect.gen(function* () {
        const input = folderWith({})
        const workspace = NodePath.join(tempDir("ws"), "acme")
        const r = yield* extract(input, workspace)
        assert.strictEqual(r.status, 2, r.stdout + r.stderr)
        assert.include(r.stderr, `error: ${input}: no export files found. The folder holds no files.`)
        assert.include(r.stderr, "Extract looks for .csv, .tsv, .txt, .xlsx, .xlsm files")
        for (const layout of LAYOUTS) assert.include(r.stderr, layout)
        assert.include(r.stderr, "Fix: export the books from Xero into this folder")
        assert.notInclude(r.stdout, "Extracted")
        assert.deepStrictEqual(contents(workspace), {}, "nothing is written to the workspace")
      }),
    60_000
  )

  it.live(
    "a folder of notes only: the message names the files it left alone",
    () =>
      Effect.gen(function* () {
        const input = folderWith({ "README.md": "# exports", "notes.pdf": "%PDF-1.4", "todo.docx": "PK" })
        const workspace = NodePath.join(tempDir("ws"), "acme")
        const r = yield* extract(input, workspace)
        assert.strictEqual(r.status, 2, r.stdout + r.stderr)
        assert.include(
          r.stderr,
          `error: ${input}: no export files found. The folder holds only files that are not exports (notes.pdf, todo.docx).`
        )
        assert.deepStrictEqual(contents(workspace), {})
      }),
    60_000
  )

  it.live(
    "a folder that does not exist: exit 2 naming it and what to do",
    () =>
      Effect.gen(function* () {
        const input = NodePath.join(tempDir("gone"), "exports")
        const workspace = NodePath.join(tempDir("ws"), "acme")
        const r = yield* extract(input, workspace)
        assert.strictEqual(r.status, 2, r.stdout + r.stderr)
        assert.include(
          r.stderr,
          `error: ${input}: the input folder does not exist. No file or folder has that path. Fix: pass the folder that holds the export files`
        )
        assert.deepStrictEqual(contents(workspace), {})
      }),
    60_000
  )

  it.live(
    "a folder whose files are all unrecognised: exit 2 naming a file and the layouts; no staging",
    () =>
      Effect.gen(function* () {
        const input = folderWith({
          "payroll.csv": "Employee,Hours,Rate\nAnn,38,45.00\n",
          "timesheets.csv": "Week,Person,Hours\n1,Ann,38\n"
        })
        const workspace = NodePath.join(tempDir("ws"), "acme")
        const r = yield* extract(input, workspace)
        assert.strictEqual(r.status, 2, r.stdout + r.stderr)
        assert.include(r.stderr, "error: payroll.csv: unrecognised file.")
        for (const layout of LAYOUTS) assert.include(r.stderr, layout)
        assert.deepStrictEqual(contents(workspace), {})
      }),
    60_000
  )

  it.live(
    "an empty folder leaves an existing workspace's staging byte for byte as it was",
    () =>
      Effect.gen(function* () {
        const workspace = NodePath.join(tempDir("ws"), "acme")
        const good = folderWith({
          "ExchangeRates.csv": NodeFs.readFileSync(fixture("ExchangeRates.csv"), "utf8")
        })
        const first = yield* extract(good, workspace)
        assert.strictEqual(first.status, 0, first.stdout + first.stderr)
        const before = contents(workspace)
        assert.property(before, "staging.db")
        const r = yield* extract(folderWith({}), workspace)
        assert.strictEqual(r.status, 2, r.stdout + r.stderr)
        assert.include(r.stderr, "no export files found")
        assert.deepStrictEqual(contents(workspace), before)
      }),
    60_000
  )
})
