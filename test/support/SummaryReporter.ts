/**
 * Ends a vitest run with one plain line, `Tests: N passed, N failed[, N skipped]`, the closing line CI reads
 * in any language (vitest's own summary is not one of the formats it knows). Temp entries the tests left
 * behind (see `TempGuard`) count as one failed test.
 */
import type { Reporter, TestModule } from "vitest/node"
import { LEFTOVERS } from "./TempGuard.js"

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state
        if (state === "passed") passed++
        else if (state === "failed") failed++
        else skipped++
      }
      if (m.state() === "failed" && [...m.children.allTests()].length === 0) failed++
    }
    // Written at exit, after the global teardown, whose leftovers count as one failure; first among the exit
    // listeners, since vitest's own one exits at once when a teardown has thrown.
    process.prependOnceListener("exit", () => {
      const leftBehind = (globalThis as Record<symbol, unknown>)[LEFTOVERS] === undefined ? 0 : 1
      const line = `Tests: ${passed} passed, ${failed + leftBehind} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`
      process.stdout.write(`\n${line}\n`)
    })
  }
}
