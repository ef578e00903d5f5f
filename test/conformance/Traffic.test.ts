/**
 * Conformance (issues 3 and 18) of real traffic with the platform's own published Swagger 2.0 document. A
 * recording proxy between the client and the sandbox captures each exchange of the demo's full load and
 * then of a client's tour of the other endpoints (Tour.ts). Every request body the loader sends is validated
 * against its operation's `in: body` schema, and every response the sandbox answers (load and tour) against
 * the schema the operation documents for its status (ajv; closed objects, formats the document states in
 * prose). Known specification-vs-document conflicts are the explicit allow-list in Conflicts.ts, each entry
 * needed by some exchange; what the specification adds to untyped create bodies is in Specification.ts.
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
import { conflicts, type OperationId } from "./Conflicts.js"
import { check, checkResponse, describeFailures, unused, type Checked } from "./Conformance.js"
import { PlatformDocument } from "./OpenApi.js"
import { recordingProxy } from "./RecordingProxy.js"
import { createsWithId } from "./Specification.js"
import { tour } from "./Tour.js"

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
  "bill-payment": "POST /api/v1/bills/{resourceId}/payments",
  tag: "POST /api/v1/tags",
  "customer-credit-note": "POST /api/v1/customer-credit-notes",
  "supplier-credit-note": "POST /api/v1/supplier-credit-notes",
  "cash-in": "POST /api/v1/cash-in-entries",
  "cash-out": "POST /api/v1/cash-out-entries",
  "cash-transfer": "POST /api/v1/cash-transfers",
  "invoice-credit": "POST /api/v1/invoices/{resourceId}/credits",
  "bill-credit": "POST /api/v1/bills/{resourceId}/credits",
  "customer-refund": "POST /api/v1/customer-credit-notes/{resourceId}/refunds",
  "supplier-refund": "POST /api/v1/supplier-credit-notes/{resourceId}/refunds"
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

const assertConform = (what: string, checked: ReadonlyArray<Checked>) => {
  const failed = checked.filter((c) => c.violations.length > 0)
  assert.strictEqual(
    failed.length,
    0,
    `${failed.length} of ${checked.length} ${what} do not conform to the document:\n\n${describeFailures(failed)}\n`
  )
}

const platform = PlatformDocument.read()

describe("conformance: the demo load's traffic, and a client's tour, against the platform's Swagger 2.0 document", () => {
  it.scopedLive(
    "every body the loader sends, and every body the sandbox answers, validates against its operation's schema",
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
        const loaderTraffic = proxy.requests.length
        yield* Effect.promise(() => tour(proxy.url))

        const requests = proxy.requests.slice(0, loaderTraffic).filter((r) => r.body !== "")
        const checkedRequests = requests.map((r) => check(platform, conflicts, r))
        assertConform("request bodies", checkedRequests)
        const checkedResponses = proxy.requests.map((r) => checkResponse(platform, conflicts, r))
        assertConform("responses", checkedResponses)

        const header = platform.apiKeyHeader
        assert.isDefined(header, "the document declares an API-key header")
        const unauthenticated = proxy.requests.filter((r) => !r.headerNames.includes(header!.toLowerCase()))
        assert.deepStrictEqual(
          unauthenticated.map((r) => `${r.method} ${r.path}`),
          [],
          `every request carries ${header}`
        )

        const answered = new Set(checkedResponses.map((c) => c.validatedAs?.id ?? c.operation))
        assert.deepStrictEqual(
          createsWithId.operations.filter((o) => !answered.has(o)),
          [],
          "every create whose id the specification promises was answered and checked for it"
        )
        assert.deepStrictEqual(
          unused(conflicts, [...checkedRequests, ...checkedResponses]),
          [],
          "every allow-list entry is needed by some request or response (remove the ones that are not)"
        )
        console.info(
          `conformance: ${checkedRequests.length} request bodies and ${checkedResponses.length} responses ` +
            `(${loaderTraffic} to the loader, ${checkedResponses.length - loaderTraffic} to the tour; ` +
            `${checkedResponses.filter((c) => (c.request.status ?? 0) >= 300).length} of them errors) validated, ` +
            `over ${answered.size} operations (${new Set(checkedRequests.map((c) => c.operation)).size} with ` +
            `request bodies); ${conflicts.length} allow-list entries`
        )
        const sent = countBy(checkedRequests, (c) => c.operation)
        const planned = countBy(plan.ops, (o) => operationOf[o.kind])
        for (const [kind, operation] of Object.entries(operationOf))
          assert.strictEqual(
            sent.get(operation) ?? 0,
            planned.get(operation) ?? 0,
            `each planned ${kind} was sent once to ${operation}, and its body checked`
          )
        assert.deepStrictEqual(
          Object.entries(operationOf).flatMap(([kind, operation]) => (planned.has(operation) ? [] : [kind])),
          [],
          "the demo plan has operations of every kind, so that every kind of body the loader sends is checked"
        )
      }),
    120_000
  )
})
