/**
 * Issue 5: extract throughput and memory on a 1,000,000-row invoice-lines CSV, against the `sqlite3` shell's
 * `.import` of the same file into a fresh database measured in the same run; then a 200,000-row XLSX when
 * this build extracts workbooks. Each extract runs in a fresh child process so that its peak RSS is its own.
 */
import { spawnSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { EXPORT_EXTENSIONS } from "../../src/extract/Extract.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as InvoiceLines from "../InvoiceLines.js"
import * as Pipeline from "../Pipeline.js"
import { runTask, type ProcessOptions } from "../Processes.js"
import { measure } from "../Probe.js"
import { note, ratio, round, table, verdict } from "../Report.js"

const SQLITE3 = "/usr/bin/sqlite3"
const AIMS = { ratioToImport: 0.6, rssMb: 250, stagingToImport: 1.2 } as const
/** Runs of each, interleaved (.import, extract, .import, …), so that one slow baseline cannot flatter the ratio. */
const RUNS = 3

const median = (xs: ReadonlyArray<number>): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** The sqlite3 shell importing `csv` into table `t` of a fresh database: seconds and the rows it holds. */
const sqliteImport = (csv: string) => {
  const db = NodePath.join(Pipeline.tempDir("import"), "import.db")
  const started = performance.now()
  const run = spawnSync(SQLITE3, [db, ".mode csv", `.import ${csv} t`], { encoding: "utf8" })
  const seconds = (performance.now() - started) / 1000
  if (run.status !== 0) throw new Error(`sqlite3 .import failed (${run.status}): ${run.stderr}`)
  const count = spawnSync(SQLITE3, [db, "SELECT count(*) FROM t"], { encoding: "utf8" })
  return { seconds, rows: Number(count.stdout.trim()), databaseMb: round(NodeFs.statSync(db).size / 1e6, 1) }
}

/** Bytes of the workspace's staging database and its WAL. */
const stagingBytes = (workspace: string): number =>
  ["", "-wal"]
    .map((suffix) => `${StagingDb.pathIn(workspace)}${suffix}`)
    .reduce((n, f) => n + (NodeFs.existsSync(f) ? NodeFs.statSync(f).size : 0), 0)

const extract = async (inputDir: string, options: ProcessOptions) => {
  const workspace = Pipeline.tempDir("extract")
  const m = await runTask<ReadonlyArray<Pipeline.ExtractSummary>>(
    { type: "extract", inputDir, workspace },
    options
  )
  const lines = m.value.reduce((n, f) => n + f.lines, 0)
  const staged = m.value.reduce((n, f) => n + f.staged, 0)
  return {
    files: m.value.map((f) => `${f.file} (${f.kind})`),
    lines,
    staged,
    seconds: round(m.seconds, 1),
    rowsPerSecond: round(staged / m.seconds),
    cores: round(m.cpuSeconds / m.seconds, 2),
    rssBeforeMb: round(m.rssBeforeMb),
    rssPeakMb: round(m.rssPeakMb),
    hwmMb: m.hwmMb === undefined ? undefined : round(m.hwmMb),
    stagingMb: round(stagingBytes(workspace) / 1e6, 1)
  }
}

const xlsx = async (rows: number, options: ProcessOptions) => {
  if (!EXPORT_EXTENSIONS.includes(".xlsx")) return undefined
  note(`writing a ${rows}-row XLSX`)
  const written = await measure(() => InvoiceLines.writeXlsx(rows))
  const dir = written.value
  const bytes = NodeFs.statSync(NodePath.join(dir, "SalesInvoices.xlsx")).size
  note("extracting the XLSX")
  return {
    writeSeconds: round(written.seconds, 1),
    megabytes: round(bytes / 1e6, 1),
    ...(await extract(dir, options))
  }
}

export const run = async (quick: boolean, options: ProcessOptions) => {
  const sizes = quick ? { csv: 50_000, xlsx: 10_000 } : { csv: 1_000_000, xlsx: 200_000 }
  note(`writing a ${sizes.csv}-row invoice-lines CSV`)
  const written = await measure(async () => InvoiceLines.writeCsv(sizes.csv))
  const csv = NodePath.join(written.value, "SalesInvoices.csv")
  const megabytes = round(NodeFs.statSync(csv).size / 1e6, 1)
  const imports: Array<ReturnType<typeof sqliteImport>> = []
  const extracts: Array<Awaited<ReturnType<typeof extract>>> = []
  for (let i = 1; i <= RUNS; i++) {
    note(`sqlite3 .import (${i} of ${RUNS})`)
    const imported = sqliteImport(csv)
    if (imported.rows !== sizes.csv)
      throw new Error(`sqlite3 imported ${imported.rows} rows, not ${sizes.csv}`)
    imports.push(imported)
    note(`Extract.run on the CSV (${i} of ${RUNS})`)
    const run = await extract(written.value, options)
    if (run.staged !== sizes.csv)
      throw new Error(`extract staged ${run.staged} of ${sizes.csv} rows: ${run.files.join(", ")}`)
    extracts.push(run)
  }
  // The median run of each (by time); its other figures go with it.
  const imported = imports.find((r) => r.seconds === median(imports.map((x) => x.seconds)))!
  const extracted = extracts.find((r) => r.seconds === median(extracts.map((x) => x.seconds)))!
  const importRate = sizes.csv / imported.seconds
  const stagingToImport = ratio(extracted.stagingMb, imported.databaseMb)
  const csvFigures = {
    rows: sizes.csv,
    megabytes,
    writeSeconds: round(written.seconds, 1),
    extract: extracted,
    sqliteImport: {
      seconds: round(imported.seconds, 1),
      rowsPerSecond: round(importRate),
      databaseMb: imported.databaseMb
    },
    ratioToImport: ratio(extracted.rowsPerSecond, importRate),
    runs: {
      importSeconds: imports.map((r) => round(r.seconds, 2)),
      extractSeconds: extracts.map((r) => r.seconds)
    },
    stagingToImport
  }
  const book = await xlsx(sizes.xlsx, options)

  table(
    `extract — invoice lines in Xero's SalesInvoices layout (the median of ${RUNS} interleaved runs of each; extract in a fresh process; RSS sampled every 100 ms)`,
    [
      "input",
      "rows",
      "MB",
      "s",
      "rows/s",
      "÷ .import",
      `aim ≥ ${AIMS.ratioToImport}`,
      "peak RSS MB",
      `aim < ${AIMS.rssMb}`
    ],
    [
      [
        "sqlite3 .import (CSV)",
        sizes.csv,
        megabytes,
        csvFigures.sqliteImport.seconds,
        csvFigures.sqliteImport.rowsPerSecond,
        1,
        undefined,
        undefined,
        undefined
      ],
      [
        "Extract.run (CSV)",
        extracted.staged,
        megabytes,
        extracted.seconds,
        extracted.rowsPerSecond,
        csvFigures.ratioToImport,
        verdict(csvFigures.ratioToImport >= AIMS.ratioToImport),
        extracted.rssPeakMb,
        verdict(extracted.rssPeakMb < AIMS.rssMb)
      ],
      ...(book === undefined
        ? []
        : [
            [
              "Extract.run (XLSX)",
              book.staged,
              book.megabytes,
              book.seconds,
              book.rowsPerSecond,
              ratio(book.rowsPerSecond, importRate),
              undefined,
              book.rssPeakMb,
              verdict(book.rssPeakMb < AIMS.rssMb)
            ]
          ])
    ]
  )
  if (book === undefined) console.log("xlsx: not supported by this build")
  console.log(
    `extract process: ${extracted.cores} cores on the CSV, RSS ${extracted.rssBeforeMb} MB before the extract (modules loaded); ` +
      `staging.db after it: ${extracted.stagingMb} MB (${round((extracted.stagingMb * 1000) / extracted.staged, 2)} KB a row) ` +
      `for the ${megabytes} MB CSV; .import's database: ${imported.databaseMb} MB: ÷ .import ${stagingToImport} (aim ≤ ${AIMS.stagingToImport}: ${verdict(stagingToImport <= AIMS.stagingToImport)}). ` +
      `Medians of ${RUNS} interleaved runs each: .import ${csvFigures.runs.importSeconds.join(", ")} s; extract ${csvFigures.runs.extractSeconds.join(", ")} s. ` +
      `Writing the inputs took ${csvFigures.writeSeconds} s (CSV)` +
      (book === undefined ? "" : ` and ${book.writeSeconds} s (XLSX)`)
  )
  return { aims: AIMS, csv: csvFigures, xlsx: book ?? "not supported by this build" }
}
