/**
 * The SQL of an extract run's writes, shared by the writer thread (`StagingWorker.mjs`) and the in-process
 * target (`StagingTarget.ts`). A run writes under its own generation number and publishes its files at the
 * end in one transaction (see migration `0006_extract_generations`). Each statement's comment says what it
 * takes: positional values, or one object of named ones.
 */
import { pieces } from "../Pieces.mjs"

/** `[]` → `{ gen }`: the next generation, above every published and unpublished one. */
export const NEXT_GEN = `SELECT max(g) + 1 AS gen FROM (
  SELECT coalesce(max(gen), 0) AS g FROM src_files UNION ALL SELECT coalesce(max(gen), 0) FROM extract_runs)`

/** `[gen, pid]`: registers a run until it is published. */
export const REGISTER = "INSERT INTO extract_runs (gen, pid) VALUES (?, ?)"

/** `[]` → `{ gen, pid }`: runs registered and not published. */
export const UNPUBLISHED = "SELECT gen, pid FROM extract_runs ORDER BY gen"

/**
 * A staged row's id is its part's number × `PART_SIZE` + its line: `src_parts` numbers each file's
 * generation, so that `src_rows` is keyed by its rowid alone, with no file name in every row and no second
 * index on (file, gen, line) — together with the rows' compact text (`src/staging/RowText.ts`) that took
 * staging from 1.5× to about the size of `sqlite3 .import`'s database. The `staged_rows` view shows them
 * with their file, generation and line.
 */
export const PART_SIZE = 4294967296

/** Separates the stored texts of a batch of staged rows on their way to the writer thread. */
export const BATCH_SEPARATOR = "\u001e"

/**
 * `texts` joined by `BATCH_SEPARATOR` into pieces small enough for V8's ordinary heap (`Pieces.pieces`), in
 * order; `unpackTexts` gives them back.
 * @param {ReadonlyArray<string>} texts
 * @returns {Array<string>}
 */
export const packTexts = (texts) => [...pieces(texts, BATCH_SEPARATOR)]

/**
 * The texts `packTexts` packed, in order.
 * @param {ReadonlyArray<string>} packed
 * @returns {Array<string>}
 */
export const unpackTexts = (packed) => packed.flatMap((piece) => piece.split(BATCH_SEPARATOR))

/** `[file, gen]` → `{ part }`: the number of a file's generation, given it on first use. */
export const PART = `INSERT INTO src_parts (file, gen) VALUES (?, ?)
  ON CONFLICT (file, gen) DO UPDATE SET gen = excluded.gen RETURNING part`

/** Each part `p` joined with its rows `r`: the ids from the part's base up to the next part's. */
export const PART_ROWS = `src_parts p CROSS JOIN src_rows r
  ON r.id >= p.part * ${PART_SIZE} AND r.id < (p.part + 1) * ${PART_SIZE}`

/** `[id, shape, data, row_hash]`: a staged row, its id from its part and line. */
export const INSERT_ROW = "INSERT INTO src_rows (id, shape, data, row_hash) VALUES (?, ?, ?, ?)"

/** The rows of the parts `where` selects (a condition on `p`, the part), for a DELETE. */
const rowsOfParts = (where) =>
  `DELETE FROM src_rows WHERE id IN (SELECT r.id FROM ${PART_ROWS} WHERE ${where})`

/** Inserts by table: `[gen, ...row]`, the row in `StagingTarget.COLUMNS` order. */
export const INSERT = {
  src_shapes: "INSERT INTO src_shapes (gen, file, shape, keys) VALUES (?, ?, ?, ?)",
  skipped: "INSERT INTO skipped (gen, file, line, reason, raw) VALUES (?, ?, ?, ?, ?)",
  rejects: "INSERT INTO extract_rejects (gen, file, line, reason, raw) VALUES (?, ?, ?, ?, ?)"
}

/**
 * Publishes one file of run `gen`, each statement with `{ file, gen }`: the rows, shapes and skips of its
 * previous generation and its extract rejects removed, the run's rejects moved in; then `PUBLISH_FILE`.
 */
export const PUBLISH = [
  rowsOfParts("p.file = @file AND p.gen = (SELECT gen FROM src_files WHERE file = @file AND gen <> @gen)"),
  "DELETE FROM src_parts WHERE file = @file AND gen = (SELECT gen FROM src_files WHERE file = @file AND gen <> @gen)",
  "DELETE FROM src_shapes WHERE file = @file AND gen = (SELECT gen FROM src_files WHERE file = @file AND gen <> @gen)",
  "DELETE FROM skipped WHERE file = @file AND gen = (SELECT gen FROM src_files WHERE file = @file AND gen <> @gen)",
  "DELETE FROM rejects WHERE file = @file AND stage = 'extract'",
  `INSERT INTO rejects (file, line, stage, reason, raw)
    SELECT file, line, 'extract', reason, raw FROM extract_rejects WHERE file = @file AND gen = @gen`
]

/** `[gen, ...src_files row]`: the file's summary, at its new generation. */
export const PUBLISH_FILE = `INSERT OR REPLACE INTO src_files
  (gen, file, source, kind, confidence, sha256, lines, staged, skipped, rejected) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

/** Each with `{ gen }`, once the run is published: what only an unpublished run needs. */
export const FORGET = [
  "DELETE FROM extract_rejects WHERE gen = @gen",
  "DELETE FROM extract_runs WHERE gen = @gen"
]

/** Each with `{ gen }`: removes an unpublished run (failed, or killed) and everything it wrote. */
export const DISCARD = [
  rowsOfParts("p.gen = @gen"),
  "DELETE FROM src_parts WHERE gen = @gen",
  "DELETE FROM src_shapes WHERE gen = @gen",
  "DELETE FROM skipped WHERE gen = @gen",
  ...FORGET
]
