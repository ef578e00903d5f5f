import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { invoiceBody, world, type World } from "./support.js"

describe("sandbox currencies and rates", () => {
  let w: World
  beforeAll(async () => {
    w = await world()
    await w.api.post("/organization/currencies", { currencies: ["GBP"] })
    await w.api.post("/organization-currencies/GBP/rates", {
      rate: 0.5,
      rateApplicableFrom: "2024-06-01",
      rateApplicableTo: "2024-06-30"
    })
  })
  afterAll(() => w.sandbox.close())

  const enableCases: ReadonlyArray<{ name: string; body: unknown; status: number }> = [
    { name: "currencies: enabling a currency → 201", body: { currencies: ["MYR"] }, status: 201 },
    {
      name: "currencies: enabling an enabled currency again is idempotent → 201",
      body: { currencies: ["USD"] },
      status: 201
    },
    {
      name: "currencies: enabling the base currency is refused → 422",
      body: { currencies: ["SGD"] },
      status: 422
    },
    { name: "currencies: an unknown code is refused → 422", body: { currencies: ["XYZ1"] }, status: 422 },
    { name: "currencies: an empty list is refused → 422", body: { currencies: [] }, status: 422 }
  ]
  it.each(enableCases)("$name", async ({ body, status }) => {
    expect((await w.api.post("/organization/currencies", body)).status).toBe(status)
  })

  it("currencies: GET lists the base currency and every enabled one", async () => {
    const r = await w.api.get("/organization/currencies")
    const codes = r.body.data.map((c: { currencyCode: string }) => c.currencyCode)
    expect(codes).toEqual(expect.arrayContaining(["SGD", "USD", "EUR", "GBP"]))
    expect(r.body.truncated).toBe(false)
  })

  const rateCases: ReadonlyArray<{ name: string; path: string; body: unknown; status: number }> = [
    {
      name: "rates: POST on /organization-currencies/:code/rates → 201",
      path: "/organization-currencies/USD/rates",
      body: { rate: 0.75, rateApplicableFrom: "2024-01-01" },
      status: 201
    },
    {
      name: "rates: POST on /organization/currencies/:code/rates → 201",
      path: "/organization/currencies/EUR/rates",
      body: { rate: 0.7, rateApplicableFrom: "2024-01-01" },
      status: 201
    },
    {
      name: "rates: a rate for the base currency is refused → 422",
      path: "/organization-currencies/SGD/rates",
      body: { rate: 1, rateApplicableFrom: "2024-01-01" },
      status: 422
    },
    {
      name: "rates: a rate for a currency not enabled is refused → 422",
      path: "/organization-currencies/JPY/rates",
      body: { rate: 110, rateApplicableFrom: "2024-01-01" },
      status: 422
    },
    {
      name: "rates: rateApplicableFrom as a datetime is refused → 422",
      path: "/organization-currencies/USD/rates",
      body: { rate: 0.75, rateApplicableFrom: "2024-01-01T00:00:00Z" },
      status: 422
    },
    {
      name: "rates: a missing rate is refused → 422",
      path: "/organization-currencies/USD/rates",
      body: { rateApplicableFrom: "2024-01-01" },
      status: 422
    },
    {
      name: "rates: a zero rate is refused → 422",
      path: "/organization-currencies/USD/rates",
      body: { rate: 0, rateApplicableFrom: "2024-01-01" },
      status: 422
    }
  ]
  it.each(rateCases)("$name", async ({ path, body, status }) => {
    expect((await w.api.post(path, body)).status).toBe(status)
  })

  it("rates: GET returns rateFunctionalToSource (as sent) and rateSourceToFunctional (its inverse) on both paths", async () => {
    await w.api.post("/organization-currencies/USD/rates", {
      rate: 0.8,
      rateApplicableFrom: "2024-05-01",
      rateApplicableTo: "2024-05-31"
    })
    for (const path of ["/organization-currencies/USD/rates", "/organization/currencies/USD/rates"]) {
      const r = await w.api.get(path)
      const row = r.body.data.find(
        (x: { rateApplicableFrom: number }) => x.rateApplicableFrom === Date.UTC(2024, 4, 1)
      )
      expect(row.rateFunctionalToSource).toBe(0.8)
      expect(row.rateSourceToFunctional).toBe(1.25)
      expect(row.rateApplicableTo).toBe(Date.UTC(2024, 4, 31))
    }
  })

  it("currency object: currency as a string on an invoice → 400", async () => {
    const r = await w.api.post("/invoices", invoiceBody(w, { currency: "USD" }))
    expect(r.status).toBe(400)
    expect(r.body.error.error_type).toBe("invalid_request_body")
  })

  it("currency object: currency as a string on a bill → 400", async () => {
    const r = await w.api.post("/bills", {
      ...invoiceBody(w),
      contactResourceId: w.supplier,
      currency: "USD"
    })
    expect(r.status).toBe(400)
  })

  it("currency object: currencyCode as a string is silently ignored → base currency", async () => {
    const r = await w.api.post("/invoices", invoiceBody(w, { currencyCode: "USD" }))
    expect(r.status).toBe(201)
    const inv = (await w.api.get(`/invoices/${r.body.data.resourceId}`)).body
    expect(inv.currencyCode).toBe("SGD")
    expect(inv.currency).toBeUndefined()
    expect(r.body.appliedRate).toBeUndefined()
  })

  it("rate hierarchy: an organization rate covering the date is used first", async () => {
    const r = await w.api.post(
      "/invoices",
      invoiceBody(w, { valueDate: "2024-06-15", dueDate: "2024-06-30", currency: { sourceCurrency: "GBP" } })
    )
    expect(r.status).toBe(201)
    expect(r.body.appliedRate).toEqual({
      baseCurrency: "SGD",
      sourceCurrency: "GBP",
      exchangeRate: 0.5,
      date: Date.UTC(2024, 5, 15)
    })
  })

  it("rate hierarchy: the platform rate is used when no organization rate covers the date", async () => {
    const r = await w.api.post(
      "/invoices",
      invoiceBody(w, { valueDate: "2024-07-01", dueDate: "2024-07-30", currency: { sourceCurrency: "GBP" } })
    )
    expect(r.body.appliedRate.exchangeRate).toBe(0.58)
  })

  it("rate hierarchy: rateApplicableTo omitted covers only rateApplicableFrom", async () => {
    await w.api.post("/organization-currencies/GBP/rates", { rate: 0.55, rateApplicableFrom: "2024-08-01" })
    const on = await w.api.post(
      "/invoices",
      invoiceBody(w, { valueDate: "2024-08-01", dueDate: "2024-08-30", currency: { sourceCurrency: "GBP" } })
    )
    const after = await w.api.post(
      "/invoices",
      invoiceBody(w, { valueDate: "2024-08-02", dueDate: "2024-08-30", currency: { sourceCurrency: "GBP" } })
    )
    expect(on.body.appliedRate.exchangeRate).toBe(0.55)
    expect(after.body.appliedRate.exchangeRate).toBe(0.58)
  })

  it("rate hierarchy: a transaction-level exchangeRate is used as sent", async () => {
    const r = await w.api.post(
      "/invoices",
      invoiceBody(w, { currency: { sourceCurrency: "USD", exchangeRate: 0.9 } })
    )
    expect(r.body.appliedRate.exchangeRate).toBe(0.9)
  })

  it("currency object: a currency that is not enabled → 422", async () => {
    const r = await w.api.post("/invoices", invoiceBody(w, { currency: { sourceCurrency: "AUD" } }))
    expect(r.status).toBe(422)
  })

  it("rates: PUT needs resourceId in the body and DELETE of a missing rate → 404", async () => {
    const id = (
      await w.api.post("/organization-currencies/USD/rates", { rate: 0.7, rateApplicableFrom: "2025-01-01" })
    ).body.data.resourceId
    expect(
      (
        await w.api.put(`/organization-currencies/USD/rates/${id}`, {
          rate: 0.71,
          rateApplicableFrom: "2025-01-01"
        })
      ).status
    ).toBe(422)
    const put = await w.api.put(`/organization-currencies/USD/rates/${id}`, {
      resourceId: id,
      rate: 0.71,
      rateApplicableFrom: "2025-01-01"
    })
    expect(put.body.data.rateFunctionalToSource).toBe(0.71)
    expect((await w.api.delete(`/organization-currencies/USD/rates/${id}`)).status).toBe(200)
    expect((await w.api.delete(`/organization-currencies/USD/rates/${id}`)).status).toBe(404)
  })
})
