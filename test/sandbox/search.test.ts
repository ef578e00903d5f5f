import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, invoiceBody, world, type World } from "./support.js"
import { startSandbox, type RunningSandbox } from "../../src/sandbox/Sandbox.js"

describe("sandbox search", () => {
  let w: World
  const refs = ["S-001", "S-002", "S-003", "S-004", "S-005"]
  beforeAll(async () => {
    w = await world()
    for (const [i, reference] of refs.entries())
      await w.api.post(
        "/invoices",
        invoiceBody(
          w,
          { reference, valueDate: `2024-01-0${i + 1}`, dueDate: "2024-02-01" },
          { unitPrice: 10 * (i + 1), quantity: 1, taxProfileResourceId: undefined }
        )
      )
  })
  afterAll(() => w.sandbox.close())

  const search = (body: unknown) => w.api.post("/invoices/search", body)
  const sort = { sortBy: ["reference"], order: "ASC" }

  const refusals: ReadonlyArray<{ name: string; body: unknown }> = [
    { name: "search: offset without sort → 422", body: { offset: 1 } },
    { name: "search: offset 0 without sort → 422", body: { offset: 0 } },
    { name: "search: limit 0 → 422", body: { limit: 0 } },
    { name: "search: limit 1001 → 422", body: { limit: 1001 } },
    { name: "search: offset above 65536 → 422", body: { offset: 65537, sort } },
    { name: "search: negative offset → 422", body: { offset: -1, sort } },
    {
      name: "search: in with 101 values → 422",
      body: { filter: { reference: { in: Array.from({ length: 101 }, (_, i) => `R${i}`) } } }
    },
    {
      name: "search: likeIn with 101 values → 422",
      body: { filter: { reference: { likeIn: Array.from({ length: 101 }, (_, i) => `R${i}%`) } } }
    },
    {
      name: "search: reg with 101 values → 422",
      body: { filter: { reference: { reg: Array.from({ length: 101 }, (_, i) => `^R${i}`) } } }
    },
    {
      name: "search: between with 3 values → 422",
      body: { filter: { valueDate: { between: ["2024-01-01", "2024-01-02", "2024-01-03"] } } }
    },
    {
      name: "search: between with 1 value → 422",
      body: { filter: { valueDate: { between: ["2024-01-01"] } } }
    },
    { name: "search: unknown filter field → 422", body: { filter: { referenceNumber: { eq: "S-001" } } } },
    {
      name: "search: string operator on a number field → 422",
      body: { filter: { totalAmount: { contains: "1" } } }
    },
    {
      name: "search: date filter as a datetime → 422",
      body: { filter: { valueDate: { eq: "2024-01-01T00:00:00Z" } } }
    },
    { name: "search: sortBy must be an array → 422", body: { sort: { sortBy: "reference", order: "ASC" } } },
    {
      name: "search: sort order must be ASC or DESC → 422",
      body: { sort: { sortBy: ["reference"], order: "UP" } }
    },
    { name: "search: unknown sort field → 422", body: { sort: { sortBy: ["nope"], order: "ASC" } } },
    {
      name: "search: eq with a non-string on a string field → 422",
      body: { filter: { reference: { eq: 5 } } }
    }
  ]
  it.each(refusals)("$name", async ({ body }) => {
    const r = await search(body)
    expect(r.status).toBe(422)
    expect(r.body.error.error_type).toBe("validation_error")
  })

  const matches: ReadonlyArray<{ name: string; filter: unknown; expected: string[] }> = [
    { name: "search: string eq", filter: { reference: { eq: "S-002" } }, expected: ["S-002"] },
    {
      name: "search: string neq",
      filter: { reference: { neq: "S-002" } },
      expected: ["S-001", "S-003", "S-004", "S-005"]
    },
    { name: "search: string contains", filter: { reference: { contains: "-00" } }, expected: refs },
    {
      name: "search: string in",
      filter: { reference: { in: ["S-001", "S-005", "X"] } },
      expected: ["S-001", "S-005"]
    },
    { name: "search: string likeIn", filter: { reference: { likeIn: ["s-00_"] } }, expected: refs },
    {
      name: "search: string reg (regular expressions)",
      filter: { reference: { reg: ["^S-00[12]$"] } },
      expected: ["S-001", "S-002"]
    },
    {
      name: "search: string isNull false",
      filter: { dueDate: { gte: "2024-01-01" }, reference: { isNull: false } },
      expected: refs
    },
    { name: "search: number gt", filter: { totalAmount: { gt: 30 } }, expected: ["S-004", "S-005"] },
    { name: "search: number lte", filter: { totalAmount: { lte: 20 } }, expected: ["S-001", "S-002"] },
    { name: "search: number in", filter: { totalAmount: { in: [10, 50] } }, expected: ["S-001", "S-005"] },
    {
      name: "search: date between (inclusive)",
      filter: { valueDate: { between: ["2024-01-02", "2024-01-03"] } },
      expected: ["S-002", "S-003"]
    },
    { name: "search: date gte", filter: { valueDate: { gte: "2024-01-04" } }, expected: ["S-004", "S-005"] },
    { name: "search: boolean eq", filter: { taxInclusion: { eq: true } }, expected: [] },
    {
      name: "search: nested contact.name",
      filter: { contact: { name: { eq: "Acme Customer" } } },
      expected: refs
    },
    {
      name: "search: or of two conditions",
      filter: { or: { reference: { eq: "S-001" }, totalAmount: { eq: 50 } } },
      expected: ["S-001", "S-005"]
    },
    {
      name: "search: not",
      filter: { not: { reference: { in: ["S-001", "S-002"] } } },
      expected: ["S-003", "S-004", "S-005"]
    },
    {
      name: "search: orGroup on invoices",
      filter: { orGroup: [{ reference: { eq: "S-003" } }, { reference: { eq: "S-004" } }] },
      expected: ["S-003", "S-004"]
    },
    {
      name: "search: datetime createdAt accepts RFC 3339",
      filter: { createdAt: { gte: "2000-01-01T00:00:00Z" } },
      expected: refs
    }
  ]
  it.each(matches)("$name", async ({ filter, expected }) => {
    const r = await search({ filter, sort })
    expect(r.status).toBe(200)
    expect(r.body.data.map((d: { reference: string }) => d.reference)).toEqual(expected)
  })

  it("search: offset is a zero-indexed page number", async () => {
    const r = await search({ limit: 2, offset: 1, sort })
    expect(r.body.data.map((d: { reference: string }) => d.reference)).toEqual(["S-003", "S-004"])
    expect(r.body).toMatchObject({ totalElements: 5, totalPages: 3, truncated: false })
  })

  it("search: sort DESC", async () => {
    const r = await search({ sort: { sortBy: ["totalAmount"], order: "DESC" }, limit: 2 })
    expect(r.body.data.map((d: { reference: string }) => d.reference)).toEqual(["S-005", "S-004"])
  })

  it("search: page and size are silently ignored", async () => {
    const r = await search({ page: 3, size: 1, sort })
    expect(r.status).toBe(200)
    expect(r.body.data).toHaveLength(5)
  })

  it("search: contacts search by name; a billingName filter returns zero rows", async () => {
    const byName = await w.api.post("/contacts/search", { filter: { name: { eq: "Acme Customer" } } })
    expect(byName.body.totalElements).toBe(1)
    const byBilling = await w.api.post("/contacts/search", {
      filter: { billingName: { eq: "Acme Customer" } }
    })
    expect(byBilling.status).toBe(200)
    expect(byBilling.body.totalElements).toBe(0)
  })

  it("search: contacts sort by name", async () => {
    const r = await w.api.post("/contacts/search", { sort: { sortBy: ["name"], order: "DESC" }, offset: 0 })
    expect(r.body.data.map((c: { name: string }) => c.name)).toEqual(["Bolt Supplier", "Acme Customer"])
  })

  it("lists: GET endpoints take limit and offset query parameters", async () => {
    const r = await w.api.get("/invoices?limit=2&offset=2")
    expect(r.body).toMatchObject({ totalElements: 5, totalPages: 3, truncated: false })
    expect(r.body.data.map((d: { reference: string }) => d.reference)).toEqual(["S-005"])
    expect((await w.api.get("/invoices?limit=0")).status).toBe(422)
    expect((await w.api.get("/invoices?limit=1001")).status).toBe(422)
  })

  describe("row cap", () => {
    let small: RunningSandbox
    let api: Client
    beforeAll(async () => {
      small = await startSandbox({ searchMaxRows: 5 })
      api = new Client(small.url)
      for (let i = 0; i < 7; i++)
        await api.post("/contacts", { name: `Cap ${i}`, customer: true, supplier: false })
    })
    afterAll(() => small.close())

    it("search: a page below the row cap is not truncated and has no _meta", async () => {
      const r = await api.post("/contacts/search", {
        limit: 2,
        offset: 0,
        sort: { sortBy: ["name"], order: "ASC" }
      })
      expect(r.body.truncated).toBe(false)
      expect(r.body._meta).toBeUndefined()
    })
    it("search: a page reaching the row cap answers truncated with _meta { fetchedRows, maxRows }", async () => {
      const r = await api.post("/contacts/search", {
        limit: 2,
        offset: 2,
        sort: { sortBy: ["name"], order: "ASC" }
      })
      expect(r.body.truncated).toBe(true)
      expect(r.body._meta).toEqual({ fetchedRows: 5, maxRows: 5 })
      expect(r.body.data.map((c: { name: string }) => c.name)).toEqual(["Cap 4"])
      expect(r.body.totalElements).toBe(7)
    })
    it("search: rows past the row cap are never returned", async () => {
      const r = await api.post("/contacts/search", {
        limit: 2,
        offset: 3,
        sort: { sortBy: ["name"], order: "ASC" }
      })
      expect(r.body.data).toEqual([])
      expect(r.body.truncated).toBe(true)
    })
  })
})
