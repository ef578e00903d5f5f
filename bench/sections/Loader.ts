/**
 * Issue 4: the loader against a sandbox in its own process, the loader itself in another (so neither steals
 * the other's event loop), every load from a fresh sandbox and a fresh copy of the planned workspace.
 * (a) throughput with 20 ms injected latency at concurrency 8 and 32 against the ideal `concurrency / latency`;
 * (b) without latency, invoices only, against a bare undici client replaying the same resolved bodies;
 * (c) peak RSS at two company sizes; (d) checkpoint transactions per operation.
 */
import { phases } from "../../src/transform/Plan.js"
import * as Company from "../Company.js"
import { againstBare, load, prepareReplay, replay, type LoadFigures, type Replayed } from "../Loads.js"
import { withServer, type ProcessOptions } from "../Processes.js"
import { note, ratio, round, table, verdict } from "../Report.js"

const LATENCY_MS = 20
const AIMS = { c8: 0.85, c32: 0.7, bare: 0.8, rssMb: 300 } as const

export const run = async (quick: boolean, options: ProcessOptions) => {
  const sizes = quick
    ? { big: 1000, small: 250, replayed: 1000 }
    : { big: 20_000, small: 5_000, replayed: 5_000 }
  note(`generating, extracting and planning ${sizes.big} and ${sizes.small} invoices`)
  const prepared = await withServer({ kind: "sandbox", options: {} }, options, async (s) => {
    const company = await Company.prepare(sizes.big, s.url)
    const master = await Company.masterWorkspace(company)
    const invoices = await Company.invoiceWorkspace(company, sizes.replayed)
    const small = await Company.prepare(sizes.small, s.url)
    return {
      big: {
        figures: company.figures,
        workspace: company.workspace,
        master,
        invoices
      },
      small: { figures: small.figures, workspace: small.workspace }
    }
  })
  const { big, small } = prepared
  table(
    "loader — the companies loaded (generated, extracted and planned in the benchmark process)",
    ["invoices", "source rows", "operations", "generate s", "extract s", "extract rows/s", "plan s"],
    [big.figures, small.figures].map((f) => [
      f.invoices,
      f.sourceRows,
      f.operations,
      f.generateSeconds,
      f.extractSeconds,
      f.extractRowsPerSecond,
      f.planSeconds
    ])
  )

  const setup = await prepareReplay(big.master, big.invoices, options)
  const latency: Array<{ loader: LoadFigures; bare: Replayed }> = []
  for (const concurrency of [8, 32]) {
    const loader = await load(
      {
        label: `${sizes.big} invoices, ${LATENCY_MS} ms, c=${concurrency}`,
        invoices: sizes.big,
        workspace: big.workspace,
        concurrency,
        latencyMs: LATENCY_MS
      },
      options
    )
    latency.push({ loader, bare: await replay(setup, concurrency, LATENCY_MS, options) })
  }
  const smallRun = await load(
    {
      label: `${sizes.small} invoices, ${LATENCY_MS} ms, c=32`,
      invoices: sizes.small,
      workspace: small.workspace,
      concurrency: 32,
      latencyMs: LATENCY_MS
    },
    options
  )
  const bare = await againstBare(setup, [8, 32], options)

  const aimOf = (c: number) => (c === 8 ? AIMS.c8 : c === 32 ? AIMS.c32 : undefined)
  table(
    `loader (a) — full plan, ${LATENCY_MS} ms injected latency: ops/s against the ideal concurrency / latency`,
    [
      "run",
      "ops",
      "s",
      "ops/s",
      "ideal",
      "÷ ideal",
      "aim",
      "",
      "bare ops/s",
      "÷ bare",
      "lead-in s",
      "loader CPU ms/op",
      "loader cores",
      "sandbox cores"
    ],
    latency.map(({ loader: r, bare: b }) => {
      const aim = aimOf(r.concurrency)
      return [
        r.label + (r.complete ? "" : " INCOMPLETE"),
        r.operations,
        r.seconds,
        r.opsPerSecond,
        r.idealOpsPerSecond,
        r.ratioToIdeal,
        aim === undefined ? undefined : `≥ ${aim}`,
        aim === undefined || r.ratioToIdeal === undefined ? undefined : verdict(r.ratioToIdeal >= aim),
        b.requestsPerSecond,
        ratio(r.opsPerSecond, b.requestsPerSecond),
        r.leadInSeconds,
        r.loaderCpuMsPerOp,
        r.loaderCores,
        r.sandboxCores
      ]
    })
  )
  console.log(
    `bare: a bare undici client POSTing ${setup.invoices} resolved invoice bodies at the same concurrency and latency ` +
      "(what this machine allows a zero-overhead client right now)"
  )
  table(
    "loader (a) — by phase: outcomes/s from first to last outcome, and the lead-in before the first (lookups, drains)",
    ["phase", ...latency.flatMap(({ loader: r }) => [`c=${r.concurrency} ops`, "ops/s", "lead-in s"])],
    phases.map((phase) => [
      phase,
      ...latency.flatMap(({ loader: r }) => {
        const p = r.phases.find((x) => x.phase === phase)
        return [p?.outcomes, p?.opsPerSecond, p?.leadInSeconds]
      })
    ])
  )
  const sandboxCap = bare.find((b) => b.concurrency === 32)?.bare
  if (sandboxCap !== undefined)
    console.log(
      `sandbox create capacity beside it: ${sandboxCap.requestsPerSecond} invoice creates/s from a bare client at c=32 without latency ` +
        `(sandbox at ${sandboxCap.sandboxCores} cores); the ideal at c=32 is ${32 / (LATENCY_MS / 1000)} ops/s`
    )

  table(
    `loader (b) — the first ${setup.invoices} invoices of the ${sizes.big}-invoice plan, no injected latency, against a bare undici client POSTing the same resolved bodies`,
    [
      "concurrency",
      "loader inv/s",
      "loader wall inv/s",
      "bare req/s",
      "÷ bare",
      "÷ bare (wall)",
      "aim",
      "",
      "loader CPU ms/op",
      "bare CPU ms/req",
      "sandbox cores (loader/bare)"
    ],
    bare.map((b) => [
      b.concurrency,
      b.loader.transactionsOpsPerSecond,
      b.loader.opsPerSecond,
      b.bare.requestsPerSecond,
      b.ratioSendWindow,
      b.ratioWall,
      `≥ ${AIMS.bare}`,
      verdict(b.ratioSendWindow >= AIMS.bare),
      b.loader.loaderCpuMsPerOp,
      b.bare.cpuMsPerRequest,
      `${b.loader.sandboxCores} / ${b.bare.sandboxCores}`
    ])
  )
  console.log(
    "loader inv/s counts from the first to the last outcome, after the loader's reference and adoption lookups; wall includes them"
  )

  const loads = [...latency.map((l) => l.loader), smallRun, ...bare.map((b) => b.loader)]
  table(
    "loader (c, d) — memory and checkpoint batching per load (RSS sampled every 100 ms in the loader process)",
    [
      "run",
      "ops",
      "RSS before MB",
      "peak RSS MB",
      "VmHWM MB",
      `aim < ${AIMS.rssMb}`,
      "checkpoint tx",
      "tx / op"
    ],
    loads.map((r) => [
      r.label,
      r.operations,
      r.rssBeforeMb,
      r.rssPeakMb,
      r.hwmMb,
      verdict(r.rssPeakMb < AIMS.rssMb),
      r.checkpointTransactions,
      r.checkpointTransactionsPerOp
    ])
  )
  const bigC32 = latency.find((l) => l.loader.concurrency === 32)!.loader
  const flatness = ratio(bigC32.rssPeakMb - bigC32.rssBeforeMb, smallRun.rssPeakMb - smallRun.rssBeforeMb)
  console.log(
    `peak RSS growth over the process's start: ${round(smallRun.rssPeakMb - smallRun.rssBeforeMb)} MB at ${smallRun.operations} ops, ` +
      `${round(bigC32.rssPeakMb - bigC32.rssBeforeMb)} MB at ${bigC32.operations} ops (× ${flatness} for × ${ratio(bigC32.operations, smallRun.operations)} the operations)`
  )

  return {
    latencyMs: LATENCY_MS,
    aims: AIMS,
    companies: { big: big.figures, small: small.figures },
    latency,
    smallLatency: smallRun,
    againstBare: bare,
    rss: {
      aimMb: AIMS.rssMb,
      big: { operations: bigC32.operations, peakMb: bigC32.rssPeakMb, beforeMb: bigC32.rssBeforeMb },
      small: { operations: smallRun.operations, peakMb: smallRun.rssPeakMb, beforeMb: smallRun.rssBeforeMb },
      growthRatio: flatness
    }
  }
}
