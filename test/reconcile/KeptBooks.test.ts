/**
 * A full-history plan keeps the books it was made from (without the documents' lines) and reconcile compares
 * those instead of reading the books again, while staging is what the plan read: kept books tampered with
 * are what reconcile reports; after a new extract they are not used. To explain an account that differs,
 * reconcile reads the books in full: the lines make the candidates.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Pipeline from "../../src/cli/Pipeline.js"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import * as PlanBooks from "../../src/staging/PlanBooks.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import {
  factsOf,
  inDateOrder,
  agedItemsOf,
  headingOf,
  keptInMemory,
  type KeptBooks,
  type Referenced
} from "../../src/transform/ComparedDocuments.js"
import type { DocumentKind, SourceBooks } from "../../src/transform/SourceModel.js"
import { anySource } from "../../src/reconcile/Model.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import {
  apiKey,
  call,
  inProcessIn,
  runCli,
  sampleDir,
  sandbox,
  searchAll,
  tempDir
} from "../support/Harness.js"
import { migration } from "../support/Migration.js"

/** Items as the kept books store them (money exactly, in ASCII): what two collections are compared by. */
const asStored = (items: ReadonlyArray<unknown>): string => [...PlanBooks.chunksOf(items)].join("\n")

describe("the books a plan keeps for reconcile", () => {
  it.scopedLive(
    "are the books read, documents without lines; reconcile compares them while staging is unchanged, and reads the lines to explain a difference",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("kept-books")
        const s = yield* sandbox()
        const { workspace, common } = migration(dir, s.url)
        const inProcess = inProcessIn(s, workspace)
        yield* inProcess(Extract.run({ source: "xero", inputDir: sampleDir }))
        yield* inProcess(Pipeline.plan(undefined, undefined))
        assert.isTrue((yield* inProcess(Executor.load({ concurrency: 8 }))).complete)

        const digest = (yield* inProcess(PlanStore.meta))?.booksDigest
        assert.isDefined(digest, "a full-history plan keeps its books")
        const kept = (yield* inProcess(PlanBooks.read(digest)))!
        const full = yield* inProcess(XeroSource.read)
        assert.isDefined(kept)
        // What reconcile compares: no cash entries, and of each payment its document's kind and date.
        assert.isAbove(full.cashEntries?.length ?? 0, 0, "the sample has cash entries")
        assert.notProperty(kept, "cashEntries")
        assert.deepStrictEqual(
          kept.books.payments,
          full.payments.map((p) => ({ documentKind: p.documentKind, date: p.date }))
        )
        const paymentObjects = new Set(kept.books.payments)
        assert.strictEqual(
          paymentObjects.size,
          new Set(full.payments.map((p) => `${p.documentKind} ${p.date}`)).size,
          "one object for each kind and date"
        )
        assert.isBelow(paymentObjects.size, kept.books.payments.length, "the sample has payments on one date")
        assert.notProperty(kept.books, "documents")
        assert.notProperty(kept.books, "issues", "reconcile does not read the issues: the plan has them")
        for (const part of PlanBooks.parts)
          assert.strictEqual(
            full[part] === undefined ? undefined : asStored(kept.books[part]!),
            full[part] === undefined ? undefined : asStored(full[part]),
            `${part} kept as read (money exactly)`
          )
        // The invoices and bills: each kind's in date order, with their references, without their lines.
        const { count, contacts, span } = kept.documents
        assert.deepStrictEqual({ count, contacts, span }, factsOf(full))
        // The aged reports: their headings with the rest, their items (with what each is in the books) when
        // asked for.
        assert.deepStrictEqual(kept.books.agedReports, full.agedReports.map(headingOf))
        const handed: Array<[number, unknown, unknown]> = []
        yield* inProcess(kept.agedItems((at, item, match) => handed.push([at, item, match])))
        const mine: Array<[number, unknown, unknown]> = []
        agedItemsOf(full, (at, item, match) => mine.push([at, item, match]))
        assert.strictEqual(
          asStored(handed),
          asStored(mine),
          "the aged reports' items kept as read, with what each is in the books"
        )
        assert.includeMembers(
          mine.map(([at]) => at),
          [0, 1],
          "the sample has aged reports on both sides"
        )
        assert.isAbove(mine.filter(([, , match]) => match !== null).length, 0, "the aged items are matched")
        const keptDocs = { invoice: [] as Array<Referenced>, bill: [] as Array<Referenced> }
        for (const kind of ["invoice", "bill"] as const) {
          const chunks: Array<ReadonlyArray<Referenced>> = []
          yield* inProcess(
            kept.documents.again(kind, (docs) => {
              chunks.push(docs)
              keptDocs[kind].push(...docs)
            })
          )
          const own = inDateOrder(full, kind)
          assert.isAbove(own.length, 0)
          assert.isTrue(keptDocs[kind].every((r) => r.doc.lines.length === 0))
          assert.strictEqual(
            asStored(keptDocs[kind].map(PlanBooks.documentItem)),
            asStored(own.map(PlanBooks.documentItem)),
            `the ${kind}s kept as read, each keeping its lines' lineage`
          )
          // Handed over as far as a date: the first date's, then the rest.
          const next = kept.documents.cursor()
          const first = yield* inProcess(next(kind, own[0]!.doc.date))
          assert.deepStrictEqual(
            first.map((r) => r.order),
            own.filter((r) => r.doc.date === own[0]!.doc.date).map((r) => r.order)
          )
          const rest = yield* inProcess(next(kind))
          assert.strictEqual(first.length + rest.length, own.length)
          assert.deepStrictEqual(yield* inProcess(next(kind)), [], "and nothing after")
          // Each amount is one object however often it is kept in a chunk (a chunk's documents share them):
          // the zeros, and totals that repeat.
          if (kind === "invoice") {
            assert.isAbove(chunks.length, 1, "the sample's invoices are kept in more than one chunk")
            assert.isTrue(
              chunks.some((c) => c.filter((r) => BigDecimal.isZero(r.doc.amountDue)).length > 1),
              "a chunk of the sample's invoices has several paid in full"
            )
          }
          const byValue = new Map<string, Set<BigDecimal.BigDecimal>>()
          for (const chunk of chunks) {
            const zeros = new Set(chunk.map((r) => r.doc.amountDue).filter((a) => BigDecimal.isZero(a)))
            assert.isAtMost(zeros.size, 1, `every zero amount due of a chunk of ${kind}s is one object`)
            const inChunk = new Map<string, Set<BigDecimal.BigDecimal>>()
            for (const { doc } of chunk) {
              const key = BigDecimal.format(doc.total)
              inChunk.set(key, (inChunk.get(key) ?? new Set()).add(doc.total))
              byValue.set(key, (byValue.get(key) ?? new Set()).add(doc.total))
            }
            assert.isTrue(
              [...inChunk.values()].every((totals) => totals.size === 1),
              `${kind}s of the same total in a chunk hold one object`
            )
          }
          if (kind === "invoice") {
            assert.isAbove(byValue.size, 1)
            assert.isBelow(byValue.size, keptDocs[kind].length, "the sample has totals that repeat")
          }
        }
        assert.isAbove(kept.books.credits?.length ?? 0, 0, "the sample has credits, kept with their lines")
        // Kept in ASCII (escapes), read back with every accent: the sample's names have ß, é, ü, ×.
        const stored = yield* inProcess(
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ json: string }>`SELECT json FROM plan_books`)
        )
        assert.isTrue(
          stored.every((r) => /^[\x00-\x7f]*$/.test(r.json)),
          "the kept text is ASCII"
        )
        const names = kept.books.contacts.map((c) => c.name).filter((n) => /[^\x00-\x7f]/.test(n))
        assert.isAbove(names.length, 0, "contacts named with accents are kept")
        assert.includeMembers(
          full.contacts.map((c) => c.name),
          names,
          "and read back as they were"
        )

        const reconcile = () => Effect.promise(() => runCli(["reconcile", ...common], { JK_API_KEY: apiKey }))
        const clean = yield* reconcile()
        assert.strictEqual(clean.status, 0, clean.stdout + clean.stderr)

        // Kept books tampered with are what reconcile compares: the first invoice's total, 1.00 more.
        const invoice = keptDocs.invoice[0]!.doc
        const [original] = yield* inProcess(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) => sql<{ seq: number; json: string }>`
              SELECT seq, json FROM plan_books WHERE part = 'invoice' ORDER BY seq LIMIT 1`
          )
        )
        const writeChunk = (json: string) =>
          inProcess(
            Effect.flatMap(
              SqlClient.SqlClient,
              (sql) => sql`UPDATE plan_books SET json = ${json} WHERE seq = ${original!.seq}`
            )
          )
        yield* Effect.suspend(() => {
          const docs = JSON.parse(original!.json) as Array<
            [number, string, { number: string; total: { $d: [string, number] } }]
          >
          const [, , doc] = docs.find(([, , d]) => d.number === invoice.number)!
          const [unscaled, scale] = doc.total.$d
          doc.total.$d = [String(BigInt(unscaled) + 10n ** BigInt(scale)), scale]
          return writeChunk(JSON.stringify(docs))
        })
        const tampered = yield* reconcile()
        assert.strictEqual(tampered.status, 1, tampered.stdout + tampered.stderr)
        assert.include(tampered.stdout, "Reconciliation: DIFFERENCES")
        const report = lastReport(NodePath.join(dir, "runs"))
        assert.deepStrictEqual(
          report.differences.map((d: { subject: string; fix: string }) => [d.subject, d.fix.split(":")[0]]),
          [[`invoice ${invoice.number}`, "totalAmount"]],
          "the kept total is what was compared, and nothing else"
        )
        // The kept books read before (their documents are read as they are compared) are as kept again.
        yield* writeChunk(original!.json)

        // Extracted again, staging is not what the plan read: the books are read again, and match.
        yield* inProcess(Extract.run({ source: "xero", inputDir: sampleDir }))
        assert.isUndefined(yield* inProcess(PlanBooks.read(digest)), "not used after a new extract")
        const again = yield* reconcile()
        assert.strictEqual(again.status, 0, again.stdout + again.stderr)

        // An account that differs is explained from the books' lines, read in full for it (and only then).
        const compare = (books: KeptBooks<SqlClient.SqlClient>, withLines: Effect.Effect<SourceBooks>) =>
          inProcess(
            Effect.map(
              Reconcile.reconcileKept(books, "SGD", "2025-12-31", anySource, undefined, withLines),
              (r) => r.differences.map((d) => [d.subject, d.difference, d.candidates.map((c) => c.reference)])
            )
          )
        let reads = 0
        const lines = Effect.zipRight(
          Effect.sync(() => reads++),
          inProcess(XeroSource.read)
        )
        assert.deepStrictEqual(yield* compare(kept, lines), [])
        assert.strictEqual(reads, 0, "nothing differs: the lines are not read")
        // The source's documents are asked for as far as the last date of each window of the target's, and
        // only then the rest: not all of them before the target's are read.
        const asked: Array<[string, string | undefined]> = []
        const watched = {
          ...kept.documents,
          cursor: () => {
            const next = kept.documents.cursor()
            return (kind: DocumentKind, until?: string) => {
              asked.push([kind, until])
              return next(kind, until)
            }
          }
        }
        assert.deepStrictEqual(yield* compare({ ...kept, documents: watched }, lines), [])
        for (const kind of ["invoice", "bill"] as const) {
          const mine = asked.filter(([k]) => k === kind).map(([, until]) => until)
          const dates = keptDocs[kind].map((r) => r.doc.date).sort()
          assert.isAbove(mine.length, 1, `the ${kind}s asked for a window at a time`)
          assert.strictEqual(
            mine[0],
            dates.at(-1),
            `the first window's ${kind}s reach the target's last date`
          )
          assert.isUndefined(mine.at(-1), `then the rest of the ${kind}s`)
        }
        yield* Effect.promise(async () => {
          const accounts = await searchAll(s, "chart-of-accounts", "name")
          const id = (name: string) => accounts.find((a) => a.name === name)!.resourceId as string
          const res = await call(s, "POST", "/journals", {
            reference: "ADJ-KEPT-1",
            valueDate: "2025-06-30",
            saveAsDraft: false,
            journalEntries: [
              { accountResourceId: id("Sales"), type: "DEBIT", amount: 50, description: "tamper" },
              {
                accountResourceId: id("DBS Business Account"),
                type: "CREDIT",
                amount: 50,
                description: "tamper"
              }
            ]
          })
          if (res.status >= 300) throw new Error(JSON.stringify(res.body))
        })
        const fromFull = yield* compare(keptInMemory(full), Effect.succeed(full))
        assert.includeDeepMembers(fromFull, [["Sales", "50.00", ["ADJ-KEPT-1"]]])
        assert.deepStrictEqual(yield* compare(kept, lines), fromFull, "the same differences and candidates")
        assert.strictEqual(reads, 1, "the books are read in full once, for the accounts that differ")
      }),
    240_000
  )
})

const lastReport = (runs: string) => {
  const last = NodeFs.readdirSync(runs)
    .filter((d) => d.startsWith("reconcile-"))
    .sort()
    .at(-1)!
  return JSON.parse(NodeFs.readFileSync(NodePath.join(runs, last, "report.json"), "utf8"))
}
