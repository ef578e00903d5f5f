/** Kills a running `load` at a chosen point, for the crash tests. */
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import { cliCommand } from "./Harness.js"

/** A running `load`: `kill` SIGKILLs it; `exited` resolves its exit code. */
export const startLoad = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const [cmd, argv] = cliCommand(["load", ...args])
  const child = spawn(cmd, argv, { env: { ...process.env, ...env }, stdio: "ignore" })
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return { kill: () => void child.kill("SIGKILL"), exited }
}

/** Starts `load` and SIGKILLs it as soon as `killNow` (asked every 5 ms) says so; resolves its exit code. */
export const loadUntil = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  killNow: () => boolean
) => {
  const load = startLoad(args, env)
  const timer = setInterval(() => {
    if (killNow()) {
      clearInterval(timer)
      load.kill()
    }
  }, 5)
  return load.exited.finally(() => clearInterval(timer))
}

const lines = (log: string) =>
  NodeFs.existsSync(log) ? NodeFs.readFileSync(log, "utf8").split("\n").length : 0

/** Starts `load` and SIGKILLs it once the sandbox has logged `after` more requests. */
export const loadAndKill = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  requestLog: string,
  after: number
) => {
  const start = lines(requestLog)
  return loadUntil(args, env, () => lines(requestLog) - start >= after)
}
