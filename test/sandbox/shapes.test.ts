import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { billBody, invoiceBody, ref, world, type World } from "./support.js"

describe("sandbox response shapes that differ", () => {
  let w: World
  let invoice: string
  let bill: string
  let journal: string
  beforeAll(async () => {
    w = await world()
    invoice = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    bill = (await w.api.post("/bills", billBody(w))).body.data.resourceId
    journal = (
      await w.api.post("/journals", {
        reference: ref("JNL"),
        valueDate: "2024-03-01",
        journalEntries: [
          { accountResourceId: w.bank, type: "DEBIT", amount: 10 },
          { accountResourceId: w.account("Sales"), type: "CREDIT", amount: 10 }
        ]
      })
    ).body.data.resourceId
  })
  afterAll(() => w.sandbox.close())

  it("shapes: GET /invoices/:id is a flat object", async () => {
    const r = await w.api.get(`/invoices/${invoice}`)
    expect(r.body.resourceId).toBe(invoice)
    expect(r.body.data).toBeUndefined()
  })
  it.each([
    ["shapes: GET /bills/:id is { data }", () => `/bills/${bill}`, () => bill],
    ["shapes: GET /contacts/:id is { data }", () => `/contacts/${w.customer}`, () => w.customer],
    ["shapes: GET /journals/:id is { data }", () => `/journals/${journal}`, () => journal]
  ])("%s", async (_name, path, id) => {
    const r = await w.api.get(path())
    expect(r.body.data.resourceId).toBe(id())
  })
  it("shapes: GET /bank-accounts is a plain array of Bank Accounts chart entries", async () => {
    const r = await w.api.get("/bank-accounts")
    expect(Array.isArray(r.body)).toBe(true)
    expect(r.body.map((a: { name: string }) => a.name).sort()).toEqual(["DBS Current", "DBS USD"])
    expect(r.body.every((a: { accountType: string }) => a.accountType === "Bank Accounts")).toBe(true)
  })
  it("shapes: GET /withholding-tax-codes is a plain array of more than 1,360 entries", async () => {
    const r = await w.api.get("/withholding-tax-codes")
    expect(Array.isArray(r.body)).toBe(true)
    expect(r.body.length).toBeGreaterThan(1360)
    expect(r.body[0]).toEqual(
      expect.objectContaining({
        code: expect.any(String),
        description: expect.any(String),
        taxRate: expect.any(Number)
      })
    )
    expect(new Set(r.body.map((c: { code: string }) => c.code)).size).toBe(r.body.length)
  })
  const pay = (amount: number) => ({
    paymentAmount: amount,
    transactionAmount: amount,
    accountResourceId: w.bank,
    paymentMethod: "CASH",
    reference: ref("P"),
    valueDate: "2024-03-02"
  })
  /** A create to make: its path and body (made once the world exists), and the keys its `data` holds. */
  interface Create {
    readonly name: string
    readonly make: () => Promise<{ path: string; body: unknown }>
    readonly keys?: ReadonlyArray<string>
    readonly status?: number
  }
  const posted = (name: string, path: string, body: () => unknown, keys?: ReadonlyArray<string>): Create => ({
    name,
    make: async () => ({ path, body: body() }),
    ...(keys ? { keys } : {})
  })
  const settlement = ["resourceId", "resourceIds"]
  const creates: ReadonlyArray<Create> = [
    posted("invoices", "/invoices", () => invoiceBody(w)),
    posted("bills", "/bills", () => billBody(w)),
    posted("customer credit notes", "/customer-credit-notes", () => invoiceBody(w)),
    posted("supplier credit notes", "/supplier-credit-notes", () => billBody(w)),
    posted("journals", "/journals", () => ({
      reference: ref("JNL"),
      valueDate: "2024-03-01",
      journalEntries: [
        { accountResourceId: w.bank, type: "DEBIT", amount: 1 },
        { accountResourceId: w.account("Sales"), type: "CREDIT", amount: 1 }
      ]
    })),
    posted("contacts", "/contacts", () => ({ name: ref("Contact"), customer: true, supplier: false })),
    posted("items", "/items", () => ({
      itemCode: ref("SKU"),
      internalName: "Thing",
      appliesToSale: true,
      saleItemName: "Thing"
    })),
    posted("chart-of-accounts entries", "/chart-of-accounts", () => ({
      name: ref("Acct"),
      classificationType: "Operating Expense"
    })),
    posted("rates", "/organization-currencies/USD/rates", () => ({
      rate: 0.74,
      rateApplicableFrom: "2024-02-01"
    })),
    posted("tags", "/tags", () => ({ tagName: ref("Tag") })),
    posted("custom fields", "/custom-fields", () => ({ name: ref("Field"), type: "TEXT" })),
    posted("capsule types", "/capsuleTypes", () => ({ displayName: ref("Type") })),
    posted("contact groups", "/contact-groups", () => ({
      name: ref("Group"),
      contactResourceIds: [w.customer]
    })),
    posted("scheduled journals", "/scheduled/journals", () => ({
      startDate: "2024-04-01",
      endDate: "2024-12-31",
      repeat: "MONTHLY",
      valueDate: "2024-04-01",
      reference: ref("SJ"),
      schedulerEntries: []
    })),
    posted(
      "cash-ins",
      "/cash-in-entries",
      () => ({
        accountResourceId: w.bank,
        reference: ref("CI"),
        valueDate: "2024-03-01",
        journalEntries: [{ accountResourceId: w.account("Sales"), amount: 5 }]
      }),
      ["resourceId"]
    ),
    posted(
      "cash transfers",
      "/cash-transfers",
      () => ({
        reference: ref("CT"),
        valueDate: "2024-03-01",
        cashOut: { accountResourceId: w.bank, amount: 1 },
        cashIn: { accountResourceId: w.account("Cash on Hand"), amount: 1 }
      }),
      ["resourceId"]
    ),
    {
      name: "payments",
      make: async () => ({ path: `/invoices/${invoice}/payments`, body: { payments: [pay(10)] } }),
      keys: settlement
    },
    {
      name: "refunds",
      make: async () => {
        const note = (await w.api.post("/customer-credit-notes", invoiceBody(w))).body.data.resourceId
        return {
          path: `/customer-credit-notes/${note}/refunds`,
          body: { refunds: [{ ...pay(10), refundAmount: 10, refundMethod: "CASH" }] }
        }
      },
      keys: settlement
    },
    {
      name: "credit applications",
      make: async () => {
        const target = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
        const note = (await w.api.post("/customer-credit-notes", invoiceBody(w))).body.data.resourceId
        return {
          path: `/invoices/${target}/credits`,
          body: { credits: [{ creditNoteResourceId: note, amountApplied: 10 }] }
        }
      },
      keys: settlement,
      status: 200
    }
  ]
  it.each(creates)(
    "shapes: a create of $name answers { data: { resourceId, … } } and nothing at the top level",
    async ({ make, keys = ["createdAt", "resourceId"], status = 201 }) => {
      const { path, body } = await make()
      const r = await w.api.post(path, body)
      expect(r.status).toBe(status)
      expect(Object.keys(r.body)).toEqual(["data"])
      expect(Object.keys(r.body.data).sort()).toEqual(keys)
      expect(r.body.data.resourceId).toEqual(expect.any(String))
      if (keys === settlement) expect(r.body.data.resourceIds).toEqual([r.body.data.resourceId])
    }
  )
  it("shapes: a foreign-currency invoice create adds appliedRate beside data; a journal's (BaseResponse) does not", async () => {
    const usd = { currency: { sourceCurrency: "USD" } }
    const inv = await w.api.post("/invoices", invoiceBody(w, usd))
    expect(Object.keys(inv.body).sort()).toEqual(["appliedRate", "data"])
    expect(inv.body.appliedRate).toEqual({
      baseCurrency: "SGD",
      sourceCurrency: "USD",
      exchangeRate: 0.74,
      date: Date.UTC(2024, 2, 1)
    })
    const journal = await w.api.post("/journals", {
      ...usd,
      reference: ref("JNL"),
      valueDate: "2024-03-01",
      journalEntries: [
        { accountResourceId: w.account("Cost of Goods Sold"), type: "DEBIT", amount: 1 },
        { accountResourceId: w.account("Sales"), type: "CREDIT", amount: 1 }
      ]
    })
    expect(journal.status).toBe(201)
    expect(Object.keys(journal.body)).toEqual(["data"])
    const got = (await w.api.get(`/journals/${journal.body.data.resourceId}`)).body.data
    expect(got.currency).toEqual({ sourceCurrency: "USD", exchangeRate: 0.74 })
  })
  it("shapes: PUT /invoices/:id answers { data } (only the GET is flat)", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    const r = await w.api.put(`/invoices/${id}`, { ...invoiceBody(w), resourceId: id })
    expect(r.status).toBe(200)
    expect(Object.keys(r.body)).toEqual(["data"])
    expect(r.body.data.resourceId).toBe(id)
  })
  it("shapes: search and list answer { totalElements, totalPages, truncated, data } with no wrapper", async () => {
    for (const r of [await w.api.post("/invoices/search", {}), await w.api.get("/invoices")]) {
      expect(Object.keys(r.body).sort()).toEqual(["data", "totalElements", "totalPages", "truncated"])
      expect(r.body.truncated).toBe(false)
    }
  })
  it("shapes: error bodies are { error: { error_type, errors[] } }", async () => {
    const r = await w.api.post("/invoices", { ...invoiceBody(w), reference: undefined })
    expect(r.status).toBe(422)
    expect(r.body).toEqual({
      error: { error_type: "validation_error", errors: [expect.stringContaining("reference")] }
    })
  })
  it("shapes: invoice record carries the documented fields", async () => {
    const r = (await w.api.get(`/invoices/${invoice}`)).body
    for (const f of [
      "resourceId",
      "reference",
      "status",
      "valueDate",
      "dueDate",
      "contactResourceId",
      "contact",
      "currencyCode",
      "exchangeRate",
      "totalAmount",
      "taxInclusion",
      "lineItems",
      "paymentRecords",
      "createdAt",
      "updatedAt"
    ])
      expect(r).toHaveProperty(f)
    const line = r.lineItems[0]
    expect(line.organizationAccountResourceId).toBe(w.account("Sales"))
    expect(line.accountResourceId).toBeUndefined()
    expect(line.taxProfile.resourceId).toBe(w.tax("SR 9%"))
    expect(line).toMatchObject({ name: "Widget", quantity: 2, unitPrice: 50, lineAmount: 100, taxAmount: 9 })
    expect(r.paymentRecords[0]).toEqual(
      expect.objectContaining({
        paymentAmount: 10,
        transactionAmount: 10,
        accountResourceId: w.bank,
        paymentMethod: "CASH"
      })
    )
  })
})
