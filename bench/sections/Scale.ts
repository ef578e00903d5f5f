/**
 * Issue 15: a generated company taken end to end through the CLI as a user runs it — `extract`, `plan`, `load`
 * (concurrency 8, no injected latency) and `reconcile`, each `node bin/ledger-migrate.mjs …` in its own process
 * under `/usr/bin/time -f %M`, against a sandbox started with `ledger-migrate sandbox` in another. Per stage: wall
 * time, rate, CPU and peak RSS as the kernel saw it from outside; then the sandbox's own peak RSS, its
 * trial-balance report's answer time with the whole company loaded, and the growth of every peak RSS from the
 * smallest to the largest size. Sizes: `--invoices N[,N…]` (default 20,000 and 100,000; `--quick`: 1,000).
 * Reconcile runs three times, each followed by a bare client's replay of its reads: the medians are compared.
 * Plan runs three times, each followed by its bare floor (`bench/PlanFloor.mjs`: its staged rows read and its
 * operations written with better-sqlite3 alone): the medians are compared.
 */
import { spawn, spawnSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { Pool } from "undici"
import { generateCompany } from "../../src/sample/Generator.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Pipeline from "../Pipeline.js"
import type { ProcessOptions } from "../Processes.js"
import { measure } from "../Probe.js"
import { note, ratio, round, table, verdict } from "../Report.js"

const TIME = "/usr/bin/time"
/** Rounds of reconcile and its bare baseline, interleaved. */
const RECONCILE_ROUNDS = 3
/**
 * Runs of extract at each size: its peak RSS moved by a fifth from run to run of the same export on this
 * machine (20,000 invoices: 207-254 MB; 100,000: 240-257 MB), so that one run of each size made its growth
 * anything from 0.94 to 1.24.
 */
const EXTRACT_ROUNDS = 3
/**
 * Rounds of plan and its bare floor, interleaved: in session 29 plan of the same code at 20,000 invoices took
 * 6.72-6.97 s in one half hour and 7.38-8.08 s in the next on this machine, so that one run of each could make
 * plan ÷ floor anything within a sixth.
 */
const PLAN_ROUNDS = 3
const SEED = 5
const AIMS = {
  rssMb: 300,
  reconcileToBare: 0.5,
  growth: 1.2,
  planOpsPerSecond: 20_000,
  planToExtract: 0.3,
  trialBalanceMs: 1000
} as const
const root = NodePath.resolve(import.meta.dirname, "../..")
const cli = NodePath.join(root, "bin", "ledger-migrate.mjs")

export type Stage = "extract" | "plan" | "load" | "reconcile"

export interface StageFigures {
  readonly stage: Stage
  readonly exitCode: number
  readonly seconds: number
  /** What the stage processed: source rows staged (extract), operations (plan, load), reads (reconcile). */
  readonly items: number
  readonly unit: string
  readonly perSecond: number
  readonly cpuSeconds: number
  /** `/usr/bin/time`'s %M: the process's peak resident set, MB. */
  readonly peakRssMb: number
}

/** `/usr/bin/time -f %M` around `node bin/ledger-migrate.mjs args`: its output, exit code, wall and CPU time, peak RSS. */
const timed = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, dir: string, profileDir?: string) => {
  const stats = NodePath.join(dir, `time-${args[0]}.txt`)
  const node = profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]
  const started = performance.now()
  const run = spawnSync(TIME, ["-f", "%M %U %S", "-o", stats, process.execPath, ...node, cli, ...args], {
    cwd: root,
    env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024
  })
  const seconds = (performance.now() - started) / 1000
  if (run.error !== undefined)
    throw new Error(`could not run ${TIME} (is GNU time installed?): ${run.error.message}`)
  const last = NodeFs.readFileSync(stats, "utf8").trim().split("\n").pop() ?? ""
  const [kb, user, sys] = last.split(" ").map(Number)
  if (kb === undefined || Number.isNaN(kb))
    throw new Error(`${TIME} wrote no figures for ${args[0]}: ${last}`)
  return {
    output: `${run.stdout}${run.stderr}`,
    exitCode: run.status ?? -1,
    seconds,
    cpuSeconds: (user ?? 0) + (sys ?? 0),
    peakRssMb: kb / 1024
  }
}

/** A sandbox started as a user starts one (`ledger-migrate sandbox`), logging its requests to `requestLog`. */
const startSandbox = async (requestLog: string) => {
  const child = spawn(process.execPath, [cli, "sandbox", "--port", "0", "--request-log", requestLog], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"]
  })
  const url = await new Promise<string>((resolve, reject) => {
    let seen = ""
    child.stdout.on("data", (d: Buffer) => {
      seen += d.toString()
      const m = /listening on (http:\/\/\S+)/.exec(seen)
      if (m) resolve(m[1]!)
    })
    child.once("exit", (code) => reject(new Error(`the sandbox exited (${code}) before listening: ${seen}`)))
  })
  const status = () => NodeFs.readFileSync(`/proc/${child.pid}/status`, "utf8")
  return {
    url,
    /** The sandbox process's peak and current RSS (VmHWM, VmRSS), MB. */
    memory: () => {
      const s = status()
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN)
      return { peakMb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024 }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once("exit", () => resolve())
        child.kill("SIGINT")
      })
  }
}

interface LoggedRequest {
  readonly method: string
  readonly path: string
  readonly ms: number
  /** A read's URL with its query, and its body (the sandbox logs both for reads). */
  readonly url?: string
  readonly body?: string
}

/** The requests the sandbox logged from line `from` on: their count and the time it spent answering them. */
const requestsSince = (requestLog: string, from: number) => {
  const lines = NodeFs.readFileSync(requestLog, "utf8")
    .split("\n")
    .filter((l) => l !== "")
  const mine = lines.slice(from).map((l) => JSON.parse(l) as LoggedRequest)
  return {
    total: lines.length,
    count: mine.length,
    requests: mine,
    serverSeconds: mine.reduce((s, r) => s + r.ms, 0) / 1000,
    byPath: Object.fromEntries(
      Object.entries(
        mine.reduce<Record<string, number>>((m, r) => {
          const k = `${r.method} ${r.path.replace(/\?.*$/, "").replace(/\/[0-9a-f-]{20,}/g, "/:id")}`
          m[k] = (m[k] ?? 0) + 1
          return m
        }, {})
      ).sort((a, b) => b[1] - a[1])
    )
  }
}

/**
 * The baseline for reconcile: a bare undici client (one keep-alive connection) performing the same reads, in
 * the same order, one after another as reconcile makes them, parsing each answer's JSON and nothing more.
 * Seconds.
 */
const bareReads = async (url: string, reads: ReadonlyArray<LoggedRequest>) => {
  const pool = new Pool(new URL(url).origin, { connections: 1 })
  try {
    const started = performance.now()
    for (const r of reads) {
      const res = await pool.request({
        method: r.method as "GET" | "POST",
        path: r.url ?? r.path,
        headers: { "x-jk-api-key": Pipeline.API_KEY, "content-type": "application/json" },
        ...(r.body === undefined ? {} : { body: r.body })
      })
      await res.body.json()
    }
    return (performance.now() - started) / 1000
  } finally {
    await pool.close()
  }
}

const number = (output: string, re: RegExp): number => {
  const m = re.exec(output)
  return m ? Number(m[1]) : NaN
}

/** Answer time of the sandbox's trial-balance report at `endDate`: the best of three, ms. */
const trialBalanceMs = async (url: string, endDate: string) => {
  const times: Array<number> = []
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    const res = await fetch(`${url}/api/v1/generate-reports/trial-balance`, {
      method: "POST",
      headers: { "x-jk-api-key": Pipeline.API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ endDate })
    })
    await res.text()
    if (res.status !== 200) throw new Error(`the trial-balance report answered ${res.status}`)
    times.push(performance.now() - started)
  }
  return Math.min(...times)
}

/**
 * Plan's bare floor in the planned `workspace` (`bench/PlanFloor.mjs`, in a process of its own): reading every
 * staged row and writing every stored operation with better-sqlite3 alone, the I/O plan cannot avoid.
 */
const planFloor = (workspace: string, dir: string) => {
  const run = spawnSync(process.execPath, [NodePath.join(root, "bench", "PlanFloor.mjs"), workspace, dir], {
    cwd: root,
    encoding: "utf8"
  })
  if (run.status !== 0) throw new Error(`bench/PlanFloor.mjs exited ${run.status}: ${run.stderr}`)
  const f = JSON.parse(run.stdout.trim().split("\n").pop() ?? "") as {
    readonly rows: number
    readonly bytes: number
    readonly ops: number
    readonly readSeconds: number
    readonly writeSeconds: number
  }
  const seconds = f.readSeconds + f.writeSeconds
  return {
    rows: f.rows,
    readMb: round(f.bytes / 1e6, 1),
    ops: f.ops,
    readSeconds: round(f.readSeconds, 2),
    writeSeconds: round(f.writeSeconds, 2),
    seconds: round(seconds, 2),
    opsPerSecond: round(f.ops / seconds)
  }
}

const stagingBytes = (workspace: string): number =>
  ["", "-wal"]
    .map((suffix) => `${StagingDb.pathIn(workspace)}${suffix}`)
    .reduce((n, f) => n + (NodeFs.existsSync(f) ? NodeFs.statSync(f).size : 0), 0)

/** The middle of `xs` by `by` (the upper middle of an even count). */
const median = <A>(xs: ReadonlyArray<A>, by: (x: A) => number): A =>
  [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)]!

/** A stage's figures over several runs: the median run's, with the highest peak RSS of them all. */
const medianRun = (runs: ReadonlyArray<StageFigures>): StageFigures => ({
  ...median(runs, (r) => r.seconds),
  peakRssMb: Math.max(...runs.map((r) => r.peakRssMb))
})

/** One company of `invoices` invoices through every stage. */
const company = async (invoices: number, options: ProcessOptions) => {
  const dir = Pipeline.tempDir(`scale-${invoices}`)
  const input = NodePath.join(dir, "export")
  const workspace = NodePath.join(dir, "workspace")
  const runsDir = NodePath.join(dir, "runs")
  NodeFs.mkdirSync(runsDir)
  note(`generating a ${invoices}-invoice company (seed ${SEED})`)
  const generated = await measure(async () => generateCompany({ invoices, seed: SEED, out: input }))
  const requestLog = NodePath.join(dir, "requests.ndjson")
  const sandbox = await startSandbox(requestLog)
  const env = { ...process.env, JK_API_KEY: Pipeline.API_KEY }
  const common = ["--workspace", workspace, "--runs-dir", runsDir]
  const stages: Array<StageFigures> = []
  try {
    const once = (
      stage: Stage,
      args: ReadonlyArray<string>,
      items: (output: string) => number,
      unit: string,
      where: ReadonlyArray<string> = common
    ) => {
      const t = timed([stage, ...args, ...where], env, dir, options.profileDir)
      if (t.exitCode !== 0) throw new Error(`${stage} exited ${t.exitCode}:\n${t.output.slice(-3000)}`)
      const n = items(t.output)
      const figures: StageFigures = {
        stage,
        exitCode: t.exitCode,
        seconds: round(t.seconds, 2),
        items: n,
        unit,
        perSecond: round(n / t.seconds),
        cpuSeconds: round(t.cpuSeconds, 1),
        peakRssMb: round(t.peakRssMb)
      }
      return { figures, output: t.output }
    }
    const run = (...args: Parameters<typeof once>) => {
      note(`${args[0]} (${invoices} invoices)`)
      const done = once(...args)
      stages.push(done.figures)
      return { ...done.figures, output: done.output }
    }
    const withTarget = ["--base-url", sandbox.url]
    const extractArgs = ["--source", "xero", "--input", input]
    const stagedRows = (o: string) => [...o.matchAll(/= staged (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0)
    // Extract into the workspace the later stages use, then again into scratch workspaces: the stage's figures
    // are the median run's time and the highest peak RSS of them all.
    note(`extract (${invoices} invoices)`)
    const extracts = [once("extract", extractArgs, stagedRows, "rows").figures]
    for (let i = 1; i < EXTRACT_ROUNDS; i++) {
      note(`extract (${invoices} invoices), run ${i + 1} of ${EXTRACT_ROUNDS}`)
      const scratch = NodePath.join(dir, `extract-${i + 1}`)
      const where = ["--workspace", scratch, "--runs-dir", runsDir]
      extracts.push(once("extract", extractArgs, stagedRows, "rows", where).figures)
      NodeFs.rmSync(scratch, { recursive: true, force: true })
    }
    const extracted = medianRun(extracts)
    stages.push(extracted)
    const stagingMb = stagingBytes(workspace) / 1e6
    // Plan and its bare floor, interleaved: the median of each (plan's peak RSS the highest of its runs).
    const planRounds: Array<{ plan: StageFigures; floor: ReturnType<typeof planFloor> }> = []
    for (let i = 0; i < PLAN_ROUNDS; i++) {
      note(`plan (${invoices} invoices), round ${i + 1} of ${PLAN_ROUNDS}`)
      const plan = once("plan", withTarget, (o) => number(o, /Plan: (\d+) operations/), "ops").figures
      note(`plan's bare floor (${invoices} invoices), round ${i + 1} of ${PLAN_ROUNDS}`)
      planRounds.push({ plan, floor: planFloor(workspace, dir) })
    }
    const planned = medianRun(planRounds.map((r) => r.plan))
    stages.push(planned)
    const bare = median(planRounds, (r) => r.floor.seconds).floor
    /** Plan's operations per second over the floor's: 1 would be plan doing nothing but its I/O. */
    const floor = {
      ...bare,
      planToFloor: ratio(planned.perSecond, bare.opsPerSecond),
      /** Each round: plan's seconds and peak RSS, and the floor's seconds. */
      rounds: planRounds.map((r) => ({
        planSeconds: r.plan.seconds,
        peakRssMb: r.plan.peakRssMb,
        floorSeconds: r.floor.seconds
      }))
    }
    const loaded = run(
      "load",
      [...withTarget, "--accept-suggestions"],
      (o) => number(o, /(\d+) requests sent/),
      "requests"
    )
    // Reconcile and a bare client's replay of its reads, interleaved three times; the median of each (its
    // peak RSS the highest): one run of each moved the ratio by a fifth from run to run on this machine.
    const rounds: Array<{
      t: ReturnType<typeof timed>
      reads: ReturnType<typeof requestsSince>
      bare: number
    }> = []
    for (let i = 0; i < RECONCILE_ROUNDS; i++) {
      note(`reconcile (${invoices} invoices), round ${i + 1} of ${RECONCILE_ROUNDS}`)
      const before = requestsSince(requestLog, 0).total
      const t = timed(["reconcile", ...withTarget, ...common], env, dir, options.profileDir)
      if (t.exitCode !== 0) throw new Error(`reconcile exited ${t.exitCode}:\n${t.output.slice(-3000)}`)
      const reads = requestsSince(requestLog, before)
      const unreplayable = reads.requests.filter((q) => q.url === undefined).length
      if (unreplayable > 0)
        throw new Error(`${unreplayable} of reconcile's requests were not logged as reads: it must only read`)
      rounds.push({ t, reads, bare: await bareReads(sandbox.url, reads.requests) })
    }
    const { t: reconciled, reads } = median(rounds, (r) => r.t.seconds)
    const bareSeconds = median(rounds, (r) => r.bare).bare
    stages.push({
      stage: "reconcile",
      exitCode: reconciled.exitCode,
      seconds: round(reconciled.seconds, 2),
      items: reads.count,
      unit: "reads",
      perSecond: round(reads.count / reconciled.seconds),
      cpuSeconds: round(reconciled.cpuSeconds, 1),
      peakRssMb: round(Math.max(...rounds.map((r) => r.t.peakRssMb)))
    })
    const r = stages.at(-1)!
    // The date reconcile proved the books at (the last date in the source).
    const endDate =
      /(\d{4}-\d\d-\d\d)\s*$/m.exec(reconciled.output.split("clearing accounts")[1] ?? "")?.[1] ??
      "2025-12-31"
    const tbMs = await trialBalanceMs(sandbox.url, endDate)
    const sandboxMemory = sandbox.memory()
    return {
      invoices,
      sourceRows: extracted.items,
      operations: number(loaded.output, /(\d+) requests sent/),
      generateSeconds: round(generated.seconds, 1),
      stagingMb: round(stagingMb, 1),
      stagingBytesPerRow: round((stagingMb * 1e6) / extracted.items),
      planFloor: floor,
      stages,
      /** Each run of extract: seconds and peak RSS (the first staged the workspace the later stages use). */
      extractRuns: extracts.map((e) => ({ seconds: e.seconds, peakRssMb: e.peakRssMb })),
      reconcileReads: {
        requests: reads.count,
        serverSeconds: round(reads.serverSeconds, 2),
        /** Reconcile's wall time over the sandbox's own time answering its reads: 1 = no client overhead at all. */
        serverShare: ratio(reads.serverSeconds, r.seconds),
        /** A bare client's time for the same reads and reconcile's speed against it: medians of 3 interleaved rounds. */
        bareSeconds: round(bareSeconds, 2),
        toBare: ratio(bareSeconds, r.seconds),
        /** Each round: reconcile's seconds and peak RSS, and the bare client's seconds. */
        rounds: rounds.map((x) => ({
          seconds: round(x.t.seconds, 2),
          peakRssMb: round(x.t.peakRssMb),
          bareSeconds: round(x.bare, 2)
        })),
        byPath: reads.byPath
      },
      sandbox: { peakRssMb: round(sandboxMemory.peakMb), rssAtEndMb: round(sandboxMemory.rssMb) },
      trialBalanceMs: round(tbMs, 1)
    }
  } finally {
    await sandbox.close()
  }
}

export type CompanyFigures = Awaited<ReturnType<typeof company>>

/** `--invoices N[,N…]` from the benchmark's arguments, else the defaults. */
export const sizesFrom = (args: ReadonlyArray<string>, quick: boolean): ReadonlyArray<number> => {
  const i = args.findIndex((a) => a === "--invoices" || a.startsWith("--invoices="))
  if (i < 0) return quick ? [1000] : [20_000, 100_000]
  const value = args[i]!.includes("=") ? args[i]!.split("=")[1]! : (args[i + 1] ?? "")
  const sizes = value.split(",").map(Number)
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(
      `--invoices ${value}: expected positive integers separated by commas, e.g. --invoices 20000,100000`
    )
  return sizes
}

export const run = async (quick: boolean, options: ProcessOptions, args: ReadonlyArray<string> = []) => {
  if (!NodeFs.existsSync(TIME))
    throw new Error(`${TIME} (GNU time) is needed to measure peak RSS from outside`)
  const sizes = sizesFrom(args, quick)
  const companies: Array<CompanyFigures> = []
  for (const n of sizes) {
    companies.push(await company(n, options))
    Pipeline.removeTempDirs()
  }
  for (const c of companies) {
    const extract = c.stages.find((s) => s.stage === "extract")!
    table(
      `scale — ${c.invoices.toLocaleString("en-US")} invoices: ${c.sourceRows.toLocaleString("en-US")} source rows, ${c.operations.toLocaleString("en-US")} operations (each stage: node bin/ledger-migrate.mjs under ${TIME} -f %M)`,
      ["stage", "s", "items", "per s", "CPU s", "peak RSS MB", `aim < ${AIMS.rssMb}`, "note"],
      c.stages.map((s) => [
        s.stage,
        s.seconds,
        `${s.items.toLocaleString("en-US")} ${s.unit}`,
        s.perSecond,
        s.cpuSeconds,
        s.peakRssMb,
        verdict(s.peakRssMb < AIMS.rssMb),
        s.stage === "plan"
          ? `aim ≥ ${AIMS.planOpsPerSecond} ops/s: ${verdict(s.perSecond >= AIMS.planOpsPerSecond)}; ÷ extract rows/s ${ratio(s.perSecond, extract.perSecond)} (aim ≥ ${AIMS.planToExtract}): ${verdict(s.perSecond / extract.perSecond >= AIMS.planToExtract)}; bare floor ${c.planFloor.seconds} s (read ${c.planFloor.rows.toLocaleString("en-US")} staged rows, ${c.planFloor.readMb} MB, ${c.planFloor.readSeconds} s, write the operations ${c.planFloor.writeSeconds} s), ${c.planFloor.opsPerSecond} ops/s: plan ÷ floor ${c.planFloor.planToFloor}`
          : s.stage === "reconcile"
            ? `sandbox busy ${c.reconcileReads.serverSeconds} s of it; a bare client's same ${c.reconcileReads.requests} reads ${c.reconcileReads.bareSeconds} s: ÷ bare ${c.reconcileReads.toBare} (aim ≥ ${AIMS.reconcileToBare}): ${verdict(c.reconcileReads.toBare >= AIMS.reconcileToBare)}`
            : s.stage === "extract"
              ? `staging.db ${c.stagingMb} MB, ${c.stagingBytesPerRow} B a row`
              : undefined
      ])
    )
    console.log(
      `sandbox: peak RSS ${c.sandbox.peakRssMb} MB holding the company; trial-balance report ${c.trialBalanceMs} ms (aim < ${AIMS.trialBalanceMs}: ${verdict(c.trialBalanceMs < AIMS.trialBalanceMs)}); generating took ${c.generateSeconds} s`
    )
  }
  const growth =
    companies.length < 2
      ? undefined
      : Object.fromEntries(
          companies[0]!.stages.map((s, i) => [
            s.stage,
            ratio(companies.at(-1)!.stages[i]!.peakRssMb, s.peakRssMb)
          ])
        )
  if (growth !== undefined) {
    table(
      `scale — peak RSS growth from ${companies[0]!.invoices} to ${companies.at(-1)!.invoices} invoices`,
      ["stage", "×", `aim ≤ ${AIMS.growth}`],
      Object.entries(growth).map(([stage, g]) => [stage, g, verdict(g <= AIMS.growth)])
    )
  }
  return { aims: AIMS, seed: SEED, sizes, companies, growth }
}
