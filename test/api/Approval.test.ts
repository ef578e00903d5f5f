/**
 * The review in process, with answers given in advance and the real file system in a temp directory: the
 * draft is shown before each question, nothing is written before approval, and rejections are logged.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { afterEach, assert, beforeEach, describe, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as YAML from "yaml"
import * as Answers from "../../src/api/Answers.js"
import * as Approval from "../../src/api/Approval.js"
import { generate, render } from "../../src/api/OpenApiDocument.js"
import { resolve } from "../../src/api/Resource.js"
import { tempDir } from "../support/Harness.js"

let transcript: Array<string> = []
let dir = ""
beforeEach(() => {
  transcript = []
  dir = tempDir("api-review")
  const say = (...parts: Array<unknown>) => void transcript.push(parts.join(" "))
  vi.spyOn(console, "log").mockImplementation(say)
  vi.spyOn(console, "error").mockImplementation(say)
})
afterEach(() => {
  vi.restoreAllMocks()
  NodeFs.rmSync(dir, { recursive: true, force: true })
})

const widgets = Either.getOrThrow(resolve("widgets", [])).resource
const review = (answers: ReadonlyArray<string>, yes = false) =>
  Approval.review({ resource: widgets, outDir: dir, yes }).pipe(
    Effect.provide(Answers.fromLines(answers, transcript)),
    Effect.provide(NodeFileSystem.layer)
  )
const file = () => NodePath.join(dir, "widgets.yaml")
const log = () => NodeFs.readFileSync(NodePath.join(dir, "rejections.log"), "utf8")
const questions = () => transcript.filter((line) => line === Approval.question)

describe("Approval", () => {
  it("reads answers: Y, y, yes and an empty line approve; n and no decline; reject takes the rest as reason", () => {
    for (const yes of ["Y", "y", "yes", "YES", "", "  y  "])
      assert.strictEqual(Approval.parseAnswer(yes)._tag, "Approve")
    for (const no of ["n", "N", "no"]) assert.strictEqual(Approval.parseAnswer(no)._tag, "Decline")
    assert.deepStrictEqual(
      Approval.parseAnswer("reject  add field sku:string "),
      Approval.Answer.Reject({ reason: "add field sku:string" })
    )
    assert.deepStrictEqual(Approval.parseAnswer("reject"), Approval.Answer.Reject({ reason: "" }))
    assert.strictEqual(Approval.parseAnswer("maybe")._tag, "Unclear")
    assert.strictEqual(Approval.parseAnswer("rejected")._tag, "Unclear")
  })

  it.effect("shows the draft, then asks; writes exactly the draft on approval", () =>
    Effect.gen(function* () {
      const code = yield* review(["y"])
      assert.strictEqual(code, 0)
      const text = render(generate(widgets))
      assert.strictEqual(NodeFs.readFileSync(file(), "utf8"), text)
      const shown = transcript.findIndex((line) => line.includes(text))
      assert.isAtLeast(shown, 0, "the draft was shown")
      assert.isAbove(transcript.indexOf(Approval.question), shown, "before the question")
      assert.isFalse(NodeFs.existsSync(NodePath.join(dir, "rejections.log")))
    })
  )

  it.effect("asks again after an unclear answer or a reject without reason; n writes nothing", () =>
    Effect.gen(function* () {
      const code = yield* review(["maybe", "reject", "n"])
      assert.strictEqual(code, 1)
      assert.lengthOf(questions(), 3)
      assert.deepStrictEqual(NodeFs.readdirSync(dir), [])
    })
  )

  it.effect("an understood rejection is logged, applied, shown and asked again", () =>
    Effect.gen(function* () {
      const before = new Date().toISOString()
      const code = yield* review(["reject add field sku:string:required", "Y"])
      assert.strictEqual(code, 0)
      assert.lengthOf(questions(), 2)
      const written = YAML.parse(NodeFs.readFileSync(file(), "utf8"))
      assert.deepStrictEqual(written.components.schemas.WidgetCreateRequest.required, ["name", "sku"])
      const [time, endpoint, outcome, reason] = log().trimEnd().split("\t")
      assert.isTrue(time! >= before && !Number.isNaN(Date.parse(time!)), time)
      assert.deepStrictEqual(
        [endpoint, outcome, reason],
        ["widgets", "applied", "add field sku:string:required"]
      )
    })
  )

  it.effect(
    "a reason it cannot act on is logged; nothing is written and the known instructions are listed",
    () =>
      Effect.gen(function* () {
        const code = yield* review(["reject please make it nicer", "Y"])
        assert.strictEqual(code, 1)
        assert.lengthOf(questions(), 1, "not asked again")
        assert.deepStrictEqual(NodeFs.readdirSync(dir), ["rejections.log"])
        assert.match(log(), /^\S+Z\twidgets\tnot understood\tplease make it nicer\n$/)
        for (const instruction of [
          "add field NAME:TYPE[:required]",
          "remove field NAME",
          "rename field OLD to NEW"
        ]) {
          assert.isTrue(
            transcript.some((line) => line.includes(`reject ${instruction}`)),
            instruction
          )
        }
      })
  )

  it.effect("input that ends before an answer fails with NoAnswer and writes nothing", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(review([]))
      assert.isTrue(Exit.isFailure(exit))
      assert.include(JSON.stringify(exit), "NoAnswer")
      assert.deepStrictEqual(NodeFs.readdirSync(dir), [])
    })
  )

  it.effect("an existing document is left as it is unless approved; --yes replaces it without asking", () =>
    Effect.gen(function* () {
      NodeFs.writeFileSync(file(), "old\n")
      assert.strictEqual(yield* review(["n"]), 1)
      assert.strictEqual(NodeFs.readFileSync(file(), "utf8"), "old\n")
      assert.isTrue(transcript.some((line) => line.includes("exists: approving replaces it")))

      assert.strictEqual(yield* review([], true), 0)
      assert.strictEqual(NodeFs.readFileSync(file(), "utf8"), render(generate(widgets)))
      assert.lengthOf(questions(), 1, "--yes did not ask")
      assert.deepStrictEqual(NodeFs.readdirSync(dir), ["widgets.yaml"], "no temporary file left")
    })
  )
})
