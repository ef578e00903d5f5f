/**
 * The reviewed maps a transform applies: source account types → `classificationType`, source tax rates →
 * existing target tax profile names, source account names → existing target accounts. Shipped defaults
 * live in `mappings/<source>/`; a workspace may override any file with its own copy.
 */
import { remembered } from "../Remembered.js"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as NodePath from "node:path"
import { resource } from "../Resources.js"
import type { Decisions } from "../review/Matching.js"

/** Where the shipped mappings live (the repository's `mappings/` folder). */
export const shippedDir = resource("mappings")

const StringMap = Schema.Record({ key: Schema.String, value: Schema.NullOr(Schema.String) })

/** A loaded map, looked up case-insensitively; `$comment` keys are ignored. */
export class NameMap {
  private readonly byKey: Map<string, string | null>
  constructor(
    readonly file: string,
    entries: Record<string, string | null>
  ) {
    this.byKey = new Map(
      Object.entries(entries)
        .filter(([k]) => !k.startsWith("$"))
        .map(([k, v]) => [normalizeName(k), v])
    )
  }
  /** The mapped value; `undefined` when the key is unmapped, `null` when it is mapped to nothing. */
  get(key: string): string | null | undefined {
    return this.byKey.get(normalizeName(key))
  }
}

/**
 * A name as mappings and matching compare it: trimmed, inner spaces single, lower case. Remembered, since the
 * planner asks for the same few hundred names once per document line.
 */
export const normalizeName = remembered((s: string): string => s.trim().replace(/\s+/g, " ").toLowerCase())

export interface Mappings {
  readonly accountTypes: NameMap
  readonly taxCodes: NameMap
  readonly accounts: NameMap
  /** The accountant's decisions from the workspace's review.xlsx (absent: the suggestions stand). */
  readonly decisions?: Decisions
}

export class MappingError extends Schema.TaggedError<MappingError>()("MappingError", {
  file: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `mapping file ${this.file}: ${this.reason}. Fix the JSON (an object of "source name": "target name").`
  }
}

const loadMap = (fs: FileSystem.FileSystem, dirs: ReadonlyArray<string>, name: string) =>
  Effect.gen(function* () {
    for (const dir of dirs) {
      const file = NodePath.join(dir, name)
      if (!(yield* fs.exists(file).pipe(Effect.orElseSucceed(() => false)))) continue
      const text = yield* fs
        .readFileString(file)
        .pipe(Effect.mapError((e) => new MappingError({ file, reason: e.message })))
      const json = yield* Effect.try({
        try: () => JSON.parse(text) as unknown,
        catch: (e) => new MappingError({ file, reason: `not JSON (${String(e)})` })
      })
      const entries = yield* Schema.decodeUnknown(StringMap)(json).pipe(
        Effect.mapError((e) => new MappingError({ file, reason: e.message }))
      )
      return new NameMap(file, entries)
    }
    return yield* new MappingError({ file: NodePath.join(dirs[dirs.length - 1]!, name), reason: "missing" })
  })

/** Loads a source's maps: the override directory first (if any), then the shipped defaults. */
export const load = (source: string, overrideDir?: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const dirs = [
      ...(overrideDir ? [NodePath.join(overrideDir, source), overrideDir] : []),
      NodePath.join(shippedDir, source)
    ]
    return {
      accountTypes: yield* loadMap(fs, dirs, "account-types.json"),
      taxCodes: yield* loadMap(fs, dirs, "tax-codes.json"),
      accounts: yield* loadMap(fs, dirs, "accounts.json")
    } satisfies Mappings
  })
