/** The pipeline's stages as the benchmarks drive them in process: extract into a workspace, plan against a target, copy workspaces. */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import * as Extract from "../src/extract/Extract.js"
import * as ReadSnapshot from "../src/load/ReadSnapshot.js"
import * as TargetApi from "../src/load/TargetApi.js"
import * as PlanStore from "../src/staging/PlanStore.js"
import * as StagingDb from "../src/staging/StagingDb.js"
import * as Mappings from "../src/transform/Mappings.js"
import type { OpKind, Plan } from "../src/transform/Plan.js"
import * as PlanBuilder from "../src/transform/PlanBuilder.js"
import * as XeroSource from "../src/transform/xero/XeroSource.js"

export const API_KEY = "jk-bench-0123456789"

export type ExtractSummary = Extract.FileSummary

/** Logs go nowhere: the benchmarks print their own figures. */
export const quiet = Logger.replace(Logger.defaultLogger, Logger.none)

/** The staging database of `workspace`, with the platform services the stages need. */
export const staging = (workspace: string) =>
  Layer.mergeAll(StagingDb.layer(StagingDb.pathIn(workspace)), NodeContext.layer, quiet)

/** The network layer pointed at a target, sized like the CLI's (`max(8, concurrency)` connections). */
export const target = (baseUrl: string, concurrency = 8) =>
  TargetApi.layer({ baseUrl, apiKey: API_KEY, connections: Math.max(8, concurrency) })

const made: Array<string> = []

/** A new temporary directory, removed by `removeTempDirs`. */
export const tempDir = (prefix: string): string => {
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), `lm-bench-${prefix}-`))
  made.push(dir)
  return dir
}

/** Removes every directory `tempDir` made in this process (exports, workspaces and sandbox states run to gigabytes). */
export const removeTempDirs = (): void => {
  for (const dir of made.splice(0)) NodeFs.rmSync(dir, { recursive: true, force: true })
}

/** Extracts the Xero exports of `inputDir` into `workspace`. */
export const extract = (inputDir: string, workspace: string) =>
  Effect.runPromise(Extract.run({ source: "xero", inputDir }).pipe(Effect.provide(staging(workspace))))

/** Plans the books staged in `workspace` against the target at `baseUrl` (read-only) and stores the plan. */
export const plan = (workspace: string, baseUrl: string) =>
  Effect.gen(function* () {
    const books = yield* XeroSource.read
    const snapshot = yield* ReadSnapshot.read
    const mappings = yield* Mappings.load("xero")
    const built = PlanBuilder.build(books, snapshot, mappings)
    yield* PlanStore.save(built, snapshot.baseCurrency)
    return { plan: built, baseCurrency: snapshot.baseCurrency }
  }).pipe(Effect.provide(Layer.merge(staging(workspace), target(baseUrl))), Effect.runPromise)

/** Stores `plan` as the plan of a new workspace (no checkpoints yet). */
export const savePlan = (workspace: string, plan: Plan, baseCurrency: string) =>
  Effect.runPromise(PlanStore.save(plan, baseCurrency).pipe(Effect.provide(staging(workspace))))

/** A fresh copy of a planned, never-loaded workspace, so that every load starts from the same state. */
export const copyWorkspace = (from: string, prefix: string): string => {
  const to = tempDir(prefix)
  NodeFs.copyFileSync(StagingDb.pathIn(from), StagingDb.pathIn(to))
  return to
}

/** Operations per kind. */
export const countKinds = (plan: Plan): Partial<Record<OpKind, number>> => {
  const counts: Partial<Record<OpKind, number>> = {}
  for (const op of plan.ops) counts[op.kind] = (counts[op.kind] ?? 0) + 1
  return counts
}

/** The created ids a completed load recorded: operation key → resourceId. */
export const createdIds = (workspace: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ key: string; resource_id: string }>`
      SELECT key, resource_id FROM checkpoints WHERE status = 'done' AND resource_id IS NOT NULL`
    return new Map(rows.map((r) => [r.key, r.resource_id]))
  }).pipe(Effect.provide(staging(workspace)), Effect.runPromise)

/** The stored plan operations of `workspace`, in load order. */
export const storedOps = (workspace: string) =>
  Effect.runPromise(PlanStore.ops.pipe(Effect.provide(staging(workspace))))
