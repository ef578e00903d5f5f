/**
 * A recording HTTP proxy for tests: sits between the loader and the sandbox, records every request as it
 * was sent (method, path, content type, API-key presence, raw body) and the response it got (status,
 * content type, raw body), forwards it unchanged and streams the response back. A response is recorded
 * whole before its last byte reaches the client, so a client that has its answer finds it recorded.
 */
import * as Effect from "effect/Effect"
import * as NodeHttp from "node:http"
import type { AddressInfo } from "node:net"

export interface Recorded {
  readonly seq: number
  readonly method: string
  /** Path and query, as sent (`/api/v1/invoices/…/payments`). */
  readonly path: string
  readonly contentType: string | undefined
  /** The request's header names, lower case (values are not kept: one of them is the API key). */
  readonly headerNames: ReadonlyArray<string>
  /** The raw body; "" when there was none. */
  readonly body: string
  /** The upstream status, once the response has started. */
  status: number | undefined
  /** The upstream response's content type and raw body, once it has ended. */
  response: { readonly contentType: string | undefined; readonly body: string } | undefined
}

export interface RecordingProxy {
  readonly url: string
  readonly requests: ReadonlyArray<Recorded>
}

/** The request's headers to forward: the body is re-sent whole, so it is never chunked. */
const forwarded = (headers: NodeHttp.IncomingHttpHeaders): NodeHttp.OutgoingHttpHeaders => {
  const { "transfer-encoding": _chunked, ...rest } = headers
  return rest
}

/** Starts a proxy to `upstream` (an origin such as `http://127.0.0.1:43123`) for the scope. */
export const recordingProxy = (upstream: string) =>
  Effect.acquireRelease(
    Effect.async<{ proxy: RecordingProxy; server: NodeHttp.Server; agent: NodeHttp.Agent }>((resume) => {
      const target = new URL(upstream)
      const agent = new NodeHttp.Agent({ keepAlive: true, maxSockets: 32 })
      const requests: Array<Recorded> = []
      const server = NodeHttp.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const raw = Buffer.concat(chunks)
          const contentType = req.headers["content-type"]
          const record: Recorded = {
            seq: requests.length,
            method: req.method ?? "",
            path: req.url ?? "",
            contentType,
            headerNames: Object.keys(req.headers),
            body: raw.toString("utf8"),
            status: undefined,
            response: undefined
          }
          requests.push(record)
          const upstreamReq = NodeHttp.request(
            {
              protocol: target.protocol,
              hostname: target.hostname,
              port: target.port,
              method: req.method,
              path: req.url,
              agent,
              headers: { ...forwarded(req.headers), host: target.host, "content-length": String(raw.length) }
            },
            (upstreamRes) => {
              record.status = upstreamRes.statusCode
              const answer: Array<Buffer> = []
              upstreamRes.on("data", (c: Buffer) => answer.push(c))
              upstreamRes.on("end", () => {
                record.response = {
                  contentType: upstreamRes.headers["content-type"],
                  body: Buffer.concat(answer).toString("utf8")
                }
              })
              res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers)
              upstreamRes.pipe(res)
            }
          )
          upstreamReq.on("error", (e) => {
            res.writeHead(502, { "content-type": "text/plain" })
            res.end(`recording proxy: ${e.message}`)
          })
          upstreamReq.end(raw)
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ proxy: { url: `http://127.0.0.1:${port}`, requests }, server, agent }))
      })
    }),
    ({ server, agent }) =>
      Effect.async<void>((resume) => {
        agent.destroy()
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ proxy }) => proxy))
