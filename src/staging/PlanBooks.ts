/**
 * The books a full-history plan was made from, kept in the workspace for reconcile (`plan_books`): what
 * reconcile compares of them (`ComparedBooks`), as it was read, except the documents' lines, and of the
 * payments only their documents' kinds and their dates. Reconcile compares documents by their totals,
 * payments, dates and contacts, never by their lines; it needs the lines, the payments and the cash entries
 * only to explain an account that differs (the candidate postings), and reads the books again for that.
 * Reading the books again was about a third of reconcile's CPU at 20,000 invoices (3.1-3.7 s of 10-12 s, by
 * hand), on the one thread that also parses the target's answers.
 *
 * What is kept is used only while staging is what the plan read: the plan stores a fingerprint of staging
 * (each file's extract generation, hash and rows staged, and this format's version) beside the digest's id,
 * and reconcile reads the books again when either differs. A new plan replaces the digest; a plan of a
 * conversion at a cut-over date keeps none (its books depend on the target as it was when it was planned).
 *
 * Money is kept exactly: a `BigDecimal` as its unscaled value and scale.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Iterable from "effect/Iterable"
import { relieve } from "../Memory.js"
import { pieces } from "../Pieces.mjs"
import { remembered } from "../Remembered.js"
import { asciiJson, encodeItem, recordDecoder } from "../transform/BooksCodec.js"
import { withSpillOf, type SpilledBooks } from "../transform/BooksSpill.js"
import type { ReportMatch } from "../transform/OpenItems.js"
import type { BooksDigest } from "../transform/Plan.js"
import { BUILD_FLOOR } from "../transform/PlanContext.js"
import {
  factsOf,
  fromChunks,
  agedItemsIn,
  headingOf,
  type AgedItems,
  type AgedReportHeading,
  type DocumentFacts,
  type KeptBooks,
  type Referenced
} from "../transform/ComparedDocuments.js"
import {
  documentKinds,
  type Books,
  type ComparedBooks,
  type DocumentKind,
  type SourceAgedItem,
  type SourceDocument
} from "../transform/SourceModel.js"

/** Bumped when what is kept, or how, changes: a digest of another version is never read. */
const FORMAT = 7

/** Rows read at a time. */
const PAGE = 64

/**
 * Every collection of `ComparedBooks` reconcile reads but the documents, payments and aged reports, in the
 * order they are kept (not the issues: the plan has them).
 */
export const parts = [
  "accounts",
  "contacts",
  "items",
  "journals",
  "rates",
  "trialBalances",
  "credits",
  "refunds"
] as const satisfies ReadonlyArray<keyof ComparedBooks>

/**
 * The aged reports' headings (`agedReports`, `AgedReportHeading`), read with the rest of the books, and their
 * items (`agedItems`), each as `[report's place, item, what it is in the books]`, handed over a chunk at a
 * time when the aged check asks for them (`KeptBooks.agedItems`).
 */
const AGED = { headings: "agedReports", items: "agedItems" } as const

/** The payments, each as its document's kind and its date: `[kind, date]`. */
const PAYMENTS = "paymentDates"

/** What reconcile needs of all the documents at once (`DocumentFacts`): one item. */
const FACTS = "documentFacts"

/** A document as it is kept: `[order, reference, document without its lines]`. */
export const documentItem = (r: Referenced): unknown => [r.order, r.reference, { ...r.doc, lines: [] }]

/**
 * The rows' texts of `items`, each item as it is kept (`as`): JSON arrays of the items in order, each small
 * enough for V8's ordinary heap on both sides (`Pieces.pieces`), made one at a time as they are taken, never
 * the whole collection's texts at once. No items are one empty row: absent and empty differ in the books.
 * Rows of 2,000 items were up to 1.4 MB at 20,000 invoices: the same books read and parsed by row as reconcile
 * does took 201-224 ms in 52 such rows, against 127-131 ms in 666 rows of up to 32,768 characters (seven
 * rounds each, interleaved; the first round of those 198 ms).
 */
export function* chunksOf<A>(
  items: Iterable<A>,
  as: (item: A) => unknown = (item) => item
): Generator<string, void, undefined> {
  yield* chunksOfTexts(Iterable.map(items, (item) => encodeItem(as(item))))
}

/** The rows' texts of items already written as they are kept (`BooksCodec.encodeItem`), as `chunksOf` makes them. */
function* chunksOfTexts(texts: Iterable<string>): Generator<string, void, undefined> {
  let any = false
  for (const chunk of pieces(texts, ",", "[", "]")) {
    any = true
    yield chunk
  }
  if (!any) yield "[]"
}

/**
 * The texts of `kind`'s migrating documents in date order (then in the references' order), each as
 * `documentItem` would make it: `[order, reference, document without its lines]`, the document's text as the
 * spill holds it (`BooksCodec.encodeItem` of it without its lines), not read and written again.
 */
function* keptDocumentTexts(books: SpilledBooks, kind: DocumentKind): Generator<string, void, undefined> {
  const { spill, numbering } = books.documents
  const dated = spill.datesOf(kind)
  const at = (place: number) => numbering.positions[place]!
  dated.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : at(a.place) - at(b.place)))
  let i = 0
  for (const head of spill.headTextsAt(dated.map((d) => d.place))) {
    const { place, number } = dated[i++]!
    const reference = numbering.renamed.get(place)?.reference ?? number
    yield `[${at(place)},${asciiJson(JSON.stringify(reference))},${head}]`
  }
}

/** The fingerprint of what is staged now: each file's generation, hash and rows staged. */
export const fingerprint = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const files = yield* sql<{ file: string; gen: number; sha256: string; staged: number }>`
    SELECT file, gen, sha256, staged FROM src_files ORDER BY file`
  return JSON.stringify({ format: FORMAT, files: files.map((f) => [f.file, f.gen, f.sha256, f.staged]) })
}).pipe(Effect.orDie)

/** Replaces the kept books with what reconcile compares of `books` (their documents without lines) under `id`. */
export const save = (id: string, books: Books) => withSpillOf(books, (spilled) => saveSpilled(id, spilled))

const saveSpilled = (id: string, books: SpilledBooks) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`DELETE FROM plan_books`
        const chunks = (part: string, texts: Iterable<string>) =>
          Effect.gen(function* () {
            for (const json of texts) {
              yield* sql`INSERT INTO plan_books (digest, part, json) VALUES (${id}, ${part}, ${json})`
              // Under the build's floor, not the stages': kept just before the build, on what is left of the
              // books' read. At 100,000 invoices (seed 5) the aged items, matched and kept, took the heap from
              // 63 to 126 MB and plan's RSS to 268 and 274 MB (two runs), its peak; with this floor 76 MB and
              // 226 MB at most while the books are kept (one run), and plan's peak is the build's again.
              relieve(BUILD_FLOOR)
            }
          })
        const keep = <A>(part: string, items: Iterable<A>, as?: (item: A) => unknown) =>
          chunks(part, chunksOf(items, as))
        for (const part of parts) {
          const items: ReadonlyArray<unknown> | undefined = books[part]
          if (items !== undefined) yield* keep(part, items)
        }
        // `[kind, date]` of each payment, as `encodeItem` would write it (kinds and ISO dates are ASCII).
        yield* chunks(PAYMENTS, chunksOfTexts(books.documents.spill.paymentDateTexts()))
        yield* keep(FACTS, [factsOf(books)])
        yield* keep(AGED.headings, books.agedReports, headingOf)
        yield* keep(AGED.items, agedItemsIn(books))
        // Each kind's migrating documents (the part is the kind) in date order, as `documentItem`s: reconcile
        // reads them a chunk at a time as it compares.
        for (const kind of documentKinds) yield* chunks(kind, chunksOfTexts(keptDocumentTexts(books, kind)))
      })
    )
  }).pipe(Effect.orDie)

/** Removes the kept books (a plan that keeps none). */
export const clear = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM plan_books`).pipe(
  Effect.asVoid,
  Effect.orDie
)

/**
 * What reconcile compares of the books kept under `digest`: the documents handed over a chunk at a time as
 * it compares them (read from the workspace then); undefined when none are kept under it, or when staging is
 * no longer what they were read from.
 */
export const read = (digest: BooksDigest | undefined) =>
  Effect.gen(function* () {
    if (digest === undefined || digest.fingerprint !== (yield* fingerprint)) return undefined
    const sql = yield* SqlClient.SqlClient
    const decode = (text: string) => recordDecoder()(text) as Array<unknown>
    const books: Record<string, Array<unknown>> = {}
    let after = 0
    for (;;) {
      const rows = yield* sql<{ seq: number; part: string; json: string }>`
        SELECT seq, part, json FROM plan_books
        WHERE digest = ${digest.id} AND seq > ${after}
          AND part NOT IN ${sql.in([...documentKinds, AGED.items])}
        ORDER BY seq LIMIT ${PAGE}`
      for (const r of rows) {
        const items = (books[r.part] ??= [])
        for (const item of decode(r.json)) items.push(item)
      }
      relieve()
      if (rows.length < PAGE) break
      after = rows[rows.length - 1]!.seq
    }
    const { [PAYMENTS]: payments, [FACTS]: facts, [AGED.headings]: headings, ...rest } = books
    if (payments === undefined || facts?.length !== 1 || headings === undefined) return undefined
    // One object for each kind and date (they never change): reconcile counts the payments of each kind.
    const payment = remembered((key: string) => {
      const [documentKind, date] = key.split("|") as [DocumentKind, string]
      return Object.freeze({ documentKind, date })
    })
    // A part's chunks, read from the first (from the workspace then), one at a time, each with memos of its
    // own: what they hold is let go of once compared, and memos kept from chunk to chunk (of up to 65,536 texts
    // and amounts each) held 14.6 MB of reconcile's heap at 100,000 invoices once every document had been
    // compared. Undefined once all are read.
    const chunksOf = (part: string) => {
      let at = 0
      return Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ seq: number; json: string }>`
          SELECT seq, json FROM plan_books WHERE digest = ${digest.id} AND part = ${part} AND seq > ${at}
          ORDER BY seq LIMIT 1`
        if (row === undefined) return undefined
        at = row.seq
        return recordDecoder()(row.json) as Array<unknown>
      }).pipe(Effect.orDie)
    }
    const chunks = (kind: DocumentKind) =>
      Effect.map(chunksOf(kind), (items) =>
        (items as Array<[number, string, SourceDocument]> | undefined)?.map(
          ([order, reference, doc]): Referenced => ({ doc, reference, order })
        )
      )
    // The aged reports' items, as the documents are.
    const agedItems = (each: AgedItems) =>
      Effect.gen(function* () {
        const next = chunksOf(AGED.items)
        for (;;) {
          const items = (yield* next) as Array<[number, SourceAgedItem, ReportMatch | null]> | undefined
          if (items === undefined) return
          for (const [at, item, match] of items) each(at, item, match)
        }
      })
    const kept: KeptBooks<SqlClient.SqlClient> = {
      books: {
        ...(rest as unknown as Omit<ComparedBooks, "payments" | "documents" | "agedReports" | "issues">),
        payments: (payments as Array<[DocumentKind, string]>).map(([kind, date]) =>
          payment(`${kind}|${date}`)
        ),
        agedReports: headings as Array<AgedReportHeading>
      },
      documents: fromChunks(facts[0] as DocumentFacts, chunks),
      agedItems
    }
    return kept
  }).pipe(Effect.orDie)
