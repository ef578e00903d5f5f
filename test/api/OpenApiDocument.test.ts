/**
 * The generated documents: each one, as the YAML that is written, passes the OpenAPI 3.0 validator (and the
 * validator fails broken ones, so its verdict means something); and each has the shape the tool promises.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as YAML from "yaml"
import { generate, type Json, type OpenApiDocument, render } from "../../src/api/OpenApiDocument.js"
import { resolve } from "../../src/api/Resource.js"
import { validateOpenApi } from "./OpenApiValidator.js"

const resourceOf = (endpoint: string, fields: ReadonlyArray<string> = []) =>
  Either.getOrThrow(resolve(endpoint, fields)).resource
const documentOf = (endpoint: string, fields: ReadonlyArray<string> = []) =>
  generate(resourceOf(endpoint, fields))

const withFields = [
  "unit_price:number:required",
  "quantity:integer:required",
  "active:boolean",
  "dueOn:date",
  "shippedAt:date-time",
  "contactEmail:email",
  "orderId:uuid:required",
  "website:url",
  "note:string:optional"
]

const cases: ReadonlyArray<readonly [string, OpenApiDocument]> = [
  ["auth", documentOf("auth")],
  ["users", documentOf("users")],
  ["products", documentOf("products")],
  ["line-items with --field", documentOf("line-items", withFields)],
  ["errors, whose record is named Error", documentOf("errors")],
  ["widgets after `remove get`", generate({ ...resourceOf("widgets"), operations: ["post"] })],
  ["widgets after `remove post`", generate({ ...resourceOf("widgets"), operations: ["get"] })]
]

const at = (value: unknown, ...path: Array<string | number>): any =>
  path.reduce<any>((v, key) => (v === undefined ? undefined : v[key]), value)
const refTo = (name: string) => `#/components/schemas/${name}`
const responseRef = (name: string) => `#/components/responses/${name}`

describe("OpenApiDocument", () => {
  for (const [name, document] of cases) {
    it.effect(`${name}: the YAML written is a valid OpenAPI 3.0 document`, () =>
      Effect.gen(function* () {
        const text = render(document)
        const verdict = yield* validateOpenApi(text)
        assert.isTrue(verdict.valid, verdict.errors)
        assert.strictEqual(verdict.version, "3.0")
        assert.deepStrictEqual(
          YAML.parse(text),
          JSON.parse(JSON.stringify(document)),
          "the YAML is the document"
        )
        assert.notMatch(text, /[&*]a\d+/, "no YAML anchors or aliases")
      })
    )
  }

  it.effect(
    "negative control: the validator rejects a response without description and a dangling $ref",
    () =>
      Effect.gen(function* () {
        const noDescription = structuredClone(documentOf("products")) as any
        delete noDescription.paths["/products"].get.responses["200"].description
        const missingDescription = yield* validateOpenApi(noDescription)
        assert.isFalse(missingDescription.valid)
        assert.include(missingDescription.errors, "description")

        const dangling = structuredClone(documentOf("products")) as any
        delete dangling.components.schemas.ProductCreateRequest
        const danglingRef = yield* validateOpenApi(render(dangling))
        assert.isFalse(danglingRef.valid)
        assert.include(danglingRef.errors, "ProductCreateRequest")

        const wrongVersion = yield* validateOpenApi({ ...documentOf("products"), servers: "/api/v1" })
        assert.isFalse(wrongVersion.valid)
      })
  )

  it("products: list and create under /api/v1, a bearer token on both, 401 listed on each", () => {
    const d = documentOf("products")
    assert.strictEqual(d.openapi, "3.0.0")
    assert.strictEqual(d.info.title, "Products API")
    assert.strictEqual(d.info.version, "1.0.0")
    assert.isNotEmpty(d.info.description)
    assert.deepStrictEqual(d.servers, [{ url: "/api/v1", description: "API v1" }])
    assert.deepStrictEqual(d.security, [{ bearerAuth: [] }])
    assert.deepStrictEqual(d.components.securitySchemes.bearerAuth, {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
      description: "A JWT from POST /auth/login, sent as `Authorization: Bearer <token>`"
    })
    assert.deepStrictEqual(Object.keys(d.paths), ["/products"])
    const { get, post } = d.paths["/products"]!
    for (const op of [get, post]) {
      assert.isNotEmpty(at(op, "summary"))
      assert.isNotEmpty(at(op, "description"))
      assert.deepStrictEqual(at(op, "tags"), ["Products"])
      assert.isUndefined(at(op, "security"), "the global bearerAuth applies")
      assert.strictEqual(at(op, "responses", "401", "$ref"), responseRef("Unauthorized"))
    }
    assert.deepStrictEqual(Object.keys(at(get, "responses")), ["200", "401", "500"])
    assert.strictEqual(
      at(get, "responses", "200", "content", "application/json", "schema", "$ref"),
      refTo("ProductListResponse")
    )
    assert.strictEqual(at(get, "responses", "500", "$ref"), responseRef("InternalError"))
    assert.deepStrictEqual(Object.keys(at(post, "responses")), ["201", "400", "401", "500"])
    assert.strictEqual(at(post, "requestBody", "required"), true)
    assert.strictEqual(
      at(post, "requestBody", "content", "application/json", "schema", "$ref"),
      refTo("ProductCreateRequest")
    )
    assert.strictEqual(
      at(post, "responses", "201", "content", "application/json", "schema", "$ref"),
      refTo("ProductResponse")
    )
    assert.strictEqual(at(post, "responses", "400", "$ref"), responseRef("ValidationError"))
    for (const name of ["ValidationError", "Unauthorized", "InternalError"]) {
      assert.strictEqual(
        at(d.components.responses[name], "content", "application/json", "schema", "$ref"),
        refTo("Error")
      )
    }
    assert.strictEqual(
      at(d.components.responses.ValidationError, "content", "application/json", "example", "error", "code"),
      "VALIDATION_ERROR"
    )
  })

  it("products: every query parameter is optional, described and typed; paging, sort, q and a status filter", () => {
    const parameters: ReadonlyArray<Json> = at(documentOf("products").paths["/products"], "get", "parameters")
    assert.deepStrictEqual(
      parameters.map((p) => p.name),
      ["page", "pageSize", "cursor", "sort", "q", "status"]
    )
    for (const p of parameters) {
      assert.strictEqual(p.in, "query")
      assert.strictEqual(p.required, false)
      assert.isNotEmpty(p.description)
      assert.isObject(p.schema)
    }
    const byName = Object.fromEntries(parameters.map((p) => [p.name, p.schema as Json]))
    assert.deepInclude(byName.page, { type: "integer", default: 1 })
    assert.deepInclude(byName.pageSize, { type: "integer", default: 20 })
    assert.deepStrictEqual(byName.status, { type: "string", enum: ["active", "draft", "archived"] })
    const sort = new RegExp(String(byName.sort!.pattern))
    assert.isTrue(sort.test("price:asc,createdAt:desc"))
    assert.isFalse(sort.test("price"), "a direction is required")
    assert.isFalse(sort.test("secret:asc"), "only the resource's fields sort")
  })

  it("products: the record, the create request and the envelopes", () => {
    const { schemas } = documentOf("products").components
    assert.deepStrictEqual(Object.keys(schemas), [
      "Product",
      "ProductCreateRequest",
      "ProductResponse",
      "ProductListResponse",
      "Pagination",
      "Error"
    ])
    const product = schemas.Product!
    assert.strictEqual(product.type, "object")
    assert.deepStrictEqual(product.required, [
      "id",
      "name",
      "price",
      "currency",
      "status",
      "createdAt",
      "updatedAt"
    ])
    assert.deepInclude(at(product, "properties", "id"), { type: "string", format: "uuid" })
    assert.deepInclude(at(product, "properties", "createdAt"), { type: "string", format: "date-time" })
    assert.deepInclude(at(product, "properties", "updatedAt"), { type: "string", format: "date-time" })
    assert.deepInclude(at(product, "properties", "price"), { type: "number", minimum: 0 })
    assert.deepInclude(at(product, "properties", "stockQuantity"), { type: "integer", minimum: 0 })
    assert.deepInclude(at(product, "properties", "categoryId"), { type: "string", format: "uuid" })

    const create = schemas.ProductCreateRequest!
    assert.deepStrictEqual(create.required, ["name", "price", "currency", "status"])
    assert.notProperty(create.properties, "id")
    assert.strictEqual(create.additionalProperties, false)

    assert.deepStrictEqual(schemas.ProductResponse!.required, ["success", "data"])
    assert.strictEqual(at(schemas.ProductResponse, "properties", "data", "$ref"), refTo("Product"))
    assert.property(schemas.ProductResponse!.properties, "message")
    assert.deepStrictEqual(schemas.ProductListResponse!.required, ["success", "data", "pagination"])
    assert.strictEqual(
      at(schemas.ProductListResponse, "properties", "data", "items", "$ref"),
      refTo("Product")
    )
    assert.deepStrictEqual(schemas.Pagination!.required, ["page", "pageSize", "total", "totalPages"])
    assert.deepStrictEqual(at(schemas.Error, "properties", "success"), { type: "boolean", enum: [false] })
    assert.deepStrictEqual(at(schemas.Error, "properties", "error", "required"), ["code", "message"])
    assert.deepStrictEqual(
      at(schemas.Error, "properties", "error", "properties", "details", "items", "required"),
      ["field", "message"]
    )
  })

  it("auth: POST /auth/login needs no token and answers a token and a User", () => {
    const d = documentOf("auth")
    assert.strictEqual(d.info.title, "Auth API")
    assert.deepStrictEqual(Object.keys(d.paths), ["/auth/login"])
    const login = d.paths["/auth/login"]!
    assert.deepStrictEqual(Object.keys(login), ["post"])
    assert.deepStrictEqual(at(login, "post", "security"), [])
    assert.deepStrictEqual(d.security, [{ bearerAuth: [] }])
    assert.deepStrictEqual(Object.keys(at(login, "post", "responses")), ["200", "400", "401", "500"])
    const request = d.components.schemas.LoginRequest!
    assert.deepStrictEqual(request.required, ["email", "password"])
    assert.deepInclude(at(request, "properties", "email"), { type: "string", format: "email" })
    assert.deepInclude(at(request, "properties", "password"), { type: "string", minLength: 8 })
    const data = at(d.components.schemas.LoginResponse, "properties", "data")
    assert.deepStrictEqual(data.required, ["token", "user"])
    assert.strictEqual(data.properties.token.type, "string")
    assert.strictEqual(data.properties.user.$ref, refTo("User"))
    assert.deepInclude(at(d.components.schemas.User, "properties", "email"), {
      type: "string",
      format: "email"
    })
    assert.includeMembers(d.components.schemas.User!.required as Array<string>, [
      "id",
      "createdAt",
      "updatedAt"
    ])
  })

  it("users: the vocabulary's email, role and status, with enum filters", () => {
    const d = documentOf("users")
    const user = d.components.schemas.User!
    assert.deepInclude(at(user, "properties", "email"), { type: "string", format: "email" })
    assert.deepStrictEqual(at(user, "properties", "role", "enum"), ["admin", "member", "viewer"])
    const names = (at(d.paths["/users"], "get", "parameters") as Array<Json>).map((p) => p.name)
    assert.includeMembers(names, ["role", "status"])
    assert.strictEqual(at(d.paths["/users"], "post", "operationId"), "createUser")
    assert.strictEqual(at(d.paths["/users"], "get", "operationId"), "listUsers")
  })

  it("--field: each type's schema, camelCase names, PascalCase schema names from a hyphenated plural", () => {
    const d = documentOf("line-items", withFields)
    assert.strictEqual(d.info.title, "Line Items API")
    assert.deepStrictEqual(
      d.tags.map((t) => t.name),
      ["Line Items"]
    )
    const properties = at(d.components.schemas, "LineItem", "properties")
    assert.deepStrictEqual(Object.keys(properties), [
      "id",
      "unitPrice",
      "quantity",
      "active",
      "dueOn",
      "shippedAt",
      "contactEmail",
      "orderId",
      "website",
      "note",
      "createdAt",
      "updatedAt"
    ])
    assert.deepStrictEqual(properties.unitPrice, { type: "number" })
    assert.deepStrictEqual(properties.quantity, { type: "integer" })
    assert.deepStrictEqual(properties.active, { type: "boolean" })
    assert.deepStrictEqual(properties.dueOn, { type: "string", format: "date" })
    assert.deepStrictEqual(properties.shippedAt, { type: "string", format: "date-time" })
    assert.deepStrictEqual(properties.contactEmail, { type: "string", format: "email" })
    assert.deepStrictEqual(properties.orderId, { type: "string", format: "uuid" })
    assert.deepStrictEqual(properties.website, { type: "string", format: "uri" })
    assert.deepStrictEqual(at(d.components.schemas, "LineItemCreateRequest", "required"), [
      "unitPrice",
      "quantity",
      "orderId"
    ])
    assert.includeMembers(Object.keys(d.components.schemas), ["LineItemResponse", "LineItemListResponse"])
  })

  it("an operation removed takes its schemas and responses with it; a record named Error renames the envelope's", () => {
    const createOnly = generate({ ...resourceOf("widgets"), operations: ["post"] })
    assert.deepStrictEqual(Object.keys(createOnly.paths["/widgets"]!), ["post"])
    assert.notProperty(createOnly.components.schemas, "WidgetListResponse")
    assert.notProperty(createOnly.components.schemas, "Pagination")
    const listOnly = generate({ ...resourceOf("widgets"), operations: ["get"] })
    assert.deepStrictEqual(Object.keys(listOnly.paths["/widgets"]!), ["get"])
    assert.notProperty(listOnly.components.schemas, "WidgetCreateRequest")
    assert.notProperty(listOnly.components.responses, "ValidationError")
    const errors = documentOf("errors").components
    assert.includeMembers(Object.keys(errors.schemas), ["Error", "ApiError"])
    assert.strictEqual(
      at(errors.responses.Unauthorized, "content", "application/json", "schema", "$ref"),
      refTo("ApiError")
    )
  })

  it("the examples in docs/api are what the generator writes today", () => {
    const examples = NodePath.resolve(import.meta.dirname, "../../docs/api")
    for (const endpoint of ["auth", "users", "products"]) {
      assert.strictEqual(
        NodeFs.readFileSync(NodePath.join(examples, `${endpoint}.yaml`), "utf8"),
        render(documentOf(endpoint)),
        `docs/api/${endpoint}.yaml: regenerate with npm run cli -- api ${endpoint} --yes`
      )
    }
  })

  it("a resource the vocabulary does not know has `name` alone", () => {
    const d = documentOf("widgets")
    assert.deepStrictEqual(Object.keys(at(d.components.schemas, "WidgetCreateRequest", "properties")), [
      "name"
    ])
  })
})
