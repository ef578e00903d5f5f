/**
 * Negative controls of the request-body conformance check (issue 3; the demo load's traffic is validated in
 * Traffic.test.ts): a body that conforms, the same body made wrong in one way, and exactly the violations
 * the check must report, so that a passing conformance test means the check could have failed.
 */
import { assert, describe, it } from "@effect/vitest"
import { conflicts } from "./Conflicts.js"
import { check, describeFailures, describeViolation } from "./Conformance.js"
import { PlatformDocument } from "./OpenApi.js"
import type { Recorded } from "./RecordingProxy.js"

const platform = PlatformDocument.read()

describe("conformance: request bodies against the platform's Swagger 2.0 document", () => {
  describe("negative controls: the same check rejects wrong bodies, and only for the stated reason", () => {
    const ids = { doc: "0b6f1d2e-doc", account: "5c1e-acct", contact: "7d2a-contact", tax: "9f3b-tax" }
    const request = (
      method: string,
      path: string,
      body: unknown,
      contentType = "application/json"
    ): Recorded => ({
      seq: 0,
      method,
      path,
      contentType,
      headerNames: ["x-jk-api-key", "content-type"],
      body: JSON.stringify(body),
      status: undefined,
      response: undefined
    })
    const payment = {
      paymentAmount: 543.95,
      transactionAmount: 543.95,
      accountResourceId: ids.account,
      paymentMethod: "BANK_TRANSFER",
      reference: "INV-0008-PMT1",
      valueDate: "2025-01-20"
    }
    const invoice = {
      reference: "INV-0001",
      valueDate: "2025-01-02",
      dueDate: "2025-02-01",
      contactResourceId: ids.contact,
      taxInclusion: false,
      saveAsDraft: false,
      lineItems: [
        {
          name: "Desk",
          quantity: 1,
          unitPrice: 3050.24,
          accountResourceId: ids.account,
          taxProfileResourceId: ids.tax
        }
      ]
    }
    const journal = {
      reference: "MIG-JNL-20250106-67d4c411",
      valueDate: "2025-01-06",
      saveAsDraft: false,
      journalEntries: [
        { accountResourceId: ids.account, type: "DEBIT", amount: 35711, description: "Capital injection" },
        { accountResourceId: "b44a-equity", type: "CREDIT", amount: 35711, description: "Owner A" }
      ]
    }
    const paymentsPath = `/api/v1/invoices/${ids.doc}/payments`
    const rate = {
      currencyCode: "EUR",
      rate: 0.6858710562,
      rateApplicableFrom: "2025-01-01",
      rateApplicableTo: "2025-01-31"
    }
    const account = {
      name: "DBS Business Account",
      code: "090",
      classificationType: "Bank Accounts",
      currency: "SGD"
    }
    const contact = {
      name: "Seaside Yoga Studio",
      billingName: "Seaside Yoga Studio",
      customer: true,
      supplier: false
    }

    /** A body that conforms, the same body made wrong in one way, and exactly what the check must say. */
    const controls: ReadonlyArray<{
      readonly name: string
      readonly valid: Recorded
      readonly wrong: Recorded
      readonly expect: ReadonlyArray<string>
    }> = [
      {
        name: "a journal entry with `debit` instead of `type` and `amount` (S journal: no debit/credit numbers)",
        valid: request("POST", "/api/v1/journals", journal),
        wrong: request("POST", "/api/v1/journals", {
          ...journal,
          journalEntries: [{ accountResourceId: ids.account, debit: 35711 }, journal.journalEntries[1]]
        }),
        expect: ["required /journalEntries/*/type", "additionalProperties /journalEntries/*/debit"]
      },
      {
        name: "a payment without `paymentMethod`",
        valid: request("POST", paymentsPath, { resourceId: ids.doc, payments: [payment] }),
        wrong: request("POST", paymentsPath, {
          resourceId: ids.doc,
          payments: [{ ...payment, paymentMethod: undefined }]
        }),
        expect: ["required /payments/*/paymentMethod"]
      },
      {
        name: "a payment method outside the document's enum",
        valid: request("POST", paymentsPath, { resourceId: ids.doc, payments: [payment] }),
        wrong: request("POST", paymentsPath, {
          resourceId: ids.doc,
          payments: [{ ...payment, paymentMethod: "WIRE" }]
        }),
        expect: ["enum /payments/*/paymentMethod"]
      },
      {
        name: "a payments body naming another document than its path",
        valid: request("POST", paymentsPath, { resourceId: ids.doc, payments: [payment] }),
        wrong: request("POST", paymentsPath, { resourceId: "another-doc", payments: [payment] }),
        expect: ["echo /resourceId"]
      },
      {
        name: "an invoice with `currencyCode` (S currency rule 2: silently ignored, so never sent)",
        valid: request("POST", "/api/v1/invoices", invoice),
        wrong: request("POST", "/api/v1/invoices", { ...invoice, currencyCode: "USD" }),
        expect: ["additionalProperties /currencyCode"]
      },
      {
        name: "an invoice with `currency` as a string (S currency rule 3: 400)",
        valid: request("POST", "/api/v1/invoices", { ...invoice, currency: { sourceCurrency: "USD" } }),
        wrong: request("POST", "/api/v1/invoices", { ...invoice, currency: "USD" }),
        expect: ["type /currency"]
      },
      {
        name: "an invoice dated with an ISO datetime (S: request dates are YYYY-MM-DD)",
        valid: request("POST", "/api/v1/invoices", invoice),
        wrong: request("POST", "/api/v1/invoices", { ...invoice, valueDate: "2025-01-02T00:00:00Z" }),
        expect: ["pattern /valueDate"]
      },
      {
        name: "a line with `description` instead of `name` (S invoice: description is not used)",
        valid: request("POST", "/api/v1/invoices", invoice),
        wrong: request("POST", "/api/v1/invoices", {
          ...invoice,
          lineItems: [
            { description: "Desk", quantity: 1, unitPrice: 3050.24, accountResourceId: ids.account }
          ]
        }),
        expect: ["additionalProperties /lineItems/*/description"]
      },
      {
        name: "a contact with `isCustomer` for `customer` (S contact)",
        valid: request("POST", "/api/v1/contacts", contact),
        wrong: request("POST", "/api/v1/contacts", { ...contact, customer: undefined, isCustomer: true }),
        expect: ["required /customer", "additionalProperties /isCustomer"]
      },
      {
        name: "a phone that is not E.164 (S: a plus sign, the country code, digits, no spaces)",
        valid: request("POST", "/api/v1/contacts", { ...contact, phone: "+6564309449" }),
        wrong: request("POST", "/api/v1/contacts", { ...contact, phone: "+65 6430 9449" }),
        expect: ["pattern /phone"]
      },
      {
        name: "the chart-of-accounts `currency` excuse does not reach other operations",
        valid: request("POST", "/api/v1/chart-of-accounts", account),
        wrong: request("POST", "/api/v1/contacts", { ...contact, currency: "SGD" }),
        expect: ["additionalProperties /currency"]
      },
      {
        name: "a rate on the spec path is still validated, against the document's rate operation",
        valid: request("POST", "/api/v1/organization-currencies/EUR/rates", rate),
        wrong: request("POST", "/api/v1/organization-currencies/EUR/rates", {
          ...rate,
          rate: "0.68",
          currencyCode: "USD"
        }),
        expect: ["type /rate", "echo /currencyCode"]
      },
      {
        name: "a request to an operation the document does not have (S: POST /payments/search is 404)",
        valid: request("POST", "/api/v1/invoices/search", {
          filter: { reference: { in: ["INV-0001"] } },
          sort: { sortBy: ["reference"], order: "ASC" },
          limit: 1000,
          offset: 0
        }),
        wrong: request("POST", "/api/v1/payments/search", { limit: 100, offset: 0 }),
        expect: ["operation (body)"]
      },
      {
        name: "a search filter on a field the document does not have (S: a billingName filter finds nothing)",
        valid: request("POST", "/api/v1/contacts/search", {
          filter: { name: { in: ["Seaside Yoga Studio"] } },
          sort: { sortBy: ["name"], order: "ASC" },
          limit: 1000,
          offset: 0
        }),
        wrong: request("POST", "/api/v1/contacts/search", {
          filter: { billingName: { in: ["Seaside Yoga Studio"] } },
          sort: { sortBy: ["name"], order: "ASC" },
          limit: 1000,
          offset: 0
        }),
        expect: ["additionalProperties /filter/billingName"]
      },
      {
        name: "a body sent as text/plain",
        valid: request("POST", "/api/v1/journals", journal),
        wrong: request("POST", "/api/v1/journals", journal, "text/plain"),
        expect: ["contentType (body)"]
      }
    ]

    for (const control of controls) {
      it(control.name, () => {
        const ok = check(platform, conflicts, control.valid)
        assert.deepStrictEqual(ok.violations.map(describeViolation), [], "the unmutated body conforms")
        const bad = check(platform, conflicts, control.wrong)
        assert.sameMembers(
          bad.violations.map((v) => `${v.keyword} ${v.field || "(body)"}`),
          [...control.expect],
          `the wrong body is rejected for exactly this reason:\n${describeFailures([bad])}`
        )
      })
    }
  })
})
