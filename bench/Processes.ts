/** Parent side of the benchmark's child processes: a forked server (sandbox or bare) and a forked measured task. */
import { fork, type ChildProcess } from "node:child_process"
import * as NodePath from "node:path"
import type { Measured } from "./Probe.js"
import type { ServerMessage, ServerSpec } from "./server.js"
import type { Task, TaskValue, WorkerMessage } from "./worker.js"

const here = import.meta.dirname

/** Where children write `--cpu-prof` profiles; undefined = not profiled. */
export interface ProcessOptions {
  readonly profileDir?: string | undefined
}

/**
 * Forks a child from the benchmark's bundle (`dist/bench-<name>.mjs`, built by `main.ts`): plain node, as
 * the shipped CLI runs, so that tsx's loader thread and compile cache are not measured as the program's.
 */
const spawn = (name: "worker" | "server", options: ProcessOptions): ChildProcess =>
  fork(NodePath.join(here, "..", "dist", `bench-${name}.mjs`), [], {
    execArgv: options.profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })

const next = <M>(child: ChildProcess, what: string): Promise<M> =>
  new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${what} exited (${code}) before answering`))
    child.once("exit", onExit)
    child.once("message", (m) => {
      child.off("exit", onExit)
      resolve(m as M)
    })
  })

/** A server running in its own process. */
export interface ServerProcess {
  readonly url: string
  /** CPU seconds the server process has used so far, and its RSS. */
  readonly stats: () => Promise<{ readonly cpuSeconds: number; readonly rssMb: number }>
  readonly close: () => Promise<void>
}

/** Forks a child serving `spec` and resolves once it listens. */
export const startServer = async (spec: ServerSpec, options: ProcessOptions = {}): Promise<ServerProcess> => {
  const child = spawn("server", options)
  const listening = next<ServerMessage>(child, "the server")
  child.send(spec)
  const m = await listening
  if (m.type !== "listening") throw new Error(`the server said ${m.type} before listening`)
  return {
    url: m.url,
    stats: async () => {
      const answer = next<ServerMessage>(child, "the server")
      child.send("stats")
      const s = await answer
      if (s.type !== "stats") throw new Error(`the server answered ${s.type} to stats`)
      return s
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once("exit", () => resolve())
        child.send("close")
      })
  }
}

/** Runs `task` in a fresh child process and returns what it measured. */
export const runTask = async <A extends TaskValue>(
  task: Task,
  options: ProcessOptions = {}
): Promise<Measured<A>> => {
  const child = spawn("worker", options)
  const answer = next<WorkerMessage>(child, `the ${task.type} task`)
  child.send(task)
  const m = await answer
  if (m.type === "failed") throw new Error(`the ${task.type} task failed: ${m.error}`)
  await new Promise<void>((resolve) =>
    child.exitCode !== null ? resolve() : child.once("exit", () => resolve())
  )
  return m.measured as Measured<A>
}

/** Runs `f` with a forked server, closing it afterwards. */
export const withServer = async <A>(
  spec: ServerSpec,
  options: ProcessOptions,
  f: (server: ServerProcess) => Promise<A>
): Promise<A> => {
  const server = await startServer(spec, options)
  try {
    return await f(server)
  } finally {
    await server.close()
  }
}
