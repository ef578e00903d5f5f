/**
 * Child process: serves the sandbox (or a bare node:http server answering a constant body) so that its CPU is
 * not the load generator's. Told what to serve by its first IPC message; answers `stats` and `close`.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { startSandbox, type SandboxOptions } from "../src/sandbox/Sandbox.js"

/** What to serve. */
export type ServerSpec =
  { readonly kind: "sandbox"; readonly options: SandboxOptions } | { readonly kind: "bare" }

/** What the child says: where it listens, and its CPU and memory when asked. */
export type ServerMessage =
  | { readonly type: "listening"; readonly url: string }
  | { readonly type: "stats"; readonly cpuSeconds: number; readonly rssMb: number }

const reply = (m: ServerMessage) => process.send?.(m)

const bare = async () => {
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

const serve = (spec: ServerSpec) =>
  spec.kind === "bare" ? bare() : startSandbox({ port: 0, ...spec.options })

process.once("message", (spec: ServerSpec) => {
  void serve(spec).then((running) => {
    process.on("message", (m: unknown) => {
      if (m === "stats") {
        const cpu = process.cpuUsage()
        reply({
          type: "stats",
          cpuSeconds: (cpu.user + cpu.system) / 1e6,
          rssMb: process.memoryUsage().rss / 1024 / 1024
        })
      } else if (m === "close") void running.close().then(() => process.exit(0))
    })
    reply({ type: "listening", url: running.url })
  })
})
