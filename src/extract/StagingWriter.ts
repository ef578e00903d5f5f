/**
 * Writes one source file's outcome into staging: staged, skipped and rejected rows buffered and flushed in
 * batches to the run's target, then its `src_files` row (the run's publication replaces the file's earlier
 * rows). A staged row is stored as its values' text (`RowText`) and the number of its shape (its key list,
 * stored once per file in `src_shapes`).
 */
import { relieve } from "../Memory.js"

/**
 * Extract's heap ceiling (`Memory.relieve`): about 27 MB stays live while batches of rows wait for the writer
 * thread, and V8 let the garbage they leave in the old generation grow to 65 MB in use and 93 MB committed
 * at 100,000 invoices (`--trace-gc`), less at 20,000, where the run ends first: the peak grew with the export.
 * With a full collection above 64 MB, two runs of each: 210-211 MB at 20,000 invoices and 219-224 MB at
 * 100,000 (growth 1.04-1.06), against 211 and 240-249 MB (1.14-1.18), in 2.57-2.72 s and 7.85-8.00 s against
 * 2.61-2.62 s and 8.01-8.14 s. A floor of 48 MB gave 203-218 MB in 10-16% more time.
 */
const EXTRACT_FLOOR = 64 * 1024 * 1024
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as RowText from "../staging/RowText.js"
import * as Sql from "./StagingSql.mjs"
import type { SkipReason } from "./Profile.js"
import type { Row, Target } from "./StagingTarget.js"

/** The line accounting of one file. */
export interface Counts {
  readonly lines: number
  readonly staged: number
  readonly skipped: number
  readonly rejected: number
}

/** The file-level facts recorded in `src_files`. */
export interface FileFacts {
  readonly file: string
  readonly source: string
  readonly kind: string
  readonly confidence: number
  readonly sha256: string
}

/** Buffers rows of one file; `flush` writes what is buffered, `counts` is the accounting so far. */
export interface FileWriter {
  /** Stages the row at `line`: its `values` in the order of `keys` (a shared array: see `Profile.shape`). */
  readonly stage: (line: number, keys: ReadonlyArray<string>, values: ReadonlyArray<string>) => void
  readonly skip: (line: number, reason: SkipReason, raw: string) => void
  readonly reject: (line: number, reason: string, raw: string) => void
  readonly buffered: () => number
  readonly flush: Effect.Effect<void, SqlError>
  readonly counts: () => Counts
}

/** A writer for the rows of `file`. */
export const make = (target: Target, file: string): FileWriter => {
  const shapeIds = new Map<ReadonlyArray<string>, number>()
  let shapes: Array<Row> = []
  let lines: Array<number> = []
  let rowShapes: Array<number> = []
  let texts: Array<string> = []
  let skips: Array<Row> = []
  let rejects: Array<Row> = []
  const counts = { lines: 0, staged: 0, skipped: 0, rejected: 0 }
  return {
    stage: (line, keys, values) => {
      let shape = shapeIds.get(keys)
      if (shape === undefined) {
        shapeIds.set(keys, (shape = shapeIds.size))
        shapes.push([file, shape, JSON.stringify(keys)])
      }
      lines.push(line)
      rowShapes.push(shape)
      texts.push(RowText.encode(values))
      counts.lines++
      counts.staged++
    },
    skip: (line, reason, raw) => {
      skips.push([file, line, reason, raw])
      counts.lines++
      counts.skipped++
    },
    reject: (line, reason, raw) => {
      rejects.push([file, line, reason, raw])
      counts.lines++
      counts.rejected++
    },
    buffered: () => lines.length + skips.length + rejects.length,
    flush: Effect.suspend(() => {
      relieve(EXTRACT_FLOOR)
      const staged = {
        file,
        lines: Int32Array.from(lines),
        shapes: Int32Array.from(rowShapes),
        data: Sql.packTexts(texts)
      }
      const [h, s, j] = [shapes, skips, rejects]
      shapes = []
      lines = []
      rowShapes = []
      texts = []
      skips = []
      rejects = []
      return Effect.all(
        [
          target.insert("src_shapes", h),
          target.stage(staged),
          target.insert("skipped", s),
          target.insert("rejects", j)
        ],
        { discard: true }
      )
    }),
    counts: () => ({ ...counts })
  }
}

/** Records the file's summary row (last, once its rows are all written). */
export const finish = (target: Target, facts: FileFacts, counts: Counts): Effect.Effect<void, SqlError> =>
  target.insert("src_files", [
    [
      facts.file,
      facts.source,
      facts.kind,
      facts.confidence,
      facts.sha256,
      counts.lines,
      counts.staged,
      counts.skipped,
      counts.rejected
    ]
  ])
