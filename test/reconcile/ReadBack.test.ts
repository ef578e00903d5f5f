/**
 * Reading a big book back within the target's cap on a search's rows: every row once, and windows cut to the
 * count the target gives on its first page rather than halved after reading up to the cap. The target is a
 * fake `read` serving pages as the sandbox does (`pageOf`), counting the pages and rows it answered.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { searchPages, TargetApi } from "../../src/load/TargetApi.js"
import { cutWindow, searchByDate } from "../../src/reconcile/ReadBack.js"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import { pageOf } from "../../src/sandbox/Search.js"
import { addDays } from "../../src/transform/Dates.js"

interface Fake {
  readonly pages: number
  readonly rows: number
  /** Pages of invoices and bills served. */
  readonly searches: number
}

/** `perDay` rows a day for `days` days from 2024-01-01, under a cap of `maxRows`; `counted` omits totalElements. */
const fakeTarget = (days: number, perDay: (day: number) => number, maxRows: number, counted = true) => {
  const rows: Array<{ reference: string; valueDate: string; totalAmount: number }> = []
  for (let d = 0; d < days; d++)
    for (let i = 0; i < perDay(d); i++)
      rows.push({
        reference: `INV-${String(rows.length).padStart(6, "0")}`,
        valueDate: addDays("2024-01-01", d),
        totalAmount: 100
      })
  const seen = { pages: 0, rows: 0, searches: 0 }
  const read = (_method: "GET" | "POST", path: string, body?: unknown) =>
    Effect.sync(() => {
      // What reconcile reads beside the documents: an empty chart and reports, a company without a name.
      if (path === "/organization") return { data: {} }
      if (path.startsWith("/generate-reports/")) return { data: { rows: [] } }
      if (!path.endsWith("/invoices/search") && !path.endsWith("/bills/search"))
        return { totalElements: 0, totalPages: 0, truncated: false, data: [] }
      seen.searches++
      const b = body as {
        filter: { valueDate: { between: [string, string] } }
        limit: number
        offset: number
      }
      const [from, to] = b.filter.valueDate.between
      const inWindow = rows.filter((r) => r.valueDate >= from && r.valueDate <= to)
      const page = pageOf(inWindow, b.limit, b.offset, maxRows)
      seen.pages++
      seen.rows += page.data.length
      if (counted) return page
      const { totalElements: _, ...rest } = page
      return rest
    })
  const layer = Layer.succeed(TargetApi, {
    baseUrl: "http://fake",
    send: () => Effect.die("not used"),
    read,
    searchAll: searchPages(read)
  })
  return { rows, layer, seen: seen as Fake }
}

const readAll = (target: ReturnType<typeof fakeTarget>, until: string) =>
  searchByDate("/invoices/search", "2024-01-01", until).pipe(Effect.provide(target.layer))

describe("ReadBack", () => {
  it("cuts a window into days as even as it can, each day in one window", () => {
    assert.deepStrictEqual(cutWindow("2024-01-01", "2024-01-10", 3), [
      ["2024-01-01", "2024-01-03"],
      ["2024-01-04", "2024-01-06"],
      ["2024-01-07", "2024-01-10"]
    ])
    assert.deepStrictEqual(cutWindow("2024-01-01", "2024-01-02", 5), [
      ["2024-01-01", "2024-01-01"],
      ["2024-01-02", "2024-01-02"]
    ])
  })

  it.effect("a search over the cap is cut on its first page into windows the cap holds", () =>
    Effect.gen(function* () {
      // 25,000 rows over 100 days under the default cap of 10,000: the first page says 25,000, so four windows
      // of about 6,250 are read (seven pages each). Halving after ten pages read 10 + 2 x 10 + ... pages.
      const target = fakeTarget(100, () => 250, 10_000)
      const found = yield* readAll(target, "2024-04-09")
      assert.strictEqual(found.length, 25_000)
      assert.deepStrictEqual(
        found.map((r) => r.reference),
        target.rows.map((r) => r.reference)
      )
      assert.strictEqual(target.seen.pages, 1 + 4 * 7)
      assert.strictEqual(target.seen.rows, 25_000 + 1000)
    })
  )

  it.effect("a lower cap is learnt from the first truncated page and used for every window after", () =>
    Effect.gen(function* () {
      // 12,000 rows over 120 days under a cap of 2,500, below the default the reader assumes: two windows of
      // 6,000 by the count, the first truncated at its third page (which says the cap), then windows of 2,000.
      const target = fakeTarget(120, () => 100, 2_500)
      const found = yield* readAll(target, "2024-04-29")
      assert.deepStrictEqual(
        found.map((r) => r.reference),
        target.rows.map((r) => r.reference)
      )
      // The truncated window's pages after its first are read four at a time (`pagesAtOnce`): its second and
      // third, then two past the cap that the target answers empty.
      assert.strictEqual(target.seen.pages, 1 + 1 + 4 + 3 * 2 + 1 + 3 * 2)
      // Read and not returned: the first page, the truncated window's 2,500 rows, the second window's first page.
      assert.strictEqual(target.seen.rows, 12_000 + 1000 + 2500 + 1000)
    })
  )

  it.effect("busy days and a target that gives no count: every row once, halving as before", () =>
    Effect.gen(function* () {
      const target = fakeTarget(60, (d) => (d % 10 === 0 ? 900 : 20), 1_000, false)
      const found = yield* readAll(target, "2024-02-29")
      assert.strictEqual(found.length, target.rows.length)
      assert.deepStrictEqual(
        found.map((r) => r.reference),
        target.rows.map((r) => r.reference)
      )
    })
  )

  it.effect("the pages after the first are read side by side, and kept in order", () =>
    Effect.gen(function* () {
      // 6,500 rows in one window: the first page says 7 pages; the other 6 go out 4, then 2, at a time.
      const rows = Array.from({ length: 6_500 }, (_, i) => ({
        reference: `INV-${String(i).padStart(6, "0")}`
      }))
      let inFlight = 0
      const most: Array<number> = []
      const read = (_method: "GET" | "POST", _path: string, body?: unknown) =>
        Effect.gen(function* () {
          inFlight++
          most.push(inFlight)
          // Lets the other reads of the batch start before this one answers.
          yield* Effect.yieldNow()
          inFlight--
          const b = body as { limit: number; offset: number }
          return pageOf(rows, b.limit, b.offset, 10_000)
        })
      const side = yield* searchPages(read)("/invoices/search", {
        sort: { sortBy: ["reference"], order: "ASC" },
        pagesAtOnce: 4
      })
      assert.deepStrictEqual(side.rows, rows)
      assert.strictEqual(most.length, 7)
      assert.strictEqual(Math.max(...most), 4)
      most.length = 0
      const alone = yield* searchPages(read)("/invoices/search", {
        sort: { sortBy: ["reference"], order: "ASC" }
      })
      assert.deepStrictEqual(alone.rows, rows)
      assert.strictEqual(Math.max(...most), 1, "one page at a time unless asked")
    })
  )

  it.effect("more rows on one day than the target returns is an error, not a short read", () =>
    Effect.gen(function* () {
      const target = fakeTarget(3, (d) => (d === 1 ? 1_200 : 10), 1_000)
      const r = yield* Effect.either(readAll(target, "2024-01-03"))
      assert.isTrue(Either.isLeft(r))
      if (Either.isLeft(r)) {
        assert.strictEqual(r.left._tag, "TargetProtocolError")
        assert.match(String(r.left.message), /more rows on 2024-01-02 than the target returns/)
      }
    })
  )
})

describe("reconcile's reads of the target's invoices and bills", () => {
  it.scoped("run a few windows ahead of the comparison, and hand every document over once, in order", () =>
    Effect.gen(function* () {
      // 20,000 rows of each kind over 200 days under a cap of 2,000, read in windows of about 1,333 rows.
      const target = fakeTarget(200, () => 100, 2_000)
      const reads = yield* Reconcile.readTarget(
        { from: "2024-01-01", until: "2024-07-18" },
        false,
        "SGD",
        "2024-07-18"
      ).pipe(Effect.provide(target.layer))
      yield* Effect.repeatN(Effect.yieldNow(), 200)
      const ahead = target.seen.searches
      // Each kind's first page (the count: three windows), its first window's first page and the next four
      // read together (the first of them truncated at the cap: five windows of it), then two windows of two
      // pages each, one queued and one waiting to be: 20 of the 76 pages. Read without waiting for the
      // comparison, all 76 were read by now.
      assert.isAtMost(ahead, 2 * (1 + 1 + 4 + 2 * 2))
      // And read ahead at all: each kind's count and its first window, before anything is taken.
      assert.isAtLeast(ahead, 2 * (1 + 2))
      const handed = { invoice: [] as Array<string>, bill: [] as Array<string> }
      yield* reads.documents((kind, docs) =>
        Effect.sync(() => {
          for (const d of docs) handed[kind].push(d.reference)
        })
      )
      assert.isAbove(target.seen.searches, ahead, "the rest was read as the windows were taken")
      assert.deepStrictEqual(
        handed.invoice,
        target.rows.map((r) => r.reference)
      )
      assert.deepStrictEqual(handed.bill, handed.invoice)
      const again = yield* Effect.exit(reads.documents(() => Effect.void))
      assert.isTrue(Exit.isFailure(again), "the documents are handed over once")
    })
  )
})
