/** The one error of the extract stage: what failed, where (file or file:line), why, and how to fix it. */
import * as Schema from "effect/Schema"

/** A source file could not be read, recognised or staged; `where` is `file` or `file:line`. */
export class ExtractError extends Schema.TaggedError<ExtractError>()("ExtractError", {
  what: Schema.String,
  where: Schema.String,
  why: Schema.String,
  fix: Schema.String
}) {
  override get message(): string {
    return `${this.where}: ${this.what}. ${this.why}. Fix: ${this.fix}`
  }
}
