/**
 * The platform's published Swagger 2.0 document as a validator of request and response bodies: matches a
 * concrete request to the operation whose path template it fits, checks a request body against that
 * operation's `in: body` schema and a response against the schema the operation documents for its status,
 * with ajv (draft-04). Three things the document says but does not encode are made checkable:
 * - object schemas that declare `properties` are closed (`additionalProperties: false`): the document never
 *   closes them, but a field it does not define is one the platform drops without a word (spec: `currencyCode`
 *   on an invoice is "silently ignored"), which is exactly what this test must catch;
 * - string fields whose description states a format ("in YYYY-MM-DD format", "(ISO 4217)", "E.164") get
 *   that format as a `pattern` (spec: ISO datetimes and epoch milliseconds are rejected);
 * - a response envelope (a definition with a `data` property: BaseResponse, TransactionCreateResponse, …)
 *   must carry its `data`: the document never marks it required, but an envelope without it answers nothing.
 * The document is vendored, unmodified and with its MIT licence, in vendor/platform-openapi/.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv-draft-04"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

export const repoRoot = NodePath.resolve(import.meta.dirname, "../..")

export const documentPath = NodePath.resolve(repoRoot, "vendor/platform-openapi/platform-openapi.json")

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/** A JSON Schema node of the document (draft-04 with Swagger extras). */
export type JsonSchema = { readonly [keyword: string]: unknown }

interface Parameter {
  readonly in: string
  readonly name: string
  readonly schema?: JsonSchema
}

interface SwaggerOperation {
  readonly operationId?: string
  readonly parameters?: ReadonlyArray<Parameter>
  readonly responses?: Record<string, { readonly schema?: JsonSchema }>
}

interface SwaggerDocument {
  readonly swagger: string
  readonly paths: Record<string, Record<string, unknown>>
  readonly definitions: Record<string, JsonSchema>
  readonly securityDefinitions?: Record<
    string,
    { readonly type: string; readonly in?: string; readonly name?: string }
  >
}

/** One operation of the document: `id` is `METHOD /api/v1/template`. */
export interface Operation {
  readonly id: string
  readonly method: Method
  readonly template: string
  readonly operationId: string | undefined
  /** The `in: body` schema, if the operation takes a body. */
  readonly body: JsonSchema | undefined
  /** The definition the body schema refers to (`#/definitions/<name>`), for messages. */
  readonly bodyDefinition: string | undefined
  /** The documented responses by HTTP status, each with its body schema (if it has one). */
  readonly responses: ReadonlyMap<number, JsonSchema | undefined>
}

/** A failed check, normalised: `field` is the JSON pointer of the offending field, `*` for array indices. */
export interface Violation {
  readonly keyword: string
  readonly field: string
  readonly instancePath: string
  readonly message: string
  /**
   * The definition whose object-level rule (`required`, `additionalProperties`) failed, or which holds the
   * property whose own rule (`type`, `pattern`, …) failed, when known.
   */
  readonly definition: string | undefined
}

const methods: ReadonlyArray<Method> = ["GET", "POST", "PUT", "PATCH", "DELETE"]

const segments = (path: string) => path.split("/").filter((s) => s !== "")

const isParam = (segment: string) => segment.startsWith("{") && segment.endsWith("}")

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

/** Formats the document states in a string field's description, as patterns. */
export const proseFormats: ReadonlyArray<{ readonly says: RegExp; readonly pattern: string }> = [
  { says: /YYYY-MM-DD/, pattern: "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$" },
  { says: /ISO ?4217/, pattern: "^[A-Z]{3}$" },
  { says: /E\.164/, pattern: "^\\+[1-9]\\d{1,14}$" }
]

/** A `$ref` name (`#/definitions/<name>`), if `schema` is just a reference. */
const refName = (schema: JsonSchema | undefined) =>
  typeof schema?.$ref === "string" ? schema.$ref.replace(/^#\/definitions\//, "") : undefined

/** `schema` with its document-local references pointed at the document registered in ajv as `platform`. */
const rebased = (schema: unknown): unknown =>
  Array.isArray(schema)
    ? schema.map(rebased)
    : isObject(schema)
      ? Object.fromEntries(
          Object.entries(schema).map(([k, v]) => [
            k,
            k === "$ref" && typeof v === "string" ? v.replace(/^#\//, "platform#/") : rebased(v)
          ])
        )
      : schema

const proseFormat = (description: unknown) =>
  typeof description === "string" ? proseFormats.find((f) => f.says.test(description)) : undefined

/**
 * A copy of `schema` as this test validates it: objects with `properties` reject unknown fields, and string
 * fields get the format their description states (for an array of strings described as ISO 4217 codes, its
 * items). It walks schema positions only (`properties` values, `items`, `allOf`, …), so a field literally
 * named `format` or `properties` is never mistaken for a keyword.
 */
export const tightened = (schema: JsonSchema): JsonSchema => {
  const out: Record<string, unknown> = { ...schema }
  if (isObject(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, isObject(v) ? tightened(v) : v])
    )
    if (schema.additionalProperties === undefined && schema.allOf === undefined)
      out.additionalProperties = false
  }
  const format = proseFormat(schema.description)
  if (format && schema.type === "string" && schema.pattern === undefined) out.pattern = format.pattern
  if (isObject(schema.items)) {
    const items = tightened(schema.items)
    out.items =
      format && items.type === "string" && items.pattern === undefined
        ? { ...items, pattern: format.pattern }
        : items
  }
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    const list = schema[k]
    if (Array.isArray(list)) out[k] = list.map((s: unknown) => (isObject(s) ? tightened(s) : s))
  }
  if (isObject(schema.additionalProperties)) out.additionalProperties = tightened(schema.additionalProperties)
  return out
}

const pointerField = (e: ErrorObject): string => {
  const child =
    e.keyword === "required"
      ? String((e.params as { missingProperty: string }).missingProperty)
      : e.keyword === "additionalProperties"
        ? String((e.params as { additionalProperty: string }).additionalProperty)
        : undefined
  const path = child === undefined ? e.instancePath : `${e.instancePath}/${child}`
  return path.replace(/\/\d+(?=\/|$)/g, "/*")
}

/** The document, its operations, and validators compiled once per body schema. */
export class PlatformDocument {
  readonly swagger: string
  readonly operations: ReadonlyArray<Operation>
  /** The API-key header every operation requires (`securityDefinitions`). */
  readonly apiKeyHeader: string | undefined
  private readonly ajv: Ajv
  private readonly definitionNames: Map<unknown, string>
  private readonly propertyOwners: Map<unknown, string>
  private readonly definitions: Record<string, JsonSchema>
  private readonly validators = new Map<unknown, ValidateFunction>()

  constructor(doc: SwaggerDocument) {
    this.swagger = doc.swagger
    const definitions = Object.fromEntries(Object.entries(doc.definitions).map(([k, v]) => [k, tightened(v)]))
    this.definitions = definitions
    this.definitionNames = new Map(Object.entries(definitions).map(([k, v]) => [v, k]))
    this.propertyOwners = new Map(
      Object.entries(definitions).flatMap(([k, v]) =>
        Object.values(isObject(v.properties) ? v.properties : {}).map((p): [unknown, string] => [p, k])
      )
    )
    this.ajv = new Ajv({ allErrors: true, strict: true, verbose: true })
    this.ajv.addVocabulary(["example", "x-enum-varnames"])
    this.ajv.addSchema({ id: "platform", definitions })
    this.apiKeyHeader = Object.values(doc.securityDefinitions ?? {}).find(
      (s) => s.type === "apiKey" && s.in === "header"
    )?.name
    const ops: Array<Operation> = []
    for (const [template, item] of Object.entries(doc.paths)) {
      const shared = (item.parameters ?? []) as ReadonlyArray<Parameter>
      for (const method of methods) {
        const op = item[method.toLowerCase()] as SwaggerOperation | undefined
        if (!op) continue
        const body = [...shared, ...(op.parameters ?? [])].find((p) => p.in === "body")?.schema
        ops.push({
          id: `${method} ${template}`,
          method,
          template,
          operationId: op.operationId,
          body,
          bodyDefinition: refName(body),
          responses: new Map(
            Object.entries(op.responses ?? {}).map(([status, r]) => [Number(status), r.schema])
          )
        })
      }
    }
    this.operations = ops
  }

  static read(path: string = documentPath): PlatformDocument {
    return new PlatformDocument(JSON.parse(NodeFs.readFileSync(path, "utf8")) as SwaggerDocument)
  }

  /** The operation `id` names exactly (`METHOD /api/v1/template`). */
  byId(id: string): Operation | undefined {
    return this.operations.find((o) => o.id === id)
  }

  /**
   * The operation a concrete request goes to, and its path parameters. A literal segment beats a
   * parameter (`/invoices/search` is not `/invoices/{resourceId}`).
   */
  match(method: string, path: string): { operation: Operation; params: Record<string, string> } | undefined {
    const concrete = segments(path.split("?")[0]!)
    let best: { operation: Operation; params: Record<string, string>; literals: number } | undefined
    for (const operation of this.operations) {
      if (operation.method !== method) continue
      const found = matchTemplate(operation.template, concrete)
      if (found && (!best || found.literals > best.literals)) best = { operation, ...found }
    }
    return best && { operation: best.operation, params: best.params }
  }

  /** Checks `body` against the operation's body schema; [] when it conforms. */
  validate(operation: Operation, body: unknown): ReadonlyArray<Violation> {
    if (!operation.body) return [violation("body", "the operation takes no body")]
    return this.check(operation.body, body)
  }

  /**
   * Checks a response against what the operation documents for its status: a status it does not list is a
   * violation (`status`), and a body must match that status's schema, closed like request bodies (an
   * envelope with its `data`).
   */
  validateResponse(operation: Operation, status: number, body: unknown): ReadonlyArray<Violation> {
    if (!operation.responses.has(status)) return this.validateStatus(operation, status)
    const schema = operation.responses.get(status)
    if (schema === undefined) return []
    const name = refName(schema)
    const properties = name === undefined ? undefined : this.definitions[name]?.properties
    if (!isObject(properties) || !("data" in properties)) return this.check(schema, body)
    return this.run(`envelope ${name}`, body, () => ({
      allOf: [
        { $ref: `platform#/definitions/${name}` },
        { type: "object", properties: { data: {} }, required: ["data"] }
      ]
    }))
  }

  /** A violation (`status`) unless the operation documents `status`. */
  validateStatus(operation: Operation, status: number): ReadonlyArray<Violation> {
    if (operation.responses.has(status)) return []
    const listed = [...operation.responses.keys()].join(", ")
    return [violation("status", `HTTP ${status} is not among the statuses the document lists (${listed})`)]
  }

  /** Checks `body` against a schema of the document: a `$ref` to one of its definitions, or an inline schema, tightened as above. */
  check(schema: JsonSchema, body: unknown): ReadonlyArray<Violation> {
    const name = refName(schema)
    return this.run(schema, body, () =>
      name ? { $ref: `platform#/definitions/${name}` } : (rebased(tightened(schema)) as JsonSchema)
    )
  }

  /** Checks `body` against a schema written for a test, exactly as written (it may refer to `platform#/definitions/…`). */
  checkWritten(schema: JsonSchema, body: unknown): ReadonlyArray<Violation> {
    return this.run(schema, body, () => schema)
  }

  private run(key: unknown, body: unknown, schema: () => JsonSchema): ReadonlyArray<Violation> {
    let validate = this.validators.get(key)
    if (!validate) {
      validate = this.ajv.compile(schema())
      this.validators.set(key, validate)
    }
    if (validate(body)) return []
    return (validate.errors ?? []).map((e) => ({
      keyword: e.keyword,
      field: pointerField(e),
      instancePath: e.instancePath,
      message: e.message ?? e.keyword,
      definition: this.definitionNames.get(e.parentSchema) ?? this.propertyOwners.get(e.parentSchema)
    }))
  }
}

const violation = (keyword: string, message: string): Violation => ({
  keyword,
  field: "",
  instancePath: "",
  message,
  definition: undefined
})

/** Matches concrete segments to a template: its path parameters and how many literal segments agreed. */
export const matchTemplate = (
  template: string,
  concrete: ReadonlyArray<string>
): { params: Record<string, string>; literals: number } | undefined => {
  const parts = segments(template)
  if (parts.length !== concrete.length) return undefined
  const params: Record<string, string> = {}
  let literals = 0
  for (const [i, part] of parts.entries()) {
    const value = concrete[i]!
    if (isParam(part)) params[part.slice(1, -1)] = decodeURIComponent(value)
    else if (part === value) literals++
    else return undefined
  }
  return { params, literals }
}
