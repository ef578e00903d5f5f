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
 * by one statement; the hash is taken over its lines, read in the same order.
 */
export const saveBuilt = (scratch: PlanScratch, plan: BuiltPlan, baseCurrency: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const file = scratch.seal()
    yield* sql`ATTACH DATABASE ${file} AS plan_scratch`
    return yield* store(
      (hasher) =>
        Effect.zipRight(
          sql.unsafe(copyInto("plan_scratch")),
          Effect.sync(() => {
            for (const line of scratch.hashLines()) hasher.add({ hash_line: line })
          })
        ),
      plan,
      baseCurrency
    ).pipe(Effect.ensuring(Effect.orDie(sql`DETACH DATABASE plan_scratch`)))
  })

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
        yield* sql`DELETE FROM plan_ops`
        yield* sql`DELETE FROM plan_meta`
        yield* writeOps(hasher)
        hash = hasher.digest()
        const meta = {
          plan_hash: hash,
          base_currency: baseCurrency,
          issues: JSON.stringify(plan.issues),
          ...(plan.accounts ? { accounts: JSON.stringify(plan.accounts) } : {}),
          clearing_accounts: JSON.stringify(plan.clearingAccounts ?? []),
          ...(plan.conversion ? { conversion: JSON.stringify(plan.conversion) } : {}),
          ...(plan.span ? { span: JSON.stringify(plan.span) } : {}),
          ...(plan.booksDigest ? { books_digest: JSON.stringify(plan.booksDigest) } : {})
        }
        for (const [k, v] of Object.entries(meta))
          yield* sql`INSERT INTO plan_meta (k, v) VALUES (${k}, ${v})`
      })
    )
    yield* replaceRejects(
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
    return hash
  }).pipe(Effect.orDie)

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
export const previewPage = pageWith("json_remove(body, '$.lineItems')")

/** Reads up to `limit` operations of `phase` after `afterSeq`: `page`, or a test's stand-in. */
export type PageReader<R> = (
  phase: Phase,
  afterSeq: number,
  limit: number
) => Effect.Effect<ReadonlyArray<StoredOp>, never, R>

/** Operations read and worked on at a time by what pages through a stored plan. */
export const PAGE_SIZE = 5000

/**
 * Hands a stored plan read through `read` to `f` a page at a time, phases in load order, so that it is never
 * all in memory (the loader, the preview and its projection); after each page the heap's ceiling is checked
 * (`Memory.relieve`).
 */
export const eachPageOf =
  <RR>(read: PageReader<RR>) =>
  <E, R>(
    f: (ops: ReadonlyArray<StoredOp>, phase: Phase) => Effect.Effect<void, E, R>,
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

/** The stored plan's metadata; undefined when no plan was made yet. */
export const meta = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ k: string; v: string }>`SELECT k, v FROM plan_meta`
  const m = new Map(rows.map((r) => [r.k, r.v]))
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
  } satisfies PlanMeta
}).pipe(Effect.orDie)

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
  return yield* sql<{ phase: Phase; kind: OpKind; n: number }>`
    SELECT phase, kind, COUNT(*) AS n FROM plan_ops GROUP BY phase, kind ORDER BY MIN(seq)`
}).pipe(Effect.orDie)
