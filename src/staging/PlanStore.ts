/**
 * The plan as stored in the workspace: `plan_ops` in load order with canonical bodies and hashes, and
 * `plan_meta` (plan hash, base currency, issues). Writing a plan replaces the previous one whole.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import {
  PlanHasher,
  type BooksDigest,
  type BuiltPlan,
  textsOf,
  type Conversion,
  type KindCount,
  kindCountsSql,
  type OpKind,
  type OpRow,
  type Phase,
  type Plan,
  type PlannedOp,
  phases,
  rowOf
} from "../transform/Plan.js"
import { copyInto, type PlanScratch } from "../transform/PlanScratch.js"
import { relieve } from "../Memory.js"
import type { BooksSpan } from "../transform/BooksSpan.js"
import type { AccountPairing } from "../transform/RecordIdentity.js"
import type { Issue } from "../transform/SourceModel.js"
import { replaceRejects } from "./SourceRows.js"
import * as NodeWorker from "node:worker_threads"
import { resource } from "../Resources.js"

/** A stored plan operation, as the loader reads it. */
export interface StoredOp extends Omit<PlannedOp, "sortKey"> {
  readonly seq: number
  readonly bodyHash: string
}

export interface PlanMeta {
  readonly planHash: string
  readonly baseCurrency: string
  /** The plan's account pairings; undefined for a plan stored before they were kept. */
  readonly accounts: ReadonlyArray<AccountPairing> | undefined
  readonly clearingAccounts: ReadonlyArray<string>
  /** The plan's conversion at a cut-over date; undefined for full history. */
  readonly conversion: Conversion | undefined
  /** The dates of the books planned; undefined for a plan stored before they were kept. */
  readonly span: BooksSpan | undefined
  /** The books planned, kept for reconcile (`PlanBooks`); undefined when none are kept. */
  readonly booksDigest: BooksDigest | undefined
}

const splitWhere = (w: string) => {
  const i = w.lastIndexOf(":")
  return { file: w.slice(0, i), line: Number(w.slice(i + 1)) }
}

/** The name a sealed scratch is attached under while it is copied into the workspace. */
const SCRATCH = "plan_scratch"

/** Rows per INSERT (9 parameters each, far below SQLite's 32,766). */
const BATCH = 500

/** Stores `plan` (replacing any previous plan) and returns its hash. */
export const save = (plan: Plan, baseCurrency: string) =>
  store(
    storeRows(function* () {
      for (const op of plan.ops) yield rowOf(op, textsOf(op))
    }),
    plan,
    baseCurrency
  )

/**
 * Stores the plan whose operations `scratch` holds (replacing any previous plan) and returns its hash: the
 * sealed scratch is attached to the workspace's connection, and its rows copied into `plan_ops` in load order
 * by one statement (`scratchStore`'s, which `saveBuiltBeside` runs on a thread of its own).
 */
export const saveBuilt = (scratch: PlanScratch, plan: BuiltPlan, baseCurrency: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { file, hash, statements } = scratchStore(scratch, plan, baseCurrency)
    yield* sql.unsafe(`ATTACH DATABASE ? AS ${SCRATCH}`, [file])
    yield* sql
      .withTransaction(Effect.forEach(statements, (s) => sql.unsafe(s.sql, s.params), { discard: true }))
      .pipe(Effect.ensuring(Effect.orDie(sql.unsafe(`DETACH DATABASE ${SCRATCH}`))))
    yield* planRejects(plan)
    return hash
  }).pipe(Effect.orDie)

/** Stores rows in load order (`rows`, read as they are written), hashing each. */
const storeRows =
  (rows: () => Iterable<OpRow>) =>
  (hasher: PlanHasher): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // One pass, one batch of rows held at a time: each row's texts are serialised and its body hashed
      // once (`Plan.rowOf`), into the row and the plan hash alike.
      let batch: Array<Omit<OpRow, "hash_line"> & { seq: number }> = []
      let seq = 0
      const write = Effect.suspend(() => {
        const written = batch
        batch = []
        return written.length === 0 ? Effect.void : sql`INSERT INTO plan_ops ${sql.insert(written)}`
      })
      for (const { hash_line, ...row } of rows()) {
        hasher.add({ hash_line })
        batch.push({ seq: ++seq, ...row })
        if (batch.length === BATCH) {
          yield* write
          relieve()
        }
      }
      yield* write
    })

/** What storing a plan empties before it writes the plan's rows. */
const CLEAR = ["DELETE FROM plan_ops", "DELETE FROM plan_meta"] as const

const INSERT_META = "INSERT INTO plan_meta (k, v) VALUES (?, ?)"

/** The rows of `plan_meta` of `plan`, whose hash is `hash`. */
const metaRows = (plan: BuiltPlan, hash: string, baseCurrency: string): Array<readonly [string, string]> =>
  Object.entries({
    plan_hash: hash,
    base_currency: baseCurrency,
    issues: JSON.stringify(plan.issues),
    ...(plan.accounts ? { accounts: JSON.stringify(plan.accounts) } : {}),
    clearing_accounts: JSON.stringify(plan.clearingAccounts ?? []),
    ...(plan.conversion ? { conversion: JSON.stringify(plan.conversion) } : {}),
    ...(plan.span ? { span: JSON.stringify(plan.span) } : {}),
    ...(plan.booksDigest ? { books_digest: JSON.stringify(plan.booksDigest) } : {})
  })

/** The plan's rejected source rows, as `rejects` keeps them (stage `plan`), written once the plan is stored. */
const planRejects = (plan: BuiltPlan) =>
  replaceRejects(
    "plan",
    plan.issues
      .filter((i) => i.severity === "reject")
      .flatMap((i) =>
        i.lineage.map((w) => ({
          ...splitWhere(w),
          stage: "plan",
          reason: `${i.what}: ${i.why}. ${i.fix}`,
          raw: ""
        }))
      )
  )

/**
 * Stores a plan (replacing any previous plan): its operations' rows by `writeOps` (which adds each row's
 * line to the plan hash, in load order) and the plan's meta; returns the plan hash.
 */
const store = <R>(
  writeOps: (hasher: PlanHasher) => Effect.Effect<void, SqlError, R>,
  plan: BuiltPlan,
  baseCurrency: string
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const hasher = new PlanHasher()
    let hash = ""
    yield* sql.withTransaction(
      Effect.gen(function* () {
        for (const statement of CLEAR) yield* sql.unsafe(statement)
        yield* writeOps(hasher)
        hash = hasher.digest()
        for (const row of metaRows(plan, hash, baseCurrency)) yield* sql.unsafe(INSERT_META, row)
      })
    )
    yield* planRejects(plan)
    return hash
  }).pipe(Effect.orDie)

/** A statement of a transaction written from a thread of its own, with its parameters. */
export interface Statement {
  readonly sql: string
  readonly params: ReadonlyArray<string | number | null>
}

/**
 * What storing the plan in a sealed `scratch` writes, in one transaction with the scratch's `file` attached as
 * `SCRATCH`: the old plan emptied, the scratch's rows copied in load order, the metadata with the plan
 * `hash`, taken over the rows' lines in the same order.
 */
const scratchStore = (scratch: PlanScratch, plan: BuiltPlan, baseCurrency: string) => {
  const file = scratch.seal()
  const hasher = new PlanHasher()
  for (const line of scratch.hashLines()) hasher.add({ hash_line: line })
  const hash = hasher.digest()
  const statements: Array<Statement> = [
    ...CLEAR.map((sql) => ({ sql, params: [] })),
    { sql: copyInto(SCRATCH), params: [] },
    ...metaRows(plan, hash, baseCurrency).map((row) => ({ sql: INSERT_META, params: row }))
  ]
  return { file, hash, statements }
}

/**
 * Runs `statements` in one transaction on the staging file `filename` from a thread of its own
 * (`TransactionWorker.mjs`), with the database `attach.file` attached as `attach.schema`; resolves with why it
 * failed (and rolled back), or undefined once committed. The first statement writes the workspace: the
 * transaction is deferred, so that the attached file is only read, never write-locked, and this thread can
 * read it while the transaction runs.
 */
export const transactionBeside = (
  filename: string,
  attach: { readonly file: string; readonly schema: string } | undefined,
  statements: ReadonlyArray<Statement>
): Promise<string | undefined> => {
  const worker = new NodeWorker.Worker(resource("src/staging/TransactionWorker.mjs"), {
    workerData: { filename, attach, statements },
    execArgv: []
  })
  return new Promise<string | undefined>((resolve) => {
    worker.once("message", (m: { done?: true; error?: string }) => resolve(m.error))
    worker.once("error", (e) => resolve(e.message))
    worker.once("exit", (code) => resolve(`the thread stopped (exit code ${code}) before it was done`))
  })
}

let storedBeside = 0

/** Plans this process has stored from a thread of their own (what shows that `plan` stored one so). */
export const besideStores = (): number => storedBeside

/**
 * The plan in a sealed `scratch`, stored into the workspace's file `filename` on a thread of its own
 * (`TransactionWorker.mjs`: the same statements as `saveBuilt`, in one transaction on a connection of its
 * own) while this thread goes on. Gives the plan hash at once (read from the scratch) and `stored`, which waits
 * for the store and then writes the plan's rejects, failing as it failed. Nothing else may write to the
 * workspace until it is done; the scratch can be read meanwhile (`inScratch`): the store takes no write lock
 * on it.
 */
export const saveBuiltBeside = (
  filename: string,
  scratch: PlanScratch,
  plan: BuiltPlan,
  baseCurrency: string
) =>
  Effect.gen(function* () {
    const { file, hash, statements } = scratchStore(scratch, plan, baseCurrency)
    const outcome = transactionBeside(filename, { file, schema: SCRATCH }, statements)
    storedBeside++
    // Waited for once, however often it is asked (the rejects are written once).
    const stored = yield* Effect.cached(
      Effect.flatMap(
        Effect.promise(() => outcome),
        (error) =>
          error === undefined
            ? planRejects(plan)
            : Effect.dieMessage(`the plan could not be stored in ${filename}: ${error}`)
      )
    )
    return { hash, stored }
  })

/** The stored plan's operations in load order. */
interface StoredRow {
  seq: number
  key: string
  phase: Phase
  kind: OpKind
  natural_key: string
  depends_on: string
  body: string
  body_hash: string
  lineage: string
}

const fromRow = (r: StoredRow): StoredOp => ({
  seq: r.seq,
  key: r.key,
  phase: r.phase,
  kind: r.kind,
  naturalKey: r.natural_key,
  dependsOn: JSON.parse(r.depends_on) as Array<string>,
  body: JSON.parse(r.body) as unknown,
  bodyHash: r.body_hash,
  lineage: JSON.parse(r.lineage) as Array<string>
})

/** Every stored operation in load order, bodies included (small plans, tests, tools). */
export const ops = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return (yield* sql<StoredRow>`SELECT * FROM plan_ops ORDER BY seq`).map(fromRow)
}).pipe(Effect.orDie)

/** The natural keys of the stored operations of `kinds`, without their bodies (a big plan stays on disk). */
export const naturalKeys = (kinds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ kind: string; natural_key: string }>`
      SELECT kind, natural_key FROM plan_ops WHERE ${sql.in("kind", kinds)} ORDER BY seq`
    return rows.map((r) => ({ kind: r.kind, naturalKey: r.natural_key }))
  }).pipe(Effect.orDie)

/** The stored operations of `kinds` in load order, bodies included. */
export const opsOfKinds = (kinds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return (yield* sql<StoredRow>`SELECT * FROM plan_ops WHERE ${sql.in("kind", kinds)} ORDER BY seq`).map(
      fromRow
    )
  }).pipe(Effect.orDie)

/** The body of an operation as the preview lists it: a document's without its lines (`previewPage`). */
const PREVIEW_BODY = "json_remove(body, '$.lineItems')"

/** Up to `limit` operations of `phase` after `afterSeq`, each body as the SQL expression `body` gives it. */
const pageWith = (body: string) => (phase: Phase, afterSeq: number, limit: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<StoredRow>`
      SELECT seq, key, phase, kind, natural_key, depends_on, ${sql.literal(body)} AS body, body_hash, lineage
      FROM plan_ops WHERE phase = ${phase} AND seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`
    return rows.map(fromRow)
  }).pipe(Effect.orDie)

/** Up to `limit` operations of `phase` after `afterSeq`, bodies included: the loader pages through a phase. */
export const page = pageWith("body")

/**
 * `page` for the preview, which lists each operation by its key fields: a document's body comes without its
 * lines (SQLite drops `lineItems` before the text is handed over). Of the 30.0 MB of bodies the preview read
 * back at 20,000 invoices, 12.6 MB were lines: reading every operation as the preview lists it took
 * 1.12-1.17 s (1.4-1.5 s of CPU) against 1.16-1.35 s (1.5-1.9 s), three runs each.
 */
export const previewPage = pageWith(PREVIEW_BODY)

/** Reads up to `limit` operations of `phase` after `afterSeq`: `page`, or a test's stand-in. */
export type PageReader<R, A extends { readonly seq: number } = StoredOp> = (
  phase: Phase,
  afterSeq: number,
  limit: number
) => Effect.Effect<ReadonlyArray<A>, never, R>

/** Operations read and worked on at a time by what pages through a stored plan. */
export const PAGE_SIZE = 5000

/**
 * Hands a stored plan read through `read` to `f` a page at a time, phases in load order, so that it is never
 * all in memory (the loader, the preview and its projection); after each page the heap's ceiling is checked
 * (`Memory.relieve`).
 */
export const eachPageOf =
  <RR, A extends { readonly seq: number } = StoredOp>(read: PageReader<RR, A>) =>
  <E, R>(
    f: (ops: ReadonlyArray<A>, phase: Phase) => Effect.Effect<void, E, R>,
    limit: number = PAGE_SIZE
  ): Effect.Effect<void, E, R | RR> =>
    Effect.gen(function* () {
      for (const phase of phases)
        for (let after = 0; ;) {
          const ops = yield* read(phase, after, limit)
          if (ops.length === 0) break
          after = ops[ops.length - 1]!.seq
          yield* f(ops, phase)
          relieve()
          if (ops.length < limit) break
        }
    })

/** `eachPageOf` the workspace's stored plan. */
export const eachPage = eachPageOf(page)

/**
 * A plan as what shows it reads it (`PlanPreview`): its metadata, its counts, its issues and its operations
 * page by page. The workspace's stored plan (`stored`), or a plan still in its sealed scratch
 * (`inScratch`), read while it is being stored.
 */
export interface PlanSource<R> {
  readonly meta: Effect.Effect<PlanMeta | undefined, never, R>
  readonly kindCounts: Effect.Effect<ReadonlyArray<KindCount>, never, R>
  readonly issues: Effect.Effect<ReadonlyArray<Issue>, never, R>
  readonly page: PageReader<R>
  readonly previewPage: PageReader<R>
  /**
   * The operations with what the preview lists of each, made as they were built, when the source holds that
   * (a scratch that lists them, `PlanScratch.open`): the preview reads these instead of `previewPage`.
   */
  readonly listedPage?: PageReader<R, ListedOp>
}

/** An operation's key fields and lineage, with what the preview lists of its body (opaque here: `Preview.listing`). */
export interface ListedOp extends Pick<
  StoredOp,
  "seq" | "key" | "phase" | "kind" | "naturalKey" | "lineage"
> {
  readonly listed: unknown
}

/**
 * The plan in a sealed `scratch`, whose hash is `hash`, as it will be stored (`saveBuiltBeside`): its rows as
 * `plan_ops` holds them once copied, its metadata as `meta` reads it back.
 */
export const inScratch = (
  scratch: PlanScratch,
  plan: BuiltPlan,
  hash: string,
  baseCurrency: string
): PlanSource<never> => {
  const pageOf =
    (body: string): PageReader<never> =>
    (phase, afterSeq, limit) =>
      Effect.sync(() => scratch.page(phase, afterSeq, limit, body).map(fromRow))
  return {
    // As `meta` reads it back once stored: from the same rows.
    meta: Effect.sync(() => metaOf(new Map(metaRows(plan, hash, baseCurrency)))),
    kindCounts: Effect.sync(() => scratch.kindCounts()),
    issues: Effect.succeed(plan.issues),
    page: pageOf("body"),
    previewPage: pageOf(PREVIEW_BODY),
    ...(scratch.lists
      ? {
          listedPage: (phase: Phase, afterSeq: number, limit: number) =>
            Effect.sync(() =>
              scratch.listedPage(phase, afterSeq, limit).map((r): ListedOp => ({
                seq: r.seq,
                key: r.key,
                phase: r.phase,
                kind: r.kind,
                naturalKey: r.natural_key,
                lineage: JSON.parse(r.lineage) as Array<string>,
                listed: JSON.parse(r.listed) as unknown
              }))
            )
        }
      : {})
  }
}

/** The stored plan's metadata; undefined when no plan was made yet. */
export const meta = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ k: string; v: string }>`SELECT k, v FROM plan_meta`
  return metaOf(new Map(rows.map((r) => [r.k, r.v])))
}).pipe(Effect.orDie)

/** A plan's metadata from the rows of `plan_meta` (`metaRows`), by key; undefined without a plan hash. */
const metaOf = (m: ReadonlyMap<string, string>): PlanMeta | undefined => {
  const hash = m.get("plan_hash")
  if (hash === undefined) return undefined
  return {
    planHash: hash,
    baseCurrency: m.get("base_currency") ?? "",
    accounts: m.has("accounts") ? (JSON.parse(m.get("accounts")!) as Array<AccountPairing>) : undefined,
    clearingAccounts: JSON.parse(m.get("clearing_accounts") ?? "[]") as Array<string>,
    conversion: m.has("conversion") ? (JSON.parse(m.get("conversion")!) as Conversion) : undefined,
    span: m.has("span") ? (JSON.parse(m.get("span")!) as BooksSpan) : undefined,
    booksDigest: m.has("books_digest") ? (JSON.parse(m.get("books_digest")!) as BooksDigest) : undefined
  }
}

/**
 * The stored plan's issues (rejected rows and warnings): apart from `meta`, which every command reads and
 * reconcile holds to the end (1.7 MB of them at 100,000 invoices, which it never reads).
 */
export const issues = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ v: string }>`SELECT v FROM plan_meta WHERE k = 'issues'`
  return JSON.parse(rows[0]?.v ?? "[]") as Array<Issue>
}).pipe(Effect.orDie)

/** How many operations the stored plan has in each phase (a phase with none is absent). */
export const phaseCounts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{
    phase: Phase
    n: number
  }>`SELECT phase, COUNT(*) AS n FROM plan_ops GROUP BY phase`
  return new Map(rows.map((r) => [r.phase, r.n]))
}).pipe(Effect.orDie)

/** How many operations of each phase and kind the stored plan has, in the order of each kind's first. */
export const kindCounts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.unsafe<KindCount>(kindCountsSql("plan_ops"))
}).pipe(Effect.orDie)

/** The workspace's stored plan, as what shows it reads it. */
export const stored: PlanSource<SqlClient.SqlClient> = { meta, kindCounts, issues, page, previewPage }
