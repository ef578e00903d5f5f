/** Test support: a sandbox on port 0 and a tiny JSON client for it. */
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../src/sandbox/Sandbox.js"

/** A response as the tests see it. */
export interface Res {
  readonly status: number
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any
  readonly headers: Headers
}

/** A JSON client with a default API key. */
export class Client {
  constructor(
    readonly url: string,
    readonly key: string | null = "jk-test"
  ) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {}
  ): Promise<Res> {
    const h: Record<string, string> = { "content-type": "application/json", ...headers }
    if (this.key !== null) h["x-jk-api-key"] = this.key
    const r = await fetch(`${this.url}/api/v1${path}`, {
      method,
      headers: h,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
    })
    const text = await r.text()
    return { status: r.status, body: text === "" ? undefined : JSON.parse(text), headers: r.headers }
  }
  get(path: string): Promise<Res> {
    return this.call("GET", path)
  }
  post(path: string, body?: unknown): Promise<Res> {
    return this.call("POST", path, body ?? {})
  }
  put(path: string, body: unknown): Promise<Res> {
    return this.call("PUT", path, body)
  }
  delete(path: string): Promise<Res> {
    return this.call("DELETE", path)
  }
}

/** The ids a typical test needs. */
export interface World {
  readonly sandbox: RunningSandbox
  readonly api: Client
  readonly account: (name: string) => string
  readonly tax: (name: string) => string
  readonly bank: string
  readonly usdBank: string
  readonly customer: string
  readonly supplier: string
}

let counter = 0

/** A unique reference for a test document. */
export const ref = (prefix = "T"): string =>
  `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 7)}`

/** Starts a sandbox with a bank account, a USD bank, USD enabled, a customer and a supplier. */
export const world = async (options: SandboxOptions = {}): Promise<World> => {
  const sandbox = await startSandbox(options)
  const api = new Client(sandbox.url)
  const expect201 = (r: Res): string => {
    if (r.status !== 201) throw new Error(`setup failed: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body.data.resourceId as string
  }
  await api.post("/organization/currencies", { currencies: ["USD", "EUR"] })
  const bank = expect201(
    await api.post("/chart-of-accounts", {
      name: "DBS Current",
      classificationType: "Bank Accounts",
      currency: "SGD"
    })
  )
  const usdBank = expect201(
    await api.post("/chart-of-accounts", {
      name: "DBS USD",
      classificationType: "Bank Accounts",
      currency: "USD"
    })
  )
  const customer = expect201(
    await api.post("/contacts", {
      name: "Acme Customer",
      billingName: "Acme Customer",
      customer: true,
      supplier: false
    })
  )
  const supplier = expect201(
    await api.post("/contacts", {
      name: "Bolt Supplier",
      billingName: "Bolt Supplier",
      customer: false,
      supplier: true
    })
  )
  const accounts = (await api.get("/chart-of-accounts?limit=1000")).body.data as Array<{
    name: string
    resourceId: string
  }>
  const taxes = (await api.get("/tax-profiles")).body.data as Array<{ name: string; resourceId: string }>
  const find = (list: Array<{ name: string; resourceId: string }>, what: string) => (name: string) => {
    const hit = list.find((x) => x.name === name)
    if (hit === undefined) throw new Error(`no ${what} ${name}`)
    return hit.resourceId
  }
  return {
    sandbox,
    api,
    account: find(accounts, "account"),
    tax: find(taxes, "tax profile"),
    bank,
    usdBank,
    customer,
    supplier
  }
}

/** An invoice body with one line. */
export const invoiceBody = (
  w: World,
  over: Record<string, unknown> = {},
  line: Record<string, unknown> = {}
) => ({
  reference: ref("INV"),
  valueDate: "2024-03-01",
  dueDate: "2024-03-31",
  contactResourceId: w.customer,
  lineItems: [
    {
      name: "Widget",
      quantity: 2,
      unitPrice: 50,
      accountResourceId: w.account("Sales"),
      taxProfileResourceId: w.tax("SR 9%"),
      ...line
    }
  ],
  ...over
})

/** A bill body with one line. */
export const billBody = (
  w: World,
  over: Record<string, unknown> = {},
  line: Record<string, unknown> = {}
) => ({
  reference: ref("BILL"),
  valueDate: "2024-03-01",
  dueDate: "2024-03-31",
  contactResourceId: w.supplier,
  lineItems: [
    {
      name: "Parts",
      quantity: 1,
      unitPrice: 200,
      accountResourceId: w.account("Cost of Goods Sold"),
      taxProfileResourceId: w.tax("TX 9%"),
      ...line
    }
  ],
  ...over
})

/** A payment item. */
export const paymentBody = (w: World, amount: number, over: Record<string, unknown> = {}) => ({
  paymentAmount: amount,
  transactionAmount: amount,
  accountResourceId: w.bank,
  paymentMethod: "BANK_TRANSFER",
  reference: ref("PAY"),
  valueDate: "2024-03-15",
  ...over
})

/** The trial balance as at a date, keyed by account name. */
export const trialBalance = async (w: World, endDate = "2099-12-31") => {
  const r = await w.api.post("/generate-reports/trial-balance", { startDate: "2000-01-01", endDate })
  const rows = r.body.data.rows as Array<{ accountName: string; debitAmount: number; creditAmount: number }>
  return {
    totals: r.body.data.totals as { debitAmount: number; creditAmount: number },
    net: (name: string) => {
      const row = rows.find((x) => x.accountName === name)
      return row === undefined ? 0 : Math.round((row.debitAmount - row.creditAmount) * 100) / 100
    }
  }
}
