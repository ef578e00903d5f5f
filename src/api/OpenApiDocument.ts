/**
 * The OpenAPI 3.0 document of one resource, as a plain object (`generate`) and as YAML (`render`). Pure: the
 * same resource always gives the same document. A collection has `GET /<endpoint>` (list) and `POST
 * /<endpoint>` (create) under the server `/api/v1`, each needing the bearer token; `auth` has `POST
 * /auth/login`, which does not. The shapes they share are in `Conventions`.
 */
import * as YAML from "yaml"
import {
  bearerAuth,
  constant,
  createRequest,
  entitySchema,
  errorExample,
  errorResponses,
  errorSchema,
  type Json,
  json,
  listEnvelope,
  listParameters,
  object,
  paginationSchema,
  ref,
  singleEnvelope
} from "./Conventions.js"
import { pascal, singular, title } from "./Naming.js"
import type { Operation, Resource } from "./Resource.js"

export type { Json } from "./Conventions.js"

/** The parts of the document that callers and tests read; everything below them is plain JSON. */
export interface OpenApiDocument {
  readonly openapi: "3.0.0"
  readonly info: { readonly title: string; readonly version: string; readonly description: string }
  readonly servers: ReadonlyArray<{ readonly url: string; readonly description: string }>
  readonly security: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  readonly tags: ReadonlyArray<{ readonly name: string; readonly description: string }>
  readonly paths: Record<string, Partial<Record<Operation, Json>>>
  readonly components: {
    readonly schemas: Record<string, Json>
    readonly responses: Record<string, Json>
    readonly securitySchemes: Record<string, Json>
  }
}

const base = (name: string, description: string, tagDescription: string) => ({
  openapi: "3.0.0" as const,
  info: { title: `${title(name)} API`, version: "1.0.0", description },
  servers: [{ url: "/api/v1", description: "API v1" }],
  security: [{ bearerAuth: [] }],
  tags: [{ name: title(name), description: tagDescription }]
})

const collection = (resource: Resource): OpenApiDocument => {
  const { endpoint, fields, operations } = resource
  const entity = pascal(singular(endpoint))
  const errorName = entity === "Error" ? "ApiError" : "Error"
  const noun = title(singular(endpoint)).toLowerCase()
  const plural = title(endpoint).toLowerCase()
  const tag = title(endpoint)
  const has = (op: Operation) => operations.includes(op)
  const verbs = [has("get") ? "List" : undefined, has("post") ? "create" : undefined].filter(
    (v) => v !== undefined
  )
  const what = `${verbs.join(" and ")} ${plural}`.replace(/^./, (c) => c.toUpperCase())

  const get = {
    operationId: `list${pascal(endpoint)}`,
    summary: `List ${plural}`,
    description: `Returns ${plural} a page at a time, newest first unless \`sort\` says otherwise.`,
    tags: [tag],
    parameters: listParameters(fields, plural),
    responses: {
      "200": { description: `A page of ${plural}`, content: json(ref("schemas", `${entity}ListResponse`)) },
      "401": ref("responses", "Unauthorized"),
      "500": ref("responses", "InternalError")
    }
  }
  const post = {
    operationId: `create${entity}`,
    summary: `Create a ${noun}`,
    description: `Creates a ${noun} and returns it with its id and timestamps.`,
    tags: [tag],
    requestBody: {
      required: true,
      description: `The new ${noun}`,
      content: json(ref("schemas", `${entity}CreateRequest`))
    },
    responses: {
      "201": { description: `The ${noun} was created`, content: json(ref("schemas", `${entity}Response`)) },
      "400": ref("responses", "ValidationError"),
      "401": ref("responses", "Unauthorized"),
      "500": ref("responses", "InternalError")
    }
  }
  const { ValidationError, ...otherResponses } = errorResponses(
    errorName,
    (fields.find((f) => f.required) ?? fields[0])?.name ?? "name"
  )

  return {
    ...base(
      endpoint,
      `${what}. Every operation needs a bearer token (JWT); every error has the same shape ({ success: false, error }).`,
      `${what}`
    ),
    paths: { [`/${endpoint}`]: { ...(has("get") ? { get } : {}), ...(has("post") ? { post } : {}) } },
    components: {
      schemas: {
        [entity]: entitySchema(fields, noun),
        ...(has("post")
          ? {
              [`${entity}CreateRequest`]: createRequest(fields),
              [`${entity}Response`]: singleEnvelope(entity, `${title(singular(endpoint))} created`)
            }
          : {}),
        ...(has("get")
          ? { [`${entity}ListResponse`]: listEnvelope(entity), Pagination: paginationSchema }
          : {}),
        [errorName]: errorSchema
      },
      responses: { ...(has("post") ? { ValidationError } : {}), ...otherResponses },
      securitySchemes: bearerAuth
    }
  }
}

const auth = (resource: Resource): OpenApiDocument => {
  const responses = errorResponses("Error", "email")
  return {
    ...base(
      "auth",
      "Log in with an email and password to obtain the bearer token (JWT) the other APIs require.",
      "Authentication"
    ),
    paths: {
      "/auth/login": {
        post: {
          operationId: "login",
          summary: "Log in",
          description:
            "Exchanges an email and password for a bearer token and the user it belongs to. Needs no token.",
          tags: ["Auth"],
          security: [],
          requestBody: { required: true, content: json(ref("schemas", "LoginRequest")) },
          responses: {
            "200": {
              description: "Logged in: a bearer token and the user",
              content: json(ref("schemas", "LoginResponse"))
            },
            "400": ref("responses", "ValidationError"),
            "401": {
              description: "The email or password is wrong",
              content: json(
                ref("schemas", "Error"),
                errorExample("INVALID_CREDENTIALS", "Email or password is incorrect")
              )
            },
            "500": ref("responses", "InternalError")
          }
        }
      }
    },
    components: {
      schemas: {
        LoginRequest: object(
          {
            email: { type: "string", format: "email", description: "The user's email address" },
            password: {
              type: "string",
              format: "password",
              minLength: 8,
              description: "At least 8 characters"
            }
          },
          ["email", "password"],
          { additionalProperties: false }
        ),
        LoginResponse: object(
          {
            success: constant(true),
            data: object(
              {
                token: { type: "string", description: "A JWT to send as `Authorization: Bearer <token>`" },
                user: ref("schemas", "User")
              },
              ["token", "user"]
            )
          },
          ["success", "data"]
        ),
        User: entitySchema(resource.fields, "user"),
        Error: errorSchema
      },
      responses: { ValidationError: responses.ValidationError!, InternalError: responses.InternalError! },
      securitySchemes: bearerAuth
    }
  }
}

/** The document of `resource`. */
export const generate = (resource: Resource): OpenApiDocument =>
  resource.kind === "auth" ? auth(resource) : collection(resource)

/** The document as YAML: no anchors, no folded lines. */
export const render = (document: OpenApiDocument): string =>
  YAML.stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 })
