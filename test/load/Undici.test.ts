/**
 * The program's undici (`src/load/Undici.ts`) is its Agent and Pool with the request API, without the rest of
 * undici's entry (fetch, WebSocket, caches, mocks), which every process would otherwise load and run.
 */
import { assert, describe, it } from "@effect/vitest"
import { inOwnProcess, source } from "../support/OwnProcess.js"

describe("Undici", () => {
  it("requests through its Agent and Pool without loading undici's entry", () => {
    const { answer: answers, loaded } = inOwnProcess<Array<unknown>>(`
      import * as NodeHttp from "node:http"
      const { Agent, Pool } = await import(${JSON.stringify(source("src/load/Undici.ts"))})
      const server = NodeHttp.createServer((req, res) => {
        let body = ""
        req.on("data", (c) => (body += c))
        req.on("end", () => res.end(JSON.stringify({ method: req.method, url: req.url, body })))
      })
      await new Promise((r) => server.listen(0, "127.0.0.1", r))
      const origin = "http://127.0.0.1:" + server.address().port
      const agent = new Agent({ connections: 2 })
      const a = await agent.request({ origin, path: "/a?x=1", method: "POST", body: "hello" })
      const pool = new Pool(origin, { connections: 1 })
      const b = await pool.request({ path: "/b", method: "GET" })
      globalThis.answer = [a.statusCode, await a.body.json(), b.statusCode, await b.body.json()]
      await agent.close()
      await pool.close()
      server.close()`)
    assert.deepStrictEqual(answers, [
      200,
      { method: "POST", url: "/a?x=1", body: "hello" },
      200,
      { method: "GET", url: "/b", body: "" }
    ])
    const undici = loaded.filter((m) => m.includes("/node_modules/undici/"))
    assert.isTrue(undici.some((m) => m.endsWith("/lib/dispatcher/agent.js")))
    for (const whole of ["/undici/index.js", "/lib/web/fetch/index.js", "/lib/web/websocket/websocket.js"])
      assert.isFalse(
        undici.some((m) => m.endsWith(whole)),
        `${whole} loaded`
      )
  })
})
