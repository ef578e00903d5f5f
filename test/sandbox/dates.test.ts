import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { invoiceBody, world, type World } from "./support.js"

describe("sandbox dates", () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })
  afterAll(() => w.sandbox.close())

  const requestCases: ReadonlyArray<{ name: string; value: unknown; status: number }> = [
    { name: "dates: YYYY-MM-DD accepted", value: "2024-03-01", status: 201 },
    { name: "dates: leap day of a leap year accepted", value: "2024-02-29", status: 201 },
    { name: "dates: ISO datetime refused", value: "2024-03-01T00:00:00Z", status: 422 },
    { name: "dates: epoch milliseconds refused", value: 1709251200000, status: 422 },
    { name: "dates: impossible date 2023-02-29 refused", value: "2023-02-29", status: 422 },
    { name: "dates: DD/MM/YYYY refused", value: "01/03/2024", status: 422 }
  ]
  it.each(requestCases)("$name", async ({ value, status }) => {
    const res = await w.api.post("/invoices", invoiceBody(w, { valueDate: value, dueDate: undefined }))
    expect(res.status).toBe(status)
    if (status === 422) {
      expect(res.body.error.error_type).toBe("validation_error")
      expect(res.body.error.errors[0]).toContain("valueDate")
    }
  })

  it("dates: business dates come back as epoch ms of the organization-local date (UTC midnight)", async () => {
    const id = (
      await w.api.post("/invoices", invoiceBody(w, { valueDate: "2024-03-01", dueDate: "2024-04-15" }))
    ).body.data.resourceId
    const inv = (await w.api.get(`/invoices/${id}`)).body
    expect(inv.valueDate).toBe(Date.UTC(2024, 2, 1))
    expect(inv.dueDate).toBe(Date.UTC(2024, 3, 15))
    expect(new Date(inv.valueDate).toISOString().slice(0, 10)).toBe("2024-03-01")
  })

  it("dates: audit timestamps are real UTC epoch ms", async () => {
    const before = Date.now()
    const res = await w.api.post("/invoices", invoiceBody(w))
    const inv = (await w.api.get(`/invoices/${res.body.data.resourceId}`)).body
    expect(inv.createdAt).toBeGreaterThanOrEqual(before)
    expect(inv.createdAt).toBeLessThanOrEqual(Date.now())
    expect(res.body.data.createdAt).toBe(inv.createdAt)
  })

  it("dates: dueDate before valueDate refused", async () => {
    const res = await w.api.post(
      "/invoices",
      invoiceBody(w, { valueDate: "2024-03-10", dueDate: "2024-03-01" })
    )
    expect(res.status).toBe(422)
  })
})
