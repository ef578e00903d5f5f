/**
 * README honesty: the worked example between the `readme-example` markers and the rehearse-then-load flow
 * between the `readme-rehearse` markers are run as written (on a free port, in a temporary workspace), and
 * so are `npm start` and `npm run sample`. What the commands write
 * under the repository's `runs/` is removed afterwards, whether the test passed or not.
 */
import { assert, describe, it, onTestFinished } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { tempDir } from "../support/Harness.js"
import { bash, freePort, readmeBlock, root } from "../support/Shell.js"

const runs = NodePath.join(root, "runs")

/** Removes `runs/<name>` when the current test finishes (the commands write their runs there). */
const removeRunAtEnd = (name: string) =>
  onTestFinished(() => NodeFs.rmSync(NodePath.join(runs, name), { recursive: true, force: true }))

/** When the current test finishes, removes every run under `runs/` whose manifest names `workspace`. */
const removeRunsOfWorkspaceAtEnd = (workspace: string) =>
  onTestFinished(() => {
    for (const name of NodeFs.existsSync(runs) ? NodeFs.readdirSync(runs) : []) {
      const manifest = NodePath.join(runs, name, "manifest.json")
      let facts: { workspace?: unknown } = {}
      try {
        facts = JSON.parse(NodeFs.readFileSync(manifest, "utf8")) as { workspace?: unknown }
      } catch {
        continue // not a run's directory, or another process's run being written
      }
      if (facts.workspace === workspace)
        NodeFs.rmSync(NodePath.join(runs, name), { recursive: true, force: true })
    }
  })

/** A block whose `8787` and `runs/<name>` are swapped for a free port and a temporary workspace. */
const onPort = (lines: ReadonlyArray<string>, port: number, runsName: string, workspace: string) =>
  lines.map((line) => line.replaceAll("8787", String(port)).replaceAll(`runs/${runsName}`, workspace))

/**
 * A script that runs `lines` whose first starts a sandbox in the background: it waits for the sandbox's port,
 * runs the rest, and stops the sandbox on the way out.
 */
const withSandbox = (lines: ReadonlyArray<string>, port: number) =>
  [
    "set -em",
    lines[0]!,
    "sandbox=$!",
    "trap 'kill -- -$sandbox 2>/dev/null' EXIT",
    `for i in $(seq 200); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.1; done`,
    ...lines.slice(1)
  ].join("\n")

/** The README's example block, with the port and workspace swapped for safe ones. */
export const example = (port: number, workspace: string): Array<string> =>
  onPort(readmeBlock("example"), port, "acme", workspace)

describe("README", () => {
  it.live(
    "the worked example runs as written",
    () =>
      Effect.gen(function* () {
        const port = yield* Effect.promise(freePort)
        const workspace = NodePath.join(tempDir("readme"), "acme")
        removeRunsOfWorkspaceAtEnd(workspace)
        const lines = example(port, workspace)
        assert.match(lines[0]!, /sandbox .*&$/, "the example starts a sandbox in the background")
        const script = withSandbox(lines, port)
        const r = yield* Effect.promise(() => bash(script))
        assert.strictEqual(r.status, 0, r.out)
        assert.include(r.out, "Load complete")
        assert.include(r.out, "Reconciliation: MATCHES")
      }),
    180_000
  )

  it.live(
    "the rehearse-then-load flow runs as written: the rehearsal is clean and the load it checked reconciles",
    () =>
      Effect.gen(function* () {
        const port = yield* Effect.promise(freePort)
        const workspace = NodePath.join(tempDir("readme-rehearse"), "acme-rehearsed")
        removeRunsOfWorkspaceAtEnd(workspace)
        const lines = onPort(readmeBlock("rehearse"), port, "acme-rehearsed", workspace)
        assert.match(lines[0]!, /sandbox .*&$/, "the flow starts a sandbox in the background")
        const script = withSandbox(lines, port)
        const r = yield* Effect.promise(() => bash(script))
        assert.strictEqual(r.status, 0, r.out)
        assert.strictEqual(r.out.match(/^Rehearsal CLEAN: \d+ operations/gm)?.length, 2, r.out)
        assert.match(r.out, /Rehearsed in rehearse-/)
        assert.include(r.out, "Load complete")
        assert.include(r.out, "Reconciliation: MATCHES")
      }),
    240_000
  )

  it.live(
    "the QuickBooks example runs as written: the sample reconciles in the US organisation",
    () =>
      Effect.gen(function* () {
        const port = yield* Effect.promise(freePort)
        const workspace = NodePath.join(tempDir("readme-qbo"), "bluebonnet")
        removeRunsOfWorkspaceAtEnd(workspace)
        const lines = onPort(readmeBlock("qbo"), port, "bluebonnet", workspace)
        assert.match(lines[0]!, /sandbox .*--organisation .*us-organization\.json &$/)
        const r = yield* Effect.promise(() => bash(withSandbox(lines, port)))
        assert.strictEqual(r.status, 0, r.out)
        assert.match(r.out, /0 rejected source items/)
        assert.include(r.out, "Load complete")
        assert.include(r.out, "Reconciliation: MATCHES")
      }),
    180_000
  )

  it.live(
    "npm start migrates the bundled sample and reconciles it",
    () =>
      Effect.gen(function* () {
        const r = yield* Effect.promise(() => bash("npm start"))
        const run = /workspace (.*)[/\\]workspace$/m.exec(r.out)?.[1]
        if (run !== undefined) removeRunAtEnd(NodePath.basename(run))
        assert.strictEqual(r.status, 0, r.out)
        assert.include(r.out, "Reconciliation: MATCHES")
        assert.match(r.out, /Open .*runs\/demo-.*\/report\.html/)
        assert.match(r.out, /Preview: .*runs\/demo-.*\/workspace\/plan\.html \(the workbook: .*plan\.xlsx\)/)
        assert.match(r.out, /the plan's preview before the load: .*runs\/demo-.*\/workspace\/plan\.html/)
      }),
    180_000
  )

  it.live(
    "the quick conversion's command runs as written and reconciles",
    () =>
      Effect.gen(function* () {
        const block = readmeBlock("quick")
        const r = yield* Effect.promise(() => bash(block.join("\n")))
        const run = /workspace (.*)[/\\]workspace$/m.exec(r.out)?.[1]
        if (run !== undefined) removeRunAtEnd(NodePath.basename(run))
        assert.strictEqual(r.status, 0, r.out)
        assert.match(r.out, /Quick conversion as at 2025-12-31: \d+ open items/)
        assert.include(r.out, "Reconciliation: MATCHES")
      }),
    180_000
  )

  it.live(
    "the conversion from a start date runs as written and reconciles at both dates",
    () =>
      Effect.gen(function* () {
        const lines = readmeBlock("from")
        assert.isTrue(lines[0]!.includes("--out runs/sample-midyear"), lines[0])
        removeRunAtEnd("sample-midyear")
        const r = yield* Effect.promise(() => bash(["set -e", ...lines].join("\n")))
        const run = /workspace (.*)[/\\]workspace$/m.exec(r.out)?.[1]
        if (run !== undefined) removeRunAtEnd(NodePath.basename(run))
        assert.strictEqual(r.status, 0, r.out)
        assert.match(r.out, /Conversion from 2025-07-01: the opening position as at 2025-06-30/)
        assert.match(r.out, /trial balance at 2025-06-30: \d+ accounts, total difference 0\.00/)
        assert.match(r.out, /trial balance at 2025-12-31: \d+ accounts, total difference 0\.00/)
        assert.include(r.out, "Reconciliation: MATCHES")
      }),
    180_000
  )

  it.live(
    "npm run bench -- --quick sandbox prints the sandbox's figures",
    () =>
      Effect.gen(function* () {
        const r = yield* Effect.promise(() => bash("npm run bench -- --quick sandbox"))
        const figures = /Figures written to (.*\.json)$/m.exec(r.out)?.[1]
        if (figures !== undefined) removeRunAtEnd(NodePath.basename(figures))
        assert.strictEqual(r.status, 0, r.out)
        assert.match(r.out, /POST \/invoices \(ledger posting\)\s+[\d,]+/)
        assert.match(r.out, /Figures written to runs\/bench-.*\.json/)
      }),
    120_000
  )

  it.live(
    "the api tool's commands write their documents as written",
    () =>
      Effect.gen(function* () {
        const block = readmeBlock("api")
        const out = tempDir("readme-api")
        const lines = block
        assert.isTrue(lines.every((l) => l.includes("--out-dir runs/api")))
        const r = yield* Effect.promise(() =>
          bash(["set -e", ...lines.map((l) => l.replaceAll("runs/api", out))].join("\n"))
        )
        assert.strictEqual(r.status, 0, r.out)
        const products = NodeFs.readFileSync(NodePath.join(out, "products.yaml"), "utf8")
        assert.match(products, /^openapi: 3\.0\.0$/m)
        assert.match(products, /^ {2}\/products:$/m)
        const warehouses = NodeFs.readFileSync(NodePath.join(out, "warehouses.yaml"), "utf8")
        assert.match(warehouses, /^ {8}code:$/m)
        assert.match(warehouses, /^ {8}capacity:$/m)
      }),
    120_000
  )

  it.live(
    "npm run sample writes a company",
    () =>
      Effect.gen(function* () {
        const out = tempDir("sample")
        const r = yield* Effect.promise(() => bash(`npm run sample -- --out ${out} --invoices 12 --seed 3`))
        assert.strictEqual(r.status, 0, r.out)
        assert.includeMembers(NodeFs.readdirSync(out), [
          "SalesInvoices.csv",
          "Bills.csv",
          "AccountTransactions.csv"
        ])
      }),
    120_000
  )
})
