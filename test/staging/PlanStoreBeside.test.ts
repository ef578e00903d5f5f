/**
 * A plan stored from a thread of its own while `plan` writes its preview from the scratch
 * (`PlanStore.saveBuiltBeside`, `PlanStore.inScratch`): stored row for row as the store on the plan's own
 * thread stores it, rejects and metadata included; read from its scratch as the stored plan is read, while it
 * is stored too; and written in one transaction, all or nothing.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as NodePath from "node:path"
import * as PlanPreview from "../../src/preview/PlanPreview.js"
import * as Preview from "../../src/preview/Preview.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import { phases } from "../../src/transform/Plan.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import { PlanScratch } from "../../src/transform/PlanScratch.js"
import { tempDir } from "../support/TempDir.js"
import { everyPlanner, invoice, mappings, payment, snapshot } from "../transform/Books.js"

// Every planner's operations, a warning (a voided invoice) and a reject (a payment of no document).
const plain = everyPlanner()
const company = everyPlanner({
  documents: [...plain.documents, invoice("INV-3", "2025-02-04", { state: "voided", status: "Voided" })],
  payments: [...plain.payments, payment("INV-9", "2025-02-11", "5.00", 8)]
})

/** A workspace's staging file in a directory of its own, removed after the test. */
const stagingFile = (name: string) => NodePath.join(tempDir(name), "staging.db")

/** Everything a stored plan is: its rows, its metadata and the rows it rejected. */
const storedPlan = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    ops: yield* PlanStore.ops,
    meta: yield* sql`SELECT k, v FROM plan_meta ORDER BY k`,
    rejects: yield* sql`SELECT file, line, stage, reason FROM rejects ORDER BY file, line`
  }
})

/** `use` with the company built into a scratch, closed after. */
const withBuilt = <A, E, R>(
  use: (scratch: PlanScratch, built: ReturnType<typeof PlanBuilder.buildInto>) => Effect.Effect<A, E, R>
) =>
  Effect.acquireUseRelease(
    // As plan opens it to write a preview: each operation kept with what the preview lists of it.
    Effect.sync(() => PlanScratch.open(PlanPreview.listingText)),
    (scratch) => use(scratch, PlanBuilder.buildInto(scratch, company, snapshot, mappings)),
    (scratch) => Effect.sync(() => scratch.close())
  )

/** Every operation `read` gives of every phase, read two at a time. */
const everyPage = <R, A extends { readonly seq: number }>(read: PlanStore.PageReader<R, A>) =>
  Effect.gen(function* () {
    const all = []
    for (const phase of phases)
      for (let after = 0; ;) {
        const page = yield* read(phase, after, 2)
        if (page.length === 0) break
        all.push(...page)
        after = page[page.length - 1]!.seq
      }
    return all
  })

/**
 * A connection to the sealed scratch `file` in a read transaction: it holds the file's shared lock, as each of
 * the preview's page reads holds it in turn, until it is released.
 */
const readerOf = (file: string) => {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  db.exec("BEGIN")
  db.prepare("SELECT count(*) FROM load_order").get()
  return db
}

/** Lets the event loop turn, so that the storing thread's message is heard. */
const turn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

describe("a plan stored from a thread of its own", () => {
  it.effect("is stored as the plan's own thread stores it: rows, metadata and rejects", () =>
    Effect.gen(function* () {
      const here = yield* withBuilt((scratch, built) =>
        Effect.gen(function* () {
          const hash = yield* PlanStore.saveBuilt(scratch, built, "SGD")
          return { hash, stored: yield* storedPlan }
        })
      ).pipe(Effect.provide(StagingDb.layer(stagingFile("store-here"))))
      const file = stagingFile("store-beside")
      const beside = yield* withBuilt((scratch, built) =>
        Effect.gen(function* () {
          const { hash, stored } = yield* PlanStore.saveBuiltBeside(file, scratch, built, "SGD")
          yield* stored
          return { hash, stored: yield* storedPlan }
        })
      ).pipe(Effect.provide(StagingDb.layer(file)))
      assert.strictEqual(beside.hash, here.hash)
      assert.isAbove(here.stored.ops.length, 8)
      assert.deepStrictEqual(beside.stored, here.stored)
      assert.deepStrictEqual(
        here.stored.rejects.map((r) => `${r.file}:${r.line}`),
        ["AccountTransactions.csv:8"],
        "the payment of no document is rejected, naming its row"
      )
    })
  )

  it.effect("is read from its scratch as the stored plan is read: metadata, counts, issues and pages", () =>
    withBuilt((scratch, built) =>
      Effect.gen(function* () {
        const hash = yield* PlanStore.saveBuilt(scratch, built, "SGD")
        const fromScratch = PlanStore.inScratch(scratch, built, hash, "SGD")
        const stored = PlanStore.stored
        assert.deepStrictEqual(yield* fromScratch.meta, yield* stored.meta)
        assert.deepStrictEqual(yield* fromScratch.kindCounts, yield* stored.kindCounts)
        assert.deepStrictEqual(yield* fromScratch.issues, yield* stored.issues)
        const pages = yield* everyPage(fromScratch.page)
        assert.deepStrictEqual(pages, yield* everyPage(stored.page))
        assert.deepStrictEqual(pages, yield* PlanStore.ops)
        const previewPages = yield* everyPage(fromScratch.previewPage)
        assert.deepStrictEqual(previewPages, yield* everyPage(stored.previewPage))
        // What the preview lists of each operation, kept as it was built, is what the stored body says.
        assert.isDefined(fromScratch.listedPage)
        const listed = yield* everyPage(fromScratch.listedPage!)
        assert.deepStrictEqual(listed, previewPages.map(Preview.listedOf))
        assert.isAbove(
          listed.filter((op) => (op.listed as Preview.Listed)[3] !== "").length,
          3,
          "the payments', credits' and journals' amounts are listed"
        )
        // The preview's pages leave a document's lines out.
        const invoiceBody = previewPages.find((op) => op.kind === "invoice")?.body as Record<string, unknown>
        assert.notProperty(invoiceBody, "lineItems")
        assert.property(pages.find((op) => op.kind === "invoice")?.body, "lineItems")
      })
    ).pipe(Effect.provide(StagingDb.layer(":memory:")))
  )

  // better-sqlite3 compiles in a 16 MB page cache per database; the store's thread copies the scratch in order,
  // and a cache that size was resident beside the preview's heap (plan's peak RSS at 100,000 invoices).
  it.effect("keeps a small page cache on the workspace and on the file it copies from", () =>
    Effect.gen(function* () {
      const file = stagingFile("store-cache")
      yield* Effect.void.pipe(Effect.provide(StagingDb.layer(file)))
      const attached = NodePath.join(NodePath.dirname(file), "attached.db")
      new Database(attached).exec("CREATE TABLE t (x)").close()
      const failed = yield* Effect.promise(() =>
        PlanStore.transactionBeside(file, { file: attached, schema: "SCRATCH" }, [
          {
            sql: `CREATE TABLE caches AS SELECT
                    (SELECT cache_size FROM pragma_cache_size) AS workspace,
                    (SELECT cache_size FROM pragma_cache_size WHERE schema = 'SCRATCH') AS attached`,
            params: []
          }
        ])
      )
      assert.isUndefined(failed)
      const db = new Database(file, { readonly: true })
      const caches = db.prepare("SELECT workspace, attached FROM caches").get()
      db.close()
      assert.deepStrictEqual(caches, { workspace: -4000, attached: -4000 })
    })
  )

  it.effect("writes all of its statements or none", () =>
    Effect.gen(function* () {
      const file = stagingFile("store-atomic")
      const before = yield* withBuilt((scratch, built) =>
        Effect.zipRight(PlanStore.saveBuilt(scratch, built, "SGD"), storedPlan)
      ).pipe(Effect.provide(StagingDb.layer(file)))
      // The plan is emptied, then a second plan hash is refused (the key is taken): nothing changes.
      const refused = yield* Effect.promise(() =>
        PlanStore.transactionBeside(file, undefined, [
          { sql: "DELETE FROM plan_ops", params: [] },
          { sql: "INSERT INTO plan_meta (k, v) VALUES (?, ?)", params: ["plan_hash", "another"] }
        ])
      )
      assert.match(refused ?? "", /UNIQUE constraint failed: plan_meta\.k/)
      const after = yield* storedPlan.pipe(Effect.provide(StagingDb.layer(file)))
      assert.deepStrictEqual(after, before)
      // All of them are written when none fails.
      const done = yield* Effect.promise(() =>
        PlanStore.transactionBeside(file, undefined, [
          { sql: "DELETE FROM plan_ops", params: [] },
          { sql: "UPDATE plan_meta SET v = ? WHERE k = ?", params: ["another", "plan_hash"] }
        ])
      )
      assert.isUndefined(done)
      const emptied = yield* storedPlan.pipe(Effect.provide(StagingDb.layer(file)))
      assert.deepStrictEqual(emptied.ops, [])
      assert.deepInclude(emptied.meta, { k: "plan_hash", v: "another" })
    })
  )

  // A store that write-locks the scratch (an immediate transaction takes every attached file's write lock)
  // waits at its commit for the reader's shared lock to go, and holds off every new read meanwhile: the
  // preview's next page read fails with "database is locked" (after the scratch connection's busy timeout,
  // 5 s), and the store is done only once the reader is gone.
  it.effect("is stored while its scratch is read from the plan's thread", () =>
    Effect.gen(function* () {
      const file = stagingFile("store-read")
      const { read, whileHeld, stored } = yield* withBuilt((scratch, built) =>
        Effect.gen(function* () {
          const reader = readerOf(scratch.seal())
          const { hash, stored } = yield* PlanStore.saveBuiltBeside(file, scratch, built, "SGD")
          const storing = yield* Effect.fork(stored)
          const fromScratch = PlanStore.inScratch(scratch, built, hash, "SGD")
          let whileHeld = false
          yield* Effect.gen(function* () {
            do {
              yield* everyPage(fromScratch.listedPage!)
              yield* turn
            } while (Option.isNone(yield* Fiber.poll(storing)))
            whileHeld = reader.inTransaction
          }).pipe(
            Effect.ensuring(
              Effect.zipRight(
                Effect.sync(() => {
                  reader.exec("ROLLBACK")
                  reader.close()
                }),
                Fiber.await(storing)
              )
            )
          )
          yield* Fiber.join(storing)
          return { read: yield* everyPage(fromScratch.page), whileHeld, stored: yield* storedPlan }
        })
      ).pipe(Effect.provide(StagingDb.layer(file)))
      assert.isTrue(whileHeld, "the plan was stored while the reader held the scratch")
      assert.isAbove(read.length, 8)
      assert.deepStrictEqual(stored.ops, read)
    })
  )
})
