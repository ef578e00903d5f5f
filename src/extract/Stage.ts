/**
 * Lands one file's records in staging: recognise its layout from the first records, then feed every record
 * through the layout's reader into staging (the run's target replaces what an earlier extract of the same
 * file staged when it publishes the run). Shared by the CSV and XLSX readers.
 */
import * as Effect from "effect/Effect"
import { ExtractError } from "./ExtractError.js"
import * as Formats from "./Formats.js"
import * as P from "./Profile.js"
import * as Profiles from "./Profiles.js"
import type { SourceRecord } from "./SourceRecord.js"
import { StagingTarget } from "./StagingTarget.js"
import * as StagingWriter from "./StagingWriter.js"

/** Records read for recognition. */
export const HEAD = 200
/**
 * Records read and classified at a time. What a batch holds (its records, their cells and raw texts) is live
 * while it is classified, and the young generation's collections copy it. 1,000 at a time, the extract of a
 * 1,000,000-row export took 14-19 s instead of 8.5-12.7 s in 9 of 30 runs by hand and 2 of 3 in the benchmark:
 * the collections kept promoting whole batches to the old generation (`--trace-gc`: scavenges 7.4 s instead of
 * 2.1-2.5 s, 48 full collections instead of 1; peak 209-211 MB instead of 177-185 MB). 250 at a time, none of 8
 * runs was slow: 8.4-10.9 s in 5 by hand, 8.3-8.6 s in the benchmark's 3.
 */
const BATCH = 250
/** Staged rows handed to the writer thread at a time. */
const FLUSH = 1_000

/** Pulls records in order; an empty batch means the end. */
export interface Cursor {
  readonly next: (max: number) => Effect.Effect<ReadonlyArray<SourceRecord>, ExtractError>
}

/** What extracting a file produced. */
export interface FileResult {
  readonly file: string
  readonly recognition: P.Recognition
  readonly counts: StagingWriter.Counts
  readonly formats: Formats.Formats
  readonly warnings: ReadonlyArray<string>
}

const stagingFailed = (file: string) => (e: { readonly message: string }) =>
  new ExtractError({
    what: "cannot write the file's rows to staging",
    where: file,
    why: e.message,
    fix: "check the workspace's staging database (disk space, permissions, not open elsewhere) and extract again"
  })

/**
 * Stages the records of `file` read from `cursor` (its first records already in `head`); `sha256` is asked
 * once the cursor has ended.
 */
export const stage = (
  file: string,
  source: string,
  profiles: ReadonlyArray<P.Profile>,
  head: ReadonlyArray<SourceRecord>,
  cursor: Cursor,
  sha256: () => string
): Effect.Effect<FileResult, ExtractError, StagingTarget> =>
  Effect.gen(function* () {
    const target = yield* StagingTarget
    const recognition = yield* Profiles.choose(profiles, head, file)
    const reader = recognition.reader()
    const writer = StagingWriter.make(target, file)
    const formats = Formats.observer(file, recognition.formats)
    const feed = (records: ReadonlyArray<SourceRecord>) => {
      for (const record of records) {
        const outcome = reader.read(record)
        const problem =
          outcome._tag === "Staged"
            ? (record.problem ?? formats.impossibleDate(outcome.keys, outcome.values, record.line))
            : undefined
        if (problem !== undefined) writer.reject(record.line, problem, record.raw)
        else if (outcome._tag === "Staged") {
          writer.stage(record.line, outcome.keys, outcome.values)
          formats.observe(outcome.keys, outcome.values, record.line)
        } else if (outcome._tag === "Skipped") writer.skip(record.line, outcome.reason, record.raw)
        else writer.reject(record.line, outcome.reason, record.raw)
      }
    }
    const write = Effect.gen(function* () {
      feed(head)
      let batch = yield* cursor.next(BATCH)
      while (batch.length > 0) {
        feed(batch)
        if (writer.buffered() >= FLUSH) yield* writer.flush
        batch = yield* cursor.next(BATCH)
      }
      yield* writer.flush
      const counts = writer.counts()
      const facts = {
        file,
        source,
        kind: recognition.kind,
        confidence: recognition.confidence,
        sha256: sha256()
      }
      yield* StagingWriter.finish(target, facts, counts)
      return counts
    })
    const counts = yield* write.pipe(Effect.catchTag("SqlError", (e) => Effect.fail(stagingFailed(file)(e))))
    const found = formats.result()
    return { file, recognition, counts, formats: found, warnings: [...reader.finish(), ...found.warnings] }
  })
