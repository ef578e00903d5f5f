/**
 * Extracts an XLSX workbook with exceljs's streaming WorkbookReader, one staged file per non-empty sheet
 * (`Book.xlsx#Sheet name`, row numbers as lines). exceljs can stop early without an error, so every sheet's
 * streamed rows are compared with the row elements counted straight from its XML, and the whole read runs
 * under a timeout: an incomplete read fails loudly instead of staging part of a sheet.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import ExcelJS from "exceljs"
import * as NodeCrypto from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodeFsP from "node:fs/promises"
import { ExtractError } from "./ExtractError.js"
import type { Profile } from "./Profile.js"
import { isBlank, type SourceRecord } from "./SourceRecord.js"
import * as Stage from "./Stage.js"
import type { StagingTarget } from "./StagingTarget.js"
import * as Cells from "./xlsx/Cells.js"
import * as SheetIndex from "./xlsx/SheetIndex.js"

interface Pull<A> {
  readonly next: () => Promise<IteratorResult<A>>
}

const failure = (where: string, what: string, fix: string) => (e: unknown) =>
  new ExtractError({ what, where, why: e instanceof Error ? e.message : String(e), fix })

const promise = <A>(where: string, what: string, fix: string, f: () => Promise<A>) =>
  Effect.tryPromise({ try: f, catch: failure(where, what, fix) })

const sha256Of = (path: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = NodeCrypto.createHash("sha256")
    NodeFs.createReadStream(path)
      .on("data", (c) => hash.update(c))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")))
  })

/** A cursor over one sheet's rows, synthesising blank records for row numbers the XML leaves out. */
const sheetCursor = (rows: Pull<ExcelJS.Row>, file: string) => {
  let line = 1
  let xmlRows = 0
  let pending: SourceRecord | undefined
  let done = false
  const record = (row: ExcelJS.Row): SourceRecord => {
    const values = (row.values ?? []) as ReadonlyArray<ExcelJS.CellValue>
    const cells: Array<string> = []
    let problem: string | undefined
    for (let c = 1; c < values.length; c++) {
      const t = Cells.text(values[c], `${file}!${Cells.column(c)}${row.number}`)
      cells.push(t.text)
      problem ??= t.problem
    }
    // `raw` is only read for skipped and rejected rows: built when asked.
    const base = {
      line: row.number,
      cells,
      get raw() {
        return Cells.raw(cells)
      }
    }
    return problem === undefined ? base : { ...base, problem }
  }
  const pull = async (max: number): Promise<ReadonlyArray<SourceRecord>> => {
    const out: Array<SourceRecord> = []
    while (out.length < max) {
      if (pending !== undefined && pending.line === line) {
        out.push(pending)
        pending = undefined
        line++
        continue
      }
      if (pending !== undefined) {
        out.push({ line: line++, cells: [], raw: "" })
        continue
      }
      if (done) break
      const step = await rows.next()
      if (step.done) done = true
      else (xmlRows++, (pending = record(step.value)))
    }
    return out
  }
  return { pull, xmlRows: () => xmlRows }
}

/** Extracts every non-empty sheet of the workbook at `path` (named `file`). */
export const extract = (
  path: string,
  file: string,
  source: string,
  profiles: ReadonlyArray<Profile>
): Effect.Effect<ReadonlyArray<Stage.FileResult>, ExtractError, StagingTarget> =>
  Effect.gen(function* () {
    const unreadable = "save it again from Excel as .xlsx (or each sheet as CSV UTF-8) and extract again"
    const index = yield* promise(file, "cannot read the workbook", unreadable, () => SheetIndex.read(path))
    const sha256 = yield* promise(file, "cannot read the workbook", unreadable, () => sha256Of(path))
    const { size } = yield* promise(file, "cannot read the workbook", unreadable, () => NodeFsP.stat(path))
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
      worksheets: "emit",
      sharedStrings: "cache",
      styles: "cache",
      hyperlinks: "ignore",
      entries: "ignore"
    })
    const sheets: Pull<ExcelJS.stream.xlsx.WorksheetReader> = reader[Symbol.asyncIterator]()
    const results: Array<Stage.FileResult> = []
    const seen = new Set<string>()
    const read = Effect.gen(function* () {
      for (;;) {
        const step = yield* promise(file, "cannot read the workbook", unreadable, () => sheets.next())
        if (step.done) break
        const sheet = step.value as ExcelJS.stream.xlsx.WorksheetReader & { name: string; id: number }
        const declared =
          index.find((s) => s.name === sheet.name) ??
          index.find((s) => s.part === `xl/worksheets/sheet${sheet.id}.xml`)
        const name = declared?.name ?? sheet.name
        const sheetFile = `${file}#${name}`
        if (declared === undefined || seen.has(name))
          return yield* Effect.fail(
            new ExtractError({
              what: "cannot tell which sheet exceljs is reading",
              where: sheetFile,
              why: `the workbook declares ${index.map((s) => `"${s.name}"`).join(", ")}`,
              fix: unreadable
            })
          )
        seen.add(name)
        const rows = sheetCursor(sheet[Symbol.asyncIterator]() as Pull<ExcelJS.Row>, sheetFile)
        const cursor: Stage.Cursor = {
          next: (max) =>
            promise(sheetFile, "cannot read the sheet", unreadable, () => rows.pull(max)).pipe(
              Effect.tap((batch) =>
                batch.length > 0 || rows.xmlRows() === declared.rows
                  ? Effect.void
                  : Effect.fail(
                      new ExtractError({
                        what: "incomplete read of the sheet",
                        where: sheetFile,
                        why:
                          `the streaming reader returned ${rows.xmlRows()} rows but the sheet holds ` +
                          `${declared.rows} (it can stop early without an error on some valid files)`,
                        fix: unreadable
                      })
                    )
              )
            )
        }
        const head = yield* cursor.next(Stage.HEAD)
        if (head.length < Stage.HEAD && head.every((r) => isBlank(r.cells))) {
          yield* cursor.next(Stage.HEAD)
          yield* Effect.logInfo(`${sheetFile}: empty sheet, nothing to extract`)
          continue
        }
        results.push(yield* Stage.stage(sheetFile, source, profiles, head, cursor, () => sha256))
      }
      const missing = index.filter((s) => s.rows > 0 && !seen.has(s.name))
      if (missing.length > 0)
        return yield* Effect.fail(
          new ExtractError({
            what: "incomplete read of the workbook",
            where: file,
            why: `the streaming reader never returned the sheets ${missing.map((s) => `"${s.name}" (${s.rows} rows)`).join(", ")}`,
            fix: unreadable
          })
        )
      return results
    })
    const limit = Duration.seconds(60 + Math.ceil(size / 1_000_000) * 5)
    return yield* read.pipe(
      Effect.timeoutFail({
        duration: limit,
        onTimeout: () =>
          new ExtractError({
            what: "reading the workbook timed out",
            where: file,
            why: `no end after ${Duration.format(limit)} (${Math.round(size / 1e6)} MB)`,
            fix: unreadable
          })
      })
    )
  })
