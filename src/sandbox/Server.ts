/** The node:http front: authentication, rate limiting, injected faults, JSON bodies, routing and the request log. */
import { createWriteStream, type WriteStream } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Faults, FaultPlan } from "./Faults.js"
import { ApiError, badRequest, notFound, type Reply } from "./Http.js"
import type { Router } from "./Router.js"
import type { Store } from "./Store.js"

const PREFIX = "/api/v1"

/** What the server needs from the sandbox. */
export interface ServerDeps {
  readonly router: Router
  readonly store: Store
  readonly faults: Faults
  readonly apiKeys: ReadonlySet<string> | undefined
  readonly requestLog: string | undefined
  readonly onWrite: ((method: string, path: string) => void) | undefined
  readonly onRead: ((method: string, path: string) => void) | undefined
}

/** Searches and reports are POSTs that write nothing. */
const isWrite = (method: string, path: string): boolean =>
  method !== "GET" && !path.endsWith("/search") && !path.includes("/generate-reports/")

const error = (e: ApiError): Reply => ({ status: e.status, body: e.body })

const internal = (message: string): Reply => ({
  status: 500,
  body: { error: { error_type: "internal_server_error", errors: [message] } }
})

/** An HTTP server plus the request log it writes. */
export interface HttpFront {
  readonly server: Server
  readonly log: WriteStream | undefined
}

/** Builds the HTTP server over a router. */
export const makeServer = (deps: ServerDeps): HttpFront => {
  const log = deps.requestLog === undefined ? undefined : createWriteStream(deps.requestLog, { flags: "a" })

  /**
   * One line of the request log. A read (a GET, a search or a report) also logs its URL with the query and its
   * body, so that a bare client can replay the same reads (the scale benchmark's baseline for reconcile).
   */
  const record = (
    method: string,
    path: string,
    status: number | null,
    started: number,
    fault?: string,
    read?: { readonly url: string; readonly body: string }
  ): void => {
    if (log === undefined) return
    const ms = Math.round((performance.now() - started) * 1000) / 1000
    log.write(
      JSON.stringify({
        method,
        path,
        status,
        ms,
        ...(fault === undefined ? {} : { fault }),
        ...(read === undefined ? {} : { url: read.url, ...(read.body === "" ? {} : { body: read.body }) })
      }) + "\n"
    )
  }

  const send = (res: ServerResponse, reply: Reply, headers: Record<string, string> = {}): void => {
    const json = JSON.stringify(reply.body)
    res.writeHead(reply.status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(json),
      ...headers
    })
    res.end(json)
  }

  const dispatch = (
    method: string,
    path: string,
    query: URLSearchParams,
    raw: string,
    contentType: string
  ): Reply => {
    let body: unknown
    if (raw.length > 0 && !contentType.startsWith("multipart/")) {
      try {
        body = JSON.parse(raw)
      } catch {
        return error(badRequest("request body is not valid JSON"))
      }
    }
    const match = deps.router.match(method, path)
    if (match === undefined) return error(notFound(`no endpoint ${method} ${PREFIX}${path}`))
    const ctx = { method, path, params: match.params, query, body, raw, contentType }
    try {
      return isWrite(method, path) ? deps.store.tx(() => match.handler(ctx)) : match.handler(ctx)
    } catch (e) {
      if (e instanceof ApiError) return error(e)
      return internal(e instanceof Error ? e.message : String(e))
    }
  }

  /**
   * Serves one request at once, as the platform would on its arrival, and delivers the outcome (response,
   * reset, dropped response) after the request's injected latency. The latency is the round trip's network
   * time: putting it after the work rather than before keeps it from starting late when a burst of work has
   * kept the event loop from noticing the request (a wait before the work starts only when the loop gets to
   * it, and so grows by whatever ran meanwhile, bunching concurrent requests into trains).
   */
  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    const started = performance.now()
    const method = req.method ?? "GET"
    const rawUrl = req.url ?? "/"
    const q = rawUrl.indexOf("?")
    const full = q < 0 ? rawUrl : rawUrl.slice(0, q)
    const query = new URLSearchParams(q < 0 ? "" : rawUrl.slice(q + 1))
    // Drawn once the request is past the rate limit: which requests a limit refuses depends on the clock, and
    // a refused attempt drawing its identity's next plan would shift every later fault on it.
    let plan: FaultPlan | undefined
    const deliver = (outcome: () => void) => {
      const run = () => {
        try {
          outcome()
        } catch (e) {
          if (!res.headersSent) send(res, internal(String(e)))
        }
      }
      const delayMs = plan?.delayMs ?? deps.faults.options.latencyMs ?? 0
      if (delayMs > 0) setTimeout(run, delayMs)
      else run()
    }
    const reply = (r: Reply, fault?: string, headers: Record<string, string> = {}) =>
      deliver(() => {
        send(res, r, headers)
        record(
          method,
          full,
          r.status,
          started,
          fault,
          isWrite(method, full) ? undefined : { url: rawUrl, body: raw }
        )
      })
    const cut = (status: number | null, fault: string) =>
      deliver(() => {
        req.socket.destroy()
        record(method, full, status, started, fault)
      })
    const key = req.headers["x-jk-api-key"]
    const keyText = typeof key === "string" ? key : undefined
    if (
      keyText === undefined ||
      !keyText.startsWith("jk-") ||
      (deps.apiKeys !== undefined && !deps.apiKeys.has(keyText))
    )
      return reply(
        error(
          new ApiError(401, "unauthorized", [
            keyText === undefined ? "missing x-jk-api-key header" : "invalid API key in x-jk-api-key"
          ])
        )
      )
    const wait = deps.faults.throttle(keyText)
    if (wait !== undefined)
      return reply(
        {
          status: 429,
          body: { error: { error_type: "rate_limited", errors: ["rate limit exceeded; retry later"] } }
        },
        "rate-limit",
        { "retry-after": String(wait) }
      )
    if (deps.faults.active) plan = deps.faults.plan(`${method} ${rawUrl}\n${raw}`)
    if (plan?.reset === true) return cut(null, "reset")
    if (plan?.failStatus !== undefined)
      return reply(
        { status: plan.failStatus, body: internal(`injected fault ${plan.failStatus}`).body },
        "fail"
      )
    const served = full.startsWith(PREFIX + "/")
      ? dispatch(method, full.slice(PREFIX.length), query, raw, req.headers["content-type"] ?? "")
      : error(notFound(`no endpoint ${method} ${full}`))
    if (deps.onWrite !== undefined && isWrite(method, full) && served.status < 300) deps.onWrite(method, full)
    if (deps.onRead !== undefined && !isWrite(method, full)) deps.onRead(method, full)
    if (plan?.dropAfterCommit === true && isWrite(method, full) && served.status < 300)
      return cut(served.status, "drop-after-commit")
    reply(served)
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const raw = chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8")
      try {
        handle(req, res, raw)
      } catch (e) {
        if (!res.headersSent) send(res, internal(String(e)))
      }
    })
  })
  server.keepAliveTimeout = 65_000
  return { server, log }
}
