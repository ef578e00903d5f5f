/**
 * TargetApi against a real sandbox: timeouts, the transient/rejected split, Retry-After, base URL checks, and
 * reading a create's id from the platform's `{ data: { resourceId } }` envelope (from the sandbox) and from
 * the flat `{ resourceId }` of an older target (a fake server).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as NodeHttp from "node:http"
import type { AddressInfo } from "node:net"
import * as TargetApi from "../../src/load/TargetApi.js"
import { apiKey, sandbox } from "../support/Harness.js"

/** A loopback HTTP server answering with `handler`, for the scope (its connections closed with it). */
const serving = (handler: NodeHttp.RequestListener) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; server: NodeHttp.Server }>((resume) => {
      const server = NodeHttp.createServer(handler)
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }))
      )
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

/** A server that answers every request `status` with `body`, recording what it was asked, for the scope. */
const fakeTarget = (status: number, body: unknown) => {
  const asked: Array<string> = []
  return Effect.map(
    serving((req, res) => {
      asked.push(`${req.method} ${req.url}`)
      req.resume()
      req.on("end", () => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(body))
      })
    }),
    (s) => ({ ...s, asked })
  )
}

/**
 * A server that never answers, recording each request it was sent and each whose connection the client
 * closed, for the scope.
 */
const silentTarget = Effect.suspend(() => {
  const opened: Array<string> = []
  const closed: Array<string> = []
  return Effect.map(
    serving((req) => {
      opened.push(`${req.method} ${req.url}`)
      req.socket.on("close", () => closed.push(`${req.method} ${req.url}`))
    }),
    (s) => ({ ...s, opened, closed })
  )
})

const withApi = <A, E>(
  url: string,
  f: (api: TargetApi.TargetApiShape) => Effect.Effect<A, E>,
  timeoutMs = 5000
) =>
  Effect.flatMap(TargetApi.TargetApi, f).pipe(
    Effect.provide(TargetApi.layer({ baseUrl: url, apiKey, timeoutMs, readAttempts: 2 }))
  )

describe("TargetApi", () => {
  it.scopedLive(
    "an interrupted request is aborted: its connection is closed, not left waiting for the answer",
    () =>
      Effect.gen(function* () {
        const t = yield* silentTarget
        // The agent lives on after the request: only the request's own abort closes its connection.
        const api = yield* Layer.build(TargetApi.layer({ baseUrl: t.url, apiKey, timeoutMs: 30_000 }))
        const fiber = yield* Effect.fork(
          Context.get(api, TargetApi.TargetApi).send("POST", "/invoices", { a: 1 })
        )
        // Interrupted once the server has the request (and undici has handed over its abort).
        while (t.opened.length === 0) yield* Effect.sleep("10 millis")
        yield* Fiber.interrupt(fiber)
        const started = Date.now()
        while (t.closed.length === 0 && Date.now() - started < 3000) yield* Effect.sleep("10 millis")
        assert.deepStrictEqual(t.opened, ["POST /api/v1/invoices"])
        assert.deepStrictEqual(
          t.closed,
          ["POST /api/v1/invoices"],
          "the aborted request's connection was closed"
        )
      })
  )

  it.scopedLive("an answer that arrives in many pieces is read whole, its UTF-8 intact", () =>
    Effect.gen(function* () {
      // Over 64 KB, so that it arrives in several chunks; multi-byte characters may be cut between them.
      const names = Array.from({ length: 4000 }, (_, i) => `Café Zürich Ōsaka № ${i}`)
      const t = yield* fakeTarget(200, { data: names })
      const r = yield* withApi(t.url, (api) => api.send("GET", "/contacts"))
      assert.deepStrictEqual(r, { data: names })
    })
  )

  it.scopedLive("a request slower than the timeout fails as a transient timeout", () =>
    Effect.gen(function* () {
      const s = yield* sandbox({ faults: { latencyMs: 3000 } })
      const started = Date.now()
      const r = yield* Effect.either(withApi(s.url, (api) => api.send("GET", "/organization"), 200))
      assert.isTrue(Either.isLeft(r))
      if (Either.isLeft(r)) {
        assert.strictEqual(r.left._tag, "TargetTransient")
        assert.strictEqual((r.left as any).reason, "timeout")
      }
      assert.isBelow(Date.now() - started, 2500, "it did not wait for the response")
    })
  )

  it.scopedLive(
    "a 4xx is a rejection carrying the platform's messages; a 429 is transient with Retry-After",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox({ faults: { rateLimit: 1, seed: 1 } })
        const rejected = yield* Effect.either(
          withApi(s.url, (api) => api.send("POST", "/invoices", { currency: "USD" }))
        )
        assert.isTrue(Either.isLeft(rejected) && rejected.left._tag === "TargetRejected")
        if (Either.isLeft(rejected) && rejected.left._tag === "TargetRejected") {
          assert.strictEqual(rejected.left.status, 422)
          assert.isAbove(rejected.left.errors.length, 0)
        }
        const results = yield* withApi(s.url, (api) =>
          Effect.forEach([1, 2, 3, 4], () => Effect.either(api.send("GET", "/organization")), {
            concurrency: 4
          })
        )
        const limited = results.find(
          (r) => Either.isLeft(r) && r.left._tag === "TargetTransient" && r.left.status === 429
        )
        assert.isDefined(limited, "the rate limit answered 429")
        if (limited && Either.isLeft(limited) && limited.left._tag === "TargetTransient") {
          assert.isAbove(limited.left.retryAfterMs ?? 0, 0, "Retry-After is read")
        }
      })
  )

  it.effect("refuses plain http off loopback and a key without jk-", () =>
    Effect.gen(function* () {
      const http = yield* Effect.either(
        TargetApi.checkConfig({ baseUrl: "http://books.example.com", apiKey })
      )
      assert.isTrue(Either.isLeft(http))
      const key = yield* Effect.either(
        TargetApi.checkConfig({ baseUrl: "https://books.example.com", apiKey: "secret" })
      )
      assert.isTrue(Either.isLeft(key))
      const ok = yield* TargetApi.checkConfig({ baseUrl: "http://127.0.0.1:9", apiKey })
      assert.strictEqual(ok.hostname, "127.0.0.1")
    })
  )

  it.scopedLive(
    "a create's id is read from the sandbox's { data: { resourceId } }, the record it names",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const { id, record } = yield* withApi(s.url, (api) =>
          Effect.gen(function* () {
            const created = yield* api.send("POST", "/contacts", {
              name: "Seaside Yoga Studio",
              billingName: "Seaside Yoga Studio",
              customer: true,
              supplier: false
            })
            assert.deepStrictEqual(
              Object.keys(created as object),
              ["data"],
              "the sandbox answers the envelope"
            )
            const id = TargetApi.createdId(created)
            return { id, record: TargetApi.unwrap(yield* api.send("GET", `/contacts/${id}`)) }
          })
        )
        assert.isString(id)
        assert.strictEqual(record.resourceId, id)
        assert.strictEqual(record.name, "Seaside Yoga Studio")
      })
  )

  it.scopedLive("a create's id is still read from a flat { resourceId } (an older target)", () =>
    Effect.gen(function* () {
      const legacy = yield* fakeTarget(201, { resourceId: "legacy-7", createdAt: 1735776000000 })
      const created = yield* withApi(legacy.url, (api) => api.send("POST", "/contacts", { name: "Old" }))
      assert.strictEqual(TargetApi.createdId(created), "legacy-7")
      assert.deepStrictEqual(legacy.asked, ["POST /api/v1/contacts"])
    })
  )

  it("createdId reads the envelope first and accepts the shapes a create may take", () => {
    const cases: ReadonlyArray<readonly [string, unknown, string | undefined]> = [
      ["the envelope", { data: { resourceId: "a", createdAt: 1 } }, "a"],
      [
        "the envelope with appliedRate",
        { data: { resourceId: "b" }, appliedRate: { baseCurrency: "SGD", sourceCurrency: "USD" } },
        "b"
      ],
      ["settlements", { data: { resourceId: "c", resourceIds: ["c", "d"] } }, "c"],
      ["a list in the envelope", { data: [{ resourceId: "e" }] }, "e"],
      ["flat", { resourceId: "f", createdAt: 1 }, "f"],
      ["both, the envelope winning", { resourceId: "stale", data: { resourceId: "g" } }, "g"],
      ["no id (enabling currencies)", { data: { currencies: ["USD"] } }, undefined],
      ["an id that is not a string", { data: { resourceId: 7 } }, undefined],
      ["no body", undefined, undefined]
    ]
    for (const [name, body, id] of cases) assert.strictEqual(TargetApi.createdId(body), id, name)
  })

  it("backoff grows exponentially, is capped, and never undercuts Retry-After", () => {
    assert.strictEqual(TargetApi.backoffMs(1, undefined, 1), 100)
    assert.strictEqual(TargetApi.backoffMs(4, undefined, 1), 800)
    assert.strictEqual(TargetApi.backoffMs(20, undefined, 1), 5000)
    assert.strictEqual(TargetApi.backoffMs(1, 3000, 0), 3000)
    assert.strictEqual(TargetApi.backoffMs(3, undefined, 0), 200, "jitter takes it down to half at most")
  })
})
