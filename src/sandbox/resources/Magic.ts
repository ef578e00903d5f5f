/**
 * Document extraction: `POST /magic/createBusinessTransactionFromAttachment` (multipart FILE mode or JSON URL mode)
 * and `POST /magic/workflows/search`. The upload answers 201 with the document's ProcessMagicBTResponse, plus
 * what the specification adds: `fileType` on each valid file and `subscriptionFBPath` beside them. A workflow
 * reads back with an empty status first, then PROCESSING, then COMPLETED with a draft transaction
 * (`businessTransactionDetails.businessTransactionResourceId`).
 */
import { randomUUID } from "node:crypto"
import { isObj } from "../Body.js"
import { badRequest, created, invalid, ok, type Ctx } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { search, type SearchSpec } from "../Search.js"
import { docs, KINDS } from "./DocKinds.js"

interface Part {
  readonly name: string
  readonly filename: string | undefined
  readonly type: string | undefined
  readonly value: string
}

interface Workflow {
  readonly resourceId: string
  readonly documentType: string
  readonly status: string
  readonly fileName: string | null
  readonly fileType: string
  readonly polls: number
  readonly businessTransactionDetails: { readonly businessTransactionResourceId: string } | null
  readonly createdAt: number
}

const TYPES: Readonly<Record<string, [string, keyof typeof KINDS]>> = {
  INVOICE: ["SALE", "invoices"],
  BILL: ["PURCHASE", "bills"],
  CUSTOMER_CREDIT_NOTE: ["SALE_CREDIT_NOTE", "customerCreditNotes"],
  SUPPLIER_CREDIT_NOTE: ["PURCHASE_CREDIT_NOTE", "supplierCreditNotes"]
}
const MEDIA: Readonly<Record<string, string>> = { "application/pdf": "PDF", "image/jpeg": "JPEG" }

const spec: SearchSpec = {
  fields: {
    resourceId: "string",
    documentType: "string",
    status: "string",
    fileName: "string",
    fileType: "string",
    createdAt: "datetime"
  },
  defaultSort: { field: "createdAt", order: "DESC" }
}

const parts = (c: Ctx): Part[] => {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(c.contentType)
  const b = boundary?.[1] ?? boundary?.[2]
  if (b === undefined) throw badRequest("multipart body without a boundary")
  return c.raw
    .split(`--${b}`)
    .slice(1, -1)
    .map((chunk) => {
      const [head = "", ...rest] = chunk.replace(/^\r\n/, "").split("\r\n\r\n")
      const disp = /name="([^"]*)"(?:; filename="([^"]*)")?/.exec(head)
      const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim()
      return {
        name: disp?.[1] ?? "",
        filename: disp?.[2],
        type,
        value: rest.join("\r\n\r\n").replace(/\r\n$/, "")
      }
    })
}

/** Registers the extraction endpoints. */
export const register = (r: Router, org: Org): void => {
  const flows = org.store.collection<Workflow>("workflows")
  r.post("/magic/createBusinessTransactionFromAttachment", (c) => {
    const multipart = c.contentType.startsWith("multipart/")
    const fields = new Map<string, Part>()
    if (multipart) for (const p of parts(c)) fields.set(p.name, p)
    const text = (name: string): string | undefined =>
      multipart
        ? fields.get(name)?.value
        : isObj(c.body) && typeof c.body[name] === "string"
          ? (c.body[name] as string)
          : undefined
    const btType = text("businessTransactionType")
    if (btType === undefined) throw invalid("businessTransactionType is required")
    const mapped = TYPES[btType]
    if (mapped === undefined)
      throw invalid(
        `businessTransactionType must be INVOICE, BILL, CUSTOMER_CREDIT_NOTE or SUPPLIER_CREDIT_NOTE, not ${btType}`
      )
    const sourceType = text("sourceType")
    if (sourceType !== "FILE" && sourceType !== "URL") throw invalid("sourceType must be FILE or URL")
    let fileType = "PDF"
    let fileName: string | null = null
    if (sourceType === "FILE") {
      const file = fields.get("sourceFile")
      if (!multipart || file === undefined)
        throw badRequest("sourceFile is required for FILE mode (send multipart/form-data)")
      const media = file.type === undefined ? undefined : MEDIA[file.type]
      if (file.filename === undefined || media === undefined)
        throw badRequest("invalid file type: send a named PDF or JPEG file")
      fileType = media
      fileName = file.filename
    } else if (text("sourceURL") === undefined) throw invalid("sourceURL is required for URL mode")
    const wf: Workflow = {
      resourceId: randomUUID(),
      documentType: mapped[0],
      status: "",
      fileName,
      fileType,
      polls: 0,
      businessTransactionDetails: null,
      createdAt: org.now()
    }
    flows.put(wf)
    const subscriptionFBPath = `magicWorkflows/${wf.resourceId}`
    return created({
      data: {
        businessTransactionType: mapped[0],
        ...(fileName === null ? {} : { filename: fileName }),
        validFiles: [
          {
            workflowResourceId: wf.resourceId,
            fileType,
            subscriptionFBPath,
            fileDetails: { fileType, ...(fileName === null ? {} : { fileName }) }
          }
        ],
        invalidFiles: [],
        subscriptionFBPath
      }
    })
  })
  r.post("/magic/workflows/search", (c) => {
    for (const wf of flows.values()) {
      if (wf.status === "COMPLETED") continue
      const polls = wf.polls + 1
      if (polls < 3) {
        flows.put({ ...wf, polls, status: polls === 1 ? "" : "PROCESSING" })
        continue
      }
      const kind = Object.values(TYPES).find(([t]) => t === wf.documentType)?.[1] ?? "invoices"
      const now = org.now()
      const draft = {
        resourceId: randomUUID(),
        businessTransactionType: KINDS[kind].txType,
        reference: `MAGIC-${wf.resourceId.slice(0, 8)}`,
        status: "DRAFT",
        valueDate: org.today(),
        dueDate: null,
        contactResourceId: null,
        contact: null,
        currencyCode: org.base,
        exchangeRate: 1,
        taxInclusion: false,
        lineItems: [],
        subTotalAmount: 0,
        taxAmount: 0,
        totalAmount: 0,
        paymentRecords: [],
        creditApplications: [],
        internalNotes: null,
        notes: null,
        tags: [],
        createdAt: now,
        updatedAt: now
      }
      docs(org, KINDS[kind]).put(draft)
      flows.put({
        ...wf,
        polls,
        status: "COMPLETED",
        businessTransactionDetails: { businessTransactionResourceId: draft.resourceId }
      })
    }
    const rows = flows.values().map(({ polls: _polls, ...row }) => row)
    return ok(search(rows, c.body, spec, org.maxRows))
  })
}
