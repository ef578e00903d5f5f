/**
 * From the command line to a resource: endpoint names that are path segments, plural paths, fields parsed
 * from `name:type[:required]` with the allowed types named on error, and the reasons a rejection may give.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { pascal, plural, singular } from "../../src/api/Naming.js"
import { resolve, type Resource } from "../../src/api/Resource.js"
import * as Revisions from "../../src/api/Revisions.js"

const resourceOf = (endpoint: string, fields: ReadonlyArray<string> = []) =>
  Either.getOrThrow(resolve(endpoint, fields)).resource
const leftMessage = <A, E extends { readonly message: string }>(e: Either.Either<A, E>) =>
  Either.isLeft(e) ? e.left.message : assert.fail(`expected a failure, got ${JSON.stringify(e)}`)
const revise = (resource: Resource, reason: string) =>
  Either.flatMap(Revisions.parse(reason), (instructions) => Revisions.apply(resource, instructions))

describe("Resource", () => {
  it("refuses endpoint names that are not one lowercase path segment, saying what is allowed", () => {
    for (const bad of ["Products", "1st", "line_items", "a/b", "-x", "x-", "x--y", "", "ü", "a".repeat(65)]) {
      const message = leftMessage(resolve(bad, []))
      assert.include(message, `invalid endpoint '${bad}'`)
      assert.include(message, "lowercase letters, digits and single hyphens, starting with a letter")
    }
  })

  it("specifies a singular endpoint under its plural, and says it did", () => {
    const cases = [
      ["product", "products", "Product"],
      ["category", "categories", "Category"],
      ["address", "addresses", "Address"],
      ["status", "statuses", "Status"],
      ["box", "boxes", "Box"],
      ["line-item", "line-items", "LineItem"],
      ["person", "people", "Person"]
    ] as const
    for (const [input, path, schema] of cases) {
      const resolved = Either.getOrThrow(resolve(input, []))
      assert.strictEqual(resolved.resource.endpoint, path, input)
      assert.strictEqual(resolved.renamedFrom, input)
      assert.strictEqual(pascal(singular(path)), schema)
    }
    for (const already of [
      "products",
      "categories",
      "addresses",
      "statuses",
      "line-items",
      "people",
      "news"
    ]) {
      assert.strictEqual(plural(already), already)
      assert.isUndefined(Either.getOrThrow(resolve(already, [])).renamedFrom, already)
    }
  })

  it("parses --field, folds names to camelCase and names the allowed types when one is unknown", () => {
    const r = resourceOf("widgets", [
      "unit_price:number:required",
      "Colour-Code:string",
      "weight:number:optional"
    ])
    assert.deepStrictEqual(r.fields, [
      { name: "unitPrice", type: "number", required: true },
      { name: "colourCode", type: "string", required: false },
      { name: "weight", type: "number", required: false }
    ])
    assert.include(
      leftMessage(resolve("widgets", ["size:big"])),
      "unknown type 'big'; the types allowed are string, integer, number, boolean, date, date-time, email, uuid, url"
    )
    assert.include(leftMessage(resolve("widgets", ["size"])), "expected name:type[:required]")
    assert.include(leftMessage(resolve("widgets", ["size:string:maybe"])), "expected name:type[:required]")
    assert.include(leftMessage(resolve("widgets", ["9lives:string"])), "starting with a letter")
    assert.include(leftMessage(resolve("widgets", ["id:uuid"])), "are in every resource already")
  })

  it("takes fields from --field, else the vocabulary, else `name`", () => {
    assert.deepStrictEqual(
      resourceOf("products", ["sku:string"]).fields.map((f) => f.name),
      ["sku"]
    )
    assert.includeMembers(
      resourceOf("products").fields.map((f) => f.name),
      ["name", "price", "currency", "status"]
    )
    assert.deepStrictEqual(
      resourceOf("gadgets").fields.map((f) => f.name),
      ["name"]
    )
    assert.strictEqual(resourceOf("auth").kind, "auth")
    assert.strictEqual(resourceOf("auth").endpoint, "auth")
  })
})

describe("Revisions", () => {
  const widgets = resourceOf("widgets", ["title:string:required", "price:number"])

  it("carries out each instruction it understands, several joined with ';'", () => {
    const revised = Either.getOrThrow(
      revise(
        widgets,
        "add field sku:string:required; rename field title to name ;REMOVE FIELD price; remove get"
      )
    )
    assert.deepStrictEqual(revised.fields, [
      { name: "name", type: "string", required: true },
      { name: "sku", type: "string", required: true }
    ])
    assert.deepStrictEqual(revised.operations, ["post"])
    assert.deepStrictEqual(Either.getOrThrow(revise(widgets, "remove post")).operations, ["get"])
    assert.deepStrictEqual(
      Either.getOrThrow(Revisions.parse("add field sku:string")).map(Revisions.describe),
      ["add field sku:string"]
    )
  })

  it("refuses reasons it does not understand, and whole reasons with one such part", () => {
    for (const reason of [
      "too long",
      "add a sku field",
      "add field",
      "remove delete",
      "ok; remove get",
      ""
    ]) {
      const refused = revise(widgets, reason)
      assert.isTrue(Either.isLeft(refused), reason)
      if (Either.isLeft(refused)) assert.strictEqual(refused.left.reason, "NotUnderstood", reason)
    }
  })

  it("refuses instructions it understands but cannot carry out here, saying why", () => {
    const cases = [
      ["add field price:number", "already has a field price"],
      ["add field sku:strin", "unknown type 'strin'"],
      ["remove field colour", "has no field colour (its fields: title, price)"],
      ["rename field colour to hue", "has no field colour"],
      ["rename field title to price", "already has a field price"],
      ["remove field id", "are in every resource already"],
      ["remove get; remove post", "only operation left"],
      ["remove get; remove get", "already removed"]
    ] as const
    for (const [reason, why] of cases) {
      const refused = revise(widgets, reason)
      assert.isTrue(Either.isLeft(refused), reason)
      if (Either.isLeft(refused)) {
        assert.strictEqual(refused.left.reason, "CannotApply", reason)
        assert.include(refused.left.message, why)
      }
    }
    assert.include(leftMessage(revise(resourceOf("gadgets"), "remove field name")), "only field")
    assert.include(leftMessage(revise(resourceOf("auth"), "remove post")), "POST /auth/login")
  })

  it("revises the auth document's User through its fields", () => {
    const revised = Either.getOrThrow(
      revise(resourceOf("auth"), "add field locale:string; remove field role")
    )
    const names = revised.fields.map((f) => f.name)
    assert.include(names, "locale")
    assert.notInclude(names, "role")
  })
})
