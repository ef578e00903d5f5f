/**
 * Extracts one delimited text file: detect its format, recognise its layout from its first records, then
 * stream every record through the layout's reader into staging, replacing what an earlier extract of the
 * same file staged, in one transaction.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as CsvReader from "./CsvReader.js"
import { ExtractError } from "./ExtractError.js"
import type { Profile, Recognition } from "./Profile.js"
import * as Profiles from "./Profiles.js"
import { rowHash, type SourceRecord } from "./SourceRecord.js"
import * as StagingWriter from "./StagingWriter.js"
import * as TextFormat from "./TextFormat.js"

/** Records read for recognition. */
export const HEAD = 200
const BATCH = 5_000

/** What extracting a file produced. */
export interface FileResult {
  readonly recognition: Recognition
  readonly counts: StagingWriter.Counts
  readonly warnings: ReadonlyArray<string>
}

/** Recognises the file at `path` (named `file`) among `profiles` without staging anything. */
export const recognise = (
  path: string,
  file: string,
  profiles: ReadonlyArray<Profile>
): Effect.Effect<Recognition, ExtractError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const format = yield* TextFormat.sniff(path, file)
      const cursor = yield* CsvReader.open(path, file, format)
      return yield* Profiles.choose(profiles, yield* cursor.next(HEAD), file)
    })
  )

const stagingFailed = (file: string) => (e: { readonly message: string }) =>
  new ExtractError({
    what: "cannot write the file's rows to staging",
    where: file,
    why: e.message,
    fix: "check the workspace's staging database (disk space, permissions, not open elsewhere) and extract again"
  })

/** Extracts the file at `path` (named `file` in staging) of a `source` migration. */
export const extract = (
  path: string,
  file: string,
  source: string,
  profiles: ReadonlyArray<Profile>
): Effect.Effect<FileResult, ExtractError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const format = yield* TextFormat.sniff(path, file)
    const cursor = yield* CsvReader.open(path, file, format)
    const head = yield* cursor.next(HEAD)
    const recognition = yield* Profiles.choose(profiles, head, file)
    const reader = recognition.reader()
    const writer = StagingWriter.make(sql, file, recognition.kind)
    const feed = (records: ReadonlyArray<SourceRecord>) => {
      for (const record of records) {
        const outcome = reader.read(record)
        if (outcome._tag === "Staged") writer.stage(record.line, rowHash(record.cells), outcome.data)
        else if (outcome._tag === "Skipped") writer.skip(record.line, outcome.reason, record.raw)
        else writer.reject(record.line, outcome.reason, record.raw)
      }
    }
    const write = Effect.gen(function* () {
      yield* StagingWriter.clear(sql, file)
      feed(head)
      let batch = head.length < HEAD ? [] : yield* cursor.next(BATCH)
      while (batch.length > 0) {
        feed(batch)
        if (writer.buffered() >= BATCH) yield* writer.flush
        batch = yield* cursor.next(BATCH)
      }
      yield* writer.flush
      const counts = writer.counts()
      yield* StagingWriter.finish(
        sql,
        { file, source, kind: recognition.kind, confidence: recognition.confidence, sha256: cursor.sha256() },
        counts
      )
      return counts
    })
    const counts = yield* sql
      .withTransaction(write)
      .pipe(Effect.catchTag("SqlError", (e) => Effect.fail(stagingFailed(file)(e))))
    return { recognition, counts, warnings: reader.finish() }
  }).pipe(Effect.scoped)
