/**
 * Conformance (issue 3): every request body the loader sends during the demo's full load is valid against
 * the platform's own published Swagger 2.0 document. A recording proxy between the loader and the sandbox
 * captures each request; each is matched to its document operation and its body validated (ajv; closed
 * objects, formats the document states in prose) against the operation's `in: body` schema. Known
 * specification-vs-document conflicts are the explicit allow-list in Conflicts.ts. Negative controls prove
 * the same check rejects wrong bodies.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as TargetApi from "../../src/load/TargetApi.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Mappings from "../../src/transform/Mappings.js"
import type { OpKind } from "../../src/transform/Plan.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { apiKey, sampleDir, sandbox, tempDir } from "../support/Harness.js"
import { conflicts, type Conflict, type OperationId } from "./Conflicts.js"
import { check, describeFailures, describeViolation } from "./Conformance.js"
import { PlatformDocument } from "./OpenApi.js"
import { recordingProxy, type Recorded } from "./RecordingProxy.js"

/** The operation each kind of planned write goes to (a new kind does not compile until it is listed). */
const operationOf: Record<OpKind, OperationId> = {
  currency: "POST /api/v1/organization/currencies",
  rate: "POST /api/v1/organization-currencies/{currencyCode}/rates",
  account: "POST /api/v1/chart-of-accounts",
  contact: "POST /api/v1/contacts",
  item: "POST /api/v1/items",
  invoice: "POST /api/v1/invoices",
  bill: "POST /api/v1/bills",
  journal: "POST /api/v1/journals",
  "invoice-payment": "POST /api/v1/invoices/{resourceId}/payments",
  "bill-payment": "POST /api/v1/bills/{resourceId}/payments"
}

const demoLoad = Effect.gen(function* () {
  yield* Extract.run({ source: "xero", inputDir: sampleDir })
  const books = yield* XeroSource.read
  const snapshot = yield* ReadSnapshot.read
  const mappings = yield* Mappings.load("xero")
  const plan = PlanBuilder.build(books, snapshot, mappings)
  yield* PlanStore.save(plan, snapshot.baseCurrency)
  const loaded = yield* Executor.load({ concurrency: 8 })
  return { plan, loaded }
})

/** The pipeline's layers with the target API pointed at `baseUrl` (the proxy). */
const layersVia = (baseUrl: string, workspace: string) =>
  Layer.mergeAll(
    StagingDb.layer(StagingDb.pathIn(workspace)),
    TargetApi.layer({ baseUrl, apiKey, connections: 16 }),
    Logger.replace(Logger.defaultLogger, Logger.none)
  )

const countBy = <A>(xs: ReadonlyArray<A>, key: (a: A) => string | undefined): Map<string, number> => {
  const m = new Map<string, number>()
  for (const x of xs) {
    const k = key(x)
    if (k !== undefined) m.set(k, (m.get(k) ?? 0) + 1)
  }
  return m
}

const conflictName = (c: Conflict) =>
  c.kind === "route"
    ? `route ${c.operation}`
    : c.kind === "field"
      ? `${c.keyword} ${c.field} on ${c.operation}`
      : `${c.keyword} ${c.field} in ${c.definition}`

const platform = PlatformDocument.read()

describe("conformance: request bodies against the platform's Swagger 2.0 document", () => {
  it.scopedLive(
    "every body the demo load sends validates against its operation's schema",
    () =>
      Effect.gen(function* () {
        assert.strictEqual(platform.swagger, "2.0", "the platform's document is Swagger 2.0")
        const s = yield* sandbox()
        const proxy = yield* recordingProxy(s.url)
        const { plan, loaded } = yield* demoLoad.pipe(
          Effect.provide(layersVia(proxy.url, tempDir("conformance"))),
          Effect.provide(NodeContext.layer)
        )
        assert.isTrue(loaded.complete, `the demo load completes: ${JSON.stringify(loaded.counts)}`)

        const withBody = proxy.requests.filter((r) => r.body !== "")
        const checked = withBody.map((r) => check(platform, conflicts, r))
        const failed = checked.filter((c) => c.violations.length > 0)
        assert.strictEqual(
          failed.length,
          0,
          `${failed.length} of ${checked.length} request bodies do not conform to the document:\n\n${describeFailures(failed)}\n`
        )

        const header = platform.apiKeyHeader
        assert.isDefined(header, "the document declares an API-key header")
        const unauthenticated = proxy.requests.filter((r) => !r.headerNames.includes(header!.toLowerCase()))
        assert.deepStrictEqual(
          unauthenticated.map((r) => `${r.method} ${r.path}`),
          [],
          `every request carries ${header}`
        )

        const sent = countBy(checked, (c) => c.operation)
        const planned = countBy(plan.ops, (o) => operationOf[o.kind])
        for (const [kind, operation] of Object.entries(operationOf)) {
          assert.isAbove(planned.get(operation) ?? 0, 0, `the demo plan has ${kind} operations`)
          assert.strictEqual(
            sent.get(operation) ?? 0,
            planned.get(operation),
            `each planned ${kind} was sent once to ${operation}, and its body checked`
          )
        }

        const used = new Set(checked.flatMap((c) => c.excusedBy))
        assert.deepStrictEqual(
          conflicts.filter((c) => !used.has(c)).map(conflictName),
          [],
          "every allow-list entry is needed by some request (remove the ones that are not)"
        )
      }),
    120_000
  )

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
      status: undefined
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
