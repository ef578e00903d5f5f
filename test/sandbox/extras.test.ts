import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { world, type Res, type World } from "./support.js"

describe("sandbox error rows of the less used resources", () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })
  afterAll(() => w.sandbox.close())

  const scheduledInvoice = (inner: Record<string, unknown>) => ({
    status: "ACTIVE",
    startDate: "2024-01-01",
    endDate: "2024-12-31",
    repeat: "MONTHLY",
    invoice: {
      reference: "SCH-1",
      valueDate: "2024-01-01",
      dueDate: "2024-01-31",
      contactResourceId: w.customer,
      lineItems: [],
      saveAsDraft: false,
      ...inner
    }
  })

  const cases: ReadonlyArray<{
    name: string
    method: string
    path: string
    body?: () => unknown
    status: number
    message?: string
  }> = [
    {
      name: "errors: 422 scheduled invoice wrapper omits reference",
      method: "POST",
      path: "/scheduled/invoices",
      body: () => scheduledInvoice({ reference: undefined }),
      status: 422,
      message: "reference"
    },
    {
      name: "errors: scheduled invoice with reference and saveAsDraft false → 201",
      method: "POST",
      path: "/scheduled/invoices",
      body: () => scheduledInvoice({}),
      status: 201
    },
    {
      name: "scheduled: frequency instead of repeat → 422",
      method: "POST",
      path: "/scheduled/invoices",
      body: () => ({ ...scheduledInvoice({}), repeat: undefined, frequency: "MONTHLY" }),
      status: 422
    },
    {
      name: "scheduled: a journal needs valueDate at the top level → 422",
      method: "POST",
      path: "/scheduled/journals",
      body: () => ({ status: "ACTIVE", startDate: "2024-01-01", repeat: "MONTHLY", schedulerEntries: [] }),
      status: 422
    },
    {
      name: "errors: 422 sort on createdAt in scheduled-transaction search",
      method: "POST",
      path: "/scheduled-transaction/search",
      body: () => ({ sort: { sortBy: ["createdAt"], order: "DESC" } }),
      status: 422
    },
    {
      name: "scheduled-transaction search sorts on startDate → 200",
      method: "POST",
      path: "/scheduled-transaction/search",
      body: () => ({ sort: { sortBy: ["startDate"], order: "DESC" } }),
      status: 200
    },
    {
      name: "errors: 422 sort on createdAt in fixed-asset search",
      method: "POST",
      path: "/fixed-assets/search",
      body: () => ({ sort: { sortBy: ["createdAt"], order: "DESC" } }),
      status: 422
    },
    {
      name: "errors: invalid request body for a custom field POST with appliesTo",
      method: "POST",
      path: "/custom-fields",
      body: () => ({ name: "Region", type: "TEXT", printOnDocuments: false, appliesTo: ["INVOICE"] }),
      status: 400,
      message: "Invalid request body"
    },
    {
      name: "errors: 500 known fault: PUT on custom fields",
      method: "PUT",
      path: "/custom-fields/x",
      body: () => ({ resourceId: "x" }),
      status: 500
    },
    {
      name: "errors: 500 known fault: POST on capsules",
      method: "POST",
      path: "/capsules",
      body: () => ({ name: "c" }),
      status: 500
    },
    {
      name: "errors: 500 known fault: POST on catalogs",
      method: "POST",
      path: "/catalogs",
      body: () => ({ name: "c" }),
      status: 500
    },
    {
      name: "errors: 422 Capsule type not found when a capsule PUT omits capsuleTypeResourceId",
      method: "PUT",
      path: "/capsules/x",
      body: () => ({ resourceId: "x" }),
      status: 422,
      message: "Capsule type not found"
    },
    {
      name: "errors: 422 Capsule type not found when a capsule PUT omits resourceId",
      method: "PUT",
      path: "/capsules/x",
      body: () => ({ capsuleTypeResourceId: "t" }),
      status: 422,
      message: "Capsule type not found"
    },
    {
      name: "errors: 400 extraction in FILE mode sent as JSON says sourceFile is required",
      method: "POST",
      path: "/magic/createBusinessTransactionFromAttachment",
      body: () => ({ sourceType: "FILE", businessTransactionType: "BILL" }),
      status: 400,
      message: "sourceFile"
    },
    {
      name: "extraction: EXPENSE is rejected → 422",
      method: "POST",
      path: "/magic/createBusinessTransactionFromAttachment",
      body: () => ({ sourceType: "URL", businessTransactionType: "EXPENSE", sourceURL: "https://x" }),
      status: 422
    },
    {
      name: "extraction: URL mode accepts a JSON body → 201",
      method: "POST",
      path: "/magic/createBusinessTransactionFromAttachment",
      body: () => ({ sourceType: "URL", businessTransactionType: "INVOICE", sourceURL: "https://x/a.pdf" }),
      status: 201
    }
  ]
  it.each(cases)("$name", async ({ method, path, body, status, message }) => {
    const r = await w.api.call(method, path, body?.())
    expect(r.status).toBe(status)
    if (message !== undefined) expect(r.body.error.errors.join(" ")).toContain(message)
  })

  const upload = async (fields: Record<string, string>, file?: { name: string; type: string }) => {
    const form = new FormData()
    for (const [k, v] of Object.entries(fields)) form.append(k, v)
    if (file !== undefined)
      form.append(file.name, new Blob(["%PDF-1.4 test"], { type: file.type }), "bill.pdf")
    const r = await fetch(`${w.sandbox.url}/api/v1/magic/createBusinessTransactionFromAttachment`, {
      method: "POST",
      headers: { "x-jk-api-key": "jk-test" },
      body: form
    })
    const res: Pick<Res, "status" | "body"> = { status: r.status, body: await r.json() }
    return res
  }

  it("errors: 422 extraction upload with snake_case form names says businessTransactionType is required", async () => {
    const r = await upload(
      { source_type: "FILE", business_transaction_type: "BILL" },
      { name: "source_file", type: "application/pdf" }
    )
    expect(r.status).toBe(422)
    expect(r.body.error.errors.join(" ")).toContain("businessTransactionType")
  })

  it("errors: 400 extraction upload with a generic binary blob", async () => {
    const r = await upload(
      { sourceType: "FILE", businessTransactionType: "BILL" },
      { name: "sourceFile", type: "application/octet-stream" }
    )
    expect(r.status).toBe(400)
  })

  it("extraction: a PDF upload gives a workflow that reads back empty, then PROCESSING, then COMPLETED with a draft", async () => {
    const r = await upload(
      { sourceType: "FILE", businessTransactionType: "BILL" },
      { name: "sourceFile", type: "application/pdf" }
    )
    expect(r.status).toBe(201)
    const id = r.body.data.validFiles[0].workflowResourceId
    expect(r.body.data.subscriptionFBPath).toContain(id)
    expect(r.body.data).toMatchObject({
      businessTransactionType: "PURCHASE",
      filename: "bill.pdf",
      invalidFiles: []
    })
    expect(r.body.data.validFiles[0]).toMatchObject({
      fileType: "PDF",
      subscriptionFBPath: r.body.data.subscriptionFBPath,
      fileDetails: { fileType: "PDF", fileName: "bill.pdf" }
    })
    const poll = async () =>
      (await w.api.post("/magic/workflows/search", { filter: { resourceId: { eq: id } } })).body.data[0]
    expect((await poll()).status).toBe("")
    expect((await poll()).status).toBe("PROCESSING")
    const done = await poll()
    expect(done).toMatchObject({ status: "COMPLETED", documentType: "PURCHASE", fileType: "PDF" })
    const draft = await w.api.get(`/bills/${done.businessTransactionDetails.businessTransactionResourceId}`)
    expect(draft.body.data.status).toBe("DRAFT")
  })

  it("aliases: name → tagName on tags", async () => {
    expect((await w.api.post("/tags", { name: "Q1" })).status).toBe(201)
    const r = await w.api.post("/tags/search", { filter: { tagName: { eq: "Q1" } } })
    expect(r.body.data[0]).toMatchObject({ tagName: "Q1", name: "Q1" })
  })

  it("aliases: custom fields return name next to customFieldName", async () => {
    const id = (await w.api.post("/custom-fields", { name: "Region", type: "TEXT", printOnDocuments: false }))
      .body.data.resourceId
    expect((await w.api.get(`/custom-fields/${id}`)).body.data).toMatchObject({
      customFieldName: "Region",
      name: "Region"
    })
  })

  it("capsule types: /capsuleTypes and /capsule-types behave identically", async () => {
    const id = (await w.api.post("/capsuleTypes", { displayName: "Project" })).body.data.resourceId
    expect((await w.api.get(`/capsule-types/${id}`)).body.data.displayName).toBe("Project")
    expect((await w.api.delete(`/capsule-types/${id}`)).status).toBe(200)
    expect((await w.api.get(`/capsuleTypes/${id}`)).status).toBe(404)
  })
})
