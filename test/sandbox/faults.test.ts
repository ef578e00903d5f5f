import Database from "better-sqlite3"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { startSandbox } from "../../src/sandbox/Sandbox.js"
import { tempDir } from "../support/TempDir.js"
import { Client } from "./support.js"

const contact = (name: string) => ({ name, billingName: name, customer: true, supplier: false })

describe("sandbox faults", () => {
  it("faults: latency delays every response by at least latencyMs", async () => {
    const sb = await startSandbox({ faults: { latencyMs: 60 } })
    const t = performance.now()
    const r = await new Client(sb.url).get("/tax-profiles")
    expect(r.status).toBe(200)
    expect(performance.now() - t).toBeGreaterThanOrEqual(55)
    await sb.close()
  })

  it("faults: latency is network time around the work: a write is done on arrival, its answer comes latencyMs later", async () => {
    // Waiting before the work instead would start the wait only once the event loop got to the request,
    // so a burst of work would stretch every concurrent request's latency by the whole burst.
    const state = join(tempDir("sbx"), "state.db")
    const sb = await startSandbox({ statePath: state, faults: { latencyMs: 400 } })
    const t = performance.now()
    const answered = new Client(sb.url).post("/contacts", contact("Early Co"))
    await new Promise((r) => setTimeout(r, 150))
    const peek = new Database(state, { readonly: true })
    const rows = peek.prepare("SELECT body FROM docs WHERE body LIKE '%Early Co%'").all()
    peek.close()
    expect(rows).toHaveLength(1)
    expect(performance.now() - t).toBeLessThan(400)
    expect((await answered).status).toBe(201)
    expect(performance.now() - t).toBeGreaterThanOrEqual(395)
    await sb.close()
  })

  it("faults: rate limit answers 429 with Retry-After seconds", async () => {
    const sb = await startSandbox({ faults: { rateLimit: 2 } })
    const api = new Client(sb.url)
    const statuses = []
    let retryAfter: string | null = null
    for (let i = 0; i < 4; i++) {
      const r = await api.get("/tax-profiles")
      statuses.push(r.status)
      if (r.status === 429) {
        retryAfter = r.headers.get("retry-after")
        expect(r.body.error.error_type).toBe("rate_limited")
      }
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200])
    expect(statuses).toContain(429)
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
    await sb.close()
  })

  it("faults: fail rate answers 5xx before processing (nothing is written)", async () => {
    const sb = await startSandbox({ faults: { failRate: 1, seed: 3 } })
    const r = await new Client(sb.url).post("/contacts", contact("Never"))
    expect([500, 502, 503]).toContain(r.status)
    expect(r.body.error.error_type).toBe("internal_server_error")
    await sb.close()
  })

  it("faults: reset destroys the connection before processing (nothing is written)", async () => {
    const dir = tempDir("sbx")
    const state = join(dir, "state.db")
    const sb = await startSandbox({ statePath: state, faults: { resetRate: 1 } })
    await expect(new Client(sb.url).post("/contacts", contact("Reset Co"))).rejects.toThrow()
    await sb.close()
    const again = await startSandbox({ statePath: state })
    const found = await new Client(again.url).post("/contacts/search", {
      filter: { name: { eq: "Reset Co" } }
    })
    expect(found.body.totalElements).toBe(0)
    await again.close()
  })

  it("faults: drop-after-commit commits the write, then destroys the connection", async () => {
    const dir = tempDir("sbx")
    const state = join(dir, "state.db")
    const sb = await startSandbox({ statePath: state, faults: { dropAfterCommitRate: 1 } })
    await expect(new Client(sb.url).post("/contacts", contact("Dropped Co"))).rejects.toThrow()
    const found = await new Client(sb.url).post("/contacts/search", {
      filter: { name: { eq: "Dropped Co" } }
    })
    expect(found.status).toBe(200)
    expect(found.body.totalElements).toBe(1)
    await sb.close()
  })

  it("faults: the request log has one NDJSON line per request with method, path, status, ms and fault, and a read's URL and body", async () => {
    const dir = tempDir("sbx")
    const log = join(dir, "requests.ndjson")
    const sb = await startSandbox({ requestLog: log, faults: { dropAfterCommitRate: 1 } })
    const api = new Client(sb.url)
    await api.get("/tax-profiles")
    await api.get("/nope")
    await expect(api.post("/contacts", contact("Logged Co"))).rejects.toThrow()
    const search = { filter: { name: { eq: "Logged Co" } } }
    await api.post("/contacts/search", search)
    await sb.close()
    const lines = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
    expect(lines).toHaveLength(4)
    expect(lines[0]).toMatchObject({ method: "GET", path: "/api/v1/tax-profiles", status: 200 })
    expect(typeof lines[0].ms).toBe("number")
    expect(lines[1]).toMatchObject({ status: 404 })
    expect(lines[2]).toMatchObject({ method: "POST", status: 201, fault: "drop-after-commit" })
    // A read carries what a bare client needs to replay it (the scale benchmark's baseline); a write does not.
    expect(lines[0]).toMatchObject({ url: "/api/v1/tax-profiles" })
    expect(lines[0].body).toBeUndefined()
    expect(lines[2].url).toBeUndefined()
    expect(lines[2].body).toBeUndefined()
    expect(lines[3]).toMatchObject({ method: "POST", url: "/api/v1/contacts/search", status: 200 })
    expect(JSON.parse(lines[3].body)).toEqual(search)
  })
})
