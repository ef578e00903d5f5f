/** A bare load generator: an undici `Pool` with one connection per worker, each worker sending its next request when the last one is answered. */
import { Pool } from "undici"

/** One request; its answer must be 2xx. */
export interface Request {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly body?: string
}

export interface DriveOptions {
  readonly origin: string
  readonly concurrency: number
  /** The i-th request, or undefined when there are no more. */
  readonly request: (i: number) => Request | undefined
  /** Stop sending after this many seconds (default: when `request` runs out). */
  readonly seconds?: number
}

export interface Driven {
  readonly requests: number
  readonly seconds: number
  readonly perSecond: number
}

export const HEADERS = { "x-jk-api-key": "jk-bench-0123456789", "content-type": "application/json" }

/** Sends requests from `concurrency` workers until the requests or the time run out. */
export const drive = async (options: DriveOptions): Promise<Driven> => {
  const pool = new Pool(options.origin, { connections: options.concurrency, pipelining: 1 })
  const deadline = options.seconds === undefined ? Infinity : performance.now() + options.seconds * 1000
  let next = 0
  let done = 0
  const worker = async () => {
    while (performance.now() < deadline) {
      const req = options.request(next++)
      if (req === undefined) return
      const res = await pool.request({
        method: req.method,
        path: req.path,
        headers: HEADERS,
        ...(req.body === undefined ? {} : { body: req.body })
      })
      const text = await res.body.text()
      if (res.statusCode >= 300)
        throw new Error(`${req.method} ${req.path} answered ${res.statusCode}: ${text.slice(0, 300)}`)
      done++
    }
  }
  const started = performance.now()
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker))
  } finally {
    await pool.close()
  }
  const seconds = (performance.now() - started) / 1000
  return { requests: done, seconds, perSecond: done / seconds }
}
