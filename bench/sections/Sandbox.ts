/**
 * Issue 3: the sandbox's loopback throughput at concurrency 16 (a simple GET, an invoice create with ledger
 * posting) and its ratio to a bare node:http server answering a constant body. Measured twice: with the
 * load generator in the sandbox's own process (`benchSandbox`), and with the sandbox forked into its own
 * process; the forked figure is the one reported against the target.
 */
import { benchSandbox, type BenchResult } from "../../src/sandbox/bench.js"
import { drive, HEADERS } from "../Drive.js"
import { withServer, type ProcessOptions } from "../Processes.js"
import { note, ratio, round, table, verdict } from "../Report.js"

const CONCURRENCY = 16
const TARGET_CREATES = 2000

type Named = Array<{ name: string; resourceId: string }>

const invoiceBody = (i: number, customer: string, sales: string, tax: string) =>
  JSON.stringify({
    reference: `BENCH-${i}`,
    valueDate: "2024-03-01",
    dueDate: "2024-03-31",
    contactResourceId: customer,
    lineItems: [
      { name: "Widget", quantity: 2, unitPrice: 19.99, accountResourceId: sales, taxProfileResourceId: tax },
      { name: "Service", quantity: 1, unitPrice: 120, accountResourceId: sales, taxProfileResourceId: tax }
    ]
  })

/** The same workloads as `benchSandbox`, sent from this process to a sandbox in another. */
const forked = async (seconds: number, options: ProcessOptions) => {
  const bare = await withServer({ kind: "bare" }, options, (s) =>
    drive({ origin: s.url, concurrency: CONCURRENCY, seconds, request: () => ({ method: "GET", path: "/" }) })
  )
  return withServer({ kind: "sandbox", options: {} }, options, async (s) => {
    const api = async <T>(method: string, path: string, body?: unknown) => {
      const r = await fetch(`${s.url}/api/v1${path}`, {
        method,
        headers: HEADERS,
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return (await r.json()) as { data: T }
    }
    const sales = (await api<Named>("GET", "/chart-of-accounts?limit=1000")).data.find(
      (a) => a.name === "Sales"
    )
    const tax = (await api<Named>("GET", "/tax-profiles")).data.find((t) => t.name === "SR 9%")
    const customer = (
      await api<{ resourceId: string }>("POST", "/contacts", {
        name: "Bench Customer",
        customer: true,
        supplier: false
      })
    ).data.resourceId
    if (sales === undefined || tax === undefined) throw new Error("the sandbox fixture lacks Sales or SR 9%")
    const get = await drive({
      origin: s.url,
      concurrency: CONCURRENCY,
      seconds,
      request: () => ({ method: "GET", path: `/api/v1/tax-profiles/${tax.resourceId}` })
    })
    const cpuBefore = (await s.stats()).cpuSeconds
    const create = await drive({
      origin: s.url,
      concurrency: CONCURRENCY,
      seconds,
      request: (i) => ({
        method: "POST",
        path: "/api/v1/invoices",
        body: invoiceBody(i, customer, sales.resourceId, tax.resourceId)
      })
    })
    const serverCpu = ((await s.stats()).cpuSeconds - cpuBefore) / create.seconds
    return { bare, get, create, serverCpu }
  })
}

const best = <A>(rounds: ReadonlyArray<A>, f: (a: A) => number): number => Math.max(...rounds.map(f))

export const run = async (quick: boolean, options: ProcessOptions) => {
  const seconds = quick ? 1 : 2
  const rounds = quick ? 1 : 3
  const inProcess: Array<BenchResult> = []
  const outOfProcess: Array<Awaited<ReturnType<typeof forked>>> = []
  for (let i = 0; i < rounds; i++) {
    note(`round ${i + 1} of ${rounds}`)
    inProcess.push(await benchSandbox({ concurrency: CONCURRENCY, seconds }))
    outOfProcess.push(await forked(seconds, options))
  }
  const f = {
    bareRps: round(best(outOfProcess, (r) => r.bare.perSecond)),
    getRps: round(best(outOfProcess, (r) => r.get.perSecond)),
    invoiceCreateRps: round(best(outOfProcess, (r) => r.create.perSecond))
  }
  const p = {
    bareRps: best(inProcess, (r) => r.bareRps),
    getRps: best(inProcess, (r) => r.getRps),
    invoiceCreateRps: best(inProcess, (r) => r.invoiceCreateRps)
  }
  const figures = {
    concurrency: CONCURRENCY,
    secondsPerWorkload: seconds,
    rounds,
    reported: "forked: the sandbox in its own process, best of the rounds",
    forked: {
      ...f,
      getRatio: ratio(f.getRps, f.bareRps),
      invoiceCreateRatio: ratio(f.invoiceCreateRps, f.bareRps),
      sandboxCoresDuringCreates: outOfProcess.map((r) => round(r.serverCpu, 2))
    },
    inProcess: {
      ...p,
      getRatio: ratio(p.getRps, p.bareRps),
      invoiceCreateRatio: ratio(p.invoiceCreateRps, p.bareRps)
    },
    allRounds: {
      forked: outOfProcess.map((r) => ({
        bareRps: round(r.bare.perSecond),
        getRps: round(r.get.perSecond),
        invoiceCreateRps: round(r.create.perSecond)
      })),
      inProcess
    },
    target: { invoiceCreateRps: TARGET_CREATES, met: f.invoiceCreateRps >= TARGET_CREATES }
  }
  table(
    `sandbox — loopback req/s at concurrency ${CONCURRENCY}, best of ${rounds} × ${seconds} s (reported: sandbox in its own process)`,
    ["workload", "forked req/s", "÷ bare", "in-process req/s", "÷ bare", "target", ""],
    [
      ["bare node:http GET", f.bareRps, 1, p.bareRps, 1, undefined, undefined],
      [
        "GET /tax-profiles/:id",
        f.getRps,
        figures.forked.getRatio,
        p.getRps,
        figures.inProcess.getRatio,
        undefined,
        undefined
      ],
      [
        "POST /invoices (ledger posting)",
        f.invoiceCreateRps,
        figures.forked.invoiceCreateRatio,
        p.invoiceCreateRps,
        figures.inProcess.invoiceCreateRatio,
        `≥ ${TARGET_CREATES}`,
        verdict(figures.target.met)
      ]
    ]
  )
  console.log(
    `forked: load generator here, server in a child process; in-process: benchSandbox() (src/sandbox/bench.ts), generator and server sharing one event loop. ` +
      `Sandbox CPU during the forked creates: ${figures.forked.sandboxCoresDuringCreates.join(", ")} cores per round (1.0 = one core saturated)`
  )
  return figures
}
