import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSandbox, type RunningSandbox } from "../../src/sandbox/Sandbox.js"
import { Client } from "./support.js"

describe("sandbox authentication", () => {
  let open: RunningSandbox
  let locked: RunningSandbox
  beforeAll(async () => {
    open = await startSandbox()
    locked = await startSandbox({ apiKeys: ["jk-allowed"] })
  })
  afterAll(async () => {
    await open.close()
    await locked.close()
  })

  const cases: ReadonlyArray<{
    name: string
    target: () => RunningSandbox
    key?: string | null
    headers?: Record<string, string>
    status: number
  }> = [
    { name: "auth: missing header → 401", target: () => open, key: null, status: 401 },
    { name: "auth: key without the jk- prefix → 401", target: () => open, key: "abc-123", status: 401 },
    {
      name: "auth: Authorization: Bearer is not used → 401",
      target: () => open,
      key: null,
      headers: { authorization: "Bearer jk-x" },
      status: 401
    },
    {
      name: "auth: x-api-key is not used → 401",
      target: () => open,
      key: null,
      headers: { "x-api-key": "jk-x" },
      status: 401
    },
    {
      name: "auth: any jk- key accepted without an allow-list → 200",
      target: () => open,
      key: "jk-anything",
      status: 200
    },
    { name: "auth: key outside the allow-list → 401", target: () => locked, key: "jk-other", status: 401 },
    { name: "auth: key in the allow-list → 200", target: () => locked, key: "jk-allowed", status: 200 }
  ]
  it.each(cases)("$name", async ({ target, key, headers, status }) => {
    const res = await new Client(target().url, key === undefined ? "jk-test" : key).call(
      "GET",
      "/tax-profiles",
      undefined,
      headers ?? {}
    )
    expect(res.status).toBe(status)
    if (status === 401) expect(res.body.error.error_type).toBe("unauthorized")
  })

  it("auth: paths outside /api/v1 → 404", async () => {
    const r = await fetch(`${open.url}/v2/invoices`, { headers: { "x-jk-api-key": "jk-x" } })
    expect(r.status).toBe(404)
  })
})
