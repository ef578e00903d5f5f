import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { billBody, invoiceBody, paymentBody, trialBalance, world, type World } from "./support.js"

describe("sandbox credit notes", () => {
  let w: World
  beforeEach(async () => {
    w = await world()
  })
  afterEach(() => w.sandbox.close())

  const get = async (path: string) => {
    const r = await w.api.get(path)
    return r.body.data ?? r.body
  }

  it("credit notes: a customer credit note debits sales and GST and credits AR", async () => {
    await w.api.post("/customer-credit-notes", invoiceBody(w, {}, { quantity: 1, unitPrice: 10 }))
    const tb = await trialBalance(w)
    expect(tb.net("Accounts Receivable")).toBe(-10.9)
    expect(tb.net("Sales")).toBe(10)
    expect(tb.net("GST Control")).toBe(0.9)
  })

  it("credit notes: applying with credits settles both documents (invoice PAID, credit note APPLIED)", async () => {
    const inv = (await w.api.post("/invoices", invoiceBody(w, {}, { quantity: 1, unitPrice: 10 }))).body.data
      .resourceId
    const cn = (
      await w.api.post("/customer-credit-notes", invoiceBody(w, {}, { quantity: 1, unitPrice: 10 }))
    ).body.data.resourceId
    const r = await w.api.post(`/invoices/${inv}/credits`, {
      credits: [{ creditNoteResourceId: cn, amountApplied: 10.9 }]
    })
    expect(r.status).toBe(200)
    expect((await get(`/invoices/${inv}`)).status).toBe("PAID")
    expect((await get(`/customer-credit-notes/${cn}`)).status).toBe("APPLIED")
    expect((await trialBalance(w)).net("Accounts Receivable")).toBe(0)
  })

  it("credit notes: a partial application leaves the credit note UNAPPLIED and removing it restores the balances", async () => {
    const inv = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    const cn = (
      await w.api.post("/customer-credit-notes", invoiceBody(w, {}, { quantity: 1, unitPrice: 10 }))
    ).body.data.resourceId
    const r = await w.api.post(`/invoices/${inv}/credits`, {
      credits: [{ creditNoteResourceId: cn, amountApplied: 5 }]
    })
    expect((await get(`/customer-credit-notes/${cn}`)).status).toBe("UNAPPLIED")
    expect((await w.api.delete(`/invoices/${inv}/credits/${r.body.data.resourceId}`)).status).toBe(200)
    expect((await get(`/invoices/${inv}`)).creditApplications).toEqual([])
  })

  const applyRefusals: ReadonlyArray<{ name: string; amount: number; otherContact?: boolean }> = [
    { name: "credit notes: applying more than the credit left → 422", amount: 11 },
    { name: "credit notes: applying a credit note of another contact → 422", amount: 1, otherContact: true }
  ]
  it.each(applyRefusals)("$name", async ({ amount, otherContact }) => {
    const inv = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    const other =
      otherContact === true
        ? (await w.api.post("/contacts", { name: "Other", customer: true, supplier: false })).body.data
            .resourceId
        : w.customer
    const cn = (
      await w.api.post(
        "/customer-credit-notes",
        invoiceBody(w, { contactResourceId: other }, { quantity: 1, unitPrice: 10 })
      )
    ).body.data.resourceId
    expect(
      (
        await w.api.post(`/invoices/${inv}/credits`, {
          credits: [{ creditNoteResourceId: cn, amountApplied: amount }]
        })
      ).status
    ).toBe(422)
  })

  it("refunds: a customer credit note is refunded with refunds[] (refundAmount, refundMethod) and becomes APPLIED", async () => {
    const cn = (
      await w.api.post("/customer-credit-notes", invoiceBody(w, {}, { quantity: 1, unitPrice: 10 }))
    ).body.data.resourceId
    const refund = {
      refundAmount: 10.9,
      refundMethod: "BANK_TRANSFER",
      transactionAmount: 10.9,
      accountResourceId: w.bank,
      reference: "RF-1",
      valueDate: "2024-03-10"
    }
    const r = await w.api.post(`/customer-credit-notes/${cn}/refunds`, { refunds: [refund] })
    expect(r.status).toBe(201)
    const note = await get(`/customer-credit-notes/${cn}`)
    expect(note.status).toBe("APPLIED")
    expect(note.refunds[0]).toMatchObject({ refundAmount: 10.9, refundMethod: "BANK_TRANSFER" })
    const tb = await trialBalance(w)
    expect(tb.net("Accounts Receivable")).toBe(0)
    expect(tb.net("DBS Current")).toBe(-10.9)
  })

  it("refunds: paymentAmount and paymentMethod are accepted as aliases of refundAmount and refundMethod", async () => {
    const cn = (await w.api.post("/supplier-credit-notes", billBody(w, {}, { unitPrice: 10 }))).body.data
      .resourceId
    const refund = {
      paymentAmount: 10.9,
      paymentMethod: "CHEQUE",
      transactionAmount: 10.9,
      accountResourceId: w.bank,
      reference: "RF-2",
      valueDate: "2024-03-10"
    }
    expect((await w.api.post(`/supplier-credit-notes/${cn}/refunds`, { refunds: [refund] })).status).toBe(201)
    expect((await trialBalance(w)).net("DBS Current")).toBe(10.9)
  })

  it("refunds: the payments wrapper is refused → 422", async () => {
    const cn = (await w.api.post("/customer-credit-notes", invoiceBody(w))).body.data.resourceId
    const r = await w.api.post(`/customer-credit-notes/${cn}/refunds`, { payments: [paymentBody(w, 1)] })
    expect(r.status).toBe(422)
  })

  it("credit notes: supplier credit note applied to a bill settles AP", async () => {
    const bill = (await w.api.post("/bills", billBody(w))).body.data.resourceId
    const scn = (await w.api.post("/supplier-credit-notes", billBody(w))).body.data.resourceId
    await w.api.post(`/bills/${bill}/credits`, {
      credits: [{ creditNoteResourceId: scn, amountApplied: 218 }]
    })
    expect((await get(`/bills/${bill}`)).status).toBe("PAID")
    expect((await trialBalance(w)).net("Accounts Payable")).toBe(0)
  })
})
