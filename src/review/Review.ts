/**
 * The review in the pipeline: `generate` writes the workspace's review.xlsx from the staged books and the
 * target; `decisions` reads it back (when it exists) for plan, refusing bad decisions by cell; `pending`
 * lists the suggestions below the confidence threshold that no decision confirms, which plan records with the
 * plan (`plan_meta` key `review`) and load refuses to start with, unless told to accept them.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import type { Mappings } from "../transform/Mappings.js"
import type { Books, SourceBooks } from "../transform/SourceModel.js"
import type { TargetSnapshot } from "../transform/TargetSnapshot.js"
import * as Matching from "./Matching.js"
import * as Workbook from "./Workbook.js"

export const workbookPath = (workspace: string): string => NodePath.join(workspace, Workbook.FILE)

export class ReviewError extends Schema.TaggedError<ReviewError>()("ReviewError", {
  file: Schema.String,
  errors: Schema.Array(Schema.String)
}) {
  override get message() {
    const shown = this.errors.slice(0, 30)
    return `${this.file}: ${this.errors.length} decision${this.errors.length === 1 ? "" : "s"} refused:\n${shown.map((e) => `  ${e}`).join("\n")}${this.errors.length > shown.length ? `\n  … and ${this.errors.length - shown.length} more` : ""}\nCorrect ${this.errors.length === 1 ? "that cell" : "those cells"} (choose from the drop-down) and run plan again.`
  }
}

/** A suggestion that load will not accept unconfirmed. */
export interface Pending {
  readonly cell: string
  readonly source: string
  readonly suggestion: string
  readonly confidence: number
  readonly reason: string
}

/** What plan records of the review with the plan. */
export interface ReviewState {
  /** sha256 of the review.xlsx the plan read; null when there was none. */
  readonly workbook: string | null
  readonly pending: ReadonlyArray<Pending>
}

const sha256 = (path: string) => createHash("sha256").update(NodeFs.readFileSync(path)).digest("hex")

/** The workbook's sha256 now, or null when there is none. */
export const workbookHash = (workspace: string): string | null => {
  const path = workbookPath(workspace)
  return NodeFs.existsSync(path) ? sha256(path) : null
}

const describeChoice = (c: Matching.Choice): string =>
  c.kind === "adopt"
    ? `"${c.target}"`
    : c.kind === "merge"
      ? `merge into "${c.into}"`
      : c.kind === "create"
        ? Matching.CREATE
        : c.kind === "no-profile"
          ? Matching.NO_PROFILE
          : "nothing (a decision is needed)"

/** The workbook's decisions (none without a workbook), and the suggestions still to be confirmed. */
export const decisions = (workspace: string, books: Books, snapshot: TargetSnapshot, mappings: Mappings) =>
  Effect.gen(function* () {
    const path = workbookPath(workspace)
    const suggestions = Matching.suggest(books, snapshot, mappings)
    const exists = NodeFs.existsSync(path)
    const read = exists
      ? yield* Effect.tryPromise({
          try: () => Workbook.read(path, snapshot, suggestions),
          catch: (e) => new ReviewError({ file: path, errors: [`not a readable workbook (${String(e)})`] })
        })
      : { decisions: new Map<string, Workbook.Decided>(), errors: [] }
    if (read.errors.length > 0) return yield* new ReviewError({ file: path, errors: read.errors })
    const chosen: Matching.Decisions = new Map([...read.decisions].map(([k, d]) => [k, d.choice]))
    const pending: Array<Pending> = Matching.unconfirmed(suggestions, chosen).map((s) => ({
      cell: Workbook.cellOf(suggestions, s),
      source: `${s.sheet === "Accounts" && s.code ? `${s.code} ` : ""}${s.label} (${s.where})`,
      suggestion: describeChoice(s.choice),
      confidence: s.confidence,
      reason: s.reason
    }))
    const differing = suggestions.filter((s) => {
      const c = chosen.get(Matching.choiceKey(s.sheet, s.key))
      return c !== undefined && JSON.stringify(c) !== JSON.stringify(s.choice)
    }).length
    return {
      decisions: chosen,
      suggestions,
      differing,
      state: { workbook: exists ? sha256(path) : null, pending } satisfies ReviewState
    }
  })

/** Writes review.xlsx for the staged books against the target; returns the suggestions it holds. */
export const generate = (
  workspace: string,
  books: SourceBooks,
  snapshot: TargetSnapshot,
  mappings: Mappings,
  target: string
) =>
  Effect.gen(function* () {
    const suggestions = Matching.suggest(books, snapshot, mappings)
    const path = workbookPath(workspace)
    yield* Effect.promise(() =>
      Workbook.write(path, books, snapshot, suggestions, {
        target,
        baseCurrency: snapshot.baseCurrency,
        generatedAt: new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC"
      })
    )
    return { path, suggestions }
  })

/** Records the review state with the stored plan (after `PlanStore.save`, which replaces plan_meta whole). */
export const save = (state: ReviewState) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT OR REPLACE INTO plan_meta (k, v) VALUES ('review', ${JSON.stringify(state)})`
  }).pipe(Effect.orDie)

/** The review state recorded with the stored plan; undefined for a plan made before reviews were kept. */
export const stored = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ v: string }>`SELECT v FROM plan_meta WHERE k = 'review'`
  return rows[0] === undefined ? undefined : (JSON.parse(rows[0].v) as ReviewState)
}).pipe(Effect.orDie)

export class ReviewRefused extends Schema.TaggedError<ReviewRefused>()("ReviewRefused", {
  detail: Schema.String
}) {
  override get message() {
    return this.detail
  }
}

const pendingLine = (p: Pending) =>
  `  ${p.cell}: ${p.source} → ${p.suggestion} (confidence ${p.confidence.toFixed(2)}: ${p.reason})`

/**
 * The gate before load: refused while the plan's low-confidence suggestions are unconfirmed (unless
 * `accept`, which returns the lines saying what was accepted), or when review.xlsx changed after plan.
 */
export const gate = (workspace: string, state: ReviewState | undefined, accept: boolean) =>
  Effect.gen(function* () {
    if (state === undefined) return [] as Array<string>
    const now = workbookHash(workspace)
    if (now !== state.workbook)
      return yield* new ReviewRefused({
        detail: `${workbookPath(workspace)} ${state.workbook === null ? "was written" : now === null ? "was removed" : "changed"} after the plan was made: run plan again so that the plan carries its decisions`
      })
    if (state.pending.length === 0) return []
    const n = state.pending.length
    if (!accept)
      return yield* new ReviewRefused({
        detail: [
          `load refused: ${n} suggestion${n === 1 ? "" : "s"} below confidence ${Matching.confirmBelow.toFixed(2)} ${n === 1 ? "is" : "are"} not confirmed:`,
          ...state.pending.map(pendingLine),
          `Decide ${n === 1 ? "it" : "them"} in ${workbookPath(workspace)} (run review --workspace WS --base-url URL to write it), run plan again, then load; or load --accept-suggestions to accept ${n === 1 ? "it" : "them"} as suggested.`
        ].join("\n")
      })
    return [
      `--accept-suggestions: accepted ${n} unconfirmed suggestion${n === 1 ? "" : "s"}:`,
      ...state.pending.map(pendingLine)
    ]
  })
