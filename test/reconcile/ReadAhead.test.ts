/**
 * reconcile reads the target's documents and aged reports while it reads the books again, over the window
 * and at the date the stored plan's books gave. What it read ahead is used only when the books read now give
 * the same window, credits and date; otherwise the target is read again, so a read-ahead over the wrong window
 * or at the wrong date can never be what is compared.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import type { RunningSandbox } from "../../src/sandbox/Sandbox.js"
import { spanOf, windowOf, type ReadWindow } from "../../src/transform/BooksSpan.js"
import type { SourceBooks } from "../../src/transform/SourceModel.js"
import { inProcessIn, sandbox, tempDir } from "../support/Harness.js"
import { migrate } from "./Migrate.js"

const asAt = "2025-12-31"

describe("reconcile's read-ahead of the target", () => {
  it.scopedLive(
    "is used over the books' own window (a read-ahead without the invoices shows them missing), and read again over any other",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const ws = NodePath.join(tempDir("read-ahead"), "ws")
        const books = yield* migrate(s, ws)
        const span = spanOf(books)
        let used = 0
        // What was read ahead, with its invoices lost: the comparison shows whether it was used.
        // What was read ahead, its receivables report emptied too: an aged difference shows it was compared.
        const lossy = Effect.map(
          Reconcile.readTarget(windowOf(span, asAt), span.credits, "SGD", asAt),
          (r): Reconcile.TargetReads => {
            used++
            return {
              ...r,
              documents: (each) => r.documents((kind, docs) => each(kind, kind === "invoice" ? [] : docs)),
              AR: []
            }
          }
        )
        const reconcile = (window: ReadWindow, at = asAt) =>
          run(s, ws, books, window, span.credits, at, lossy)

        const ahead = yield* reconcile(windowOf(span, asAt))
        assert.strictEqual(used, 1, "the read-ahead over the books' window is used")
        assert.isFalse(ahead.matches)
        assert.isTrue(
          ahead.documents.mismatches.some((m) => m.entity === "invoice" && m.target === "0"),
          "the invoices it lacks are missing from the target"
        )
        assert.isTrue(
          ahead.differences.some((d) => d.area === "AR"),
          `the receivables it lacks differ from the source's aged report: ${ahead.differences.map((d) => d.area).join(", ")}`
        )

        const elsewhere = yield* reconcile({ from: "2000-01-01", until: asAt })
        assert.strictEqual(used, 1, "a read-ahead over another window is not used")
        assert.isTrue(elsewhere.matches, `read again, the target matches: ${elsewhere.verdict}`)

        assert.deepStrictEqual(windowOf(span, "2025-12-30"), windowOf(span, asAt), "the same window")
        yield* reconcile(windowOf(span, asAt), "2025-12-30")
        assert.strictEqual(used, 1, "a read-ahead at another date (over the same window) is not used")
      })
  )
})

const run = (
  s: RunningSandbox,
  workspace: string,
  books: SourceBooks,
  window: ReadWindow,
  credits: boolean,
  at: string,
  reads: ReturnType<typeof Reconcile.readTarget>
) =>
  Reconcile.reconcile(books, "SGD", at, undefined, { window, credits, asAt, reads }).pipe(
    inProcessIn(s, workspace)
  )
