/**
 * The SQL of an extract run's writes, shared by the writer thread (`StagingWorker.mjs`) and the in-process
 * target (`StagingTarget.ts`). A run writes under its own generation number and publishes its files at the
 * end in one transaction (see migration `0006_extract_generations`). Each statement's comment says what it
 * takes: positional values, or one object of named ones.
 */

/** `[]` → `{ gen }`: the next generation, above every published and unpublished one. */
export const NEXT_GEN = `SELECT max(g) + 1 AS gen FROM (
  SELECT coalesce(max(gen), 0) AS g FROM src_files UNION ALL SELECT coalesce(max(gen), 0) FROM extract_runs)`

/** `[gen, pid]`: registers a run until it is published. */
export const REGISTER = "INSERT INTO extract_runs (gen, pid) VALUES (?, ?)"

/** `[]` → `{ gen, pid }`: runs registered and not published. */
export const UNPUBLISHED = "SELECT gen, pid FROM extract_runs ORDER BY gen"

/** Inserts by table: `[gen, ...row]`, the row in `StagingTarget.COLUMNS` order. */
export const INSERT = {
  src_rows: "INSERT INTO src_rows (gen, file, line, shape, data, row_hash) VALUES (?, ?, ?, ?, ?, ?)",
  src_shapes: "INSERT INTO src_shapes (gen, file, shape, keys) VALUES (?, ?, ?, ?)",
  skipped: "INSERT INTO skipped (gen, file, line, reason, raw) VALUES (?, ?, ?, ?, ?)",
  rejects: "INSERT INTO extract_rejects (gen, file, line, reason, raw) VALUES (?, ?, ?, ?, ?)"
}

/**
 * Publishes one file of run `gen`, each statement with `{ file, gen }`: the rows, shapes and skips of its
 * previous generation and its extract rejects removed, the run's rejects moved in; then `PUBLISH_FILE`.
 */
export const PUBLISH = [
  "DELETE FROM src_rows WHERE file = @file AND gen = (SELECT gen FROM src_files WHERE file = @file AND gen <> @gen)",
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
  "DELETE FROM src_rows WHERE gen = @gen AND file IN (SELECT file FROM src_shapes WHERE gen = @gen)",
  "DELETE FROM src_shapes WHERE gen = @gen",
  "DELETE FROM skipped WHERE gen = @gen",
  ...FORGET
]
