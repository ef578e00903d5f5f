/** Test harness: a sandbox on a free loopback port and the pipeline's layers pointed at it. */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import { spawn } from "node:child_process"
import * as NodePath from "node:path"
import * as TargetApi from "../../src/load/TargetApi.js"
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../src/sandbox/Sandbox.js"
import * as StagingDb from "../../src/staging/StagingDb.js"

export const sampleDir = NodePath.resolve(import.meta.dirname, "../../samples/xero-demo")

/** A temporary directory, removed when the test that made it finishes (see `TempDir`). */
export { tempDir } from "./TempDir.js"

export const apiKey = "jk-test-0123456789abcdef"

/**
 * Runs an effect of the pipeline in this process against `s` and the staging in `workspace`, with Node's
 * platform services (what a command does, without its process).
 */
export const inProcessIn =
  (s: RunningSandbox, workspace: string) =>
  <A, E>(e: Effect.Effect<A, E, any>): Effect.Effect<A, E> =>
    e.pipe(Effect.provide(layers(s, workspace)), Effect.provide(NodeContext.layer)) as Effect.Effect<A, E>

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

/**
 * A raw call to the sandbox, for assertions made through the target's own API. Reads ride through injected
 * faults (resets, 5xx, 429) by retrying, so a test's own checks are not flaky under chaos.
 */
export const call = async (s: RunningSandbox, method: string, path: string, body?: unknown) => {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${s.url}/api/v1${path}`, {
        method,
        headers: { "x-jk-api-key": apiKey, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const transient = res.status === 429 || res.status >= 500
      if (!transient || attempt >= 20 || (method !== "GET" && !path.endsWith("/search"))) {
        return { status: res.status, body: (await res.json().catch(() => undefined)) as any }
      }
    } catch (e) {
      if (attempt >= 20 || (method !== "GET" && !path.endsWith("/search"))) throw e
    }
    await new Promise((r) => setTimeout(r, 20 * attempt))
  }
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

/**
 * Asserts through the target's own API that every record the plan creates exists exactly once: documents,
 * journals, contacts, items and accounts by natural key, payments by their reference on their document.
 */
export const assertExactlyOnce = async (
  s: RunningSandbox,
  ops: ReadonlyArray<{ readonly kind: string; readonly naturalKey: string; readonly body: unknown }>
) => {
  const expected = (kind: string) => ops.filter((o) => o.kind === kind).map((o) => o.naturalKey)
  const once = (label: string, actual: ReadonlyArray<string>, want: ReadonlyArray<string>) => {
    const counts = new Map<string, number>()
    for (const a of actual) counts.set(a, (counts.get(a) ?? 0) + 1)
    const dupes = [...counts].filter(([, n]) => n > 1)
    if (dupes.length > 0) throw new Error(`${label}: duplicated in the target: ${JSON.stringify(dupes)}`)
    const missing = want.filter((k) => !counts.has(k))
    if (missing.length > 0) throw new Error(`${label}: missing in the target: ${JSON.stringify(missing)}`)
  }
  const invoices = await searchAll(s, "invoices", "reference")
  const bills = await searchAll(s, "bills", "reference")
  once(
    "invoices",
    invoices.map((r) => r.reference),
    expected("invoice")
  )
  once(
    "bills",
    bills.map((r) => r.reference),
    expected("bill")
  )
  once(
    "journals",
    (await searchAll(s, "journals", "reference")).map((r) => r.reference),
    expected("journal")
  )
  once(
    "contacts",
    (await searchAll(s, "contacts", "name")).map((r) => r.name),
    expected("contact")
  )
  once(
    "items",
    (await searchAll(s, "items", "itemCode")).map((r) => r.itemCode),
    expected("item")
  )
  once(
    "accounts",
    (await searchAll(s, "chart-of-accounts", "name")).map((r) => r.name),
    expected("account")
  )
  const paymentRefs = [...invoices, ...bills].flatMap((d) =>
    (d.paymentRecords ?? []).map((p: any) => p.reference)
  )
  const wantPayments = ops
    .filter((o) => o.kind.endsWith("payment"))
    .map((o) => (o.body as any).payments[0].reference)
  once("payments", paymentRefs, wantPayments)
  if (paymentRefs.length !== wantPayments.length)
    throw new Error(`payments: ${paymentRefs.length} in the target, ${wantPayments.length} planned`)
}
