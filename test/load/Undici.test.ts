/**
 * The program's undici (`src/load/Undici.ts`) is its Agent, dispatched through as TargetApi does, without the
 * rest of undici's entry (fetch, WebSocket, caches, mocks) or its request API, which every process would
 * otherwise load and run.
 */
import { assert, describe, it } from "@effect/vitest"
import { inOwnProcess, source } from "../support/OwnProcess.js"

describe("Undici", () => {
  it("dispatches through its Agent without loading undici's entry or its request API", () => {
    const { answer: answers, loaded } = inOwnProcess<Array<unknown>>(`
      import * as NodeHttp from "node:http"
      const { Agent } = await import(${JSON.stringify(source("src/load/Undici.ts"))})
      const server = NodeHttp.createServer((req, res) => {
        let body = ""
        req.on("data", (c) => (body += c))
        req.on("end", () => res.end(JSON.stringify({ method: req.method, url: req.url, body })))
      })
      await new Promise((r) => server.listen(0, "127.0.0.1", r))
      const origin = "http://127.0.0.1:" + server.address().port
      const agent = new Agent({ connections: 2 })
      // A handler as TargetApi's: the status, the body's chunks.
      const send = (options) =>
        new Promise((resolve, reject) => {
          let status = 0
          const chunks = []
          agent.dispatch({ origin, ...options }, {
            onConnect() {},
            onHeaders(s) { status = s; return true },
            onData(c) { chunks.push(c); return true },
            onComplete() { resolve([status, JSON.parse(Buffer.concat(chunks).toString("utf8"))]) },
            onError: reject
          })
        })
      const a = await send({ path: "/a?x=1", method: "POST", body: "hello" })
      const b = await send({ path: "/b", method: "GET" })
      globalThis.answer = [...a, ...b]
      await agent.close()
      server.close()`)
    assert.deepStrictEqual(answers, [
      200,
      { method: "POST", url: "/a?x=1", body: "hello" },
      200,
      { method: "GET", url: "/b", body: "" }
    ])
    const undici = loaded.filter((m) => m.includes("/node_modules/undici/"))
    assert.isTrue(undici.some((m) => m.endsWith("/lib/dispatcher/agent.js")))
    for (const whole of [
      "/undici/index.js",
      "/lib/web/fetch/index.js",
      "/lib/web/websocket/websocket.js",
      "/lib/api/api-request.js"
    ])
      assert.isFalse(
        undici.some((m) => m.endsWith(whole)),
        `${whole} loaded`
      )
  })
})
