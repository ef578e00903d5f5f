import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { invoiceBody, ref, world, type World } from "./support.js"

describe("sandbox bank records, universal search, accounts, contacts and items", () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })
  afterAll(() => w.sandbox.close())

  it("bank records: POST { records } answers { data: { errors: [] } } and search defaults to valueDate DESC", async () => {
    const r = await w.api.post(`/bank-records/${w.bank}`, {
      records: [
        {
          amount: 100,
          transactionDate: "2024-01-05",
          description: "Deposit",
          payerOrPayee: "Acme",
          reference: "D1"
        },
        { amount: -20.5, transactionDate: "2024-01-07", description: "Fee" }
      ]
    })
    expect(r.status).toBe(201)
    expect(r.body).toEqual({ data: { errors: [] } })
    const s = await w.api.post(`/bank-records/${w.bank}/search`, {})
    expect(s.body.data.map((x: { netAmount: number }) => x.netAmount)).toEqual([-20.5, 100])
    expect(s.body.data[1]).toMatchObject({
      extContactName: "Acme",
      extReference: "D1",
      status: "UNRECONCILED"
    })
  })

  it("bank records: an invalid record is reported in errors and the others are kept; a repeat is a POSSIBLE_DUPLICATE", async () => {
    const r = await w.api.post(`/bank-records/${w.usdBank}`, {
      records: [
        { amount: 5, transactionDate: "2024-02-30" },
        { amount: 7, transactionDate: "2024-02-01", reference: "X" },
        { amount: 7, transactionDate: "2024-02-01", reference: "X" }
      ]
    })
    expect(r.body.data.errors).toHaveLength(1)
    expect(r.body.data.errors[0].index).toBe(0)
    const s = await w.api.post(`/bank-records/${w.usdBank}/search`, {
      filter: { status: { eq: "POSSIBLE_DUPLICATE" } }
    })
    expect(s.body.totalElements).toBe(1)
  })

  it("universal search: GET /search?query= answers one array per category", async () => {
    await w.api.post("/invoices", invoiceBody(w, { reference: "UNIQ-777" }))
    const r = await w.api.get("/search?query=uniq-777")
    expect(Object.keys(r.body).sort()).toEqual(["bills", "contacts", "creditNotes", "invoices", "journals"])
    expect(r.body.invoices.map((x: { reference: string }) => x.reference)).toEqual(["UNIQ-777"])
    expect((await w.api.get("/search?q=uniq")).status).toBe(422)
  })

  it("chart of accounts: bulk upsert uses the accounts wrapper (chartOfAccounts → 422); new rows default to INACTIVE", async () => {
    expect(
      (
        await w.api.post("/chart-of-accounts/bulk-upsert", {
          chartOfAccounts: [{ name: "X", classificationType: "Cash" }]
        })
      ).status
    ).toBe(422)
    const r = await w.api.post("/chart-of-accounts/bulk-upsert", {
      accounts: [{ name: "Petty Cash", classificationType: "Cash" }]
    })
    expect(r.status).toBe(200)
    const id = r.body.data.accounts[0].resourceId
    expect((await w.api.get(`/chart-of-accounts/${id}`)).body.data.status).toBe("INACTIVE")
    const upd = await w.api.post("/chart-of-accounts/bulk-upsert", {
      accounts: [{ resourceId: id, status: "ACTIVE" }]
    })
    expect(upd.body.data.accounts[0].action).toBe("UPDATED")
    expect((await w.api.get(`/chart-of-accounts/${id}`)).body.data.status).toBe("ACTIVE")
  })

  it("chart of accounts: AR and AP carry controlFlag; they cannot be deleted", async () => {
    const r = await w.api.post("/chart-of-accounts/search", {
      filter: { controlFlag: { eq: true } },
      sort: { sortBy: ["code"], order: "ASC" },
      offset: 0
    })
    expect(r.body.data.map((a: { name: string }) => a.name)).toEqual([
      "Accounts Receivable",
      "Accounts Payable"
    ])
    expect((await w.api.delete(`/chart-of-accounts/${w.account("Accounts Receivable")}`)).status).toBe(422)
  })

  it("chart of accounts: an unknown classification, a duplicate name and a disabled currency → 422", async () => {
    expect(
      (await w.api.post("/chart-of-accounts", { name: ref("A"), classificationType: "Assets" })).status
    ).toBe(422)
    expect(
      (await w.api.post("/chart-of-accounts", { name: "Sales", classificationType: "Operating Revenue" }))
        .status
    ).toBe(422)
    expect(
      (
        await w.api.post("/chart-of-accounts", {
          name: ref("A"),
          classificationType: "Bank Accounts",
          currency: "JPY"
        })
      ).status
    ).toBe(422)
  })

  it("chart of accounts: PUT needs resourceId; DELETE of an unused account works", async () => {
    const id = (
      await w.api.post("/chart-of-accounts", { name: ref("Temp"), classificationType: "Operating Expense" })
    ).body.data.resourceId
    expect(
      (
        await w.api.put(`/chart-of-accounts/${id}`, {
          name: "Renamed",
          classificationType: "Operating Expense"
        })
      ).status
    ).toBe(422)
    const put = await w.api.put(`/chart-of-accounts/${id}`, {
      resourceId: id,
      name: "Renamed X",
      classificationType: "Operating Expense"
    })
    expect(put.body.data.name).toBe("Renamed X")
    expect((await w.api.delete(`/chart-of-accounts/${id}`)).status).toBe(200)
    expect((await w.api.get(`/chart-of-accounts/${id}`)).status).toBe(404)
  })

  it("account classifications list every classification in the list-page shape", async () => {
    const r = await w.api.get("/account-classifications")
    expect(r.body.totalElements).toBe(14)
    expect(r.body.data[0]).toMatchObject({ classificationType: "Bank Accounts", normalBalance: "DEBIT" })
  })

  it("contacts: isCustomer/isSupplier are refused, phone must be E.164, duplicate names are refused", async () => {
    expect((await w.api.post("/contacts", { name: ref("C"), isCustomer: true })).status).toBe(422)
    expect(
      (await w.api.post("/contacts", { name: ref("C"), customer: true, phone: "+65 9123 4567" })).status
    ).toBe(422)
    expect(
      (await w.api.post("/contacts", { name: ref("C"), customer: true, phone: "+6591234567" })).status
    ).toBe(201)
    expect((await w.api.post("/contacts", { name: "Acme Customer", customer: true })).status).toBe(422)
  })

  it("contact groups: create, search and GET with associatedContacts", async () => {
    const id = (
      await w.api.post("/contact-groups", { name: "VIP", associatedContacts: [{ resourceId: w.customer }] })
    ).body.data.resourceId
    const g = (await w.api.get(`/contact-groups/${id}`)).body.data
    expect(g.associatedContacts).toEqual([{ name: "Acme Customer", resourceId: w.customer }])
    expect(
      (await w.api.post("/contact-groups/search", { filter: { name: { eq: "VIP" } } })).body.totalElements
    ).toBe(1)
  })

  it("items: an inventory item needs an Inventory purchase account; its balance follows bills and invoices", async () => {
    const inv = (await w.api.post("/chart-of-accounts", { name: "Stock", classificationType: "Inventory" }))
      .body.data.resourceId
    const base = {
      itemCode: ref("INV"),
      internalName: "Bolt",
      appliesToSale: true,
      saleItemName: "Bolt",
      appliesToPurchase: true,
      purchaseItemName: "Bolt",
      itemCategory: "INVENTORY",
      unit: "pcs",
      costingMethod: "WAC",
      cogsResourceId: w.account("Cost of Goods Sold"),
      blockInsufficientDeductions: false,
      inventoryAccountResourceId: inv
    }
    expect(
      (await w.api.post("/items", { ...base, purchaseAccountResourceId: w.account("Sales") })).status
    ).toBe(422)
    const id = (await w.api.post("/items", { ...base, purchaseAccountResourceId: inv })).body.data.resourceId
    await w.api.post("/bills", {
      reference: ref("B"),
      valueDate: "2024-01-01",
      dueDate: "2024-01-31",
      contactResourceId: w.supplier,
      lineItems: [{ itemResourceId: id, quantity: 10, unitPrice: 2, accountResourceId: inv }]
    })
    await w.api.post("/invoices", invoiceBody(w, {}, { itemResourceId: id, quantity: 3 }))
    const bal = (await w.api.get(`/inventory-item-balance/${id}`)).body.data
    expect(bal).toEqual({ itemResourceId: id, latestAverageCostAmount: 2, baseQty: 7, baseUnit: "pcs" })
  })

  it("items: search by itemCode", async () => {
    const code = ref("SKU")
    await w.api.post("/items", {
      itemCode: code,
      internalName: "Nut",
      appliesToPurchase: true,
      purchaseItemName: "Nut"
    })
    const r = await w.api.post("/items/search", { filter: { itemCode: { in: [code] } } })
    expect(r.body.data.map((i: { name: string }) => i.name)).toEqual(["Nut"])
  })
})
