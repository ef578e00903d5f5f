/**
 * The command line as a user meets it: help on every command, one-line errors with exit code 2 (never a
 * stack trace), refusal of a plain-http non-loopback target, and the API key never written anywhere.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { runCli, sampleDir, sandbox, tempDir } from "../support/Harness.js"

const cli = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.promise(() => runCli(args, env))

const filesUnder = (dir: string): Array<string> =>
  NodeFs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(NodePath.join(dir, e.name)) : [NodePath.join(dir, e.name)]
  )

describe("cli", () => {
  it.live(
    "every command has --help",
    () =>
      Effect.gen(function* () {
        for (const command of [
          "demo",
          "sandbox",
          "extract",
          "plan",
          "rehearse",
          "load",
          "reconcile",
          "status",
          "rollback"
        ]) {
          const r = yield* cli([command, "--help"])
          assert.strictEqual(r.status, 0, `${command} --help: ${r.stderr}`)
          assert.include(r.stdout, command)
        }
      }),
    60_000
  )

  it.live(
    "refuses a plain-http base URL that is not loopback, before sending anything",
    () =>
      Effect.gen(function* () {
        const ws = tempDir("tls")
        const r = yield* cli(
          [
            "plan",
            "--workspace",
            ws,
            "--base-url",
            "http://books.example.com",
            "--runs-dir",
            NodePath.join(ws, "runs")
          ],
          {
            JK_API_KEY: "jk-abc"
          }
        )
        assert.strictEqual(r.status, 2)
        assert.match(r.stderr, /^error: refusing http:\/\/books\.example\.com: .*https:\/\//m)
        assert.notInclude(r.stderr, "    at ", "no stack trace")
      }),
    60_000
  )

  it.live(
    "says how to provide a missing API key",
    () =>
      Effect.gen(function* () {
        const ws = tempDir("nokey")
        const r = yield* cli(
          [
            "load",
            "--workspace",
            ws,
            "--base-url",
            "https://books.example.com",
            "--runs-dir",
            NodePath.join(ws, "runs")
          ],
          {
            JK_API_KEY: ""
          }
        )
        assert.strictEqual(r.status, 2)
        assert.match(r.stderr, /error: no API key: set JK_API_KEY or pass --api-key-file FILE/)
      }),
    60_000
  )

  it.scopedLive(
    "plan on a workspace with nothing staged says to extract first",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const ws = tempDir("empty")
        const r = yield* cli(
          ["plan", "--workspace", ws, "--base-url", s.url, "--runs-dir", NodePath.join(ws, "runs")],
          {
            JK_API_KEY: "jk-abc"
          }
        )
        assert.strictEqual(r.status, 2)
        assert.match(r.stderr, /error: nothing is staged in this workspace: run extract/)
      }),
    60_000
  )

  it.live(
    "a command line missing a required option names it and exits 2, without an internal-error log line",
    () =>
      Effect.gen(function* () {
        const r = yield* cli(["extract", "--input", tempDir("in"), "--workspace", tempDir("ws")])
        assert.strictEqual(r.status, 2)
        assert.include(`${r.stdout}${r.stderr}`, "Expected to find option: '--source'")
        assert.notMatch(`${r.stdout}${r.stderr}`, /level=ERROR|fiber=#|ValidationError/)
      }),
    60_000
  )

  it.live(
    "status on a workspace without a plan says what to do",
    () =>
      Effect.gen(function* () {
        const r = yield* cli(["status", "--workspace", tempDir("status")])
        assert.strictEqual(r.status, 1)
        assert.include(r.stdout, "run extract, then plan")
      }),
    60_000
  )

  it.scopedLive(
    "a whole migration through the CLI never writes the API key to runs/ or staging",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const dir = tempDir("secret")
        const secret = "jk-secret-7f3a9c1d55e2b804"
        const keyFile = NodePath.join(dir, "key.txt")
        NodeFs.writeFileSync(keyFile, `${secret}\n`)
        const ws = NodePath.join(dir, "ws")
        const runs = NodePath.join(dir, "runs")
        const target = ["--workspace", ws, "--base-url", s.url, "--runs-dir", runs, "--api-key-file", keyFile]
        assert.strictEqual(
          (yield* cli([
            "extract",
            "--source",
            "xero",
            "--input",
            sampleDir,
            "--workspace",
            ws,
            "--runs-dir",
            runs
          ])).status,
          0
        )
        for (const step of ["plan", "rehearse", "load", "reconcile"]) {
          const r = yield* cli([step, ...target])
          assert.strictEqual(r.status, 0, `${step}: ${r.stdout}${r.stderr}`)
          assert.notInclude(r.stdout + r.stderr, secret)
        }
        const status = yield* cli(["status", "--workspace", ws])
        assert.match(status.stdout, /settlements\s+263\s+263\s+0\s+0\s+0\s+0/)
        const files = [...filesUnder(runs), ...filesUnder(ws)]
        assert.isAbove(files.filter((f) => f.endsWith("log.ndjson")).length, 3)
        // The load's log has a line for each operation it completed, with the operation's source rows.
        const loadRun = NodeFs.readdirSync(runs).find((d) => d.startsWith("load-"))!
        const logged = NodeFs.readFileSync(NodePath.join(runs, loadRun, "log.ndjson"), "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l.phase === "settlements" && l.status === "done")
        assert.strictEqual(new Set(logged.map((l) => l.op)).size, 263)
        assert.isTrue(logged.every((l) => typeof l.resourceId === "string" && /:\d+/.test(String(l.lineage))))
        for (const f of files)
          assert.isFalse(NodeFs.readFileSync(f).includes(secret), `${f} holds the API key`)
        const reportDir = NodeFs.readdirSync(runs).find((d) => d.startsWith("reconcile-"))!
        const report = JSON.parse(NodeFs.readFileSync(NodePath.join(runs, reportDir, "report.json"), "utf8"))
        assert.isTrue(report.matches)
      }),
    120_000
  )
})
