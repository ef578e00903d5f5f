/**
 * Child process: serves the sandbox (or a bare node:http server answering a constant body) so that its CPU is
 * not the load generator's. Told what to serve by its first IPC message; answers `stats` and `close`.
 */
import { startBareServer } from "../src/sandbox/bench.js"
import { startSandbox, type SandboxOptions } from "../src/sandbox/Sandbox.js"

/** What to serve. */
export type ServerSpec =
  { readonly kind: "sandbox"; readonly options: SandboxOptions } | { readonly kind: "bare" }

/** What the child says: where it listens, and its CPU and memory when asked. */
export type ServerMessage =
  | { readonly type: "listening"; readonly url: string }
  | { readonly type: "stats"; readonly cpuSeconds: number; readonly rssMb: number }

const reply = (m: ServerMessage) => process.send?.(m)

const serve = (spec: ServerSpec) =>
  spec.kind === "bare" ? startBareServer() : startSandbox({ port: 0, ...spec.options })

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
