/**
 * A run's artifacts under `runs/<runId>/`: `manifest.json` (what ran, against what, how it ended — never
 * the API key) and `log.ndjson`, pino's structured log with the API key redacted, fed by Effect's logger.
 */
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as HashMap from "effect/HashMap"
import { randomBytes } from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import pino from "pino"

export interface Run {
  readonly runId: string
  readonly dir: string
  readonly log: pino.Logger
  readonly manifest: Record<string, unknown>
}

/** Paths pino blanks out wherever they appear in a log line. */
export const redactPaths = [
  "apiKey",
  "*.apiKey",
  "headers['x-jk-api-key']",
  "*.headers['x-jk-api-key']",
  "config.apiKey"
]

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")

/** Opens `runs/<runId>/` for a command and writes its manifest. */
export const open = (runsDir: string, command: string, facts: Record<string, unknown> = {}) =>
  Effect.sync((): Run => {
    const started = new Date()
    const runId = `${command}-${stamp(started)}-${randomBytes(2).toString("hex")}`
    const dir = NodePath.resolve(runsDir, runId)
    NodeFs.mkdirSync(dir, { recursive: true })
    const log = pino(
      { level: "debug", base: { runId }, redact: { paths: redactPaths, censor: "[redacted]" } },
      // Buffered (written 8 KB at a time, and flushed by pino when the process exits): a write call per
      // line cost the loader a system call per operation. A SIGKILL loses at most the unwritten tail;
      // what the load did is in the checkpoints, not the log.
      pino.destination({ dest: NodePath.join(dir, "log.ndjson"), sync: false, minLength: 8_192 })
    )
    const manifest: Record<string, unknown> = {
      runId,
      command,
      startedAt: started.toISOString(),
      node: process.version,
      ...facts
    }
    NodeFs.writeFileSync(NodePath.join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`)
    return { runId, dir, log, manifest }
  })

/** Records more facts (and the outcome) in the manifest. */
export const record = (run: Run, facts: Record<string, unknown>) =>
  Effect.sync(() => {
    Object.assign(run.manifest, facts)
    NodeFs.writeFileSync(
      NodePath.join(run.dir, "manifest.json"),
      `${JSON.stringify(run.manifest, null, 2)}\n`
    )
  })

const levels: Record<string, "trace" | "debug" | "info" | "warn" | "error" | "fatal"> = {
  TRACE: "trace",
  DEBUG: "debug",
  INFO: "info",
  WARN: "warn",
  ERROR: "error",
  FATAL: "fatal"
}

/** Effect's logs go to the run's pino log, with their annotations (the operation key, the phase) as fields. */
export const loggerLayer = (run: Run) =>
  Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ logLevel, message, annotations }) => {
      if (logLevel === LogLevel.None) return
      const fields = Object.fromEntries(HashMap.toEntries(annotations))
      const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
      run.log[levels[logLevel.label] ?? "info"](fields, text)
    })
  )
