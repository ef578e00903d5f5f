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
import type { SourceRecord } from "../SourceRecord.js"
import * as Table from "../Table.js"
import { resource } from "../../Resources.js"

/** What a profiled file's rows are: a ledger listing, a chart, a trial balance or an aged listing. */
export const RowsKind = Schema.Literal(
  "ledger",
  "accounts",
  "trial_balance",
  "aged_receivables",
  "aged_payables"
)
export type RowsKind = typeof RowsKind.Type

/**
 * How a ledger row of one transaction type posts when its amount is positive and its type gives the
 * direction (Sage 50's SI, PI, BP, …): the net amount on the row's account on the `nominal` side, the tax
 * amount on the `tax` account on the same side, and their sum on the `control` account on the other side
 * (`@contact`: the account whose code is in the row's contact column, as a Sage bank transaction's).
 */
export const Posting = Schema.Struct({
  nominal: Schema.Literal("debit", "credit"),
  tax: Schema.optional(Schema.String),
  control: Schema.optional(Schema.String)
})
export type Posting = typeof Posting.Type

/** A range of account codes (compared as normalised text, inclusive) and the source type it gives. */
export const CodeRange = Schema.Struct({ from: Schema.String, to: Schema.String, type: Schema.String })

/**
 * The ledger's account codes: their width (numeric codes shorter than it get their leading zeros back), the
 * ranges that classify an account the chart does not, the receivables and payables control accounts, and
 * names of well-known codes used when no chart or trial balance names them.
 */
export const AccountCodes = Schema.Struct({
  width: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.positive())),
  classes: Schema.optional(Schema.Array(CodeRange)),
  receivables: Schema.optional(Schema.String),
  payables: Schema.optional(Schema.String),
  names: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
})
export type AccountCodes = typeof AccountCodes.Type

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
  skip: Schema.optional(Schema.Array(Schema.String)),
  /** What the rows are (default `ledger`). */
  rows: Schema.optional(RowsKind),
  /** A ledger's fields whose values, with the date, group its rows into one journal (default `reference`). */
  group: Schema.optional(Schema.Array(Schema.String)),
  /** With `sign: "by-type"`: how each value of the `type` column posts. */
  postings: Schema.optional(Schema.Record({ key: Schema.String, value: Posting })),
  accountCodes: Schema.optional(AccountCodes)
}) {}

/**
 * The fields a file of this profile cannot do without, among those the profile maps: a ledger's date,
 * account and amounts (and type when the type gives the direction), a chart's code or name, a trial
 * balance's account and amounts, an aged listing's contact and amount.
 */
export const essentialFields = (profile: ColumnProfile): ReadonlyArray<string> => {
  const amounts = ["debit", "credit", "amount"]
  const need: Record<RowsKind, ReadonlyArray<string>> = {
    ledger: ["date", "account", ...amounts, ...(profile.sign === "by-type" ? ["type"] : [])],
    accounts: ["account", "accountName"],
    trial_balance: ["account", "accountName", ...amounts],
    aged_receivables: ["contact", "amount"],
    aged_payables: ["contact", "amount"]
  }
  return need[profile.rows ?? "ledger"].filter((f) => profile.columns[f] !== undefined)
}

/**
 * The columns a header row lacks: the profile's required headers and the headers of its essential fields
 * (a column named by position is missing when the row is narrower).
 */
export const missingColumns = (profile: ColumnProfile, headerCells: ReadonlyArray<string>): Array<string> => {
  const have = new Set(headerCells.map(Headers.fold).filter((c) => c !== ""))
  const width = headerCells.length
  const wanted = [...profile.header.required, ...essentialFields(profile).map((f) => profile.columns[f]!)]
  const missing = wanted.filter((c) =>
    c.startsWith("#") ? Number(c.slice(1)) > width : !have.has(Headers.fold(c))
  )
  return [...new Set(missing)]
}

/** The head record most like the profile's header: the most required headers present (the first on a tie). */
const closestHeader = (profile: ColumnProfile, head: ReadonlyArray<SourceRecord>) => {
  if (profile.header.row !== undefined) return head[profile.header.row - 1]
  const need = profile.header.required.map(Headers.fold)
  let best: SourceRecord | undefined
  let hits = 0
  for (const r of head.slice(0, 25)) {
    const have = new Set(r.cells.map(Headers.fold))
    const n = need.filter((h) => have.has(h)).length
    if (n > hits) [best, hits] = [r, n]
  }
  return best
}

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
      const refusal = (record: SourceRecord | undefined) => {
        if (record === undefined) return []
        const missing = missingColumns(profile, record.cells)
        const present = new Set(record.cells.map(Headers.fold))
        const related = profile.header.required.some((h) => present.has(Headers.fold(h)))
        if (missing.length === 0 || !related) return []
        return [
          {
            kind: profile.kind,
            confidence: 0,
            evidence:
              `profile "${profile.description}" does not match: the header on line ${record.line} lacks the ` +
              `column${missing.length === 1 ? "" : "s"} ${missing.map((m) => JSON.stringify(m)).join(", ")}`,
            reader: () => Table.reader(file, 0, record.cells, undefined, skips)
          }
        ]
      }
      if (match === undefined || headerRecord === undefined) return refusal(closestHeader(profile, head))
      if (missingColumns(profile, headerRecord.cells).length > 0) return refusal(headerRecord)
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
