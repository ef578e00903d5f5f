/**
 * The plan's snapshot of the target (`ReadSnapshot.read`) and the rehearsal's (`MirrorSnapshot.take`) read
 * their lists side by side, not one round trip after another, and read the same as before. The target is a
 * fake `read` that yields before it answers, so that reads started together are seen in flight together.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as MirrorSnapshot from "../../src/load/MirrorSnapshot.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import { searchPages, TargetApi } from "../../src/load/TargetApi.js"
import { pageOf } from "../../src/sandbox/Search.js"

const day = Date.UTC(2024, 0, 1)

/**
 * A target with two foreign currencies, a few records of each list, and no documents; `baseFlagged`: its
 * organisation's record names no base currency, its currency list flags it.
 */
const fakeTarget = (baseFlagged = false) => {
  let inFlight = 0
  let most = 0
  // The same, counting only the reads of master data (not the documents, journals and cash legs).
  let masterInFlight = 0
  let mostMaster = 0
  const isHistory = (path: string) => /invoices|bills|credit-notes|journals|cashflow/.test(path)
  const paths: Array<string> = []
  const lists: Record<string, ReadonlyArray<Record<string, unknown>>> = {
    "/chart-of-accounts/search": [
      { name: "Sales", code: "200", accountType: "Revenue", accountClass: "Revenue" },
      { name: "Bank", code: "090", accountType: "Bank", accountClass: "Asset" }
    ],
    "/tax-profiles/search": [{ name: "GST", vatValue: 9, appliesToSale: true, appliesToPurchase: true }],
    "/contacts/search": [
      { name: "Zeta Ltd", resourceId: "c2" },
      { name: "Acme", resourceId: "c1" }
    ],
    "/items/search": [{ itemCode: "W-1", name: "Widget" }],
    "/tags/search": [{ tagName: "North" }],
    // Seven invoices over seven days, two of them on one day.
    "/invoices/search": [0, 1, 2, 2, 3, 5, 6].map((d, i) => ({
      reference: `INV-${i + 1}`,
      valueDate: day + d * 86_400_000,
      contact: { name: "Acme" },
      currencyCode: "SGD",
      status: "UNPAID",
      totalAmount: 100 + i
    }))
  }
  const answer = (method: string, path: string, body?: unknown): unknown => {
    if (path === "/organization")
      return { data: baseFlagged ? { name: "Fake Pte" } : { name: "Fake Pte", baseCurrency: "SGD" } }
    if (path.startsWith("/organization/currencies?"))
      return {
        data: ["SGD", "USD", "EUR"].map((currencyCode) => ({
          currencyCode,
          ...(baseFlagged && currencyCode === "SGD" ? { baseCurrency: true } : {})
        }))
      }
    const rates = /^\/organization-currencies\/([A-Z]{3})\/rates/.exec(path)
    if (rates) return { data: [{ rate: 1.3, rateFunctionalToSource: 1.3, rateApplicableFrom: day }] }
    if (path.includes("/effective-rate")) return { data: { rateFunctionalToSource: 1.3 } }
    if (path.startsWith("/account-classifications"))
      return { data: [{ classificationType: "Bank", accountClass: "Asset" }] }
    if (method === "POST") {
      const b = body as {
        limit: number
        offset: number
        filter?: { valueDate?: { between: [string, string] } }
        sort: { sortBy: [string]; order: "ASC" | "DESC" }
      }
      const within = b.filter?.valueDate?.between
      const field = b.sort.sortBy[0]
      const rows = (lists[path] ?? [])
        .filter((r) => {
          if (within === undefined) return true
          const d = new Date(r.valueDate as number).toISOString().slice(0, 10)
          return d >= within[0] && d <= within[1]
        })
        .sort((x, y) => {
          const [p, q] = [x[field], y[field]] as [string, string]
          return (p < q ? -1 : p > q ? 1 : 0) * (b.sort.order === "ASC" ? 1 : -1)
        })
      // A cap of 3 rows a search: the 7 invoices are more than one search returns.
      return pageOf(rows, b.limit, b.offset, path === "/invoices/search" ? 3 : 10_000)
    }
    throw new Error(`unexpected ${method} ${path}`)
  }
  const read = (method: "GET" | "POST", path: string, body?: unknown) =>
    Effect.gen(function* () {
      inFlight++
      most = Math.max(most, inFlight)
      const master = !isHistory(path)
      if (master) mostMaster = Math.max(mostMaster, ++masterInFlight)
      paths.push(`${method} ${path}`)
      // A few turns: a read started beside this one gets to start before this one answers.
      for (let i = 0; i < 50; i++) yield* Effect.yieldNow()
      inFlight--
      if (master) masterInFlight--
      return answer(method, path, body)
    })
  const layer = Layer.succeed(TargetApi, {
    baseUrl: "http://fake",
    send: () => Effect.die("not used"),
    read,
    searchAll: searchPages(read)
  })
  return { layer, most: () => most, mostMaster: () => mostMaster, paths }
}

describe("the snapshots of the target", () => {
  it.effect("the plan's reads its lists side by side, each sorted as before", () =>
    Effect.gen(function* () {
      const target = fakeTarget()
      const snapshot = yield* Effect.provide(ReadSnapshot.read, target.layer)
      // The rates of two currencies, the chart, tax profiles, contacts and items: six reads at once.
      assert.strictEqual(target.most(), 6)
      assert.strictEqual(snapshot.baseCurrency, "SGD")
      assert.deepStrictEqual(snapshot.enabledCurrencies, ["EUR", "SGD", "USD"])
      assert.deepStrictEqual(snapshot.rates, ["EUR:2024-01-01", "USD:2024-01-01"])
      assert.deepStrictEqual(
        snapshot.accounts.map((a) => a.name),
        ["Bank", "Sales"]
      )
      assert.deepStrictEqual(snapshot.contactNames, ["Acme", "Zeta Ltd"])
      assert.deepStrictEqual(snapshot.itemCodes, ["W-1"])
      assert.deepStrictEqual(
        snapshot.taxProfiles.map((t) => t.name),
        ["GST"]
      )
    })
  )

  it.effect(
    "the rehearsal's reads its master data side by side, keeps the currencies' order, and reads more invoices than one search returns",
    () =>
      Effect.gen(function* () {
        const target = fakeTarget()
        const { content } = yield* Effect.provide(MirrorSnapshot.take, target.layer)
        // The currencies (their rates once they are known), classifications, chart, tax profiles, contacts, items
        // and tags: seven reads at once; then the first and last dates of the six lists of history: twelve.
        assert.strictEqual(target.most(), 12)
        // The master data alone, once the organisation and its currency list are read (side by side): each
        // currency's rates and effective rate, classifications, chart, tax profiles, contacts, items and tags.
        assert.strictEqual(target.mostMaster(), 2 * 2 + 6)
        assert.deepStrictEqual(content.enabledCurrencies, ["EUR", "USD"])
        assert.deepStrictEqual(Object.keys(content.platformRates), ["EUR", "USD"])
        assert.deepStrictEqual(
          content.rates.map((r) => r.currencyCode),
          ["EUR", "USD"]
        )
        assert.deepStrictEqual(
          content.contacts.map((c) => c.name),
          ["Acme", "Zeta Ltd"]
        )
        assert.deepStrictEqual(content.tags, ["North"])
        // More invoices than one search returns, read a window of dates at a time: every one, once.
        assert.deepStrictEqual(
          content.documents.map((d) => d.reference),
          ["INV-1", "INV-2", "INV-3", "INV-4", "INV-5", "INV-6", "INV-7"]
        )
        assert.deepStrictEqual(content.documents[2], {
          kind: "invoice",
          reference: "INV-3",
          date: "2024-01-03",
          contact: "Acme",
          currencyCode: "SGD",
          status: "UNPAID",
          totalAmount: 102
        })
        // Each other list (none has rows): its first and last row's dates, and nothing more.
        const others = target.paths.filter((p) => /bills|credit-notes|journals|cashflow/.test(p))
        assert.strictEqual(others.length, 2 * 5)
      })
  )
})

describe("a target whose base currency only its currency list gives", () => {
  it.effect("is read with its currency list once, by the plan's snapshot and by the rehearsal's", () =>
    Effect.gen(function* () {
      const listReads = (paths: ReadonlyArray<string>) =>
        paths.filter((p) => p.startsWith("GET /organization/currencies?")).length
      const plan = fakeTarget(true)
      const snapshot = yield* Effect.provide(ReadSnapshot.read, plan.layer)
      assert.strictEqual(snapshot.baseCurrency, "SGD")
      assert.deepStrictEqual(snapshot.rates, ["EUR:2024-01-01", "USD:2024-01-01"])
      assert.strictEqual(listReads(plan.paths), 1)
      const rehearsal = fakeTarget(true)
      const { content } = yield* Effect.provide(MirrorSnapshot.take, rehearsal.layer)
      assert.strictEqual(content.organisation.baseCurrency, "SGD")
      assert.deepStrictEqual(content.enabledCurrencies, ["EUR", "USD"])
      assert.strictEqual(listReads(rehearsal.paths), 1)
    })
  )
})

describe("a list larger than one search returns", () => {
  /** Contacts served under a cap of `cap` rows a search, with the `reg` filter on their names. */
  const contactsTarget = (names: ReadonlyArray<string>, cap: number) => {
    const filters: Array<string> = []
    const read = (_method: "GET" | "POST", _path: string, body?: unknown) =>
      Effect.sync(() => {
        const b = body as { limit: number; offset: number; filter?: { name?: { reg: [string] } } }
        const reg = b.filter?.name?.reg[0]
        if (reg !== undefined && b.offset === 0) filters.push(reg)
        const rows = names
          .filter((n) => reg === undefined || new RegExp(reg).test(n))
          .sort()
          .map((name) => ({ name }))
        return pageOf(rows, b.limit, b.offset, cap)
      })
    const layer = Layer.succeed(TargetApi, {
      baseUrl: "http://fake",
      send: () => Effect.die("not used"),
      read,
      searchAll: searchPages(read)
    })
    return { layer, filters }
  }

  it.effect(
    "is read again cut by its names' first characters, and a part still too large by its second",
    () =>
      Effect.gen(function* () {
        const names = [
          "Acme",
          "acorn",
          "Beta",
          "Bravo",
          "Bolt",
          "Blue",
          "B",
          "1st Co",
          "Zed",
          "\u00c4\u00e4kk\u00f6nen"
        ]
        const target = contactsTarget(names, 3)
        const rows = yield* Effect.provide(ReadSnapshot.all("/contacts/search", "name"), target.layer)
        assert.deepStrictEqual(rows.map((r) => r.name).sort(), [...names].sort())
        // Five names start with a B: that part is cut again by the second character.
        assert.include(target.filters, "^[Bb]")
        assert.include(target.filters, "^[Bb][Rr]")
        assert.include(target.filters, "^[Bb]$")
        assert.notInclude(target.filters, "^[Aa][Cc]", "a part the cap holds is not cut again")
      })
  )

  it.effect("fails naming the part that cannot be cut further", () =>
    Effect.gen(function* () {
      const target = contactsTarget(["Same", "Same", "Same", "Same"], 3)
      const r = yield* Effect.flip(Effect.provide(ReadSnapshot.all("/contacts/search", "name"), target.layer))
      assert.strictEqual(r._tag, "TargetProtocolError")
      assert.include(r.message, "^[Ss][Aa][Mm][Ee]$")
    })
  )
})
