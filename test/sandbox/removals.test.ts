/**
 * What a migration's rollback needs of the sandbox beyond documents: a tag can be read and deleted by its id
 * (the OpenAPI document's `GET`/`DELETE /tags/{resourceId}`), and a cash entry, voided by a first
 * `DELETE /cashflow-journals/:parentId`, is removed by a second one (as a voided document is), after which the
 * id is 404.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { trialBalance, world, type World } from "./support.js"

describe("sandbox removals", () => {
  let w: World
  beforeEach(async () => {
    w = await world()
  })
  afterEach(() => w.sandbox.close())

  it("tags: GET and DELETE by id; a deleted tag is 404 and no longer searched", async () => {
    const created = await w.api.post("/tags", { tagName: "Region: North" })
    const id = created.body.resourceId ?? created.body.data.resourceId
    expect((await w.api.get(`/tags/${id}`)).body.data).toMatchObject({
      tagName: "Region: North",
      name: "Region: North"
    })
    expect((await w.api.delete(`/tags/${id}`)).status).toBe(200)
    expect((await w.api.get(`/tags/${id}`)).status).toBe(404)
    expect((await w.api.delete(`/tags/${id}`)).status).toBe(404)
    expect((await w.api.post("/tags/search", {})).body.data).toEqual([])
  })

  it("cash entries: the first DELETE voids, a second removes the voided entry and its ledger lines, a third is 404", async () => {
    const parent = (
      await w.api.post("/cash-in-entries", {
        accountResourceId: w.bank,
        reference: "CI-9",
        valueDate: "2024-04-01",
        journalEntries: [{ accountResourceId: w.account("Sales"), amount: 40 }]
      })
    ).body.data.resourceId
    expect((await w.api.delete(`/cashflow-journals/${parent}`)).status).toBe(200)
    expect((await w.api.get("/cash-in-entries")).body.data.map((r: any) => r.transactionStatus)).toEqual([
      "VOID"
    ])
    expect((await w.api.delete(`/cashflow-journals/${parent}`)).status).toBe(200)
    expect((await w.api.get("/cash-in-entries")).body.data).toEqual([])
    expect((await w.api.delete(`/cashflow-journals/${parent}`)).status).toBe(404)
    const gl = await w.api.post("/generate-reports/general-ledger", {
      startDate: "2000-01-01",
      endDate: "2099-12-31",
      groupBy: "TRANSACTION"
    })
    expect(gl.body.data.groups).toEqual([])
    expect((await trialBalance(w)).net("DBS Current")).toBe(0)
  })
})
