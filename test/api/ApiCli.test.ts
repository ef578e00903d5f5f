/**
 * `api <endpoint>` as a person or a script meets it: the real CLI as a child process, answers piped to its
 * standard input (or none at all, as in CI), documents and the rejections log written to a temp directory.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as YAML from "yaml"
import { cliCommand, tempDir } from "../support/Harness.js"
import { validateOpenApi } from "./OpenApiValidator.js"

/** A fresh out directory in a temp directory removed with the test's scope (not created: the tool does that). */
const outDir = Effect.acquireRelease(
  Effect.sync(() => tempDir("api-cli")),
  (dir) => Effect.sync(() => NodeFs.rmSync(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir) => NodePath.join(dir, "docs", "api")))

/** Runs `api …` until its output is drained; `input` is piped to standard input and closed, else stdin is /dev/null. */
const api = (args: ReadonlyArray<string>, input?: string) =>
  Effect.promise(
    () =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const [cmd, argv] = cliCommand(["api", ...args])
        const child = spawn(cmd, argv, { stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] })
        let stdout = ""
        let stderr = ""
        child.stdout?.on("data", (d) => (stdout += String(d)))
        child.stderr?.on("data", (d) => (stderr += String(d)))
        child.on("close", (status) => resolve({ status, stdout, stderr }))
        // A child that exits without reading its input (bad arguments) must not fail the test with EPIPE.
        child.stdin?.on("error", () => {})
        child.stdin?.end(input)
      })
  )

const read = (dir: string, name: string) => NodeFs.readFileSync(NodePath.join(dir, name), "utf8")
const list = (dir: string) => (NodeFs.existsSync(dir) ? NodeFs.readdirSync(dir).sort() : [])
const prompt = "Approve? [Y/n/reject <reason>]"
const count = (text: string, part: string) => text.split(part).length - 1

describe("api command", () => {
  it.scopedLive("Y keeps the document: shown first, then written, and valid OpenAPI 3.0", () =>
    Effect.gen(function* () {
      const dir = yield* outDir
      const r = yield* api(["products", "--out-dir", dir], "Y\n")
      assert.strictEqual(r.status, 0, r.stderr)
      assert.deepStrictEqual(list(dir), ["products.yaml"])
      const written = read(dir, "products.yaml")
      assert.isAbove(
        r.stdout.indexOf(prompt),
        r.stdout.indexOf(written),
        "the document is shown before the question"
      )
      assert.isAtLeast(r.stdout.indexOf(written), 0)
      assert.include(r.stdout, `Wrote ${NodePath.join(dir, "products.yaml")}`)
      const verdict = yield* validateOpenApi(NodePath.join(dir, "products.yaml"))
      assert.isTrue(verdict.valid, verdict.errors)
      assert.strictEqual(YAML.parse(written).info.title, "Products API")
    })
  )

  it.scopedLive("n discards it: nothing written, exit 1", () =>
    Effect.gen(function* () {
      const dir = yield* outDir
      const r = yield* api(["products", "--out-dir", dir], "n\n")
      assert.strictEqual(r.status, 1, r.stderr)
      assert.deepStrictEqual(list(dir), [])
      assert.include(r.stdout, "Not approved")
    })
  )

  it.scopedLive(
    "reject with an understood instruction, then Y: the field is in the final file and the reason in the log",
    () =>
      Effect.gen(function* () {
        const dir = yield* outDir
        const r = yield* api(["widgets", "--out-dir", dir], "reject add field sku:string\nY\n")
        assert.strictEqual(r.status, 0, r.stderr)
        assert.strictEqual(count(r.stdout, prompt), 2, "asked twice")
        assert.strictEqual(count(r.stdout, "Draft of"), 2, "the revised draft was shown")
        assert.deepStrictEqual(list(dir), ["rejections.log", "widgets.yaml"])
        const document = YAML.parse(read(dir, "widgets.yaml"))
        assert.deepStrictEqual(document.components.schemas.Widget.properties.sku, { type: "string" })
        assert.deepStrictEqual(Object.keys(document.components.schemas.WidgetCreateRequest.properties), [
          "name",
          "sku"
        ])
        assert.match(
          read(dir, "rejections.log"),
          /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\twidgets\tapplied\tadd field sku:string\n$/
        )
        const verdict = yield* validateOpenApi(NodePath.join(dir, "widgets.yaml"))
        assert.isTrue(verdict.valid, verdict.errors)
      })
  )

  it.scopedLive(
    "reject with a reason it does not understand: logged, nothing written, exit 1, the instructions listed",
    () =>
      Effect.gen(function* () {
        const dir = yield* outDir
        const r = yield* api(["products", "--out-dir", dir], "reject the prices look wrong\nY\n")
        assert.strictEqual(r.status, 1, r.stderr)
        assert.deepStrictEqual(list(dir), ["rejections.log"])
        assert.match(read(dir, "rejections.log"), /Z\tproducts\tnot understood\tthe prices look wrong\n$/)
        assert.include(r.stderr, "'the prices look wrong' is not an instruction this tool understands")
        assert.include(r.stdout, "reject add field NAME:TYPE[:required]")
        assert.include(r.stdout, "reject rename field OLD to NEW")
        assert.strictEqual(count(r.stdout, prompt), 1, "not asked again")
      })
  )

  it.scopedLive("no standard input and no --yes: exit 2, nothing written, and says what it needs", () =>
    Effect.gen(function* () {
      for (const input of [undefined, ""]) {
        const dir = yield* outDir
        const r = yield* api(["products", "--out-dir", dir], input)
        assert.strictEqual(r.status, 2, `stdin ${JSON.stringify(input)}: ${r.stderr}`)
        assert.deepStrictEqual(list(dir), [])
        assert.match(
          r.stderr,
          /^error: no answer on standard input, so .*products\.yaml was not written: .*--yes/m
        )
        assert.include(r.stdout, "openapi: 3.0.0", "the document was still shown")
        assert.notInclude(r.stderr, "    at ", "no stack trace")
      }
    })
  )

  it.scopedLive(
    "--yes writes without reading standard input and replaces an existing document; n leaves one alone",
    () =>
      Effect.gen(function* () {
        const dir = yield* outDir
        NodeFs.mkdirSync(dir, { recursive: true })
        NodeFs.writeFileSync(NodePath.join(dir, "auth.yaml"), "old\n")
        const declined = yield* api(["auth", "--out-dir", dir], "n\n")
        assert.strictEqual(declined.status, 1)
        assert.include(declined.stdout, "exists: approving replaces it")
        assert.strictEqual(read(dir, "auth.yaml"), "old\n")

        const r = yield* api(["auth", "--yes", "--out-dir", dir])
        assert.strictEqual(r.status, 0, r.stderr)
        assert.notInclude(r.stdout, prompt)
        assert.include(r.stdout, `Replaced ${NodePath.join(dir, "auth.yaml")}`)
        assert.deepStrictEqual(list(dir), ["auth.yaml"])
        const verdict = yield* validateOpenApi(NodePath.join(dir, "auth.yaml"))
        assert.isTrue(verdict.valid, verdict.errors)
        assert.deepStrictEqual(Object.keys(YAML.parse(read(dir, "auth.yaml")).paths), ["/auth/login"])
      })
  )

  it.scopedLive("a singular endpoint is written under its plural, with a note", () =>
    Effect.gen(function* () {
      const dir = yield* outDir
      const r = yield* api(["category", "--field", "title:string:required", "--yes", "--out-dir", dir])
      assert.strictEqual(r.status, 0, r.stderr)
      assert.include(r.stderr, "'category' is specified as /categories")
      assert.deepStrictEqual(list(dir), ["categories.yaml"])
      const document = YAML.parse(read(dir, "categories.yaml"))
      assert.deepStrictEqual(Object.keys(document.paths), ["/categories"])
      assert.deepStrictEqual(document.components.schemas.CategoryCreateRequest.required, ["title"])
    })
  )

  it.scopedLive("a bad endpoint name or field type: exit 2 with what is allowed, nothing written", () =>
    Effect.gen(function* () {
      const dir = yield* outDir
      const badName = yield* api(["Line_Items", "--out-dir", dir], "Y\n")
      assert.strictEqual(badName.status, 2)
      assert.match(
        badName.stderr,
        /^error: invalid endpoint 'Line_Items': .*lowercase letters, digits and single hyphens/m
      )
      const badType = yield* api(["widgets", "--field", "size:big", "--out-dir", dir], "Y\n")
      assert.strictEqual(badType.status, 2)
      assert.include(
        badType.stderr,
        "error: invalid field 'size:big': unknown type 'big'; the types allowed are string, integer, number, boolean, date, date-time, email, uuid, url"
      )
      assert.deepStrictEqual(list(dir), [])
      assert.notInclude(badName.stdout + badType.stdout, "openapi:")
    })
  )

  it.scopedLive("api --help names the command, its options and the instructions", () =>
    Effect.gen(function* () {
      const r = yield* api(["--help"])
      assert.strictEqual(r.status, 0, r.stderr)
      for (const part of ["--field", "--out-dir", "--yes", "reject add field"]) assert.include(r.stdout, part)
    })
  )
})
