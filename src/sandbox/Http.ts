/** The sandbox's HTTP vocabulary: the platform error body, replies and the request context handed to handlers. */

/** The `error_type` values the sandbox emits. */
export type ErrorType =
  | "validation_error"
  | "invalid_request_body"
  | "not_found"
  | "unauthorized"
  | "rate_limited"
  | "internal_server_error"

/** An error answered with `{ error: { error_type, errors } }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: ErrorType,
    readonly errors: ReadonlyArray<string>
  ) {
    super(errors.join("; "))
  }
  get body(): unknown {
    return { error: { error_type: this.errorType, errors: this.errors } }
  }
}

/** 422 validation error. */
export const invalid = (...errors: ReadonlyArray<string>): ApiError =>
  new ApiError(422, "validation_error", errors)

/** 400 invalid request body. */
export const badRequest = (...errors: ReadonlyArray<string>): ApiError =>
  new ApiError(400, "invalid_request_body", errors)

/** 404 for a missing resource or an unimplemented endpoint. */
export const notFound = (what: string): ApiError => new ApiError(404, "not_found", [what])

/** What a handler answers. */
export interface Reply {
  readonly status: number
  readonly body: unknown
}

/** 200 with a body. */
export const ok = (body: unknown): Reply => ({ status: 200, body })

/** 201 with a body. */
export const created = (body: unknown): Reply => ({ status: 201, body })

/**
 * 201 for a create, in the platform's envelope: `{ data: { resourceId, … } }` (the document's `BaseResponse`,
 * or `TransactionCreateResponse` whose `appliedRate` comes in `extras`), never the id at the top level.
 */
export const createdResource = (
  data: { readonly resourceId: string } & Readonly<Record<string, unknown>>,
  extras: Readonly<Record<string, unknown>> = {}
): Reply => created({ data, ...extras })

/** A parsed request as seen by a route handler. */
export interface Ctx {
  readonly method: string
  readonly path: string
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  readonly body: unknown
  /** The raw body and its media type, for the multipart endpoints. */
  readonly raw: string
  readonly contentType: string
}

/** A route handler: synchronous, throws `ApiError` to refuse. */
export type Handler = (ctx: Ctx) => Reply
