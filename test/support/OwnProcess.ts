/**
 * A script run in a Node process of its own (an ES module, with tsx to import the sources): what a module
 * loads is Node's module cache, which every test in one process shares.
 */
import { assert } from "@effect/vitest"
import * as NodeChild from "node:child_process"
import * as NodePath from "node:path"
import * as NodeUrl from "node:url"

/** The file URL of a source, as a script imports it: `source("src/load/Undici.ts")`. */
export const source = (path: string): string =>
  NodeUrl.pathToFileURL(NodePath.resolve(import.meta.dirname, "../..", path)).href

/**
 * Runs `script` (which may set `globalThis.answer`) from the repository's root; returns its answer and the
 * modules it loaded (the keys of its `require` cache). Fails the test when the script fails.
 */
export const inOwnProcess = <A = unknown>(
  script: string
): { readonly answer: A; readonly loaded: ReadonlyArray<string> } => {
  const whole = `
    import { createRequire } from "node:module"
    ${script}
    console.log(JSON.stringify({ answer: globalThis.answer ?? null, loaded: Object.keys(createRequire(import.meta.url).cache) }))`
  const run = NodeChild.spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", whole], {
    cwd: NodePath.resolve(import.meta.dirname, "../.."),
    encoding: "utf8"
  })
  assert.strictEqual(run.status, 0, run.stderr)
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { answer: A; loaded: Array<string> }
}
