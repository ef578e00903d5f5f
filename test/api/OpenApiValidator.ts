/**
 * The verdict of an independent OpenAPI validator on a document: the official OpenAPI 3.0 JSON schema (as
 * shipped by @seriousme/openapi-schema-validator), then a check that every `$ref` resolves.
 */
import { Validator } from "@seriousme/openapi-schema-validator"
import * as Effect from "effect/Effect"

/** Validates a document given as an object, as YAML text, or as the path of a file. */
export const validateOpenApi = (document: object | string) =>
  Effect.promise(async () => {
    const validator = new Validator()
    const verdict = await validator.validate(
      typeof document === "string" ? document : (structuredClone(document) as Record<string, unknown>)
    )
    return { valid: verdict.valid, version: validator.version, errors: JSON.stringify(verdict.errors ?? []) }
  })
