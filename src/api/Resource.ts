/**
 * What a specification is generated from: an endpoint (a plural path segment, or `auth`), its fields and
 * which of `get` (list) and `post` (create) it offers. `resolve` turns the command line into one, refusing
 * names that are not a path segment and pluralising singular ones (`product` is specified as `/products`).
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { type Field, type InvalidField, parseField } from "./Fields.js"
import { plural } from "./Naming.js"
import { defaultFields, vocabulary } from "./Vocabulary.js"

export type Operation = "get" | "post"

/** A collection resource (`/<endpoint>` with list and create), or the login endpoint whose `User` has `fields`. */
export interface Resource {
  readonly kind: "collection" | "auth"
  readonly endpoint: string
  readonly fields: ReadonlyArray<Field>
  readonly operations: ReadonlyArray<Operation>
}

/** An endpoint name that is not a lowercase path segment. */
export class InvalidEndpoint extends Schema.TaggedError<InvalidEndpoint>()("InvalidEndpoint", {
  input: Schema.String
}) {
  override get message() {
    return `invalid endpoint '${this.input}': an endpoint is one path segment of lowercase letters, digits and single hyphens, starting with a letter, at most 64 characters (e.g. products, line-items, auth)`
  }
}

/** The fields of the `User` the login endpoint returns. */
const userFields: ReadonlyArray<Field> = vocabulary.get("users") ?? defaultFields

export const endpointPattern = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

/**
 * The resource for `api <endpoint> [--field …]`, with `renamedFrom` set when a singular name was pluralised.
 * Fields come from `--field` (a repeated name: the last counts), else the vocabulary, else `name` alone.
 */
export const resolve = (
  input: string,
  fieldArgs: ReadonlyArray<string>
): Either.Either<
  { readonly resource: Resource; readonly renamedFrom?: string },
  InvalidEndpoint | InvalidField
> =>
  Either.gen(function* () {
    if (!endpointPattern.test(input) || input.length > 64)
      return yield* Either.left(new InvalidEndpoint({ input }))
    const given: Array<Field> = []
    for (const arg of fieldArgs) {
      const field = yield* parseField(arg)
      const i = given.findIndex((f) => f.name === field.name)
      if (i >= 0) given[i] = field
      else given.push(field)
    }
    if (input === "auth") {
      return {
        resource: {
          kind: "auth",
          endpoint: input,
          fields: given.length > 0 ? given : userFields,
          operations: ["post"]
        }
      }
    }
    const endpoint = plural(input)
    const fields = given.length > 0 ? given : (vocabulary.get(endpoint) ?? defaultFields)
    const resource: Resource = { kind: "collection", endpoint, fields, operations: ["get", "post"] }
    return endpoint === input ? { resource } : { resource, renamedFrom: input }
  })
