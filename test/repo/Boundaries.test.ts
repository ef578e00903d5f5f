/**
 * The sandbox is met only over HTTP: no module of `src/sandbox/` imports anything of the pipeline, and the
 * pipeline imports the sandbox only in the commands that start it.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

const src = NodePath.resolve(import.meta.dirname, "../../src")

/** Every module under `dir`, as a path relative to `src/`. */
const modules = (dir: string): Array<string> =>
  NodeFs.readdirSync(NodePath.join(src, dir), { withFileTypes: true }).flatMap((e) => {
    const path = NodePath.posix.join(dir, e.name)
    if (e.isDirectory()) return modules(path)
    return /\.(ts|mts|mjs)$/.test(e.name) && !e.name.endsWith(".d.ts") ? [path] : []
  })

const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g

/** `src/Resources.ts` finds the files the program ships (the sandbox's fixture among them): it is no stage. */
const SHARED = new Set(["Resources.js"])

/** The modules of `src/` that `module` imports (relative specifiers only), relative to `src/`. */
const importsOf = (module: string): Array<string> =>
  [...NodeFs.readFileSync(NodePath.join(src, module), "utf8").matchAll(SPECIFIERS)]
    .map((m) => m[1]!)
    .filter((s) => s.startsWith("."))
    .map((s) => NodePath.posix.normalize(NodePath.posix.join(NodePath.posix.dirname(module), s)))

describe("the sandbox is met only over HTTP", () => {
  const all = modules("")

  it("no module of the sandbox imports one outside it", () => {
    const sandbox = all.filter((m) => m.startsWith("sandbox/"))
    assert.isAbove(sandbox.length, 10, "the sandbox's modules were found")
    const outside = sandbox.flatMap((m) =>
      importsOf(m)
        .filter((i) => !i.startsWith("sandbox/") && !SHARED.has(i))
        .map((i) => `${m} imports ${i}`)
    )
    assert.deepStrictEqual(outside, [])
  })

  it("outside the sandbox, only the commands that start it import it", () => {
    const importers = all.filter(
      (m) => !m.startsWith("sandbox/") && importsOf(m).some((i) => i.startsWith("sandbox/"))
    )
    assert.includeMembers(importers, ["cli/commands/demo.ts"], "the demo's import was seen")
    assert.deepStrictEqual(
      importers.filter((m) => !m.startsWith("cli/commands/")),
      []
    )
  })
})
