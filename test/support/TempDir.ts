/**
 * Temporary directories for tests: each is made under the temp directory with the project's prefix and
 * removed when the test that made it finishes, passed, failed or timed out (`TempGuard` fails the run over
 * any left).
 */
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { onTestFinished } from "vitest"
import { PREFIX } from "./TempGuard.js"

const made = new Set<string>()

const remove = (dir: string) => NodeFs.rmSync(dir, { recursive: true, force: true })

/**
 * Removes every directory made in this process once more as it ends: a test that timed out may have gone on
 * writing into its directory after it was removed. Vitest ends a test file's process with SIGTERM, which is
 * raised again once the directories are gone, so that the process still ends as it would have.
 */
const removeAgainAtTheEnd = () => {
  process.once("exit", () => made.forEach(remove))
  process.once("SIGTERM", () => {
    made.forEach(remove)
    process.kill(process.pid, "SIGTERM")
  })
}

/** A new directory `lm-<name>-XXXXXX` in the temp directory, removed when the current test finishes. */
export const tempDir = (name: string): string => {
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), `${PREFIX}${name}-`))
  if (made.size === 0) removeAgainAtTheEnd()
  made.add(dir)
  onTestFinished(() => remove(dir))
  return dir
}
