/** Loopback throughput of the sandbox (a simple GET, an invoice create with ledger posting) against a bare node:http server. */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Pool } from "undici"
import { startSandbox } from "./Sandbox.js"

/** Benchmark settings. */
export interface BenchOptions {
  readonly concurrency?: number
  readonly seconds?: number
}

/** Requests per second of each workload, and the sandbox's share of the bare server's rate. */
export interface BenchResult {
  readonly concurrency: number
  readonly seconds: number
  readonly bareRps: number
  readonly getRps: number
  readonly invoiceCreateRps: number
  readonly getRatio: number
  readonly invoiceCreateRatio: number
}

const HEADERS = { "x-jk-api-key": "jk-bench", "content-type": "application/json" }

type Named = Array<{ name: string; resourceId: string }>

const drive = async (
  origin: string,
  concurrency: number,
  seconds: number,
  request: (i: number) => { method: "GET" | "POST"; path: string; body?: string }
): Promise<number> => {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 })
  const deadline = performance.now() + seconds * 1000
  let done = 0
  let n = 0
  const worker = async () => {
    while (performance.now() < deadline) {
      const req = request(n++)
      const res = await pool.request({
        method: req.method,
        path: req.path,
        headers: HEADERS,
        ...(req.body === undefined ? {} : { body: req.body })
      })
      await res.body.text()
      if (res.statusCode >= 300)
        throw new Error(`bench request ${req.method} ${req.path} answered ${res.statusCode}`)
      done++
    }
  }
  const start = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  const elapsed = (performance.now() - start) / 1000
  await pool.close()
  return Math.round(done / elapsed)
}

/** A bare node:http server answering a constant JSON body: the baseline the sandbox is measured against. */
export const startBareServer = async (): Promise<{ readonly url: string; close(): Promise<void> }> => {
  const body = JSON.stringify({ ok: true })
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
      res.end(body)
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r())
        server.closeAllConnections()
      })
  }
}

const bare = async (concurrency: number, seconds: number): Promise<number> => {
  const server = await startBareServer()
  const rps = await drive(server.url, concurrency, seconds, () => ({
    method: "GET",
    path: "/"
  }))
  await server.close()
  return rps
}

/** Runs the three workloads in turn on loopback and returns their rates. */
export const benchSandbox = async (options: BenchOptions = {}): Promise<BenchResult> => {
  const concurrency = options.concurrency ?? 16
  const seconds = options.seconds ?? 5
  const bareRps = await bare(concurrency, seconds)
  const sb = await startSandbox()
  const api = async <T>(method: string, path: string, body?: unknown) => {
    const r = await fetch(`${sb.url}/api/v1${path}`, {
      method,
      headers: HEADERS,
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return (await r.json()) as { data: T }
  }
  const accounts = (await api<Named>("GET", "/chart-of-accounts?limit=1000")).data
  const taxes = (await api<Named>("GET", "/tax-profiles")).data
  const sales = accounts.find((a) => a.name === "Sales")?.resourceId
  const tax = taxes.find((t) => t.name === "SR 9%")?.resourceId ?? ""
  const customer = (
    await api<{ resourceId: string }>("POST", "/contacts", {
      name: "Bench Customer",
      customer: true,
      supplier: false
    })
  ).data.resourceId
  const getRps = await drive(sb.url, concurrency, seconds, () => ({
    method: "GET",
    path: `/api/v1/tax-profiles/${tax}`
  }))
  const invoiceCreateRps = await drive(sb.url, concurrency, seconds, (i) => ({
    method: "POST",
    path: "/api/v1/invoices",
    body: JSON.stringify({
      reference: `BENCH-${i}`,
      valueDate: "2024-03-01",
      dueDate: "2024-03-31",
      contactResourceId: customer,
      lineItems: [
        {
          name: "Widget",
          quantity: 2,
          unitPrice: 19.99,
          accountResourceId: sales,
          taxProfileResourceId: tax
        },
        { name: "Service", quantity: 1, unitPrice: 120, accountResourceId: sales, taxProfileResourceId: tax }
      ]
    })
  }))
  await sb.close()
  const ratio = (x: number) => Math.round((x / bareRps) * 1000) / 1000
  return {
    concurrency,
    seconds,
    bareRps,
    getRps,
    invoiceCreateRps,
    getRatio: ratio(getRps),
    invoiceCreateRatio: ratio(invoiceCreateRps)
  }
}
