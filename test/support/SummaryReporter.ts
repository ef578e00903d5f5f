/**
 * Ends a vitest run with one plain line, `Tests: N passed, N failed[, N skipped]`, the closing line CI reads
 * in any language (vitest's own summary is not one of the formats it knows).
 */
import type { Reporter, TestModule } from "vitest/node"

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
    const line = `Tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`
    process.once("exit", () => process.stdout.write(`\n${line}\n`))
  }
}
