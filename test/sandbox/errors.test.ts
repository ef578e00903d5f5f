import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { billBody, invoiceBody, ref, world, type World } from "./support.js"

describe("sandbox errors table", () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })
  afterAll(() => w.sandbox.close())

  const item = (over: Record<string, unknown>) => ({ itemCode: ref("SKU"), internalName: "Gadget", ...over })

  const cases: ReadonlyArray<{
    name: string
    method: string
    path: () => string
    body?: () => unknown
    status: number
    message?: string
  }> = [
    {
      name: "errors: 400 currency sent as a string on an invoice",
      method: "POST",
      path: () => "/invoices",
      body: () => invoiceBody(w, { currency: "USD" }),
      status: 400
    },
    {
      name: "errors: 422 finalized invoice line without accountResourceId",
      method: "POST",
      path: () => "/invoices",
      body: () => invoiceBody(w, {}, { accountResourceId: undefined }),
      status: 422,
      message: "accountResourceId"
    },
    {
      name: "errors: 422 finalized bill line without accountResourceId",
      method: "POST",
      path: () => "/bills",
      body: () => billBody(w, {}, { accountResourceId: undefined }),
      status: 422,
      message: "accountResourceId"
    },
    {
      name: "errors: 422 organizationAccountResourceId (the GET name) is not accepted on a line",
      method: "POST",
      path: () => "/invoices",
      body: () =>
        invoiceBody(
          w,
          {},
          { accountResourceId: undefined, organizationAccountResourceId: w.account("Sales") }
        ),
      status: 422,
      message: "accountResourceId"
    },
    {
      name: "errors: draft line without accountResourceId is accepted",
      method: "POST",
      path: () => "/invoices",
      body: () => invoiceBody(w, { saveAsDraft: true }, { accountResourceId: undefined }),
      status: 201
    },
    {
      name: "errors: 422 item appliesToSale without saleItemName",
      method: "POST",
      path: () => "/items",
      body: () => item({ appliesToSale: true }),
      status: 422,
      message: "saleItemName"
    },
    {
      name: "errors: 422 item appliesToPurchase without purchaseItemName",
      method: "POST",
      path: () => "/items",
      body: () => item({ appliesToPurchase: true }),
      status: 422,
      message: "purchaseItemName"
    },
    {
      name: "errors: 422 inventory item without its inventory fields",
      method: "POST",
      path: () => "/items",
      body: () =>
        item({
          appliesToSale: true,
          saleItemName: "G",
          appliesToPurchase: true,
          purchaseItemName: "G",
          itemCategory: "INVENTORY"
        }),
      status: 422,
      message: "unit"
    },
    {
      name: "errors: 404 POST /deposits is not implemented",
      method: "POST",
      path: () => "/deposits",
      body: () => ({}),
      status: 404
    },
    {
      name: "errors: 404 POST /inventory/adjustments is not implemented",
      method: "POST",
      path: () => "/inventory/adjustments",
      body: () => ({}),
      status: 404
    },
    {
      name: "errors: 404 GET /payments (list) is not implemented",
      method: "GET",
      path: () => "/payments",
      status: 404
    },
    {
      name: "errors: 404 POST /payments/search is not implemented",
      method: "POST",
      path: () => "/payments/search",
      body: () => ({}),
      status: 404
    },
    {
      name: "errors: 404 /inventory-items/:id is not used",
      method: "DELETE",
      path: () => "/inventory-items/x",
      status: 404
    },
    {
      name: "errors: 404 GET /invoices/magic-search is not used",
      method: "GET",
      path: () => "/invoices/magic-search",
      status: 404
    },
    {
      name: "errors: 404 DELETE of a missing invoice",
      method: "DELETE",
      path: () => "/invoices/00000000-0000-4000-8000-000000000000",
      status: 404
    },
    {
      name: "errors: 404 DELETE of a missing bill",
      method: "DELETE",
      path: () => "/bills/00000000-0000-4000-8000-000000000000",
      status: 404
    },
    {
      name: "errors: 404 DELETE of a missing contact",
      method: "DELETE",
      path: () => "/contacts/nope",
      status: 404
    },
    {
      name: "errors: 404 DELETE of a missing item",
      method: "DELETE",
      path: () => "/items/nope",
      status: 404
    },
    {
      name: "errors: 404 DELETE of a missing account",
      method: "DELETE",
      path: () => "/chart-of-accounts/nope",
      status: 404
    },
    {
      name: "errors: 404 DELETE of a missing journal",
      method: "DELETE",
      path: () => "/journals/nope",
      status: 404
    },
    {
      name: "errors: 404 DELETE of a missing payment",
      method: "DELETE",
      path: () => "/payments/nope",
      status: 404
    },
    {
      name: "errors: 404 DELETE of a missing customer credit note",
      method: "DELETE",
      path: () => "/customer-credit-notes/nope",
      status: 404
    },
    {
      name: "errors: 500 known fault: PUT on contact groups",
      method: "PUT",
      path: () => "/contact-groups/any",
      body: () => ({ resourceId: "any", name: "x" }),
      status: 500
    },
    {
      name: "errors: 500 known fault: GET /inventory-balances/:status",
      method: "GET",
      path: () => "/inventory-balances/ACTIVE",
      status: 500
    },
    {
      name: "errors: 422 tax profiles are never created",
      method: "POST",
      path: () => "/tax-profiles",
      body: () => ({ name: "New", vatValue: 5 }),
      status: 422
    },
    {
      name: "errors: 400 malformed JSON body",
      method: "POST",
      path: () => "/contacts",
      body: () => "{not json",
      status: 400
    },
    {
      name: "errors: WITHHOLDING_CODE_NOT_FOUND for an unknown withholding code on a bill line",
      method: "POST",
      path: () => "/bills",
      body: () => billBody(w, {}, { withholdingTax: { code: "ZZ999", rate: 2 } }),
      status: 422,
      message: "WITHHOLDING_CODE_NOT_FOUND"
    },
    {
      name: "errors: a known withholding code on a bill line is accepted",
      method: "POST",
      path: () => "/bills",
      body: () => billBody(w, {}, { withholdingTax: { code: "WC010", rate: 2 } }),
      status: 201
    }
  ]
  it.each(cases)("$name", async ({ method, path, body, status, message }) => {
    const r = await w.api.call(method, path(), body?.())
    expect(r.status).toBe(status)
    if (status >= 400) expect(r.body.error.errors.length).toBeGreaterThan(0)
    if (message !== undefined) expect(r.body.error.errors.join(" ")).toContain(message)
  })

  it("errors: 422 item PUT without itemCode, 422 without internalName, 200 with both", async () => {
    const id = (await w.api.post("/items", item({ appliesToSale: true, saleItemName: "Gadget" }))).body.data
      .resourceId
    const full = {
      resourceId: id,
      itemCode: ref("SKU"),
      internalName: "Gadget 2",
      appliesToSale: true,
      saleItemName: "Gadget 2"
    }
    expect((await w.api.put(`/items/${id}`, { ...full, itemCode: undefined })).status).toBe(422)
    expect((await w.api.put(`/items/${id}`, { ...full, internalName: undefined })).status).toBe(422)
    const ok = await w.api.put(`/items/${id}`, full)
    expect(ok.status).toBe(200)
    expect(ok.body.data).toMatchObject({ internalName: "Gadget 2", name: "Gadget 2" })
  })
})
