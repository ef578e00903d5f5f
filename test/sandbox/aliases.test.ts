import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { invoiceBody, paymentBody, ref, world, type World } from "./support.js"

describe("sandbox field aliases", () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })
  afterAll(() => w.sandbox.close())

  it.each([
    ["aliases: issueDate → valueDate on invoices", "issueDate", "/invoices"],
    ["aliases: date → valueDate on invoices", "date", "/invoices"],
    ["aliases: issueDate → valueDate on bills", "issueDate", "/bills"],
    ["aliases: date → valueDate on customer credit notes", "date", "/customer-credit-notes"]
  ])("%s", async (_n, alias, path) => {
    const body: Record<string, unknown> = {
      ...invoiceBody(w),
      valueDate: undefined,
      dueDate: "2024-06-05",
      [alias]: "2024-05-05"
    }
    if (path === "/bills") {
      body["contactResourceId"] = w.supplier
      body["lineItems"] = [
        { name: "x", quantity: 1, unitPrice: 5, accountResourceId: w.account("Cost of Goods Sold") }
      ]
    }
    const r = await w.api.post(path, body)
    expect(r.status).toBe(201)
    const got = await w.api.get(`${path}/${r.body.data.resourceId}`)
    expect((got.body.data ?? got.body).valueDate).toBe(Date.UTC(2024, 4, 5))
  })

  it("aliases: date → valueDate on journals", async () => {
    const r = await w.api.post("/journals", {
      reference: ref("J"),
      date: "2024-05-06",
      journalEntries: [
        { accountResourceId: w.bank, type: "DEBIT", amount: 1 },
        { accountResourceId: w.account("Sales"), type: "CREDIT", amount: 1 }
      ]
    })
    expect((await w.api.get(`/journals/${r.body.data.resourceId}`)).body.data.valueDate).toBe(
      Date.UTC(2024, 4, 6)
    )
  })

  it("aliases: name → internalName on items (request) and name next to internalName (response)", async () => {
    const r = await w.api.post("/items", {
      itemCode: ref("SKU"),
      name: "Aliased",
      appliesToSale: true,
      saleItemName: "Aliased"
    })
    expect(r.status).toBe(201)
    const got = (await w.api.get(`/items/${r.body.data.resourceId}`)).body.data
    expect(got.internalName).toBe("Aliased")
    expect(got.name).toBe("Aliased")
  })

  it("aliases: paymentDate → valueDate and bankAccountResourceId → accountResourceId on payments", async () => {
    const inv = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    const p = {
      ...paymentBody(w, 20),
      valueDate: undefined,
      accountResourceId: undefined,
      paymentDate: "2024-03-20",
      bankAccountResourceId: w.bank
    }
    const r = await w.api.post(`/invoices/${inv}/payments`, { payments: [p] })
    expect(r.status).toBe(201)
    const pay = (await w.api.get(`/payments/${r.body.data.resourceId}`)).body.data
    expect(pay.valueDate).toBe(Date.UTC(2024, 2, 20))
    expect(pay.accountResourceId).toBe(w.bank)
  })

  it("aliases: a flat payment object is wrapped automatically", async () => {
    const inv = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    const r = await w.api.post(`/invoices/${inv}/payments`, paymentBody(w, 5))
    expect(r.status).toBe(201)
    expect((await w.api.get(`/invoices/${inv}`)).body.paymentRecords).toHaveLength(1)
  })

  it("aliases: accountType → classificationType and currencyCode → currency on chart of accounts; GET returns accountType and currencyCode", async () => {
    const r = await w.api.post("/chart-of-accounts", {
      name: ref("Acct"),
      accountType: "Operating Expense",
      currencyCode: "SGD"
    })
    expect(r.status).toBe(201)
    const got = (await w.api.get(`/chart-of-accounts/${r.body.data.resourceId}`)).body.data
    expect(got.accountType).toBe("Operating Expense")
    expect(got.currencyCode).toBe("SGD")
  })

  it("aliases: canonical classificationType and currency on chart of accounts", async () => {
    const r = await w.api.post("/chart-of-accounts", {
      name: ref("Bank"),
      classificationType: "Bank Accounts",
      currency: "USD"
    })
    const got = (await w.api.get(`/chart-of-accounts/${r.body.data.resourceId}`)).body.data
    expect(got).toMatchObject({ accountType: "Bank Accounts", currencyCode: "USD" })
  })
})
