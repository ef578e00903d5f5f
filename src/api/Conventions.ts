/**
 * What every generated document shares: the `{ success, data }` envelopes (with `pagination` on lists and
 * `message` on creation), the one `Error` schema and the 400/401/500 responses made of it, the bearer JWT
 * scheme, the stored record's `id`/`createdAt`/`updatedAt`, and the list's query parameters.
 */
import { type Field, fieldSchema } from "./Fields.js"

export type Json = Record<string, unknown>

/** A `$ref` to a component. */
export const ref = (kind: "schemas" | "responses", name: string) => ({ $ref: `#/components/${kind}/${name}` })
/** A JSON media type with its schema (and an example). */
export const json = (schema: Json, example?: unknown) => ({
  "application/json": example === undefined ? { schema } : { schema, example }
})
/** An object schema; `required` is left out when empty, as OpenAPI 3.0 wants. */
export const object = (properties: Json, required: ReadonlyArray<string>, extra: Json = {}): Json => ({
  type: "object",
  ...(required.length > 0 ? { required: [...required] } : {}),
  properties,
  ...extra
})
/** `success`'s schema: a boolean that is always `value`. */
export const constant = (value: boolean) => ({ type: "boolean", enum: [value] })

const fieldProperties = (fields: ReadonlyArray<Field>): Json =>
  Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)]))
const requiredNames = (fields: ReadonlyArray<Field>) => fields.filter((f) => f.required).map((f) => f.name)

/** The stored record: `id`, the fields, `createdAt`, `updatedAt`. */
export const entitySchema = (fields: ReadonlyArray<Field>, noun: string): Json =>
  object(
    {
      id: {
        type: "string",
        format: "uuid",
        readOnly: true,
        description: `The ${noun}'s id, assigned on creation`
      },
      ...fieldProperties(fields),
      createdAt: { type: "string", format: "date-time", readOnly: true, description: "When it was created" },
      updatedAt: {
        type: "string",
        format: "date-time",
        readOnly: true,
        description: "When it was last changed"
      }
    },
    ["id", ...requiredNames(fields), "createdAt", "updatedAt"]
  )

export const errorSchema: Json = object(
  {
    success: constant(false),
    error: object(
      {
        code: {
          type: "string",
          description:
            "Machine-readable: VALIDATION_ERROR, UNAUTHORIZED, INVALID_CREDENTIALS, INTERNAL_ERROR",
          example: "VALIDATION_ERROR"
        },
        message: { type: "string", description: "What went wrong, for a person" },
        details: {
          type: "array",
          description: "One entry per invalid field (validation errors only)",
          items: object(
            {
              field: { type: "string", description: "The field, as named in the request" },
              message: { type: "string", description: "What is wrong with it" }
            },
            ["field", "message"]
          )
        }
      },
      ["code", "message"]
    )
  },
  ["success", "error"]
)

export const errorExample = (code: string, message: string, details?: ReadonlyArray<Json>) => ({
  success: false,
  error: { code, message, ...(details ? { details } : {}) }
})

/** The shared error responses, each the `Error` schema with an example of its code. */
export const errorResponses = (errorName: string, exampleField: string): Record<string, Json> => ({
  ValidationError: {
    description: "The request is not valid: `error.details` names each invalid field",
    content: json(
      ref("schemas", errorName),
      errorExample("VALIDATION_ERROR", "The request is not valid", [
        { field: exampleField, message: `${exampleField} is required` }
      ])
    )
  },
  Unauthorized: {
    description: "The bearer token is missing, invalid or expired",
    content: json(ref("schemas", errorName), errorExample("UNAUTHORIZED", "A valid bearer token is required"))
  },
  InternalError: {
    description: "An unexpected error on the server",
    content: json(
      ref("schemas", errorName),
      errorExample("INTERNAL_ERROR", "Something went wrong; try again later")
    )
  }
})

export const bearerAuth = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "A JWT from POST /auth/login, sent as `Authorization: Bearer <token>`"
  }
}

const query = (name: string, schema: Json, description: string): Json => ({
  name,
  in: "query",
  required: false,
  description,
  schema
})

/** The list's query parameters: paging, sorting, free text and one equality filter per enum field. */
export const listParameters = (fields: ReadonlyArray<Field>, plural: string): Array<Json> => {
  const sortable = [
    ...fields.filter((f) => f.type !== "boolean").map((f) => f.name),
    "createdAt",
    "updatedAt"
  ]
  const key = `(${sortable.join("|")}):(asc|desc)`
  const text = fields.filter((f) => f.type === "string" && !f.values && !f.pattern).map((f) => f.name)
  const paging = ["page", "pageSize", "cursor", "sort", "q"]
  return [
    query(
      "page",
      { type: "integer", minimum: 1, default: 1 },
      "Page number, from 1 (ignored when `cursor` is given)"
    ),
    query(
      "pageSize",
      { type: "integer", minimum: 1, maximum: 100, default: 20 },
      "Items per page, at most 100"
    ),
    query(
      "cursor",
      { type: "string" },
      "Opaque cursor from `pagination.nextCursor` of the previous page; takes precedence over `page`"
    ),
    query(
      "sort",
      { type: "string", pattern: `^${key}(,${key})*$`, default: "createdAt:desc", example: "createdAt:desc" },
      `Comma-separated \`field:asc\` or \`field:desc\`; sortable fields: ${sortable.join(", ")}`
    ),
    query(
      "q",
      { type: "string" },
      text.length > 0 ? `Free-text search in ${text.join(", ")}` : `Free-text search across the ${plural}`
    ),
    ...fields
      .filter((f) => f.values && !paging.includes(f.name))
      .map((f) =>
        query(f.name, fieldSchema({ ...f, description: "" }), `Only ${plural} whose ${f.name} is this value`)
      )
  ]
}

/** `{ success: true, data: <entity>, message? }`: one record, as answered on creation. */
export const singleEnvelope = (entity: string, created: string): Json =>
  object(
    {
      success: constant(true),
      data: ref("schemas", entity),
      message: { type: "string", description: `What was done, e.g. "${created}"` }
    },
    ["success", "data"]
  )

/** `{ success: true, data: [<entity>], pagination }`: a page of records. */
export const listEnvelope = (entity: string): Json =>
  object(
    {
      success: constant(true),
      data: { type: "array", items: ref("schemas", entity) },
      pagination: ref("schemas", "Pagination")
    },
    ["success", "data", "pagination"]
  )

export const paginationSchema: Json = object(
  {
    page: { type: "integer", minimum: 1, description: "This page's number" },
    pageSize: { type: "integer", minimum: 1, description: "Items per page" },
    total: { type: "integer", minimum: 0, description: "Items matching, over all pages" },
    totalPages: { type: "integer", minimum: 0, description: "Pages in all at this page size" },
    nextCursor: {
      type: "string",
      nullable: true,
      description: "Pass as `cursor` for the next page; null on the last"
    }
  },
  ["page", "pageSize", "total", "totalPages"]
)

/** The body of a create: the fields alone, nothing else accepted. */
export const createRequest = (fields: ReadonlyArray<Field>): Json =>
  object(fieldProperties(fields), requiredNames(fields), { additionalProperties: false })
