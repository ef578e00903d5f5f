import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { billBody, invoiceBody, paymentBody, ref, world, type World } from "./support.js"

describe("sandbox statuses and transitions", () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })
  afterAll(() => w.sandbox.close())

  const get = async (path: string) => {
    const r = await w.api.get(path)
    return r.body.data ?? r.body
  }

  it.each([
    ["statuses: invoice created without saveAsDraft is UNPAID", "/invoices", false, "UNPAID"],
    ["statuses: invoice created with saveAsDraft is DRAFT", "/invoices", true, "DRAFT"],
    ["statuses: bill created without saveAsDraft is UNPAID", "/bills", false, "UNPAID"],
    ["statuses: bill created with saveAsDraft is DRAFT", "/bills", true, "DRAFT"],
    [
      "statuses: customer credit note created finalized is UNAPPLIED",
      "/customer-credit-notes",
      false,
      "UNAPPLIED"
    ],
    [
      "statuses: supplier credit note created finalized is UNAPPLIED",
      "/supplier-credit-notes",
      false,
      "UNAPPLIED"
    ]
  ] as const)("%s", async (_n, path, draft, status) => {
    const body =
      path.includes("bill") || path.includes("supplier")
        ? billBody(w, { saveAsDraft: draft })
        : invoiceBody(w, { saveAsDraft: draft })
    const r = await w.api.post(path, body)
    expect(r.status).toBe(201)
    expect((await get(`${path}/${r.body.data.resourceId}`)).status).toBe(status)
  })

  it("statuses: journal created finalized is APPROVED, with saveAsDraft DRAFT, and PUT saveAsDraft false approves it", async () => {
    const body = {
      reference: ref("J"),
      valueDate: "2024-03-01",
      journalEntries: [
        { accountResourceId: w.bank, type: "DEBIT", amount: 5 },
        { accountResourceId: w.account("Sales"), type: "CREDIT", amount: 5 }
      ]
    }
    expect(
      (await get(`/journals/${(await w.api.post("/journals", body)).body.data.resourceId}`)).status
    ).toBe("APPROVED")
    const draft = (await w.api.post("/journals", { ...body, reference: ref("J"), saveAsDraft: true })).body
      .data.resourceId
    expect((await get(`/journals/${draft}`)).status).toBe("DRAFT")
    const put = await w.api.put(`/journals/${draft}`, { ...body, resourceId: draft, saveAsDraft: false })
    expect(put.status).toBe(200)
    expect((await get(`/journals/${draft}`)).status).toBe("APPROVED")
  })

  const billDraftCases: ReadonlyArray<{
    name: string
    change: Record<string, unknown>
    line?: Record<string, unknown>
    status: number
  }> = [
    {
      name: "bill draft → UNPAID: refused without contactResourceId",
      change: { contactResourceId: undefined },
      status: 422
    },
    { name: "bill draft → UNPAID: refused without dueDate", change: { dueDate: undefined }, status: 422 },
    { name: "bill draft → UNPAID: refused with no lines", change: { lineItems: [] }, status: 422 },
    {
      name: "bill draft → UNPAID: refused with a line without name",
      change: {},
      line: { name: undefined },
      status: 422
    },
    {
      name: "bill draft → UNPAID: refused with a line without unitPrice",
      change: {},
      line: { unitPrice: undefined },
      status: 422
    },
    {
      name: "bill draft → UNPAID: refused with a line without accountResourceId",
      change: {},
      line: { accountResourceId: undefined },
      status: 422
    },
    {
      name: "bill draft → UNPAID: refused without resourceId in the body",
      change: { resourceId: undefined },
      status: 422
    },
    { name: "bill draft → UNPAID: accepted when every condition holds", change: {}, status: 200 }
  ]
  it.each(billDraftCases)("$name", async ({ change, line, status }) => {
    const id = (
      await w.api.post("/bills", { reference: ref("BD"), valueDate: "2024-03-01", saveAsDraft: true })
    ).body.data.resourceId
    const full: Record<string, unknown> = {
      ...billBody(w, {}, line ?? {}),
      resourceId: id,
      saveAsDraft: false,
      ...change
    }
    const r = await w.api.put(`/bills/${id}`, full)
    expect(r.status).toBe(status)
    const after = await get(`/bills/${id}`)
    expect(after.status).toBe(status === 200 ? "UNPAID" : "DRAFT")
    if (status === 200) expect(after.totalAmount).toBe(218)
  })

  it("statuses: invoice DRAFT → UNPAID by PUT with saveAsDraft false", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w, { saveAsDraft: true }))).body.data.resourceId
    const r = await w.api.put(`/invoices/${id}`, { ...invoiceBody(w), resourceId: id, saveAsDraft: false })
    expect(r.status).toBe(200)
    expect(r.body.data.status).toBe("UNPAID")
  })

  it("statuses: UNPAID stays UNPAID after a partial payment and becomes PAID when fully paid", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    await w.api.post(`/invoices/${id}/payments`, { payments: [paymentBody(w, 9)] })
    const partial = await get(`/invoices/${id}`)
    expect(partial.status).toBe("UNPAID")
    const balance =
      partial.totalAmount -
      partial.paymentRecords.reduce(
        (s: number, p: { transactionAmount: number }) => s + p.transactionAmount,
        0
      )
    expect(balance).toBe(100)
    await w.api.post(`/invoices/${id}/payments`, { payments: [paymentBody(w, 100)] })
    expect((await get(`/invoices/${id}`)).status).toBe("PAID")
  })

  it("statuses: a bill created with embedded payments covering it is PAID", async () => {
    const r = await w.api.post("/bills", billBody(w, { payments: [paymentBody(w, 218)] }))
    expect(r.status).toBe(201)
    const bill = await get(`/bills/${r.body.data.resourceId}`)
    expect(bill.status).toBe("PAID")
    expect(bill.paymentRecords).toHaveLength(1)
  })

  it("statuses: deleting a payment reopens the document (PAID → UNPAID)", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    const pay = (await w.api.post(`/invoices/${id}/payments`, paymentBody(w, 109))).body.data.resourceId
    expect((await get(`/invoices/${id}`)).status).toBe("PAID")
    expect((await w.api.delete(`/payments/${pay}`)).status).toBe(200)
    expect((await get(`/invoices/${id}`)).status).toBe("UNPAID")
    expect((await w.api.get(`/payments/${pay}`)).status).toBe(404)
  })

  const paymentRefusals: ReadonlyArray<{
    name: string
    payment: (w: World) => Record<string, unknown>
    draft?: boolean
  }> = [
    { name: "payments: overpaying the balance → 422", payment: (w) => paymentBody(w, 500) },
    {
      name: "payments: a missing paymentMethod → 422",
      payment: (w) => ({ ...paymentBody(w, 5), paymentMethod: undefined })
    },
    {
      name: "payments: an unknown paymentMethod → 422",
      payment: (w) => ({ ...paymentBody(w, 5), paymentMethod: "BITCOIN" })
    },
    {
      name: "payments: a missing reference → 422",
      payment: (w) => ({ ...paymentBody(w, 5), reference: undefined })
    },
    {
      name: "payments: a non-bank account → 422",
      payment: (w) => ({ ...paymentBody(w, 5), accountResourceId: w.account("Sales") })
    },
    {
      name: "payments: same currency with different amounts → 422",
      payment: (w) => ({ ...paymentBody(w, 5), transactionAmount: 6 })
    },
    { name: "payments: a payment on a draft → 422", payment: (w) => paymentBody(w, 5), draft: true }
  ]
  it.each(paymentRefusals)("$name", async ({ payment, draft }) => {
    const id = (await w.api.post("/invoices", invoiceBody(w, { saveAsDraft: draft ?? false }))).body.data
      .resourceId
    const r = await w.api.post(`/invoices/${id}/payments`, { payments: [payment(w)] })
    expect(r.status).toBe(422)
    expect((await get(`/invoices/${id}`)).paymentRecords).toEqual([])
  })

  it("void: DELETE of an UNPAID invoice makes it VOIDED; a second DELETE removes it", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    expect((await w.api.delete(`/invoices/${id}`)).status).toBe(200)
    expect((await get(`/invoices/${id}`)).status).toBe("VOIDED")
    expect((await w.api.delete(`/invoices/${id}`)).status).toBe(200)
    expect((await w.api.get(`/invoices/${id}`)).status).toBe(404)
  })

  it("void: DELETE of an invoice with payments → 422", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    await w.api.post(`/invoices/${id}/payments`, paymentBody(w, 10))
    expect((await w.api.delete(`/invoices/${id}`)).status).toBe(422)
  })

  it("void: DELETE of a draft deletes it permanently", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w, { saveAsDraft: true }))).body.data.resourceId
    expect((await w.api.delete(`/invoices/${id}`)).status).toBe(200)
    expect((await w.api.get(`/invoices/${id}`)).status).toBe(404)
  })

  it("PUT: a finalized invoice cannot go back to DRAFT", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    expect(
      (await w.api.put(`/invoices/${id}`, { ...invoiceBody(w), resourceId: id, saveAsDraft: true })).status
    ).toBe(422)
  })

  it("PUT: dates must be YYYY-MM-DD (epoch values from a GET are refused)", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    const got = await get(`/invoices/${id}`)
    const r = await w.api.put(`/invoices/${id}`, {
      ...invoiceBody(w),
      resourceId: id,
      valueDate: got.valueDate
    })
    expect(r.status).toBe(422)
  })
})
