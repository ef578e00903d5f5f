/** Test harness: a sandbox on a free loopback port and the pipeline's layers pointed at it. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as TargetApi from "../../src/load/TargetApi.js"
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../src/sandbox/Sandbox.js"
import * as StagingDb from "../../src/staging/StagingDb.js"

export const sampleDir = NodePath.resolve(import.meta.dirname, "../../samples/xero-demo")

export const tempDir = (prefix: string) => NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), `lm-${prefix}-`))

export const apiKey = "jk-test-0123456789abcdef"

/** Starts a sandbox for the scope of the effect that uses it. */
export const sandbox = (options: SandboxOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => startSandbox({ port: 0, ...options })),
    (s) => Effect.promise(() => s.close())
  )

/** Staging in `workspace` and the target API at `s`. */
export const layers = (s: RunningSandbox, workspace: string, key = apiKey) =>
  Layer.mergeAll(
    StagingDb.layer(StagingDb.pathIn(workspace)),
    TargetApi.layer({ baseUrl: s.url, apiKey: key, connections: 16 }),
    Logger.replace(Logger.defaultLogger, Logger.none)
  )

/** A raw call to the sandbox, for assertions made through the target's own API. */
export const call = async (s: RunningSandbox, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${s.url}/api/v1${path}`, {
    method,
    headers: { "x-jk-api-key": apiKey, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any }
}

/** Every row of a search, following pages. */
export const searchAll = async (s: RunningSandbox, resource: string, sortBy: string, filter?: unknown) => {
  const rows: Array<any> = []
  for (let offset = 0; ; offset++) {
    const { status, body } = await call(s, "POST", `/${resource}/search`, {
      ...(filter ? { filter } : {}),
      sort: { sortBy: [sortBy], order: "ASC" },
      limit: 1000,
      offset
    })
    if (status !== 200) throw new Error(`search ${resource}: ${status} ${JSON.stringify(body)}`)
    rows.push(...body.data)
    if (body.data.length < 1000) return rows
  }
}

/** Runs the CLI (`tsx src/cli/main.ts …`) as a child process. */
export const cliPath = NodePath.resolve(import.meta.dirname, "../../src/cli/main.ts")
/** `node --import tsx <cli>`: one process, so a signal sent to the child reaches the CLI itself (the tsx binary would wrap it). */
export const cliCommand = (args: ReadonlyArray<string>): [string, Array<string>] => [
  process.execPath,
  ["--import", "tsx", cliPath, ...args]
]

/** Runs the CLI without blocking this process (which may be serving the sandbox the child talks to). */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const [cmd, argv] = cliCommand(args)
    const child = spawn(cmd, argv, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += String(d)))
    child.stderr.on("data", (d) => (stderr += String(d)))
    child.on("exit", (status) => resolve({ status, stdout, stderr }))
  })
