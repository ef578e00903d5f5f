/** Method + path-pattern routing (`/invoices/:id/payments`) over the `/api/v1` prefix. */
import type { Handler } from "./Http.js"

interface Route {
  readonly method: string
  readonly parts: ReadonlyArray<string>
  readonly handler: Handler
}

/** A route match: the handler and the path parameters. */
export interface Match {
  readonly handler: Handler
  readonly params: Record<string, string>
}

/** A route table; routes registered first win. */
export class Router {
  private readonly routes = new Map<number, Route[]>()

  on(method: string, pattern: string, handler: Handler): this {
    const parts = pattern.split("/").filter((p) => p !== "")
    const list = this.routes.get(parts.length) ?? []
    list.push({ method, parts, handler })
    this.routes.set(parts.length, list)
    return this
  }

  get(p: string, h: Handler): this {
    return this.on("GET", p, h)
  }
  post(p: string, h: Handler): this {
    return this.on("POST", p, h)
  }
  put(p: string, h: Handler): this {
    return this.on("PUT", p, h)
  }
  delete(p: string, h: Handler): this {
    return this.on("DELETE", p, h)
  }

  /** The handler for a method and a path relative to `/api/v1`, or undefined. */
  match(method: string, path: string): Match | undefined {
    const segs = path.split("/").filter((p) => p !== "")
    for (const r of this.routes.get(segs.length) ?? []) {
      if (r.method !== method) continue
      const params: Record<string, string> = {}
      let ok = true
      for (let i = 0; i < segs.length; i++) {
        const p = r.parts[i] ?? ""
        const s = segs[i] ?? ""
        if (p.startsWith(":")) params[p.slice(1)] = decodeURIComponent(s)
        else if (p !== s) {
          ok = false
          break
        }
      }
      if (ok) return { handler: r.handler, params }
    }
    return undefined
  }
}
