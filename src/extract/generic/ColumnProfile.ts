/**
 * Column profiles: JSON files (shipped in `mappings/profiles/`, or given with `--profile`) that describe any
 * CSV or XLSX export — its kind, the headers that identify it, which column means what, its date order,
 * decimal and thousands separators and sign convention. Rows are staged with the profile's field names for
 * mapped columns (unmapped columns keep their header); the profile's formats are reported with the file.
 */
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import { ExtractError } from "../ExtractError.js"
import * as Headers from "../Headers.js"
import type * as P from "../Profile.js"
import * as Table from "../Table.js"
import { resource } from "../../Resources.js"

/** A column profile file. A column is named by its header, or by its 1-based position as `#3`. */
export class ColumnProfile extends Schema.Class<ColumnProfile>("ColumnProfile")({
  kind: Schema.String.pipe(Schema.pattern(/^[a-z0-9_]+\.[a-z0-9_]+$/)),
  description: Schema.String,
  header: Schema.Struct({
    required: Schema.Array(Schema.String),
    row: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.positive()))
  }),
  columns: Schema.Record({ key: Schema.String, value: Schema.String }),
  dateOrder: Schema.optional(Schema.Literal("DMY", "MDY", "YMD")),
  decimal: Schema.optional(Schema.Literal(".", ",")),
  thousands: Schema.optional(Schema.Literal(",", ".", " ", "'", "")),
  sign: Schema.optional(
    Schema.Literal("signed", "debit-credit-columns", "by-type", "negative-in-parentheses")
  ),
  skip: Schema.optional(Schema.Array(Schema.String))
}) {}

/** Where the shipped profiles live. */
export const SHIPPED_DIR = resource("mappings/profiles")

/** Reads and decodes one profile file. */
export const load = (path: string): Effect.Effect<ColumnProfile, ExtractError> =>
  Effect.tryPromise({
    try: () => NodeFs.readFile(path, "utf8"),
    catch: (e) =>
      new ExtractError({
        what: "cannot read the profile",
        where: path,
        why: String(e),
        fix: "check the path"
      })
  }).pipe(
    Effect.flatMap((text) =>
      Schema.decodeUnknown(Schema.parseJson(ColumnProfile))(text).pipe(
        Effect.mapError(
          (e) =>
            new ExtractError({
              what: "invalid column profile",
              where: path,
              why: ParseResult.TreeFormatter.formatErrorSync(e),
              fix: "correct the profile file (see mappings/profiles/README.md)"
            })
        )
      )
    )
  )

/** Every shipped profile (`mappings/profiles/*.json`), in name order. */
export const shipped: Effect.Effect<ReadonlyArray<ColumnProfile>, ExtractError> = Effect.promise(() =>
  NodeFs.readdir(SHIPPED_DIR).catch(() => [] as Array<string>)
).pipe(
  Effect.flatMap((names) =>
    Effect.forEach(names.filter((n) => n.endsWith(".json")).sort(), (n) =>
      load(NodePath.join(SHIPPED_DIR, n))
    )
  )
)

/** The source profile of a column profile: the header by its required names (or its row), keys renamed. */
export const toProfile = (profile: ColumnProfile): P.Profile => {
  const byHeader = Object.entries(profile.columns).filter(([, c]) => !c.startsWith("#"))
  const byPosition = Object.entries(profile.columns).flatMap(([f, c]) =>
    c.startsWith("#") ? [[f, Number(c.slice(1)) - 1] as const] : []
  )
  const known = byHeader.map(([, c]) => c)
  const skips = (profile.skip ?? []).map((s) => [new RegExp(s, "i"), "footer"] as const)
  return {
    kinds: [profile.kind],
    expects: `${profile.description}: a header row with ${profile.header.required.join(", ")}`,
    recognise: (head, file) => {
      const match =
        profile.header.row !== undefined
          ? { index: profile.header.row - 1, coverage: 1 }
          : Table.findHeader(head, profile.header.required, known)
      const headerRecord = head[match?.index ?? -1]
      if (match === undefined || headerRecord === undefined) return []
      const folded = headerRecord.cells.map(Headers.fold)
      const rename = new Map<number, string>(byPosition.map(([f, i]) => [i, f]))
      for (const [field, column] of byHeader) {
        const i = folded.indexOf(Headers.fold(column))
        if (i >= 0) rename.set(i, field)
      }
      const cells = headerRecord.cells.map((c, i) => rename.get(i) ?? c)
      return [
        {
          kind: profile.kind,
          confidence: match.coverage,
          evidence: `profile "${profile.description}", header on line ${headerRecord.line}`,
          formats: {
            ...(profile.dateOrder !== undefined && profile.dateOrder !== "YMD"
              ? { dateOrder: profile.dateOrder }
              : {}),
            ...(profile.decimal !== undefined ? { decimal: profile.decimal } : {})
          },
          reader: () => Table.reader(file, match.index, cells, undefined, skips)
        }
      ]
    }
  }
}
