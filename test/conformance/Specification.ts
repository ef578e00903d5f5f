/**
 * What the product specification of the accounting API ("S") says of response bodies, written as JSON Schema
 * (draft-04) for the conformance test: the shapes S gives where the platform's document gives another
 * (validated instead of the document's, through the allow-list in Conflicts.ts), and what S adds where the
 * document leaves a body untyped (checked on top of the document's schema). The schemas are used as written:
 * an object stays open unless it says `additionalProperties: false`, because S lists only some fields.
 */
import type { OperationId } from "./Conflicts.js"
import type { JsonSchema } from "./OpenApi.js"

const string = { type: "string" }
const integer = { type: "integer", minimum: 0 }
const rows = {
  type: "array",
  items: { type: "object", required: ["resourceId"], properties: { resourceId: string } }
}

/** The shapes S gives, by name. */
export const shapes = {
  /**
   * S search endpoints: "Response of every search and list endpoint: { totalElements, totalPages, truncated,
   * data: [...] }, with no outer wrapper. When truncated is true, a _meta object { fetchedRows, maxRows }
   * says why."
   */
  listPage: {
    type: "object",
    required: ["totalElements", "totalPages", "truncated", "data"],
    additionalProperties: false,
    properties: {
      totalElements: integer,
      totalPages: integer,
      truncated: { type: "boolean" },
      data: { type: "array", items: { type: "object" } },
      _meta: {
        type: "object",
        required: ["fetchedRows", "maxRows"],
        additionalProperties: false,
        properties: { fetchedRows: integer, maxRows: integer }
      }
    },
    anyOf: [
      { properties: { truncated: { enum: [false] } } },
      { properties: { _meta: { type: "object" } }, required: ["_meta"] }
    ]
  },
  /**
   * S response shapes: "GET /invoices/:id: Flat object, no data wrapper", with the invoice fields S names
   * (dates as epoch milliseconds, S's status names, `paymentRecords[].transactionAmount`).
   */
  flatInvoice: {
    type: "object",
    required: [
      "resourceId",
      "reference",
      "status",
      "valueDate",
      "totalAmount",
      "lineItems",
      "paymentRecords"
    ],
    properties: {
      resourceId: string,
      reference: string,
      status: { enum: ["DRAFT", "UNPAID", "PAID", "OVERDUE", "VOIDED"] },
      valueDate: { type: "integer" },
      totalAmount: { type: "number" },
      lineItems: { type: "array", items: { type: "object" } },
      paymentRecords: {
        type: "array",
        items: {
          type: "object",
          required: ["transactionAmount"],
          properties: { transactionAmount: { type: "number" } }
        }
      }
    },
    not: { properties: { data: {} }, required: ["data"] }
  },
  /** S: "GET /bank-accounts: Plain array, not paginated"; "A bank account is a chart entry with accountType equal to Bank Accounts." */
  bankAccountArray: {
    type: "array",
    items: {
      type: "object",
      required: ["resourceId", "name", "accountType"],
      properties: { resourceId: string, name: string, accountType: { enum: ["Bank Accounts"] } }
    }
  },
  /** S: "GET /withholding-tax-codes: Plain array, not paginated"; "Each entry has code, description, taxRate"; "more than 1,360 entries". */
  withholdingCodeArray: {
    type: "array",
    minItems: 1361,
    items: {
      type: "object",
      required: ["code", "description", "taxRate"],
      properties: { code: string, description: string, taxRate: { type: "number" } }
    }
  },
  /** S: "GET /search?query=<term>: A flat object with one array per category: contacts, invoices, bills, credit notes, journals. No pagination." */
  universalSearch: {
    type: "object",
    required: ["contacts", "invoices", "bills", "creditNotes", "journals"],
    additionalProperties: false,
    properties: { contacts: rows, invoices: rows, bills: rows, creditNotes: rows, journals: rows }
  }
} satisfies Record<string, JsonSchema>

export type Shape = keyof typeof shapes

/**
 * Creates whose answer S says carries the new record's id, where the document types `data` as anything: the
 * body must also match `createdId` (`data.resourceId`, a string). The loader records that id; without it a
 * created record could never be found again by this workspace.
 */
export const createsWithId: {
  readonly operations: ReadonlyArray<OperationId>
  readonly schema: JsonSchema
  readonly reason: string
} = {
  operations: [
    "POST /api/v1/invoices",
    "POST /api/v1/bills",
    "POST /api/v1/customer-credit-notes",
    "POST /api/v1/supplier-credit-notes",
    "POST /api/v1/journals",
    "POST /api/v1/contacts",
    "POST /api/v1/items",
    "POST /api/v1/invoices/{resourceId}/payments",
    "POST /api/v1/bills/{resourceId}/payments",
    "POST /api/v1/cash-in-entries",
    "POST /api/v1/cash-out-entries",
    "POST /api/v1/cash-transfers"
  ],
  schema: {
    type: "object",
    required: ["data"],
    properties: {
      data: {
        type: "object",
        required: ["resourceId"],
        properties: { resourceId: { type: "string", minLength: 1 } }
      }
    }
  },
  reason:
    "S response shapes: create endpoints (invoices, bills, journals, contacts, payments) answer the resourceId " +
    "and a few metadata fields; S endpoint table: POST /items answers resourceId; S transitions: creating an " +
    "invoice, bill, credit note or journal answers the new resourceId; cash entry create is { data: { resourceId } }."
}
