/**
 * The preview reads the stored plan without the documents' lines (`PlanStore.previewPage`): every operation
 * is listed exactly as from its whole body, and no document's lines are read back.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Pipeline from "../../src/cli/Pipeline.js"
import * as Extract from "../../src/extract/Extract.js"
import * as Preview from "../../src/preview/Preview.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import { inProcessIn, sampleDir, sandbox, tempDir } from "../support/Harness.js"
import { migration } from "../support/Migration.js"

describe("the preview's reading of the stored plan", () => {
  it.scopedLive("lists every operation as from its whole body, without reading a document's lines", () =>
    Effect.gen(function* () {
      const dir = tempDir("preview-page")
      const s = yield* sandbox()
      const { workspace } = migration(dir, s.url)
      const inProcess = inProcessIn(s, workspace)
      yield* inProcess(Extract.run({ source: "xero", inputDir: sampleDir }))
      yield* inProcess(Pipeline.plan(undefined, undefined))

      // In pages smaller than the plan's phases, as the preview reads a big plan.
      const read = (reader: PlanStore.PageReader<unknown>) =>
        inProcess(
          Effect.gen(function* () {
            const out: Array<PlanStore.StoredOp> = []
            yield* PlanStore.eachPageOf(reader)(
              (ops: ReadonlyArray<PlanStore.StoredOp>) => Effect.sync(() => void out.push(...ops)),
              50
            )
            return out
          })
        )
      const whole = yield* read(PlanStore.page)
      const slim = yield* read(PlanStore.previewPage)
      assert.strictEqual(slim.length, whole.length)
      assert.isAbove(whole.length, 700)

      const withLines = whole.filter((o) => (o.body as { lineItems?: unknown }).lineItems !== undefined)
      assert.isAbove(withLines.length, 200, "the sample's documents have lines")
      assert.deepStrictEqual(
        slim.filter((o) => (o.body as { lineItems?: unknown }).lineItems !== undefined).map((o) => o.key),
        [],
        "no document's lines are read back"
      )
      // What the preview shows of each operation, with and without an outcome, is the same either way.
      const outcome = { outcome: "created" as const, total: 123.45 }
      assert.deepStrictEqual(
        slim.map((o) => [
          Preview.docOf(Preview.listedOf(o), "SGD", undefined),
          Preview.docOf(Preview.listedOf(o), "SGD", outcome)
        ]),
        whole.map((o) => [
          Preview.docOf(Preview.listedOf(o), "SGD", undefined),
          Preview.docOf(Preview.listedOf(o), "SGD", outcome)
        ])
      )
    })
  )
})
