/**
 * Extracts an XLSX workbook with our own streaming sheet reader (`xlsx/SheetReader`), one staged file per
 * non-empty sheet (`Book.xlsx#Sheet name`, row numbers as lines, blank records for the row numbers the XML
 * leaves out). Every sheet's rows as read are compared with the row elements counted independently from its
 * XML (`xlsx/SheetIndex`), and the whole read runs under a timeout: an incomplete read fails loudly instead of
 * staging part of a sheet.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
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
import * as SheetReader from "./xlsx/SheetReader.js"
import * as Workbook from "./xlsx/Workbook.js"

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

/** A sheet's row as a record; `raw` is only read for skipped and rejected rows, so it is built when asked. */
class SheetRecord implements SourceRecord {
  readonly line: number
  readonly cells: ReadonlyArray<string>
  readonly problem?: string
  constructor(row: SheetReader.Row) {
    this.line = row.number
    this.cells = row.cells
    if (row.problem !== undefined) this.problem = row.problem
  }
  get raw(): string {
    return Cells.raw(this.cells)
  }
}

/** A cursor over one sheet's rows, synthesising blank records for row numbers the XML leaves out. */
const sheetCursor = (batches: AsyncIterator<ReadonlyArray<SheetReader.Row>>) => {
  let line = 1
  let read = 0
  let batch: ReadonlyArray<SheetReader.Row> = []
  let at = 0
  let done = false
  const pull = async (max: number): Promise<ReadonlyArray<SourceRecord>> => {
    const out: Array<SourceRecord> = []
    while (out.length < max) {
      const row = batch[at]
      if (row === undefined) {
        if (done) break
        const step = await batches.next()
        if (step.done) done = true
        else {
          batch = step.value
          at = 0
          read += batch.length
        }
      } else if (row.number > line) out.push({ line: line++, cells: [], raw: "" })
      else if (row.number === line) {
        out.push(new SheetRecord(row))
        at++
        line++
      } else
        throw new Error(`row ${row.number} comes after row ${line - 1} (rows must be in ascending order)`)
    }
    return out
  }
  // Ends the reader (closing the part) without waiting: a read stuck past the timeout must not hold it up.
  const close = () => void batches.return?.(undefined)?.catch(() => undefined)
  return { pull, rows: () => read, close }
}

/**
 * Extracts every non-empty sheet of the workbook at `path` (named `file`); `read` reads a sheet's rows (a
 * parameter so that tests can prove the row-count check with a reader that stops early).
 */
export const extract = (
  path: string,
  file: string,
  source: string,
  profiles: ReadonlyArray<Profile>,
  read: SheetReader.Read = SheetReader.read
): Effect.Effect<ReadonlyArray<Stage.FileResult>, ExtractError, StagingTarget> =>
  Effect.gen(function* () {
    const unreadable = "save it again from Excel as .xlsx (or each sheet as CSV UTF-8) and extract again"
    const workbook = <A>(f: () => Promise<A>) => promise(file, "cannot read the workbook", unreadable, f)
    // Rows are counted from the XML while the sheets are read: both inflate the sheet parts.
    const index = yield* Effect.fork(workbook(() => SheetIndex.read(path)))
    const sha256 = yield* workbook(() => sha256Of(path))
    const { size } = yield* workbook(() => NodeFsP.stat(path))
    const all = Effect.gen(function* () {
      const book = yield* workbook(() => Workbook.read(path))
      const results: Array<Stage.FileResult> = []
      for (const sheet of book.sheets) {
        const sheetFile = `${file}#${sheet.name}`
        const rows = sheetCursor(read(book, sheet.part, sheetFile)[Symbol.asyncIterator]())
        /** Fails unless the reader returned as many rows as the XML holds `<row>` elements. */
        const complete = Effect.gen(function* () {
          const counted = (yield* Fiber.join(index)).find((s) => s.part === sheet.part)?.rows ?? 0
          if (rows.rows() !== counted)
            return yield* Effect.fail(
              new ExtractError({
                what: "incomplete read of the sheet",
                where: sheetFile,
                why:
                  `the streaming reader returned ${rows.rows()} rows but the sheet holds ` +
                  `${counted} (it can stop early without an error on some valid files)`,
                fix: unreadable
              })
            )
        })
        const cursor: Stage.Cursor = {
          next: (max) =>
            promise(sheetFile, "cannot read the sheet", unreadable, () => rows.pull(max)).pipe(
              Effect.tap((batch) => (batch.length > 0 ? Effect.void : complete))
            )
        }
        const staged = yield* Effect.gen(function* () {
          const head = yield* cursor.next(Stage.HEAD)
          if (head.length < Stage.HEAD && head.every((r) => isBlank(r.cells))) {
            yield* cursor.next(Stage.HEAD)
            yield* Effect.logInfo(`${sheetFile}: empty sheet, nothing to extract`)
            return undefined
          }
          return yield* Stage.stage(sheetFile, source, profiles, head, cursor, () => sha256)
        }).pipe(Effect.ensuring(Effect.sync(rows.close)))
        if (staged !== undefined) results.push(staged)
      }
      const missing = (yield* Fiber.join(index)).filter(
        (s) => s.rows > 0 && !book.sheets.some((b) => b.part === s.part)
      )
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
    return yield* all.pipe(
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
