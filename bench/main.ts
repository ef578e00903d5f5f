/**
 * `npm run bench [-- [--quick] [--profile] [--invoices N[,N…]] [sandbox] [loader] [extract] [scale]]`: runs the
 * selected sections (default all but `scale`, which takes many minutes at its default sizes), prints a table per section and writes every figure to `runs/bench-<timestamp>.json`. `--quick`
 * shrinks the sizes for a smoke run; `--profile` writes `--cpu-prof` profiles of the child processes to
 * `runs/bench-<timestamp>-prof/`. Not run by CI: the figures are only meaningful on a quiet machine.
 */
import { spawnSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { build, isStale } from "../scripts/build.mjs"
import * as Pipeline from "./Pipeline.js"
import type { ProcessOptions } from "./Processes.js"
import { round } from "./Report.js"
import * as Extract from "./sections/Extract.js"
import * as Loader from "./sections/Loader.js"
import * as Sandbox from "./sections/Sandbox.js"
import * as Scale from "./sections/Scale.js"

const sections: Record<
  string,
  (quick: boolean, options: ProcessOptions, args: ReadonlyArray<string>) => Promise<object>
> = {
  sandbox: Sandbox.run,
  loader: Loader.run,
  extract: Extract.run,
  scale: Scale.run
}

const usage = `usage: npm run bench -- [--quick] [--profile] [--invoices N[,N…] (scale)] [${Object.keys(sections).join("] [")}]`

/** The commit measured, and the source files that differed from it (others may be editing the working tree). */
const source = () => {
  const git = (...args: Array<string>) =>
    spawnSync("git", args, {
      cwd: NodePath.resolve(import.meta.dirname, ".."),
      encoding: "utf8"
    }).stdout.trimEnd()
  return {
    commit: git("rev-parse", "--short", "HEAD"),
    uncommittedSource: git("status", "--porcelain", "--", "src")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.slice(3))
  }
}

const main = async () => {
  if (isStale(true)) await build(true)
  const args = process.argv.slice(2)
  // `--invoices N` takes a value: it is neither a flag nor a section name.
  const valued = args.flatMap((a, i) =>
    a === "--invoices" ? [i, i + 1] : a.startsWith("--invoices=") ? [i] : []
  )
  const flags = args.filter((a, i) => a.startsWith("-") && !valued.includes(i))
  const names = args.filter((a, i) => !a.startsWith("-") && !valued.includes(i))
  const unknown = [
    ...flags.filter((f) => !["--quick", "--profile"].includes(f)),
    ...names.filter((n) => sections[n] === undefined)
  ]
  if (unknown.length > 0 || flags.includes("--help")) {
    console.error(`${unknown.length > 0 ? `unknown: ${unknown.join(" ")}\n` : ""}${usage}`)
    process.exit(2)
  }
  const quick = flags.includes("--quick")
  const selected =
    names.length > 0
      ? Object.keys(sections).filter((n) => names.includes(n))
      : Object.keys(sections).filter((n) => n !== "scale")
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")
  const runsDir = NodePath.resolve(import.meta.dirname, "../runs")
  const options: ProcessOptions = {
    profileDir: flags.includes("--profile") ? NodePath.join(runsDir, `bench-${stamp}-prof`) : undefined
  }
  const measured = source()
  const machine = {
    node: process.version,
    cpus: NodeOs.cpus().length,
    cpuModel: NodeOs.cpus()[0]?.model ?? "?",
    load: NodeOs.loadavg().map((l) => round(l, 2))
  }
  const figures: Record<string, unknown> = {
    startedAt: new Date().toISOString(),
    ...measured,
    quick,
    ...machine
  }
  console.log(
    `ledger-migrate benchmarks${quick ? " (--quick: small sizes, figures are a smoke test only)" : ""}: ${selected.join(", ")}`
  )
  console.log(
    `commit ${measured.commit}` +
      (measured.uncommittedSource.length > 0
        ? ` with uncommitted changes to ${measured.uncommittedSource.join(", ")}`
        : "")
  )
  console.log(
    `${machine.cpus} × ${machine.cpuModel}, node ${machine.node}, load average ${machine.load.join(" ")} (the figures move with it)`
  )
  const started = performance.now()
  for (const name of selected) {
    const t = performance.now()
    try {
      const loadAverage = NodeOs.loadavg().map((l) => round(l, 2))
      figures[name] = { loadAverageAtStart: loadAverage, ...(await sections[name]!(quick, options, args)) }
    } finally {
      Pipeline.removeTempDirs()
    }
    console.log(`(${name}: ${round((performance.now() - t) / 1000, 1)} s)`)
  }
  figures.seconds = round((performance.now() - started) / 1000, 1)
  NodeFs.mkdirSync(runsDir, { recursive: true })
  const file = NodePath.join(runsDir, `bench-${stamp}.json`)
  NodeFs.writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`)
  console.log(`\nTotal ${figures.seconds} s. Figures written to ${NodePath.relative(process.cwd(), file)}`)
  if (options.profileDir !== undefined) console.log(`CPU profiles in ${options.profileDir}`)
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e)
  process.exit(1)
})
