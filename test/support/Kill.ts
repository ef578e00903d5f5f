/** Kills a running command at a chosen point, for the crash tests. */
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import { cliCommand } from "./Harness.js"

/** Starts `load` and SIGKILLs it once the sandbox has logged `after` more write requests. */
export const loadAndKill = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  requestLog: string,
  after: number
) =>
  new Promise<number | null>((resolve) => {
    const start = NodeFs.existsSync(requestLog)
      ? NodeFs.readFileSync(requestLog, "utf8").split("\n").length
      : 0
    const [cmd, argv] = cliCommand(["load", ...args])
    const child = spawn(cmd, argv, {
      env: { ...process.env, ...env },
      stdio: "ignore"
    })
    const timer = setInterval(() => {
      const lines = NodeFs.existsSync(requestLog)
        ? NodeFs.readFileSync(requestLog, "utf8").split("\n").length
        : 0
      if (lines - start >= after) {
        clearInterval(timer)
        child.kill("SIGKILL")
      }
    }, 5)
    child.on("exit", (code) => {
      clearInterval(timer)
      resolve(code)
    })
  })
