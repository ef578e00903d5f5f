import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The run's temp directory, and the check that the tests leave nothing in it.
    globalSetup: ["./test/support/TempGuard.ts"],
    reporters: ["default", "./test/support/SummaryReporter.ts"]
  }
})
