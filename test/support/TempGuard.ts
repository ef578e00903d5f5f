/**
 * Vitest global setup that holds the tests to cleaning up after themselves. The run gets a temp directory of
 * its own, made empty in the system temp directory, and `TMPDIR`, `TMP` and `TEMP` point at it for the test
 * workers and every process they start, so that whatever a test makes through `os.tmpdir()` lands there and
 * nothing of another run (or of a person at work on the same machine) is mistaken for a leftover. At teardown
 * the run fails, naming them, if entries with the project's prefixes remain in it; the directory is removed
 * either way (with what tools such as tsx cached in it). The repository's own `runs/` is held to the same
 * rule: a run directory a command of the tests writes there (one started without `--runs-dir`, its manifest
 * naming this run's temp directory) is a leftover too, named and removed.
 */
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"

/** The prefix of the directories `TempDir.tempDir` makes. */
export const PREFIX = "lm-"

/**
 * Prefixes of the temp entries the project's tests and code make: `lm-` (`tempDir`, the benchmarks), and
 * those of tests that make and remove their own. A test with a prefix of its own adds it here, or better
 * uses `tempDir`.
 */
export const PREFIXES: ReadonlyArray<string> = [
  PREFIX,
  "sbx-",
  "csvreader-",
  "staging-",
  "extract-",
  "xlsx-",
  "xero-",
  "csv-",
  // The plan's scratch and its books' spill (`PlanScratch`, `BooksSpill`), each a directory of its own.
  "ledger-migrate-"
]

/** The prefix of a run's own temp directory. */
const RUN_PREFIX = `${PREFIX}vitest-`

/** Where a failing teardown leaves the leftovers' paths for `SummaryReporter` (same process). */
export const LEFTOVERS = Symbol.for("ledger-migrate/test-temp-leftovers")

const VARIABLES = ["TMPDIR", "TMP", "TEMP"] as const

const ours = (name: string) => PREFIXES.some((p) => name.startsWith(p))

const entries = (dir: string): ReadonlyArray<string> =>
  NodeFs.existsSync(dir) ? NodeFs.readdirSync(dir) : []

/** The repository's `runs/`, where a command writes its run unless told `--runs-dir`. */
const repoRuns = NodePath.resolve(import.meta.dirname, "../../runs")

export default function setup(): () => void {
  const runsBefore = new Set(entries(repoRuns))
  const runDir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), RUN_PREFIX))
  const saved = VARIABLES.map((name) => [name, process.env[name]] as const)
  for (const name of VARIABLES) process.env[name] = runDir
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    // Only runs of this test run: their manifest names a workspace or input in its temp directory (a person
    // may be running the tool beside the tests, and their runs are theirs).
    const newRuns = entries(repoRuns).filter((name) => {
      if (runsBefore.has(name)) return false
      try {
        return NodeFs.readFileSync(NodePath.join(repoRuns, name, "manifest.json"), "utf8").includes(runDir)
      } catch {
        return false
      }
    })
    for (const name of newRuns) NodeFs.rmSync(NodePath.join(repoRuns, name), { recursive: true, force: true })
    const left = [...entries(runDir).filter(ours), ...newRuns.map((name) => NodePath.join(repoRuns, name))]
    NodeFs.rmSync(runDir, { recursive: true, force: true })
    if (left.length > 0) {
      ;(globalThis as Record<symbol, unknown>)[LEFTOVERS] = left
      throw new Error(
        `the tests left ${left.length} temporary ${left.length === 1 ? "entry" : "entries"} behind in ` +
          `${runDir} or ${repoRuns} (now removed): make each test remove what it makes, passed or failed, as ` +
          `test/support/TempDir.ts does\n  ${left.join("\n  ")}`
      )
    }
  }
}
