import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startSandbox } from "../../src/sandbox/Sandbox.js"
import { tempDir } from "../support/TempDir.js"
import { Client, invoiceBody, world } from "./support.js"

describe("sandbox state file", () => {
  it("state: a restart on the same file keeps every record and the ledger, and does not re-apply the fixture", async () => {
    const state = join(tempDir("sbx"), "state.db")
    const w = await world({ statePath: state })
    const inv = await w.api.post("/invoices", invoiceBody(w))
    expect(inv.status).toBe(201)
    const tb1 = (
      await w.api.post("/generate-reports/trial-balance", { startDate: "2024-01-01", endDate: "2024-12-31" })
    ).body
    const accounts1 = (await w.api.get("/chart-of-accounts?limit=1000")).body.totalElements
    await w.sandbox.close()

    const again = await startSandbox({ statePath: state })
    const api = new Client(again.url)
    const got = await api.get(`/invoices/${inv.body.data.resourceId}`)
    expect(got.status).toBe(200)
    expect(got.body.totalAmount).toBe(109)
    expect((await api.get("/chart-of-accounts?limit=1000")).body.totalElements).toBe(accounts1)
    const tb2 = (
      await api.post("/generate-reports/trial-balance", { startDate: "2024-01-01", endDate: "2024-12-31" })
    ).body
    expect(tb2.data.rows).toEqual(tb1.data.rows)
    expect(
      (await api.get("/organization/currencies")).body.data.map(
        (c: { currencyCode: string }) => c.currencyCode
      )
    ).toEqual(["SGD", "USD", "EUR"])
    await again.close()
  })

  it("state: without a state file the sandbox starts from the fixture every time", async () => {
    const a = await startSandbox()
    await new Client(a.url).post("/contacts", { name: "Only Here", customer: true, supplier: false })
    await a.close()
    const b = await startSandbox()
    expect((await new Client(b.url).get("/contacts")).body.totalElements).toBe(0)
    await b.close()
  })
})
