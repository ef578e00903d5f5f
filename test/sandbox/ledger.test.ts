import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { billBody, invoiceBody, paymentBody, ref, trialBalance, world, type World } from "./support.js"

describe("sandbox ledger", () => {
  let w: World
  beforeEach(async () => {
    w = await world()
  })
  afterEach(() => w.sandbox.close())

  it("ledger: a finalized invoice debits AR and credits sales and GST (tax exclusive)", async () => {
    await w.api.post("/invoices", invoiceBody(w, {}, { quantity: 3, unitPrice: 33.33 }))
    const tb = await trialBalance(w)
    expect(tb.net("Accounts Receivable")).toBe(108.99)
    expect(tb.net("Sales")).toBe(-99.99)
    expect(tb.net("GST Control")).toBe(-9)
    expect(tb.totals.debitAmount).toBe(tb.totals.creditAmount)
  })

  it("ledger: a tax-inclusive line carries its tax inside the line amount", async () => {
    const r = await w.api.post(
      "/invoices",
      invoiceBody(w, { taxInclusion: true }, { quantity: 1, unitPrice: 109 })
    )
    const inv = (await w.api.get(`/invoices/${r.body.data.resourceId}`)).body
    expect(inv.totalAmount).toBe(109)
    expect(inv.lineItems[0].taxAmount).toBe(9)
    const tb = await trialBalance(w)
    expect(tb.net("Sales")).toBe(-100)
    expect(tb.net("GST Control")).toBe(-9)
  })

  it("ledger: a line discount is subtracted before tax", async () => {
    const r = await w.api.post("/invoices", invoiceBody(w, {}, { quantity: 2, unitPrice: 50, discount: 10 }))
    const inv = (await w.api.get(`/invoices/${r.body.data.resourceId}`)).body
    expect(inv.lineItems[0]).toMatchObject({ lineAmount: 90, taxAmount: 8.1 })
    expect(inv.totalAmount).toBe(98.1)
  })

  it("ledger: tax rounds half away from zero per line", async () => {
    const r = await w.api.post("/invoices", invoiceBody(w, {}, { quantity: 1, unitPrice: 0.5 }))
    expect((await w.api.get(`/invoices/${r.body.data.resourceId}`)).body.lineItems[0].taxAmount).toBe(0.05)
  })

  it("ledger: a bill credits AP and debits the expense and GST input tax", async () => {
    await w.api.post("/bills", billBody(w))
    const tb = await trialBalance(w)
    expect(tb.net("Accounts Payable")).toBe(-218)
    expect(tb.net("Cost of Goods Sold")).toBe(200)
    expect(tb.net("GST Control")).toBe(18)
  })

  it("ledger: drafts post nothing", async () => {
    await w.api.post("/invoices", invoiceBody(w, { saveAsDraft: true }))
    await w.api.post("/bills", billBody(w, { saveAsDraft: true }))
    expect((await trialBalance(w)).totals).toEqual({ debitAmount: 0, creditAmount: 0 })
  })

  it("ledger: a payment moves the balance from AR to the bank", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    await w.api.post(`/invoices/${id}/payments`, paymentBody(w, 109))
    const tb = await trialBalance(w)
    expect(tb.net("Accounts Receivable")).toBe(0)
    expect(tb.net("DBS Current")).toBe(109)
  })

  it("ledger: a voided invoice's lines are reversed", async () => {
    const id = (await w.api.post("/invoices", invoiceBody(w))).body.data.resourceId
    await w.api.delete(`/invoices/${id}`)
    const tb = await trialBalance(w)
    expect(tb.net("Accounts Receivable")).toBe(0)
    expect(tb.net("Sales")).toBe(0)
  })

  it("ledger: a foreign invoice is booked at foreign ÷ rate; settling it from a base bank realizes FX gain/loss", async () => {
    await w.api.post("/organization-currencies/USD/rates", {
      rate: 0.8,
      rateApplicableFrom: "2024-03-01",
      rateApplicableTo: "2024-03-31"
    })
    const id = (
      await w.api.post(
        "/invoices",
        invoiceBody(
          w,
          { currency: { sourceCurrency: "USD" } },
          { taxProfileResourceId: w.tax("ZR"), quantity: 1, unitPrice: 100 }
        )
      )
    ).body.data.resourceId
    let tb = await trialBalance(w)
    expect(tb.net("Accounts Receivable")).toBe(125)
    expect(tb.net("Sales")).toBe(-125)
    await w.api.post(`/invoices/${id}/payments`, paymentBody(w, 130, { transactionAmount: 100 }))
    tb = await trialBalance(w)
    expect(tb.net("Accounts Receivable")).toBe(0)
    expect(tb.net("DBS Current")).toBe(130)
    expect(tb.net("Foreign Exchange Gain/Loss")).toBe(-5)
    expect((await w.api.get(`/invoices/${id}`)).body.status).toBe("PAID")
  })

  it("ledger: a foreign bill paid from a same-currency bank at a later rate realizes the difference", async () => {
    const id = (
      await w.api.post(
        "/bills",
        billBody(
          w,
          { currency: { sourceCurrency: "USD", exchangeRate: 0.8 } },
          { taxProfileResourceId: w.tax("NR"), unitPrice: 80 }
        )
      )
    ).body.data.resourceId
    await w.api.post(
      `/bills/${id}/payments`,
      paymentBody(w, 80, {
        accountResourceId: w.usdBank,
        currency: { sourceCurrency: "USD", exchangeRate: 0.64 }
      })
    )
    const tb = await trialBalance(w)
    expect(tb.net("Accounts Payable")).toBe(0)
    expect(tb.net("DBS USD")).toBe(-125)
    expect(tb.net("Foreign Exchange Gain/Loss")).toBe(25)
  })

  it("ledger: the AR report lists open balances per contact in document and base currency", async () => {
    await w.api.post("/invoices", invoiceBody(w))
    await w.api.post(
      "/invoices",
      invoiceBody(
        w,
        { currency: { sourceCurrency: "USD", exchangeRate: 0.5 } },
        { taxProfileResourceId: w.tax("ZR"), quantity: 1, unitPrice: 10 }
      )
    )
    await w.api.post("/invoices", invoiceBody(w, { valueDate: "2024-05-01", dueDate: "2024-05-30" }))
    const r = await w.api.post("/generate-reports/ar-report", { endDate: "2024-03-31" })
    expect(r.body.data.rows).toEqual([
      {
        contactResourceId: w.customer,
        contactName: "Acme Customer",
        currencyCode: "SGD",
        outstandingAmount: 109,
        outstandingBaseAmount: 109
      },
      {
        contactResourceId: w.customer,
        contactName: "Acme Customer",
        currencyCode: "USD",
        outstandingAmount: 10,
        outstandingBaseAmount: 20
      }
    ])
    expect(r.body.data.totals.outstandingBaseAmount).toBe(129)
  })

  it("ledger: the AP report lists open bills as positive outstanding amounts", async () => {
    const id = (await w.api.post("/bills", billBody(w))).body.data.resourceId
    await w.api.post(`/bills/${id}/payments`, paymentBody(w, 18))
    const r = await w.api.post("/generate-reports/ap-report", { endDate: "2024-12-31" })
    expect(r.body.data.rows).toEqual([
      {
        contactResourceId: w.supplier,
        contactName: "Bolt Supplier",
        currencyCode: "SGD",
        outstandingAmount: 200,
        outstandingBaseAmount: 200
      }
    ])
  })

  it("ledger: the trial balance accepts endDate alone and requires endDate", async () => {
    expect((await w.api.post("/generate-reports/trial-balance", { endDate: "2024-12-31" })).status).toBe(200)
    expect((await w.api.post("/generate-reports/trial-balance", { startDate: "2024-01-01" })).status).toBe(
      422
    )
  })

  it("ledger: a journal posts its entries; an unbalanced journal → 422", async () => {
    const entries = [
      { accountResourceId: w.bank, type: "DEBIT", amount: 70 },
      { accountResourceId: w.account("Retained Earnings"), type: "CREDIT", amount: 70 }
    ]
    expect(
      (
        await w.api.post("/journals", {
          reference: ref("J"),
          valueDate: "2024-01-01",
          journalEntries: entries
        })
      ).status
    ).toBe(201)
    const bad = [entries[0], { ...entries[1], amount: 69.99 }]
    const r = await w.api.post("/journals", {
      reference: ref("J"),
      valueDate: "2024-01-01",
      journalEntries: bad
    })
    expect(r.status).toBe(422)
    const tb = await trialBalance(w)
    expect(tb.net("DBS Current")).toBe(70)
    expect(tb.net("Retained Earnings")).toBe(-70)
  })

  const fxJournal: ReadonlyArray<{ name: string; account: (w: World) => string; status: number }> = [
    {
      name: "journals (foreign currency): a controlFlag account → 422",
      account: (w) => w.account("Accounts Receivable"),
      status: 422
    },
    {
      name: "journals (foreign currency): the FX gain/loss account → 422",
      account: (w) => w.account("Foreign Exchange Gain/Loss"),
      status: 422
    },
    {
      name: "journals (foreign currency): the rounding account → 422",
      account: (w) => w.account("Rounding"),
      status: 422
    },
    {
      name: "journals (foreign currency): a bank in another currency → 422",
      account: (w) => w.bank,
      status: 422
    },
    {
      name: "journals (foreign currency): a bank in the journal currency → 201",
      account: (w) => w.usdBank,
      status: 201
    },
    {
      name: "journals (foreign currency): other accounts → 201",
      account: (w) => w.account("Cash on Hand"),
      status: 201
    }
  ]
  it.each(fxJournal)("$name", async ({ account, status }) => {
    const r = await w.api.post("/journals", {
      reference: ref("FXJ"),
      valueDate: "2024-03-01",
      currency: { sourceCurrency: "USD", exchangeRate: 0.8 },
      journalEntries: [
        { accountResourceId: account(w), type: "DEBIT", amount: 8 },
        { accountResourceId: w.account("Sales"), type: "CREDIT", amount: 8 }
      ]
    })
    expect(r.status).toBe(status)
    if (status === 201) expect((await trialBalance(w)).net("Sales")).toBe(-10)
  })

  it("journals: debit/credit number fields are not used → 422", async () => {
    const r = await w.api.post("/journals", {
      reference: ref("J"),
      valueDate: "2024-01-01",
      journalEntries: [
        { accountResourceId: w.bank, debit: 5 },
        { accountResourceId: w.account("Sales"), credit: 5 }
      ]
    })
    expect(r.status).toBe(422)
  })

  it("journals: a currency that is not enabled → 422", async () => {
    const r = await w.api.post("/journals", {
      reference: ref("J"),
      valueDate: "2024-01-01",
      currency: { sourceCurrency: "JPY" },
      journalEntries: [
        { accountResourceId: w.account("Cash on Hand"), type: "DEBIT", amount: 5 },
        { accountResourceId: w.account("Sales"), type: "CREDIT", amount: 5 }
      ]
    })
    expect(r.status).toBe(422)
  })
})
