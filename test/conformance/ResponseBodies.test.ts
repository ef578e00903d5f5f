/**
 * Negative controls of the response conformance check (issue 18; the demo load's and the tour's responses
 * are validated in Traffic.test.ts): a response that conforms, the same response made wrong in one way, and
 * exactly the violations the check must report, so that a passing conformance test means it could have
 * failed. Among them, the answers the sandbox gave before issue 18 (creates with the id at the top level).
 */
import { assert, describe, it } from "@effect/vitest"
import { conflicts } from "./Conflicts.js"
import { checkResponse, describeFailures, describeViolation } from "./Conformance.js"
import { PlatformDocument } from "./OpenApi.js"
import type { Recorded } from "./RecordingProxy.js"

const platform = PlatformDocument.read()

/** An exchange as the proxy records it: `method path` answered `status` with `body` (JSON unless a string). */
const answered = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  contentType = "application/json"
): Recorded => ({
  seq: 0,
  method,
  path,
  contentType: method === "GET" ? undefined : "application/json",
  headerNames: ["x-jk-api-key"],
  body: "",
  status,
  response: { contentType, body: typeof body === "string" ? body : JSON.stringify(body) }
})

const ids = { invoice: "0b6f1d2e-inv", bill: "4a1c9e0f-bill", payment: "9d3e-pay", contact: "7d2a-contact" }
const createdAt = 1735776000000
const appliedRate = { baseCurrency: "SGD", sourceCurrency: "USD", exchangeRate: 0.74, date: 1735776000000 }
const invoice = {
  resourceId: ids.invoice,
  reference: "INV-0001",
  status: "UNPAID",
  valueDate: 1735776000000,
  totalAmount: 3913.36,
  lineItems: [{ name: "Desk", quantity: 1, unitPrice: 3050.24 }],
  paymentRecords: [{ resourceId: ids.payment, transactionAmount: 543.95 }]
}
const page = { totalElements: 1, totalPages: 1, truncated: false, data: [invoice] }

/** A response that conforms, the same made wrong in one way, and exactly what the check must say. */
const controls: ReadonlyArray<{
  readonly name: string
  readonly valid: Recorded
  readonly wrong: Recorded
  readonly expect: ReadonlyArray<string>
}> = [
  {
    name: "an invoice create answered flat, the id at the top (the sandbox before issue 18)",
    valid: answered("POST", "/api/v1/invoices", 201, { data: { resourceId: ids.invoice, createdAt } }),
    wrong: answered("POST", "/api/v1/invoices", 201, { resourceId: ids.invoice, createdAt }),
    expect: ["additionalProperties /resourceId", "additionalProperties /createdAt", "required /data"]
  },
  {
    name: "a payments create answered flat (the sandbox before issue 18)",
    valid: answered("POST", `/api/v1/invoices/${ids.invoice}/payments`, 201, {
      data: { resourceId: ids.payment, resourceIds: [ids.payment] }
    }),
    wrong: answered("POST", `/api/v1/invoices/${ids.invoice}/payments`, 201, {
      resourceId: ids.payment,
      resourceIds: [ids.payment]
    }),
    expect: ["additionalProperties /resourceId", "additionalProperties /resourceIds", "required /data"]
  },
  {
    name: "a rate create answered flat, where the specification promises no id (the document's envelope alone)",
    valid: answered("POST", "/api/v1/organization-currencies/USD/rates", 201, {
      data: { resourceId: "r-1", createdAt }
    }),
    wrong: answered("POST", "/api/v1/organization-currencies/USD/rates", 201, {
      resourceId: "r-1",
      createdAt
    }),
    expect: ["additionalProperties /resourceId", "additionalProperties /createdAt", "required /data"]
  },
  {
    name: "a contact create whose data lacks the id (S: a create answers the resourceId)",
    valid: answered("POST", "/api/v1/contacts", 201, { data: { resourceId: ids.contact, createdAt } }),
    wrong: answered("POST", "/api/v1/contacts", 201, { data: { createdAt } }),
    expect: ["required /data/resourceId"]
  },
  {
    name: "a bill create whose appliedRate is malformed (the AppliedRate date excuse covers the date only)",
    valid: answered("POST", "/api/v1/bills", 201, { data: { resourceId: ids.bill, createdAt }, appliedRate }),
    wrong: answered("POST", "/api/v1/bills", 201, {
      data: { resourceId: ids.bill, createdAt },
      appliedRate: { ...appliedRate, sourceCurrency: "usd", exchangeRate: "0.74", rate: 0.74 }
    }),
    expect: [
      "pattern /appliedRate/sourceCurrency",
      "type /appliedRate/exchangeRate",
      "additionalProperties /appliedRate/rate"
    ]
  },
  {
    name: "an appliedRate on a journal create (its BaseResponse has none)",
    valid: answered("POST", "/api/v1/journals", 201, { data: { resourceId: "j-1", createdAt } }),
    wrong: answered("POST", "/api/v1/journals", 201, { data: { resourceId: "j-1", createdAt }, appliedRate }),
    expect: ["additionalProperties /appliedRate"]
  },
  {
    name: "a create answered 200 (the document lists 201)",
    valid: answered("POST", "/api/v1/items", 201, { data: { resourceId: "i-1", createdAt } }),
    wrong: answered("POST", "/api/v1/items", 200, { data: { resourceId: "i-1", createdAt } }),
    expect: ["status (body)"]
  },
  {
    name: "a PUT answered flat (S makes only GET /invoices/:id flat)",
    valid: answered("PUT", `/api/v1/invoices/${ids.invoice}`, 200, { data: invoice }),
    wrong: answered("PUT", `/api/v1/invoices/${ids.invoice}`, 200, { ...invoice }),
    expect: [...Object.keys(invoice).map((k) => `additionalProperties /${k}`), "required /data"]
  },
  {
    name: "GET /invoices/:id wrapped in data (S: a flat object)",
    valid: answered("GET", `/api/v1/invoices/${ids.invoice}`, 200, invoice),
    wrong: answered("GET", `/api/v1/invoices/${ids.invoice}`, 200, { data: invoice }),
    expect: [
      "not (body)",
      ...["resourceId", "reference", "status", "valueDate", "totalAmount", "lineItems", "paymentRecords"].map(
        (k) => `required /${k}`
      )
    ]
  },
  {
    name: "GET /bills/:id flat (the invoice exception does not reach bills)",
    valid: answered("GET", `/api/v1/bills/${ids.bill}`, 200, { data: { resourceId: ids.bill } }),
    wrong: answered("GET", `/api/v1/bills/${ids.bill}`, 200, { resourceId: ids.bill }),
    expect: ["additionalProperties /resourceId", "required /data"]
  },
  {
    name: "GET /invoices/:id with an ISO date and a status S does not use",
    valid: answered("GET", `/api/v1/invoices/${ids.invoice}`, 200, invoice),
    wrong: answered("GET", `/api/v1/invoices/${ids.invoice}`, 200, {
      ...invoice,
      valueDate: "2025-01-02",
      status: "PARTIALLY_PAID"
    }),
    expect: ["type /valueDate", "enum /status"]
  },
  {
    name: "a search page inside a data wrapper (S: no outer wrapper)",
    valid: answered("POST", "/api/v1/invoices/search", 200, page),
    wrong: answered("POST", "/api/v1/invoices/search", 200, { data: page }),
    expect: ["required /totalElements", "required /totalPages", "required /truncated", "type /data"]
  },
  {
    name: "a truncated page without `_meta` (S: _meta says why)",
    valid: answered("POST", "/api/v1/contacts/search", 200, {
      ...page,
      truncated: true,
      _meta: { fetchedRows: 10000, maxRows: 10000 }
    }),
    wrong: answered("POST", "/api/v1/contacts/search", 200, { ...page, truncated: true }),
    expect: ["enum /truncated", "required /_meta", "anyOf (body)"]
  },
  {
    name: "a list answered as the document's BaseResponse alone, without S's counts",
    valid: answered("GET", "/api/v1/journals?limit=10&offset=0", 200, page),
    wrong: answered("GET", "/api/v1/journals?limit=10&offset=0", 200, { data: [invoice] }),
    expect: ["required /totalElements", "required /totalPages", "required /truncated"]
  },
  {
    name: "GET /bank-accounts paginated (S: a plain array of Bank Accounts entries)",
    valid: answered("GET", "/api/v1/bank-accounts", 200, [
      { resourceId: "b-1", name: "DBS", accountType: "Bank Accounts" }
    ]),
    wrong: answered("GET", "/api/v1/bank-accounts", 200, {
      ...page,
      data: [{ resourceId: "b-1", name: "DBS", accountType: "Bank Accounts" }]
    }),
    expect: ["type (body)"]
  },
  {
    name: "an error body that is not { error: { error_type, errors } }",
    valid: answered("DELETE", `/api/v1/invoices/${ids.invoice}`, 404, {
      error: { error_type: "not_found", errors: ["invoice not found"] }
    }),
    wrong: answered("DELETE", `/api/v1/invoices/${ids.invoice}`, 404, { error: "invoice not found" }),
    expect: ["type /error"]
  },
  {
    name: "a response that is not JSON",
    valid: answered("GET", `/api/v1/journals/j-1`, 200, { data: { resourceId: "j-1" } }),
    wrong: answered("GET", `/api/v1/journals/j-1`, 200, "OK", "text/plain"),
    expect: ["json (body)", "contentType (body)", "type (body)"]
  }
]

describe("conformance: negative controls, the response check rejects wrong bodies for the stated reason", () => {
  for (const control of controls) {
    it(control.name, () => {
      const ok = checkResponse(platform, conflicts, control.valid)
      assert.deepStrictEqual(ok.violations.map(describeViolation), [], "the unmutated response conforms")
      const bad = checkResponse(platform, conflicts, control.wrong)
      assert.sameMembers(
        bad.violations.map((v) => `${v.keyword} ${v.field || "(body)"}`),
        [...control.expect],
        `the wrong response is rejected for exactly this reason:\n${describeFailures([bad])}`
      )
    })
  }
})
