import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { invoiceBody, paymentBody, trialBalance, world, type World } from "./support.js"

describe("sandbox cash entries", () => {
  let w: World
  beforeEach(async () => {
    w = await world()
  })
  afterEach(() => w.sandbox.close())

  const cashIn = (w: World, reference = "CI-1") => ({
    accountResourceId: w.bank,
    reference,
    valueDate: "2024-04-01",
    journalEntries: [{ accountResourceId: w.account("Sales"), amount: 40 }]
  })

  it("cash: create answers { data: { resourceId } } holding the parentEntityResourceId", async () => {
    const r = await w.api.post("/cash-in-entries", cashIn(w))
    expect(r.status).toBe(201)
    expect(Object.keys(r.body)).toEqual(["data"])
    const list = await w.api.get("/cash-in-entries")
    expect(list.body.data[0].parentEntityResourceId).toBe(r.body.data.resourceId)
  })

  it("cash: LIST and GET return the cashflow-transaction shape with the three identifiers and no journalEntries", async () => {
    const parent = (await w.api.post("/cash-in-entries", cashIn(w))).body.data.resourceId
    const row = (await w.api.get("/cash-in-entries")).body.data[0]
    expect(row).toMatchObject({
      parentEntityResourceId: parent,
      transactionReference: "CI-1",
      transactionStatus: "ACTIVE",
      valueDate: Date.UTC(2024, 3, 1),
      direction: "PAYIN",
      businessTransactionType: "JOURNAL_DIRECT_CASH_IN"
    })
    expect(row.account.bankName).toBe("DBS Current")
    expect(row.businessTransactionResourceId).toEqual(expect.any(String))
    expect(
      new Set([row.resourceId, row.parentEntityResourceId, row.businessTransactionResourceId]).size
    ).toBe(3)
    expect(row.journalEntries).toBeUndefined()
    expect(row.reference).toBeUndefined()
    expect(row.status).toBeUndefined()
    const got = await w.api.get(`/cash-in-journals/${row.resourceId}`)
    expect(got.body.data).toEqual(row)
    expect((await w.api.get(`/cash-in-journals/${parent}`)).status).toBe(404)
  })

  it("cash: cash-in and cash-out post to the bank and the offsetting accounts", async () => {
    await w.api.post("/cash-in-entries", cashIn(w))
    await w.api.post("/cash-out-entries", {
      ...cashIn(w, "CO-1"),
      journalEntries: [{ accountResourceId: w.account("Cost of Goods Sold"), amount: 15 }]
    })
    const tb = await trialBalance(w)
    expect(tb.net("DBS Current")).toBe(25)
    expect(tb.net("Sales")).toBe(-40)
    expect(tb.net("Cost of Goods Sold")).toBe(15)
  })

  it("cash: a transfer takes cashOut and cashIn; flat from/to account ids are refused", async () => {
    const ok = await w.api.post("/cash-transfers", {
      reference: "TR-1",
      valueDate: "2024-04-02",
      cashOut: { accountResourceId: w.bank, amount: 30 },
      cashIn: { accountResourceId: w.account("Cash on Hand"), amount: 30 }
    })
    expect(ok.status).toBe(201)
    const flat = await w.api.post("/cash-transfers", {
      reference: "TR-2",
      valueDate: "2024-04-02",
      fromAccountResourceId: w.bank,
      toAccountResourceId: w.account("Cash on Hand"),
      amount: 30
    })
    expect(flat.status).toBe(422)
    const tb = await trialBalance(w)
    expect(tb.net("DBS Current")).toBe(-30)
    expect(tb.net("Cash on Hand")).toBe(30)
    const rows = (await w.api.get("/cash-transfers")).body.data
    expect(rows.map((r: { direction: string }) => r.direction).sort()).toEqual(["PAYIN", "PAYOUT"])
  })

  it("cash: DELETE /cashflow-journals/:parentEntityResourceId voids the entry and reverses it", async () => {
    const parent = (await w.api.post("/cash-in-entries", cashIn(w))).body.data.resourceId
    const row = (await w.api.get("/cash-in-entries")).body.data[0]
    expect((await w.api.delete(`/cashflow-journals/${row.resourceId}`)).status).toBe(404)
    expect((await w.api.delete(`/cashflow-journals/${parent}`)).status).toBe(200)
    expect((await w.api.get(`/cash-in-journals/${row.resourceId}`)).body.data.transactionStatus).toBe("VOID")
    expect((await trialBalance(w)).net("DBS Current")).toBe(0)
  })

  it("cashflow search: filters businessTransactionReference, businessTransactionType, direction, account and valueDate; payments appear too", async () => {
    await w.api.post("/cash-in-entries", cashIn(w, "CI-A"))
    await w.api.post("/cash-out-entries", {
      ...cashIn(w, "CO-B"),
      journalEntries: [{ accountResourceId: w.account("Cost of Goods Sold"), amount: 5 }]
    })
    const inv = (await w.api.post("/invoices", invoiceBody(w))).body.data
    await w.api.post(`/invoices/${inv.resourceId}/payments`, paymentBody(w, 109, { reference: "PAY-X" }))
    const s = (filter: unknown) => w.api.post("/cashflow-transactions/search", { filter })
    expect((await s({ businessTransactionReference: { in: ["CI-A"] } })).body.data).toHaveLength(1)
    expect(
      (await s({ businessTransactionType: { eq: "JOURNAL_DIRECT_CASH_OUT" } })).body.data[0]
        .transactionReference
    ).toBe("CO-B")
    expect((await s({ direction: { eq: "PAYIN" } })).body.totalElements).toBe(2)
    expect((await s({ organizationAccountResourceId: { eq: w.bank } })).body.totalElements).toBe(3)
    expect((await s({ valueDate: { between: ["2024-04-01", "2024-04-01"] } })).body.totalElements).toBe(2)
    const sale = (await s({ businessTransactionType: { eq: "SALE" } })).body.data[0]
    expect(sale).toMatchObject({
      businessTransactionResourceId: inv.resourceId,
      transactionReference: "PAY-X",
      direction: "PAYIN",
      totalAmount: 109
    })
    const cashOnly = await w.api.post("/cashflow-transactions/search", { transactionType: "CASH_ENTRIES" })
    expect(cashOnly.body.totalElements).toBe(2)
  })

  it("cash: unbalanced or empty entries are refused → 422", async () => {
    expect((await w.api.post("/cash-in-entries", { ...cashIn(w), journalEntries: [] })).status).toBe(422)
    expect(
      (await w.api.post("/cash-in-entries", { ...cashIn(w), accountResourceId: w.account("Sales") })).status
    ).toBe(422)
  })
})
