/**
 * Where the loader knowingly departs from the platform's published document (vendor/platform-openapi/) because
 * the product specification of the accounting API ("S") says otherwise, or because the loader-oriented API
 * reference records a document defect. The specification wins; every
 * entry cites the rule. Anything not listed here fails the conformance test, and an entry no request needs
 * fails it too, so the list never outlives the conflict it excuses.
 */
import type { Method } from "./OpenApi.js"

/** `METHOD /api/v1/template`: a document operation, or a specification path the document lacks. */
export type OperationId = `${Method} /api/v1/${string}`

/** The specification's path for an operation the document has under another path. */
export interface RouteConflict {
  readonly kind: "route"
  readonly operation: OperationId
  /** The document operation whose body schema the request is validated against instead. */
  readonly validateAs: OperationId
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

/** A defect of one shared definition, wherever it is used. */
export interface DefinitionConflict {
  readonly kind: "definition"
  readonly definition: string
  /** The field inside the definition. */
  readonly field: string
  readonly keyword: "additionalProperties" | "required"
  readonly reason: string
}

export type Conflict = RouteConflict | FieldConflict | DefinitionConflict

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
  }
]
