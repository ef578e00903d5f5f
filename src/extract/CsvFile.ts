/** Extracts one delimited text file: detect its encoding and delimiter, then stage its records. */
import * as Effect from "effect/Effect"
import * as CsvReader from "./CsvReader.js"
import type { ExtractError } from "./ExtractError.js"
import type { Profile, Recognition } from "./Profile.js"
import * as Profiles from "./Profiles.js"
import * as Stage from "./Stage.js"
import type { StagingTarget } from "./StagingTarget.js"
import * as TextFormat from "./TextFormat.js"

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
      return yield* Profiles.choose(profiles, yield* cursor.next(Stage.HEAD), file)
    })
  )

/** Extracts the file at `path` (named `file` in staging) of a `source` migration. */
export const extract = (
  path: string,
  file: string,
  source: string,
  profiles: ReadonlyArray<Profile>
): Effect.Effect<Stage.FileResult, ExtractError, StagingTarget> =>
  Effect.scoped(
    Effect.gen(function* () {
      const format = yield* TextFormat.sniff(path, file)
      const cursor = yield* CsvReader.open(path, file, format)
      const head = yield* cursor.next(Stage.HEAD)
      return yield* Stage.stage(file, source, profiles, head, cursor, cursor.sha256)
    })
  )
