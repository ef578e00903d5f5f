/**
 * A resource's own fields: the types a `--field name:type[:required]` may name, how each becomes an OpenAPI
 * 3.0 schema, and the parsing of that notation. Field names come out camelCase whatever the input's case.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { camel } from "./Naming.js"

export const fieldTypes = [
  "string",
  "integer",
  "number",
  "boolean",
  "date",
  "date-time",
  "email",
  "uuid",
  "url"
] as const
export type FieldType = (typeof fieldTypes)[number]

/** One field of a resource. `values` makes a string field an enum (and a list filter); `minimum` bounds a number. */
export interface Field {
  readonly name: string
  readonly type: FieldType
  readonly required: boolean
  readonly description?: string
  readonly values?: ReadonlyArray<string>
  readonly minimum?: number
  readonly pattern?: string
}

/** The fields every resource has; they cannot be added, removed or renamed. */
export const reservedFields = ["id", "createdAt", "updatedAt"] as const

/** A `--field` (or `add field`) that does not parse, or a field name that cannot be used. */
export class InvalidField extends Schema.TaggedError<InvalidField>()("InvalidField", {
  input: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `invalid field '${this.input}': ${this.detail}`
  }
}

export const fieldUsage = `name:type[:required], where type is one of ${fieldTypes.join(", ")} (e.g. sku:string:required)`

const isFieldType = (s: string): s is FieldType => (fieldTypes as ReadonlyArray<string>).includes(s)

/** The camelCase name for `raw`, or why it cannot be a field name. */
export const fieldName = (raw: string): Either.Either<string, InvalidField> => {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(raw)) {
    return Either.left(
      new InvalidField({
        input: raw,
        detail:
          "a field name is letters and digits (camelCase; _ and - are folded into it), starting with a letter"
      })
    )
  }
  const name = camel(raw)
  if ((reservedFields as ReadonlyArray<string>).includes(name)) {
    return Either.left(
      new InvalidField({
        input: raw,
        detail: `${reservedFields.join(", ")} are in every resource already and cannot be changed`
      })
    )
  }
  return Either.right(name)
}

/** Parses `name:type[:required]` (`:optional` is accepted too, and is the default). */
export const parseField = (input: string): Either.Either<Field, InvalidField> => {
  const parts = input.trim().split(":")
  const [rawName = "", type = "", flag] = parts
  if (parts.length < 2 || parts.length > 3 || (flag !== undefined && !/^(required|optional)$/.test(flag))) {
    return Either.left(new InvalidField({ input, detail: `expected ${fieldUsage}` }))
  }
  if (!isFieldType(type)) {
    return Either.left(
      new InvalidField({
        input,
        detail: `unknown type '${type}'; the types allowed are ${fieldTypes.join(", ")}`
      })
    )
  }
  return fieldName(rawName).pipe(
    Either.mapBoth({
      onLeft: (e) => new InvalidField({ input, detail: e.detail }),
      onRight: (name): Field => ({ name, type, required: flag === "required" })
    })
  )
}

/** The OpenAPI 3.0 schema of a field's value. */
export const fieldSchema = (field: Field): Record<string, unknown> => {
  const base: Record<string, unknown> = (() => {
    switch (field.type) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
        return { type: field.type }
      case "date":
      case "date-time":
      case "email":
      case "uuid":
        return { type: "string", format: field.type }
      case "url":
        return { type: "string", format: "uri" }
    }
  })()
  return {
    ...base,
    ...(field.values ? { enum: [...field.values] } : {}),
    ...(field.minimum !== undefined ? { minimum: field.minimum } : {}),
    ...(field.pattern ? { pattern: field.pattern } : {}),
    ...(field.description ? { description: field.description } : {})
  }
}
