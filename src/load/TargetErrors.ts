/**
 * What can go wrong talking to the target, split the way the loader acts on it: transient (retry, and for
 * a write first find out whether it happened) versus rejected (the platform said no: record why, move on).
 */
import * as Schema from "effect/Schema"

/** A timeout, a connection reset, 408, 429 or 5xx: the request may or may not have been processed. */
export class TargetTransient extends Schema.TaggedError<TargetTransient>()("TargetTransient", {
  operation: Schema.String,
  reason: Schema.Literal("timeout", "transport", "status"),
  status: Schema.optional(Schema.Number),
  retryAfterMs: Schema.optional(Schema.Number),
  detail: Schema.String
}) {
  override get message() {
    return `${this.operation}: ${this.reason === "status" ? `HTTP ${this.status}` : this.reason} (${this.detail}); retried automatically`
  }
}

/** A 4xx other than 408/429: the platform refused the request; its own words are in `errors`. */
export class TargetRejected extends Schema.TaggedError<TargetRejected>()("TargetRejected", {
  operation: Schema.String,
  status: Schema.Number,
  errorType: Schema.optional(Schema.String),
  errors: Schema.Array(Schema.String)
}) {
  override get message() {
    const why = this.errors.length > 0 ? this.errors.join("; ") : (this.errorType ?? "no reason given")
    return `${this.operation}: refused with HTTP ${this.status}: ${why}`
  }
}

/** The response was not the shape the specification promises (a defect of the target or of our reading). */
export class TargetProtocolError extends Schema.TaggedError<TargetProtocolError>()("TargetProtocolError", {
  operation: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `${this.operation}: unexpected response: ${this.detail}`
  }
}

/** A bad base URL or API key, found before anything is sent. */
export class TargetConfigError extends Schema.TaggedError<TargetConfigError>()("TargetConfigError", {
  detail: Schema.String
}) {
  override get message() {
    return this.detail
  }
}

export type TargetError = TargetTransient | TargetRejected | TargetProtocolError
