/**
 * Bundles the CLI (and, for the benchmarks, their child processes) into `dist/` with esbuild: one ES module
 * per entry, its dependencies included except better-sqlite3 (native) and exceljs, loaded from node_modules
 * when a workbook is written or read (bundled, its zip code's `new Buffer()` would print Node's deprecation
 * warning, which Node spares only code inside node_modules). Running the bundle with plain `node` starts in
 * ~0.5 s and ~110 MB instead of ~2 s and ~200 MB through tsx, whose loader thread and on-the-fly compiling
 * every process would carry.
 *
 * `node scripts/build.mjs [--bench] [--if-stale]`; `build()` and `isStale()` are used by the bin and bench.
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as NodeUrl from "node:url"

export const root = NodePath.resolve(NodePath.dirname(NodeUrl.fileURLToPath(import.meta.url)), "..")
export const dist = NodePath.join(root, "dist")

const CLI = { "ledger-migrate": "src/cli/main.ts" }
const BENCH = { "bench-worker": "bench/worker.ts", "bench-server": "bench/server.ts" }

/** The newest modification time under `dir` (ms), following only .ts/.mjs/.json files. */
const newest = (dir) => {
  let latest = 0
  for (const entry of NodeFs.readdirSync(dir, { withFileTypes: true })) {
    const path = NodePath.join(dir, entry.name)
    if (entry.isDirectory()) latest = Math.max(latest, newest(path))
    else if (/\.(ts|mjs|json)$/.test(entry.name)) latest = Math.max(latest, NodeFs.statSync(path).mtimeMs)
  }
  return latest
}

/** True when an output of `entries` is missing or older than the sources it is built from. */
export const isStale = (bench = false) => {
  const outputs = Object.keys(bench ? { ...CLI, ...BENCH } : CLI).map((n) => NodePath.join(dist, `${n}.mjs`))
  if (!outputs.every((o) => NodeFs.existsSync(o))) return true
  const built = Math.min(...outputs.map((o) => NodeFs.statSync(o).mtimeMs))
  const sources = Math.max(
    newest(NodePath.join(root, "src")),
    bench ? newest(NodePath.join(root, "bench")) : 0,
    NodeFs.statSync(NodePath.join(root, "package.json")).mtimeMs
  )
  return sources > built
}

/**
 * The bundle with each non-ASCII character written as its `\u` escape. esbuild escapes them in strings, but
 * not in regular expressions or comments (a few dozen, from our sources and undici's), and one such character
 * makes V8 hold the whole script's source as two bytes per character: 6.9 MB instead of 3.4 MB of heap in
 * every process. The escape means the same in a string, a template, a regular expression and a comment.
 */
export const ascii = (text) =>
  text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** Builds the CLI bundle (and the benchmark's with `bench`) into `dist/`. */
export const build = async (bench = false) => {
  const esbuild = await import("esbuild")
  const result = await esbuild.build({
    write: false,
    absWorkingDir: root,
    entryPoints: bench ? { ...CLI, ...BENCH } : CLI,
    outdir: dist,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3", "exceljs"],
    sourcemap: "linked",
    logLevel: "warning",
    // Bundled CommonJS dependencies call `require` for Node's built-ins.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);'
    }
  })
  // Each file is written beside its place and renamed over it: a process starting meanwhile (tests run
  // several CLIs at once) reads the old bundle or the new one, never half of one.
  NodeFs.mkdirSync(dist, { recursive: true })
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`
    NodeFs.writeFileSync(temporary, file.path.endsWith(".mjs") ? ascii(file.text) : file.contents)
    NodeFs.renameSync(temporary, file.path)
  }
}

if (process.argv[1] === NodeUrl.fileURLToPath(import.meta.url)) {
  const bench = process.argv.includes("--bench")
  if (!process.argv.includes("--if-stale") || isStale(bench)) await build(bench)
}
