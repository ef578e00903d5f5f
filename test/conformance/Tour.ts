/**
 * A client's tour of the sandbox after the demo load, for the response conformance test: at least one
 * successful call to each endpoint the sandbox implements that the loader's own traffic does not reach
 * (reads of one record, lists and searches, updates, deletes, settlements, cash entries, bank records,
 * reports, currency and rate endpoints, the rarer resources), each answered with the status the test expects,
 * so that the body validated is the one meant (a success body, or for a few refusals and the platform's
 * known faults, an error body). It works on records of its own, in base-currency bank accounts of its own,
 * beside the loaded books.
 */
import { apiKey } from "../support/Harness.js"

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any

/** A JSON client that fails on any status but the expected one. */
const client = (baseUrl: string) => {
  const call = async (method: string, path: string, body?: unknown, status?: number): Promise<Json> => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { "x-jk-api-key": apiKey, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await res.text()
    const want = status ?? (method === "POST" && !/\/search$|\/generate-reports\//.test(path) ? 201 : 200)
    if (res.status !== want)
      throw new Error(`tour: ${method} ${path} answered ${res.status}, not ${want}: ${text}`)
    return text === "" ? undefined : JSON.parse(text)
  }
  return {
    get: (path: string, status?: number) => call("GET", path, undefined, status),
    post: (path: string, body: unknown, status?: number) => call("POST", path, body, status),
    put: (path: string, body: unknown, status?: number) => call("PUT", path, body, status),
    delete: (path: string, status?: number) => call("DELETE", path, undefined, status),
    /** The id a create answers (`data.resourceId`). */
    create: async (path: string, body: unknown): Promise<string> =>
      (await call("POST", path, body)).data.resourceId
  }
}

const day = "2025-06-02"
const due = "2025-07-02"
const page = "?limit=10&offset=0"
const search = { sort: { sortBy: ["resourceId"], order: "ASC" }, limit: 10, offset: 0 }

/** Runs the tour against `baseUrl` (the recording proxy). */
export const tour = async (baseUrl: string): Promise<void> => {
  const api = client(baseUrl)
  const line = (accountResourceId: string, unitPrice = 100) => ({
    name: "Tour line",
    quantity: 1,
    unitPrice,
    accountResourceId
  })
  const pay = (accountResourceId: string, amount: number, paid = amount) => ({
    paymentAmount: paid,
    transactionAmount: amount,
    accountResourceId,
    paymentMethod: "BANK_TRANSFER",
    reference: "TOUR-PAY",
    valueDate: day
  })

  await api.get("/organization")
  await api.post("/organization/currencies", { currencies: ["USD"] })
  await api.get("/organization/currencies/USD")
  const rate = await api.create("/organization/currencies/USD/rates", {
    currencyCode: "USD",
    rate: 0.74,
    rateApplicableFrom: "2025-06-01",
    rateApplicableTo: "2025-06-30"
  })
  await api.get(`/organization/currencies/USD/rates${page}`)
  await api.get(`/organization/currencies/USD/rates/${rate}`)
  await api.put(`/organization/currencies/USD/rates/${rate}`, {
    resourceId: rate,
    currencyCode: "USD",
    rate: 0.75,
    rateApplicableFrom: "2025-06-01"
  })
  await api.get("/organization/currencies/USD/effective-rate?date=2025-06-15")

  await api.get("/account-classifications")
  const accounts: Array<Json> = (await api.get("/chart-of-accounts?limit=1000&offset=0")).data
  const named = (name: string): string => accounts.find((a) => a.name === name).resourceId
  const [sales, costs] = [named("Sales"), named("Cost of Goods Sold")]
  const account = (name: string, classificationType: string) =>
    api.create("/chart-of-accounts", { name, classificationType, currency: "SGD" })
  const bank = await account("Tour Bank", "Bank Accounts")
  const bank2 = await account("Tour Savings", "Bank Accounts")
  const inventory = await account("Tour Inventory", "Inventory")
  const spare = await account("Tour Spare", "Operating Expense")
  await api.get(`/chart-of-accounts/${spare}`)
  await api.put(`/chart-of-accounts/${spare}`, {
    resourceId: spare,
    name: "Tour Spare",
    classificationType: "Other Expense"
  })
  await api.delete(`/chart-of-accounts/${spare}`)
  await api.post(
    "/chart-of-accounts/bulk-upsert",
    { accounts: [{ name: "Tour Bulk", classificationType: "Other Revenue" }] },
    200
  )
  await api.get("/bank-accounts")
  await api.get(`/bank-accounts/${bank}`)
  const taxes: Array<Json> = (await api.get("/tax-profiles")).data
  await api.get(`/tax-profiles/${taxes[0].resourceId}`)

  const customer = await api.create("/contacts", {
    name: "Tour Customer",
    billingName: "Tour Customer",
    customer: true,
    supplier: false
  })
  const supplier = await api.create("/contacts", {
    name: "Tour Supplier",
    billingName: "Tour Supplier",
    customer: false,
    supplier: true
  })
  const passing = await api.create("/contacts", {
    name: "Tour Passer-by",
    billingName: "Tour Passer-by",
    customer: true,
    supplier: false
  })
  await api.get(`/contacts${page}`)
  await api.get(`/contacts/${passing}`)
  await api.put(`/contacts/${passing}`, {
    resourceId: passing,
    name: "Tour Passer-by",
    billingName: "Tour Passer-by",
    customer: true,
    supplier: true
  })
  await api.delete(`/contacts/${passing}`)
  const group = await api.create("/contact-groups", { name: "Tour Group", contactResourceIds: [customer] })
  await api.post("/contact-groups/search", search)
  await api.get(`/contact-groups/${group}`)
  await api.delete(`/contact-groups/${group}`)

  const thing = {
    itemCode: "TOUR-1",
    internalName: "Tour thing",
    appliesToSale: true,
    saleItemName: "Tour thing"
  }
  const item = await api.create("/items", thing)
  await api.get(`/items${page}`)
  await api.get(`/items/${item}`)
  await api.put(`/items/${item}`, { ...thing, resourceId: item, saleItemName: "Tour thing, renamed" })
  await api.delete(`/items/${item}`)
  const stock = await api.create("/items", {
    itemCode: "TOUR-STOCK",
    internalName: "Tour stock",
    itemCategory: "INVENTORY",
    appliesToSale: true,
    appliesToPurchase: true,
    saleItemName: "Tour stock",
    purchaseItemName: "Tour stock",
    unit: "pcs",
    costingMethod: "FIXED",
    cogsResourceId: costs,
    blockInsufficientDeductions: false,
    inventoryAccountResourceId: inventory,
    purchaseAccountResourceId: inventory
  })
  await api.get(`/inventory-item-balance/${stock}`)

  const invoiceBody = {
    reference: "TOUR-INV-1",
    valueDate: day,
    dueDate: due,
    contactResourceId: customer,
    lineItems: [line(sales)]
  }
  const invoice = await api.create("/invoices", invoiceBody)
  await api.get(`/invoices${page}`)
  await api.post("/invoices/search", search)
  await api.get(`/invoices/${invoice}`)
  await api.put(`/invoices/${invoice}`, {
    ...invoiceBody,
    resourceId: invoice,
    lineItems: [line(sales, 120)]
  })
  const payment = await api.create(`/invoices/${invoice}/payments`, {
    resourceId: invoice,
    payments: [pay(bank, 20)]
  })
  await api.get(`/invoices/${invoice}/payments`)
  await api.get(`/payments/${payment}`)
  await api.put(`/payments/${payment}`, { resourceId: payment, reference: "TOUR-PAY-2" })
  const ccnBody = {
    reference: "TOUR-CCN-1",
    valueDate: day,
    contactResourceId: customer,
    lineItems: [line(sales, 30)]
  }
  const ccn = await api.create("/customer-credit-notes", ccnBody)
  const applied = (
    await api.post(
      `/invoices/${invoice}/credits`,
      { resourceId: invoice, credits: [{ creditNoteResourceId: ccn, amountApplied: 10 }] },
      200
    )
  ).data.resourceId
  await api.get(`/invoices/${invoice}/credits`)
  await api.delete(`/invoices/${invoice}/credits/${applied}`)
  await api.delete(`/payments/${payment}`)
  await api.delete(`/invoices/${invoice}`)
  await api.get(`/customer-credit-notes${page}`)
  await api.post("/customer-credit-notes/search", search)
  await api.get(`/customer-credit-notes/${ccn}`)
  await api.put(`/customer-credit-notes/${ccn}`, { ...ccnBody, resourceId: ccn })
  await api.post(`/customer-credit-notes/${ccn}/refunds`, {
    resourceId: ccn,
    refunds: [{ ...pay(bank, 5), refundAmount: 5, refundMethod: "CASH" }]
  })
  await api.get(`/customer-credit-notes/${ccn}/refunds`)
  const draftCcn = await api.create("/customer-credit-notes", {
    ...ccnBody,
    reference: "TOUR-CCN-2",
    saveAsDraft: true
  })
  await api.delete(`/customer-credit-notes/${draftCcn}`)

  const usd = { currency: { sourceCurrency: "USD" } }
  const billBody = {
    reference: "TOUR-BILL-1",
    valueDate: day,
    dueDate: due,
    contactResourceId: supplier,
    lineItems: [line(costs)],
    ...usd
  }
  const bill = await api.create("/bills", billBody)
  await api.get(`/bills${page}`)
  await api.post("/bills/search", search)
  await api.get(`/bills/${bill}`)
  await api.put(`/bills/${bill}`, { ...billBody, resourceId: bill, lineItems: [line(costs, 90)] })
  await api.post(`/bills/${bill}/payments`, { resourceId: bill, payments: [pay(bank, 10, 13.5)] })
  await api.get(`/bills/${bill}/payments`)
  const scnBody = {
    reference: "TOUR-SCN-1",
    valueDate: day,
    contactResourceId: supplier,
    lineItems: [line(costs, 20)],
    ...usd
  }
  const scn = await api.create("/supplier-credit-notes", scnBody)
  const billCredit = (
    await api.post(
      `/bills/${bill}/credits`,
      { resourceId: bill, credits: [{ creditNoteResourceId: scn, amountApplied: 5 }] },
      200
    )
  ).data.resourceId
  await api.get(`/bills/${bill}/credits`)
  await api.delete(`/bills/${bill}/credits/${billCredit}`)
  const draftBill = await api.create("/bills", { ...billBody, reference: "TOUR-BILL-2", saveAsDraft: true })
  await api.delete(`/bills/${draftBill}`)
  await api.get(`/supplier-credit-notes${page}`)
  await api.post("/supplier-credit-notes/search", search)
  await api.get(`/supplier-credit-notes/${scn}`)
  await api.put(`/supplier-credit-notes/${scn}`, { ...scnBody, resourceId: scn })
  await api.post(`/supplier-credit-notes/${scn}/refunds`, {
    resourceId: scn,
    refunds: [{ ...pay(bank, 5, 6.5), refundAmount: 6.5, refundMethod: "CASH" }]
  })
  await api.get(`/supplier-credit-notes/${scn}/refunds`)
  const draftScn = await api.create("/supplier-credit-notes", {
    ...scnBody,
    reference: "TOUR-SCN-2",
    saveAsDraft: true
  })
  await api.delete(`/supplier-credit-notes/${draftScn}`)

  const entries = [
    { accountResourceId: bank, type: "DEBIT", amount: 15 },
    { accountResourceId: sales, type: "CREDIT", amount: 15 }
  ]
  const journalBody = { reference: "TOUR-JNL-1", valueDate: day, journalEntries: entries }
  const journal = await api.create("/journals", journalBody)
  await api.get(`/journals${page}`)
  await api.post("/journals/search", search)
  await api.get(`/journals/${journal}`)
  await api.put(`/journals/${journal}`, { ...journalBody, resourceId: journal, internalNotes: "toured" })
  await api.delete(`/journals/${journal}`)

  await api.create("/cash-in-entries", {
    accountResourceId: bank,
    reference: "TOUR-CASH-IN",
    valueDate: day,
    journalEntries: [{ accountResourceId: sales, amount: 100 }]
  })
  await api.create("/cash-out-entries", {
    accountResourceId: bank,
    reference: "TOUR-CASH-OUT",
    valueDate: day,
    journalEntries: [{ accountResourceId: costs, amount: 40 }]
  })
  await api.create("/cash-transfers", {
    reference: "TOUR-TRANSFER",
    valueDate: day,
    cashOut: { accountResourceId: bank, amount: 25 },
    cashIn: { accountResourceId: bank2, amount: 25 }
  })
  for (const kind of ["cash-in-entries", "cash-out-entries", "cash-transfers"]) {
    const row = (await api.get(`/${kind}${page}`)).data[0]
    await api.get(`/${kind}/${row.resourceId}`)
  }
  const cashIn = (await api.get(`/cash-in-entries${page}`)).data[0]
  await api.get(`/cash-in-journals/${cashIn.resourceId}`)
  await api.post("/cashflow-transactions/search", search)
  await api.delete(`/cashflow-journals/${cashIn.parentEntityResourceId}`)

  await api.post(`/bank-records/${bank}`, {
    accountResourceId: bank,
    records: [{ amount: 100, transactionDate: day, description: "Tour deposit" }]
  })
  await api.post(`/bank-records/${bank}/search`, { accountResourceId: bank, limit: 10 })

  await api.post("/generate-reports/trial-balance", { startDate: "2025-01-01", endDate: "2025-12-31" })
  await api.post("/generate-reports/ar-report", { endDate: "2025-12-31" })
  await api.post("/generate-reports/ap-report", { endDate: "2025-12-31" })
  await api.post("/generate-reports/general-ledger", {
    startDate: "2025-06-01",
    endDate: "2025-06-30",
    groupBy: "ACCOUNT"
  })

  const tag = await api.create("/tags", { tagName: "Tour" })
  await api.post("/tags/search", search)
  await api.get(`/tags/${tag}`)
  await api.delete(`/tags/${tag}`)
  const field = await api.create("/custom-fields", {
    name: "Tour field",
    type: "TEXT",
    printOnDocuments: false
  })
  await api.get(`/custom-fields/${field}`)
  const capsuleType = await api.create("/capsuleTypes", { displayName: "Tour capsules" })
  await api.post("/capsuleTypes/search", search)
  await api.get(`/capsuleTypes/${capsuleType}`)
  await api.get(`/capsule-types/${capsuleType}`)
  await api.delete(`/capsuleTypes/${capsuleType}`)
  await api.post("/fixed-assets/search", {
    sort: { sortBy: ["purchaseDate"], order: "DESC" },
    limit: 10,
    offset: 0
  })
  const schedule = { status: "ACTIVE", startDate: "2025-07-01", endDate: "2025-12-31", repeat: "MONTHLY" }
  await api.create("/scheduled/invoices", {
    ...schedule,
    invoice: { ...invoiceBody, reference: "TOUR-SCHED-INV", saveAsDraft: false }
  })
  await api.create("/scheduled/bills", {
    ...schedule,
    bill: { ...billBody, reference: "TOUR-SCHED-BILL", saveAsDraft: false }
  })
  await api.create("/scheduled/journals", {
    ...schedule,
    valueDate: "2025-07-01",
    reference: "TOUR-SCHED-JNL",
    schedulerEntries: entries
  })
  await api.post("/scheduled-transaction/search", {
    sort: { sortBy: ["startDate"], order: "DESC" },
    limit: 10,
    offset: 0
  })
  await api.post("/magic/createBusinessTransactionFromAttachment", {
    sourceType: "URL",
    businessTransactionType: "INVOICE",
    sourceURL: "https://files.example.com/tour.pdf"
  })
  await api.post("/magic/workflows/search", { limit: 10 })
  await api.get("/withholding-tax-codes")
  await api.get("/search?query=Tour")

  // Refusals and the platform's known faults, for their error bodies.
  await api.post("/tax-profiles", { name: "Tour tax" }, 422)
  await api.delete(`/invoices/${invoice}-missing`, 404)
  await api.put(`/contact-groups/${customer}`, { resourceId: customer, name: "Tour" }, 500)
  await api.get("/inventory-balances/ACTIVE", 500)
  await api.delete(`/organization/currencies/USD/rates/${rate}`)
}
