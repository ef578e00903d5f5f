/**
 * Where the loader's requests or the sandbox's responses knowingly depart from the platform's published
 * document (vendor/platform-openapi/) because the product specification of the accounting API ("S") says
 * otherwise, or because the loader-oriented API reference records a document defect. The specification
 * wins; every entry cites the rule. Anything not listed here fails the conformance test, and an entry no
 * request or response needs fails it too (a response entry, for each operation it names), so the list
 * never outlives the conflict it excuses.
 */
import type { Method } from "./OpenApi.js"
import type { Shape } from "./Specification.js"

/** `METHOD /api/v1/template`: a document operation, or a specification path the document lacks. */
export type OperationId = `${Method} /api/v1/${string}`

/** The specification's path for an operation the document has under another path. */
export interface RouteConflict {
  readonly kind: "route"
  readonly operation: OperationId
  /** The document operation whose schemas the request and its response are validated against instead. */
  readonly validateAs: OperationId
  readonly reason: string
}

/** Operations whose success bodies take the shape S gives (Specification.ts) instead of the document's. */
export interface ResponseConflict {
  readonly kind: "response"
  /** Document operations (after routing), or specification paths the document lacks. */
  readonly operations: ReadonlyArray<OperationId>
  readonly validateAs: Shape
  readonly reason: string
}

/** A field the specification requires or allows where the document's body schema says otherwise. */
export interface FieldConflict {
  readonly kind: "field"
  /** The document operation whose body schema the request is checked against. */
  readonly operation: OperationId
  /** JSON pointer of the field in the body; `*` stands for any array index. */
  readonly field: string
  /** `additionalProperties`: the document does not define the field; `required`: it demands a field the spec leaves optional. */
  readonly keyword: "additionalProperties" | "required"
  readonly reason: string
}

/** A defect of one shared definition, wherever it is used (in a request or a response). */
export interface DefinitionConflict {
  readonly kind: "definition"
  readonly definition: string
  /** The field inside the definition. */
  readonly field: string
  /** `type`: S gives the field another type. */
  readonly keyword: "additionalProperties" | "required" | "type"
  readonly reason: string
}

export type Conflict = RouteConflict | ResponseConflict | FieldConflict | DefinitionConflict

export const conflicts: ReadonlyArray<Conflict> = [
  {
    kind: "route",
    operation: "POST /api/v1/organization-currencies/{currencyCode}/rates",
    validateAs: "POST /api/v1/organization/currencies/{currencyCode}/rates",
    reason:
      "S endpoint table: rates are POSTed to /organization-currencies/:code/rates; the document has only " +
      "/organization/currencies/{currencyCode}/rates (digest §7 #1: loader uses the S path). The body is " +
      "the same AddOrganizationCurrencyCustomRateClientRequest, so it is validated against that operation."
  },
  {
    kind: "route",
    operation: "GET /api/v1/organization-currencies/{currencyCode}/rates",
    validateAs: "GET /api/v1/organization/currencies/{currencyCode}/rates",
    reason:
      "S endpoint table: rates are listed with GET /organization-currencies/:code/rates; the document has " +
      "only /organization/currencies/{currencyCode}/rates (digest §7 #1: loader uses the S path)."
  },
  {
    kind: "route",
    operation: "GET /api/v1/cash-in-journals/{resourceId}",
    validateAs: "GET /api/v1/cash-in-entries/{resourceId}",
    reason:
      "S endpoint table: a cash-in is read with GET /cash-in-journals/:resourceId (the id from LIST); the " +
      "document reads it at /cash-in-entries/{resourceId} (digest §7 #4)."
  },
  {
    kind: "route",
    operation: "DELETE /api/v1/cashflow-journals/{parentEntityResourceId}",
    validateAs: "DELETE /api/v1/cash-entries/{resourceId}",
    reason:
      "S endpoint table: cash-in, cash-out and transfers are deleted with DELETE /cashflow-journals/" +
      ":parentEntityResourceId; the document has DELETE /cash-entries/{resourceId} (digest §7 #3)."
  },
  {
    kind: "route",
    operation: "GET /api/v1/capsule-types/{resourceId}",
    validateAs: "GET /api/v1/capsuleTypes/{resourceId}",
    reason:
      "S endpoint table and versioning rule 3: /capsuleTypes and /capsule-types behave identically; the " +
      "document has only the camel-case path."
  },
  {
    kind: "response",
    operations: [
      "GET /api/v1/organization/currencies",
      "GET /api/v1/organization/currencies/{currencyCode}/rates",
      "GET /api/v1/account-classifications",
      "GET /api/v1/chart-of-accounts",
      "GET /api/v1/tax-profiles",
      "GET /api/v1/contacts",
      "GET /api/v1/items",
      "GET /api/v1/invoices",
      "GET /api/v1/bills",
      "GET /api/v1/customer-credit-notes",
      "GET /api/v1/supplier-credit-notes",
      "GET /api/v1/journals",
      "GET /api/v1/cash-in-entries",
      "GET /api/v1/cash-out-entries",
      "GET /api/v1/cash-transfers",
      "POST /api/v1/chart-of-accounts/search",
      "POST /api/v1/tax-profiles/search",
      "POST /api/v1/contacts/search",
      "POST /api/v1/contact-groups/search",
      "POST /api/v1/items/search",
      "POST /api/v1/invoices/search",
      "POST /api/v1/bills/search",
      "POST /api/v1/customer-credit-notes/search",
      "POST /api/v1/supplier-credit-notes/search",
      "POST /api/v1/journals/search",
      "POST /api/v1/cashflow-transactions/search",
      "POST /api/v1/bank-records/{accountResourceId}/search",
      "POST /api/v1/tags/search",
      "POST /api/v1/capsuleTypes/search",
      "POST /api/v1/fixed-assets/search"
    ],
    validateAs: "listPage",
    reason:
      "S search endpoints: every search and list answers { totalElements, totalPages, truncated, data } with " +
      "no outer wrapper, and `_meta` when truncated; the document types these as BaseResponse { data } " +
      "(digest §3.4 and §7 #8: no truncated or _meta anywhere in it). S's page is stricter than the " +
      "document's: data is an array and the counts are integers."
  },
  {
    kind: "response",
    operations: ["POST /api/v1/scheduled-transaction/search", "POST /api/v1/magic/workflows/search"],
    validateAs: "listPage",
    reason:
      "As for the other searches (S: every search answers the list page, `truncated` included); the document " +
      "types these two as PageableResponse and SearchMagicWorkflowPageableResponse, the same page without " +
      "`truncated` and `_meta`. (The workflow rows' MagicWorkflowItem is not checked: its createdAt is a " +
      "YYYY-MM-DD string, where S says every response date is epoch milliseconds.)"
  },
  {
    kind: "response",
    operations: ["GET /api/v1/invoices/{resourceId}"],
    validateAs: "flatInvoice",
    reason:
      "S response shapes: GET /invoices/:id is a flat object with no data wrapper (bills, contacts and " +
      "journals are { data }); the document types it BaseResponse { data } (digest §7 #6)."
  },
  {
    kind: "response",
    operations: ["GET /api/v1/bank-accounts"],
    validateAs: "bankAccountArray",
    reason:
      "S response shapes: GET /bank-accounts is a plain array, not paginated; the document types it " +
      "BaseResponse and pages it with limit and offset (digest §7 #7)."
  },
  {
    kind: "response",
    operations: ["GET /api/v1/withholding-tax-codes"],
    validateAs: "withholdingCodeArray",
    reason:
      "S response shapes and limits: GET /withholding-tax-codes is a plain array of more than 1,360 entries " +
      "with no paging; the document types it BaseResponse { data }."
  },
  {
    kind: "response",
    operations: ["GET /api/v1/search"],
    validateAs: "universalSearch",
    reason:
      "S endpoint table: GET /search?query= answers a flat object with one array per category; the " +
      "document has no such operation."
  },
  {
    kind: "field",
    operation: "POST /api/v1/cash-in-entries",
    field: "/journalEntries",
    keyword: "additionalProperties",
    reason:
      "S cash entries: a cash-in or cash-out is `accountResourceId` (the bank) plus a `journalEntries` " +
      "array of the offsetting entries; CreateCashEntryRequest names that array `lines` instead."
  },
  {
    kind: "field",
    operation: "POST /api/v1/cash-in-entries",
    field: "/lines",
    keyword: "required",
    reason:
      "S cash entries: the offsetting entries go in `journalEntries` (see the entry above), so the " +
      "document's `lines`, which it requires when finalizing, is not sent."
  },
  {
    kind: "field",
    operation: "POST /api/v1/cash-out-entries",
    field: "/journalEntries",
    keyword: "additionalProperties",
    reason:
      "S cash entries: a cash-in or cash-out is `accountResourceId` (the bank) plus a `journalEntries` " +
      "array of the offsetting entries; CreateCashEntryRequest names that array `lines` instead."
  },
  {
    kind: "field",
    operation: "POST /api/v1/cash-out-entries",
    field: "/lines",
    keyword: "required",
    reason:
      "S cash entries: the offsetting entries go in `journalEntries` (see the entry above), so the " +
      "document's `lines`, which it requires when finalizing, is not sent."
  },
  {
    kind: "field",
    operation: "POST /api/v1/chart-of-accounts",
    field: "/currency",
    keyword: "additionalProperties",
    reason:
      "S chart of accounts: the POST currency field is `currency` (`currencyCode` only an alias); " +
      "CreateOrganizationAccountClientRequest has only `currencyCode` (digest §7 #17: send `currency`)."
  },
  {
    kind: "definition",
    definition: "StringExpression",
    field: "likeIn",
    keyword: "required",
    reason:
      "StringExpression marks in, likeIn and reg all required, which no filter could satisfy meaningfully; " +
      "digest §3.2: a generator artifact, send only the operator you use (S search: `in` alone is a filter)."
  },
  {
    kind: "definition",
    definition: "StringExpression",
    field: "reg",
    keyword: "required",
    reason:
      "As for likeIn (digest §3.2). Sending `reg` would also change the query: S reads it as a regex " +
      "array, the document as a substring match (digest §7 #11)."
  },
  {
    kind: "definition",
    definition: "AppliedRate",
    field: "date",
    keyword: "type",
    reason:
      "S global conventions: every date in a response is an int64 in epoch milliseconds (business dates " +
      "organization-local); the document gives the appliedRate of a foreign-currency create as a " +
      "YYYY-MM-DD string."
  },
  {
    kind: "definition",
    definition: "MagicFileResult",
    field: "fileType",
    keyword: "additionalProperties",
    reason:
      "S extraction upload: each validFiles entry has workflowResourceId and fileType; the document keeps " +
      "the type in the entry's fileDetails.fileType (the sandbox answers both)."
  },
  {
    kind: "definition",
    definition: "ProcessMagicBTResponseData",
    field: "subscriptionFBPath",
    keyword: "additionalProperties",
    reason:
      "S extraction upload and events: the response has a subscriptionFBPath beside validFiles; the " +
      "document has one on each file (the sandbox answers both)."
  }
]
