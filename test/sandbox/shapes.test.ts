import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { billBody, invoiceBody, ref, world, type World } from "./support.js"

describe("sandbox response shapes that differ", () => {
  let w: World
  let invoice: string
  let bill: string
  let journal: string
  beforeAll(async () => {
    w = await world()
    invoice = (await w.api.post("/invoices", invoiceBody(w))).body.resourceId
    bill = (await w.api.post("/bills", billBody(w))).body.resourceId
    journal = (
      await w.api.post("/journals", {
        reference: ref("JNL"),
        valueDate: "2024-03-01",
        journalEntries: [
          { accountResourceId: w.bank, type: "DEBIT", amount: 10 },
          { accountResourceId: w.account("Sales"), type: "CREDIT", amount: 10 }
        ]
      })
    ).body.resourceId
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
  it.each([
    ["invoices", () => ({ path: "/invoices", body: invoiceBody(w) })],
    ["bills", () => ({ path: "/bills", body: billBody(w) })],
    [
      "contacts",
      () => ({ path: "/contacts", body: { name: ref("Contact"), customer: true, supplier: false } })
    ],
    [
      "items",
      () => ({
        path: "/items",
        body: { itemCode: ref("SKU"), internalName: "Thing", appliesToSale: true, saleItemName: "Thing" }
      })
    ]
  ])("shapes: create %s answers 201 with only resourceId and createdAt", async (_n, make) => {
    const { path, body } = make()
    const r = await w.api.post(path, body)
    expect(r.status).toBe(201)
    expect(Object.keys(r.body).sort()).toEqual(["createdAt", "resourceId"])
  })
  it("shapes: payments create answers { resourceId, resourceIds }", async () => {
    const r = await w.api.post(`/invoices/${invoice}/payments`, {
      payments: [
        {
          paymentAmount: 10,
          transactionAmount: 10,
          accountResourceId: w.bank,
          paymentMethod: "CASH",
          reference: ref("P"),
          valueDate: "2024-03-02"
        }
      ]
    })
    expect(r.status).toBe(201)
    expect(r.body.resourceIds).toEqual([r.body.resourceId])
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
