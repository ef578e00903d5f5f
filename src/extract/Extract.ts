/**
 * The extract stage: every export file of an input directory recognised by its headers and title rows,
 * and each of its lines landed in staging as a staged row, a skipped line or a reject, with file:line lineage.
 * An input with nothing to extract (a missing folder, no export files, only unrecognised or empty ones) is
 * an error that leaves staging as it was.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import * as CsvFile from "./CsvFile.js"
import * as ColumnProfile from "./generic/ColumnProfile.js"
import * as ProfileStore from "./generic/ProfileStore.js"
import { ExtractError } from "./ExtractError.js"
import type { Profile } from "./Profile.js"
import * as Profiles from "./Profiles.js"
import * as StagingTarget from "./StagingTarget.js"
import type * as Stage from "./Stage.js"
import * as XlsxFile from "./XlsxFile.js"

export { ExtractError } from "./ExtractError.js"

/**
 * What to extract: the source system, the directory of its exports, and any column profile files (added to
 * the source's profiles; `generic` also uses every profile shipped in `mappings/profiles/`).
 */
export interface ExtractOptions {
  readonly source: "xero" | "qbo" | "generic"
  readonly inputDir: string
  readonly profileFiles?: ReadonlyArray<string>
  /** Staged rows committed at a time into a file-backed staging (`StagingTarget.CHUNK_ROWS` by default). */
  readonly chunkRows?: number
}

/** The outcome for one file: its kind and the line accounting `lines = staged + skipped + rejected`. */
export interface FileSummary {
  readonly file: string
  readonly kind: string
  readonly confidence: number
  readonly lines: number
  readonly staged: number
  readonly skipped: number
  readonly rejected: number
  readonly warnings: ReadonlyArray<string>
  /** The file's numeric date order, when its dates decide it (`DMY` for 15/04/2025, `MDY` for 04/15/2025). */
  readonly dateOrder?: "DMY" | "MDY"
  /** The file's decimal separator, when its amounts show it. */
  readonly decimal?: "." | ","
}

/** Extensions of files that are exports; any other file (notes, PDFs, `.md`) is not one and is left alone. */
export const EXPORT_EXTENSIONS: ReadonlyArray<string> = [".csv", ".tsv", ".txt", ".xlsx", ".xlsm"]
const WORKBOOKS: ReadonlyArray<string> = [".xlsx", ".xlsm"]
const UNSUPPORTED: Readonly<Record<string, string>> = {
  ".xls": "save it as .xlsx or CSV (UTF-8) and extract again",
  ".ods": "save it as .xlsx or CSV (UTF-8) and extract again",
  ".numbers": "export it as .xlsx or CSV (UTF-8) and extract again"
}

/** The files of an input directory: its export files, sorted by name, and the other files left alone. */
export interface InputFiles {
  readonly exports: ReadonlyArray<string>
  readonly ignored: ReadonlyArray<string>
}

/** The input directory's entries, or why it cannot be read: missing, not a directory, unreadable. */
const entriesOf = (inputDir: string) =>
  Effect.tryPromise({
    try: () => NodeFs.readdir(inputDir, { withFileTypes: true }),
    catch: (e) => {
      const code = (e as { code?: unknown }).code
      const fix = "pass the folder that holds the export files"
      return code === "ENOENT"
        ? new ExtractError({
            what: "the input folder does not exist",
            where: inputDir,
            why: "No file or folder has that path",
            fix
          })
        : code === "ENOTDIR"
          ? new ExtractError({
              what: "the input is not a folder",
              where: inputDir,
              why: "Extract reads every export file of a folder",
              fix
            })
          : new ExtractError({ what: "cannot list the input folder", where: inputDir, why: String(e), fix })
    }
  })

/**
 * The files of `inputDir`, sorted by name: dotfiles, Excel's `~$` lock files, README.md and directories are
 * not candidates, files whose extension is not an export's are left alone, and a spreadsheet format the
 * readers cannot open is an error.
 */
export const listFiles = (inputDir: string): Effect.Effect<InputFiles, ExtractError> =>
  entriesOf(inputDir).pipe(
    Effect.flatMap((entries) => {
      const names = entries
        .filter((e) => e.isFile() && !/^(\.|~\$)/.test(e.name) && e.name.toLowerCase() !== "readme.md")
        .map((e) => e.name)
        .sort()
      const unsupported = names.find((n) => UNSUPPORTED[NodePath.extname(n).toLowerCase()] !== undefined)
      if (unsupported !== undefined)
        return Effect.fail(
          new ExtractError({
            what: "unsupported spreadsheet format",
            where: unsupported,
            why: `${NodePath.extname(unsupported)} files cannot be read by this version`,
            fix: UNSUPPORTED[NodePath.extname(unsupported).toLowerCase()]!
          })
        )
      const ignored = names.filter((n) => !EXPORT_EXTENSIONS.includes(NodePath.extname(n).toLowerCase()))
      return Effect.succeed({ exports: names.filter((n) => !ignored.includes(n)), ignored })
    })
  )

/** How a source is named in messages. */
const SOURCE_NAMES: Readonly<Record<ExtractOptions["source"], string>> = {
  xero: "Xero",
  qbo: "QuickBooks Online",
  generic: "the source system"
}

/** What an input directory without export files (or without any data in them) is told. */
const nothingToExtract = (
  options: ExtractOptions,
  profiles: ReadonlyArray<Profile>,
  found: string
): ExtractError =>
  new ExtractError({
    what: "no export files found",
    where: options.inputDir,
    why:
      `${found}. Extract looks for ${EXPORT_EXTENSIONS.join(", ")} files holding one of the layouts of ` +
      `source ${options.source}: ${Profiles.expected(profiles)}`,
    fix:
      `export the books from ${SOURCE_NAMES[options.source]} into this folder, or pass the folder that ` +
      "holds the export files, and extract again"
  })

const isWorkbook = (file: string) => WORKBOOKS.includes(NodePath.extname(file).toLowerCase())

/**
 * One export set shares its region's date format: a file whose numeric dates never show their order
 * (e.g. every date on the 1st of a month) takes the order the other files agree on, and says so.
 */
const settleDateOrders = (results: ReadonlyArray<Stage.FileResult>): ReadonlyArray<Stage.FileResult> => {
  const orders = new Set(
    results.flatMap((r) => (r.formats.dateOrder === undefined ? [] : [r.formats.dateOrder]))
  )
  const [only] = orders
  return results.map((r) => {
    if (r.formats.undecided === undefined) return r
    if (orders.size !== 1 || only === undefined)
      return { ...r, warnings: [...r.warnings, r.formats.undecided] }
    const from = results.filter((o) => o.formats.dateOrder === only && o.formats.undecided === undefined)
    const note = `${r.file}: its dates never show their order; ${only} taken from ${from.map((o) => o.file).join(", ")}`
    return { ...r, formats: { ...r.formats, dateOrder: only }, warnings: [...r.warnings, note] }
  })
}

const summarise = (result: Stage.FileResult, seconds: number) =>
  Effect.gen(function* () {
    const { file, recognition, counts, formats, warnings } = result
    yield* Effect.logInfo(
      `${file}: ${recognition.kind} (${recognition.evidence}), ${counts.lines} lines: ${counts.staged} staged, ` +
        `${counts.skipped} skipped, ${counts.rejected} rejected, ${Math.round(counts.lines / seconds)} lines/s`
    )
    for (const w of warnings) yield* Effect.logWarning(w)
    return {
      file,
      kind: recognition.kind,
      confidence: recognition.confidence,
      ...counts,
      warnings,
      ...(formats.dateOrder !== undefined ? { dateOrder: formats.dateOrder } : {}),
      ...(formats.decimal !== undefined ? { decimal: formats.decimal } : {})
    } satisfies FileSummary
  })

/**
 * An input directory checked before anything is written: its export files and the profiles they are
 * recognised against. Every delimited file is already recognised; workbooks are recognised sheet by sheet
 * as they are read.
 */
export interface Survey {
  readonly options: ExtractOptions
  readonly files: ReadonlyArray<string>
  readonly ignored: ReadonlyArray<string>
  readonly profiles: ReadonlyArray<Profile>
  /** The column profiles among them, recorded with the kinds they stage (`generic/ProfileStore.ts`). */
  readonly columnProfiles?: ReadonlyArray<ColumnProfile.ColumnProfile>
}

/**
 * Checks `options.inputDir` without touching staging: a missing folder, a folder without export files and a
 * delimited file no profile recognises are errors before anything is written.
 */
export const survey: (options: ExtractOptions) => Effect.Effect<Survey, ExtractError> = Effect.fn(
  "Extract.survey"
)(function* (options: ExtractOptions) {
  const columnProfiles = [
    ...(options.source === "generic" ? yield* ColumnProfile.shipped : []),
    ...(yield* Effect.forEach(options.profileFiles ?? [], ColumnProfile.load))
  ]
  const profiles = [...Profiles.forSource(options.source), ...columnProfiles.map(ColumnProfile.toProfile)]
  const { exports, ignored } = yield* listFiles(options.inputDir)
  if (exports.length === 0)
    return yield* nothingToExtract(
      options,
      profiles,
      ignored.length === 0
        ? "The folder holds no files"
        : `The folder holds only files that are not exports (${ignored.join(", ")})`
    )
  yield* Effect.forEach(
    exports.filter((f) => !isWorkbook(f)),
    (file) => CsvFile.recognise(NodePath.join(options.inputDir, file), file, profiles),
    { discard: true }
  )
  return { options, files: exports, ignored, profiles, columnProfiles }
})

/**
 * Extracts the export files of a surveyed input directory; a workbook gives one summary per non-empty sheet
 * (`Book.xlsx#Sheet`). The run is published at its end in one transaction: any failure, or a kill, leaves
 * what staging shows exactly as it was. Each file replaces its own earlier rows, so extracting the same input
 * again gives the same staging.
 */
export const stage: (
  input: Survey
) => Effect.Effect<ReadonlyArray<FileSummary>, ExtractError, SqlClient.SqlClient> = Effect.fn(
  "Extract.stage"
)(function* (input: Survey) {
  const { options, files, profiles } = input
  if (input.ignored.length > 0) yield* Effect.logInfo(`not exports, left alone: ${input.ignored.join(", ")}`)
  const pathOf = (file: string) => NodePath.join(options.inputDir, file)
  const extractAll = Effect.forEach(files, (file) =>
    Effect.gen(function* () {
      const started = Date.now()
      const results = isWorkbook(file)
        ? yield* XlsxFile.extract(pathOf(file), file, options.source, profiles)
        : [yield* CsvFile.extract(pathOf(file), file, options.source, profiles)]
      const seconds = Math.max((Date.now() - started) / 1000, 0.001)
      return results.map((result) => ({ result, seconds }))
    })
  ).pipe(
    Effect.flatMap((nested) => {
      const timed = nested.flat()
      if (timed.length === 0)
        return Effect.fail(
          nothingToExtract(options, profiles, `Its workbooks hold only empty sheets (${files.join(", ")})`)
        )
      const settled = settleDateOrders(timed.map((t) => t.result))
      return Effect.forEach(settled, (r, i) => summarise(r, timed[i]!.seconds))
    })
  )
  return yield* StagingTarget.run(extractAll, options.chunkRows).pipe(
    Effect.tap((summaries) =>
      ProfileStore.record(
        input.columnProfiles ?? [],
        summaries.map((s) => s.kind)
      )
    ),
    Effect.catchTag("SqlError", (e) =>
      Effect.fail(
        new ExtractError({
          what: "cannot write to staging",
          where: options.inputDir,
          why: e.message,
          fix: "check the workspace's staging database (disk space, permissions, not open elsewhere) and extract again"
        })
      )
    )
  )
})

/** Surveys `options.inputDir`, then extracts it (`survey`, then `stage`). */
export const run = (
  options: ExtractOptions
): Effect.Effect<ReadonlyArray<FileSummary>, ExtractError, SqlClient.SqlClient> =>
  Effect.flatMap(survey(options), stage)
