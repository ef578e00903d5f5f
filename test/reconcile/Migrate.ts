/** The bundled sample migrated cleanly into a sandbox, for the reconciliation's end-to-end tests. */
import { assert } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import type { RunningSandbox } from "../../src/sandbox/Sandbox.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import type { SourceBooks } from "../../src/transform/SourceModel.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { inProcessIn, sampleDir } from "../support/Harness.js"

/** Extracts the sample, plans it (through `transform`, the identity unless a test drops rows) and loads it. */
export const migrate = (
  s: RunningSandbox,
  workspace: string,
  transform: (b: SourceBooks) => SourceBooks = (b) => b
) =>
  Effect.gen(function* () {
    yield* Extract.run({ source: "xero", inputDir: sampleDir })
    const snapshot = yield* ReadSnapshot.read
    const books = transform(yield* XeroSource.read)
    yield* PlanStore.save(
      PlanBuilder.build(books, snapshot, yield* Mappings.load("xero")),
      snapshot.baseCurrency
    )
    const loaded = yield* Executor.load({ concurrency: 8 })
    assert.isTrue(loaded.complete, "the clean load completes")
    return books
  }).pipe(inProcessIn(s, workspace))
