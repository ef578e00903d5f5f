/**
 * Child process: runs one measured task (a load, an extract, or a bare replay of request bodies) in a fresh
 * process, so that its time, CPU and peak RSS are its own. Told the task by its first IPC message; answers
 * with the measured figures and exits.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Run from "../src/cli/Run.js"
import * as Executor from "../src/load/Executor.js"
import type { Phase } from "../src/transform/Plan.js"
import { drive, type Driven } from "./Drive.js"
import * as Pipeline from "./Pipeline.js"
import { measure, type Measured } from "./Probe.js"

export type Task =
  | {
      readonly type: "load"
      readonly workspace: string
      readonly baseUrl: string
      readonly concurrency: number
      /** `run`: the CLI's pino log in `<workspace>/runs` (as `ledger-migrate load` writes it); `none`: no log. */
      readonly log: "run" | "none"
    }
  | { readonly type: "extract"; readonly inputDir: string; readonly workspace: string }
  | {
      readonly type: "replay"
      readonly origin: string
      readonly path: string
      /** One JSON body a line. */
      readonly bodies: string
      readonly concurrency: number
    }

/** When a phase's first and last outcomes were recorded (seconds from the start) and how many there were. */
export interface PhaseWindow {
  readonly phase: Phase
  readonly first: number
  readonly last: number
  readonly outcomes: number
}

export interface Loaded {
  readonly result: Executor.LoadResult
  readonly phases: ReadonlyArray<PhaseWindow>
}

export type TaskValue = Loaded | ReadonlyArray<Pipeline.ExtractSummary> | Driven

export type WorkerMessage =
  | { readonly type: "done"; readonly measured: Measured<TaskValue> }
  | { readonly type: "failed"; readonly error: string }

const load = async (task: Extract<Task, { type: "load" }>): Promise<Loaded> => {
  const started = performance.now()
  const windows = new Map<Phase, { first: number; last: number; outcomes: number }>()
  const onProgress = (e: Executor.ProgressEvent) => {
    const at = (performance.now() - started) / 1000
    const w = windows.get(e.phase)
    if (w === undefined) windows.set(e.phase, { first: at, last: at, outcomes: 1 })
    else ((w.last = at), w.outcomes++)
  }
  const logger =
    task.log === "run"
      ? Layer.unwrapEffect(
          Effect.map(Run.open(NodePath.join(task.workspace, "runs"), "load"), (run) => Run.loggerLayer(run))
        )
      : Pipeline.quiet
  const result = await Executor.load({ concurrency: task.concurrency, onProgress }).pipe(
    Effect.provide(
      Layer.mergeAll(Pipeline.staging(task.workspace), Pipeline.target(task.baseUrl, task.concurrency))
    ),
    Effect.provide(logger),
    Effect.runPromise
  )
  return { result, phases: [...windows].map(([phase, w]) => ({ phase, ...w })) }
}

const replay = (task: Extract<Task, { type: "replay" }>): Promise<Driven> => {
  const bodies = NodeFs.readFileSync(task.bodies, "utf8")
    .split("\n")
    .filter((l) => l !== "")
  return drive({
    origin: task.origin,
    concurrency: task.concurrency,
    request: (i) => (i < bodies.length ? { method: "POST", path: task.path, body: bodies[i]! } : undefined)
  })
}

const run = (task: Task): Promise<TaskValue> => {
  switch (task.type) {
    case "load":
      return load(task)
    case "extract":
      return Pipeline.extract(task.inputDir, task.workspace)
    case "replay":
      return replay(task)
  }
}

process.once("message", (task: Task) => {
  measure(() => run(task)).then(
    (measured) => process.send?.({ type: "done", measured } satisfies WorkerMessage, () => process.exit(0)),
    (e: unknown) =>
      process.send?.(
        {
          type: "failed",
          error: e instanceof Error ? (e.stack ?? e.message) : String(e)
        } satisfies WorkerMessage,
        () => process.exit(1)
      )
  )
})
