/**
 * Measured loads for the loader benchmark: each from a fresh sandbox in its own process and a fresh copy of a
 * planned workspace, the loader in another process; and the invoices-only load set against a bare client.
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import type { SandboxOptions } from "../src/sandbox/Sandbox.js"
import { phases } from "../src/transform/Plan.js"
import * as Company from "./Company.js"
import type { Driven } from "./Drive.js"
import * as Pipeline from "./Pipeline.js"
import { runTask, withServer, type ProcessOptions } from "./Processes.js"
import type { Measured } from "./Probe.js"
import { writeResolvedBodies } from "./Replay.js"
import { note, ratio, round } from "./Report.js"
import type { Loaded } from "./worker.js"

export interface LoadSpec {
  readonly label: string
  readonly invoices: number
  /** A planned workspace, copied for the load. */
  readonly workspace: string
  readonly concurrency: number
  readonly latencyMs: number
  /** A sandbox state database, copied for the load; undefined = a fresh in-memory sandbox. */
  readonly state?: string
}

const copyState = (state: string): string => {
  const to = Company.statePathIn(Pipeline.tempDir("state"))
  NodeFs.copyFileSync(state, to)
  return to
}

/** Seconds of each phase from its first to its last outcome, and the lead-in before its first outcome. */
const phaseFigures = (loaded: Loaded) => {
  let previous = 0
  return phases.flatMap((phase) => {
    const w = loaded.phases.find((p) => p.phase === phase)
    if (w === undefined) return []
    const figures = {
      phase,
      outcomes: w.outcomes,
      leadInSeconds: round(w.first - previous, 2),
      seconds: round(w.last - w.first, 2),
      opsPerSecond: w.last > w.first ? round((w.outcomes - 1) / (w.last - w.first)) : undefined
    }
    previous = w.last
    return [figures]
  })
}

/** Loads `spec` from a fresh sandbox and workspace, the loader measured in its own process. */
export const load = async (spec: LoadSpec, options: ProcessOptions) => {
  const workspace = Pipeline.copyWorkspace(spec.workspace, "load")
  const sandbox: SandboxOptions = {
    ...(spec.latencyMs > 0 ? { faults: { latencyMs: spec.latencyMs } } : {}),
    ...(spec.state === undefined ? {} : { statePath: copyState(spec.state) })
  }
  note(`load ${spec.label}`)
  return withServer({ kind: "sandbox", options: sandbox }, options, async (s) => {
    const cpu = (await s.stats()).cpuSeconds
    const m = await runTask<Loaded>(
      { type: "load", workspace, baseUrl: s.url, concurrency: spec.concurrency, log: "run" },
      options
    )
    const sandboxCpu = (await s.stats()).cpuSeconds - cpu
    const { result } = m.value
    const operations = Object.values(result.counts).reduce(
      (n, c) => n + Object.values(c).reduce((a, b) => a + b, 0),
      0
    )
    const phasesRun = phaseFigures(m.value)
    const transactions = phasesRun.find((p) => p.phase === "transactions")
    const ideal = spec.latencyMs > 0 ? spec.concurrency / (spec.latencyMs / 1000) : undefined
    const opsPerSecond = operations / m.seconds
    return {
      label: spec.label,
      invoices: spec.invoices,
      concurrency: spec.concurrency,
      latencyMs: spec.latencyMs,
      operations,
      complete: result.complete,
      sent: result.sent,
      adopted: result.adopted,
      seconds: round(m.seconds, 1),
      opsPerSecond: round(opsPerSecond),
      idealOpsPerSecond: ideal,
      ratioToIdeal: ideal === undefined ? undefined : ratio(opsPerSecond, ideal),
      /** Time before each phase's first outcome: reading the plan, reference and adoption lookups, phase drains. */
      leadInSeconds: round(
        phasesRun.reduce((n, p) => n + p.leadInSeconds, 0),
        1
      ),
      transactionsOpsPerSecond: transactions?.opsPerSecond,
      checkpointTransactions: result.checkpointTransactions,
      checkpointTransactionsPerOp: round(result.checkpointTransactions / operations, 3),
      loaderCores: round(m.cpuSeconds / m.seconds, 2),
      loaderCpuMsPerOp: round((m.cpuSeconds * 1000) / operations, 3),
      sandboxCores: round(sandboxCpu / m.seconds, 2),
      rssBeforeMb: round(m.rssBeforeMb),
      rssPeakMb: round(m.rssPeakMb),
      hwmMb: m.hwmMb === undefined ? undefined : round(m.hwmMb),
      rssSamples: m.rssSamples,
      phases: phasesRun,
      counts: result.counts
    }
  })
}

export type LoadFigures = Awaited<ReturnType<typeof load>>

/** A sandbox state holding the plan's master data, and invoice bodies resolved against it for a bare client. */
export interface ReplaySetup {
  /** Sandbox state database with the master data loaded; copy it for each run. */
  readonly state: string
  /** One resolved invoice body a line. */
  readonly bodies: string
  /** The planned workspace of the same invoices alone. */
  readonly workspace: string
  readonly invoices: number
}

/** Loads `master` (a master-data-only workspace) into a new sandbox state and resolves the invoices of `invoices` against it. */
export const prepareReplay = async (
  master: string,
  invoices: string,
  options: ProcessOptions
): Promise<ReplaySetup> => {
  const state = Company.statePathIn(Pipeline.tempDir("master-state"))
  await withServer({ kind: "sandbox", options: { statePath: state } }, options, (s) =>
    runTask<Loaded>({ type: "load", workspace: master, baseUrl: s.url, concurrency: 8, log: "none" }, options)
  )
  const bodies = NodePath.join(Pipeline.tempDir("bodies"), "invoices.ndjson")
  const ops = await Pipeline.storedOps(invoices)
  await withServer({ kind: "sandbox", options: { statePath: copyState(state) } }, options, (s) =>
    writeResolvedBodies(ops, s.url, bodies)
  )
  return { state, bodies, workspace: invoices, invoices: ops.length }
}

/** A bare undici client POSTing the resolved invoice bodies to a sandbox on a copy of the master-data state. */
export const replay = async (
  setup: ReplaySetup,
  concurrency: number,
  latencyMs: number,
  options: ProcessOptions
) => {
  note(`bare replay, c=${concurrency}${latencyMs > 0 ? `, ${latencyMs} ms` : ""}`)
  const sandbox: SandboxOptions = {
    statePath: copyState(setup.state),
    ...(latencyMs > 0 ? { faults: { latencyMs } } : {})
  }
  return withServer({ kind: "sandbox", options: sandbox }, options, async (s) => {
    const cpu = (await s.stats()).cpuSeconds
    const m: Measured<Driven> = await runTask<Driven>(
      { type: "replay", origin: s.url, path: "/api/v1/invoices", bodies: setup.bodies, concurrency },
      options
    )
    return {
      concurrency,
      latencyMs,
      requests: m.value.requests,
      seconds: round(m.seconds, 1),
      requestsPerSecond: round(m.value.perSecond),
      cpuMsPerRequest: round((m.cpuSeconds * 1000) / m.value.requests, 3),
      clientCores: round(m.cpuSeconds / m.seconds, 2),
      sandboxCores: round(((await s.stats()).cpuSeconds - cpu) / m.seconds, 2),
      rssPeakMb: round(m.rssPeakMb)
    }
  })
}

export type Replayed = Awaited<ReturnType<typeof replay>>

/** (b): the invoices alone, loaded by the loader and replayed by a bare client, without injected latency. */
export const againstBare = async (
  setup: ReplaySetup,
  concurrencies: ReadonlyArray<number>,
  options: ProcessOptions
) => {
  const runs = []
  for (const concurrency of concurrencies) {
    const loader = await load(
      {
        label: `invoices only, c=${concurrency}`,
        invoices: setup.invoices,
        workspace: setup.workspace,
        concurrency,
        latencyMs: 0,
        state: setup.state
      },
      options
    )
    const bare = await replay(setup, concurrency, 0, options)
    const windowRate = loader.transactionsOpsPerSecond ?? loader.opsPerSecond
    runs.push({
      concurrency,
      invoices: setup.invoices,
      loader,
      bare,
      /** Loader invoices/s from its first to its last outcome (after its lookups), over bare req/s. */
      ratioSendWindow: ratio(windowRate, bare.requestsPerSecond),
      /** Loader invoices/s over its whole run (plan read and lookups included), over bare req/s. */
      ratioWall: ratio(loader.opsPerSecond, bare.requestsPerSecond)
    })
  }
  return runs
}
