/**
 * Encoders and decoders compiled from a body schema's AST, for the plan's bodies (encoded once each) and the
 * loader's canonical bodies (decoded and encoded again before each is sent): the same checks and the same
 * output as the schema's own `Schema.encodeSync` and `Schema.decodeUnknownEither`, without their general
 * machinery (an `Either` and a closure per field, each refinement's type side validated again from the top).
 * At 20,000 invoices `Schema.encodeSync` took 0.98 s of plan's 4.2 s build (timed around each call), 16 µs a
 * document body.
 *
 * A compiled parser answers `FAIL` for a value it does not accept; the caller then parses the value through
 * the schema, whose `ParseError` says what is wrong and where (`encoderOf`, `Operations.canonicalBody`).
 * Every check is the schema's own: a refinement's filter, a declaration's decode or encode (a class's
 * `instanceof`, `BigDecimal`'s guard), a transformation's decode or encode. A schema with a node this does not
 * compile (a suspension, an index signature, a union of structs with literal fields, an effectful
 * transformation) is parsed by the schema alone.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { rememberedFor } from "../Remembered.js"

/** What a compiled encoder answers for a value the schema refuses. */
export const FAIL: unique symbol = Symbol("CompiledEncoder.FAIL")

export type Parser = (input: unknown) => unknown

/** Thrown while compiling a node this module does not compile. */
class Unsupported {}

const options = AST.defaultParseOption

/** The value of a declaration's or transformation's sync answer; `FAIL` for a failure or an effect. */
const settled = (result: unknown): unknown =>
  Either.isEither(result) && Either.isRight(result) ? result.right : FAIL

const dropRightRefinement = (ast: AST.AST): AST.AST =>
  AST.isRefinement(ast) ? dropRightRefinement(ast.from) : ast

const guard =
  (is: (u: unknown) => boolean): Parser =>
  (u) =>
    is(u) ? u : FAIL

/** One compiler per direction, memoised by node as the schema's own parser is (shared nodes compile once). */
const compiler = (decoding: boolean, other: () => (ast: AST.AST) => Parser) => {
  const memo = new Map<AST.AST, Parser>()
  const go = (ast: AST.AST): Parser => {
    const known = memo.get(ast)
    if (known !== undefined) return known
    // A node refers to itself only through a suspension, which is not compiled.
    const parser = node(ast)
    memo.set(ast, parser)
    return parser
  }
  const node = (ast: AST.AST): Parser => {
    switch (ast._tag) {
      case "Refinement": {
        if (decoding) {
          const from = go(ast.from)
          const filter = ast.filter
          return (i) => {
            const a = from(i)
            return a === FAIL || Option.isSome(filter(a, options, ast)) ? FAIL : a
          }
        }
        // Encoding checks the type side whole (every refinement), then encodes what lies under the refinements.
        const check = other()(AST.typeAST(ast))
        const to = go(dropRightRefinement(ast.from))
        return (i) => {
          const a = check(i)
          return a === FAIL ? FAIL : to(a)
        }
      }
      case "Transformation": {
        const kind = ast.transformation
        if (kind._tag === "TypeLiteralTransformation") throw new Unsupported()
        const from = decoding ? go(ast.from) : go(ast.to)
        const to = decoding ? go(ast.to) : go(ast.from)
        if (kind._tag === "ComposeTransformation")
          return (i) => {
            const a = from(i)
            return a === FAIL ? FAIL : to(a)
          }
        const transform = decoding ? kind.decode : kind.encode
        return (i) => {
          const a = from(i)
          if (a === FAIL) return FAIL
          const b = settled(transform(a, options, ast, i))
          return b === FAIL ? FAIL : to(b)
        }
      }
      case "Declaration": {
        const parse = (decoding ? ast.decodeUnknown : ast.encodeUnknown)(...ast.typeParameters)
        return (i) => settled(parse(i, options, ast))
      }
      case "Literal": {
        const literal = ast.literal
        return guard((u) => u === literal)
      }
      case "UndefinedKeyword":
        return guard(Predicate.isUndefined)
      case "StringKeyword":
        return guard(Predicate.isString)
      case "NumberKeyword":
        return guard(Predicate.isNumber)
      case "BooleanKeyword":
        return guard(Predicate.isBoolean)
      case "UnknownKeyword":
      case "AnyKeyword":
        return (u) => u
      case "TupleType": {
        if (ast.elements.some((e) => e.isOptional) || ast.rest.length > 1) throw new Unsupported()
        const elements = ast.elements.map((e) => go(e.type))
        const rest = ast.rest.length === 1 ? go(ast.rest[0]!.type) : undefined
        const required = elements.length
        return (input) => {
          if (!Array.isArray(input)) return FAIL
          const len = input.length
          if (len < required || (rest === undefined && len > required)) return FAIL
          const out = new Array<unknown>(len)
          for (let i = 0; i < len; i++) {
            const v = (i < required ? elements[i]! : rest!)(input[i])
            if (v === FAIL) return FAIL
            out[i] = v
          }
          return out
        }
      }
      case "TypeLiteral": {
        if (ast.indexSignatures.length > 0) throw new Unsupported()
        if (ast.propertySignatures.length === 0) return guard(Predicate.isNotNullable)
        const fields = ast.propertySignatures.map((ps) => ({
          name: ps.name,
          optional: ps.isOptional,
          parse: go(ps.type)
        }))
        const has = Object.prototype.hasOwnProperty
        return (input) => {
          if (!Predicate.isRecord(input)) return FAIL
          // Only the schema's fields, in the schema's order: what the schema's own encoder outputs.
          const out: Record<PropertyKey, unknown> = {}
          for (const f of fields) {
            const present = has.call(input, f.name)
            if (!present && f.optional) continue
            const v = f.parse(input[f.name as keyof typeof input])
            if (v === FAIL) return FAIL
            out[f.name] = v
          }
          return out
        }
      }
      case "Union": {
        // The schema's union tries its members in order unless a member is a struct with a literal field
        // (then it picks candidates by that field): only unions without such members are compiled.
        if (ast.types.some((t) => hasLiteralField(t))) throw new Unsupported()
        const members = ast.types.map(go)
        return (input) => {
          for (const m of members) {
            const v = m(input)
            if (v !== FAIL) return v
          }
          return FAIL
        }
      }
      default:
        throw new Unsupported()
    }
  }
  return go
}

/** Whether a union member is (or encodes from or to) a struct with a literal-typed field. */
const hasLiteralField = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.some((ps) => AST.isLiteral(ps.type))
    case "Refinement":
      return hasLiteralField(ast.from)
    case "Transformation":
      return hasLiteralField(ast.from) || hasLiteralField(ast.to)
    case "Declaration":
      return ast.typeParameters.some(hasLiteralField)
    default:
      return false
  }
}

/** The compiled parser of a schema's AST in one direction; undefined when it has a node this does not compile. */
const compiledParser = (ast: AST.AST, decoding: boolean): Parser | undefined => {
  const decode: (ast: AST.AST) => Parser = compiler(true, () => encode)
  const encode: (ast: AST.AST) => Parser = compiler(false, () => decode)
  try {
    return (decoding ? decode : encode)(ast)
  } catch (e) {
    if (e instanceof Unsupported) return undefined
    throw e
  }
}

/** The compiled encoder of a schema's AST; undefined when it has a node this does not compile. */
export const compile = (ast: AST.AST): Parser | undefined => compiledParser(ast, false)

/**
 * The compiled decoder of a schema's AST (what `Schema.decodeUnknownEither` accepts, as it decodes it);
 * undefined when it has a node this does not compile.
 */
export const compileDecoder = (ast: AST.AST): Parser | undefined => compiledParser(ast, true)

/** Encoders compared with the schema's on every body (tests): a difference throws. */
let checking = false
/** Bodies parsed by a compiled parser and by the schema alone, each way, since the counts were last reset. */
const counts = { encoded: { compiled: 0, schema: 0 }, decoded: { compiled: 0, schema: 0 } }

/**
 * While `on`, every body a compiled encoder accepts is encoded by its schema as well and the two compared
 * (their JSON), and a difference throws: the tests build whole plans this way. Resets the counts.
 */
export const checkAgainstSchema = (on: boolean): void => {
  checking = on
  // In place: each parser holds its tally.
  for (const tally of [counts.encoded, counts.decoded]) {
    tally.compiled = 0
    tally.schema = 0
  }
}

/** How many bodies were parsed by a compiled parser and by the schema alone, each way, since the last reset. */
export const parsedCounts = () => ({ encoded: { ...counts.encoded }, decoded: { ...counts.decoded } })

/**
 * `compiled` where it accepts a value, `bySchema` where it refuses one or where there is no compiled parser;
 * `tally` counts which answered.
 */
const orBySchema =
  <R>(
    compiled: Parser | undefined,
    bySchema: (u: unknown) => R,
    answer: (parsed: unknown, u: unknown) => R,
    tally: { compiled: number; schema: number }
  ) =>
  (u: unknown): R => {
    const parsed = compiled === undefined ? FAIL : compiled(u)
    if (parsed === FAIL) {
      tally.schema++
      return bySchema(u)
    }
    tally.compiled++
    return answer(parsed, u)
  }

/**
 * The encoder of a body schema: its compiled encoder, and the schema's own where that refuses a value (the
 * schema then throws its `ParseError`) or the schema could not be compiled. One per schema.
 */
export const encoderOf: <A, I>(schema: Schema.Schema<A, I>) => (body: A) => I = rememberedFor(
  (schema: Schema.Schema<unknown, unknown>) => {
    const bySchema = Schema.encodeSync(schema)
    const checked = (fast: unknown, body: unknown) => {
      if (!checking) return fast
      let slow: string
      try {
        slow = JSON.stringify(bySchema(body))
      } catch (e) {
        throw new Error(
          `the compiled encoder of ${String(schema.ast)} accepted ${JSON.stringify(fast)}, which the schema refuses: ${String(e)}`
        )
      }
      if (JSON.stringify(fast) !== slow)
        throw new Error(
          `the compiled encoder of ${String(schema.ast)} gave ${JSON.stringify(fast)} where the schema gives ${slow}`
        )
      return fast
    }
    return orBySchema(compile(schema.ast), bySchema, checked, counts.encoded)
  }
) as <A, I>(schema: Schema.Schema<A, I>) => (body: A) => I

/**
 * The decoder of a body schema, as `Schema.decodeUnknownEither` gives it: its compiled decoder, and the
 * schema's own where that refuses a value (its `ParseError` says why) or the schema could not be compiled.
 * One per schema.
 */
export const decoderOf: <A, I>(
  schema: Schema.Schema<A, I>
) => (input: unknown) => Either.Either<A, ParseResult.ParseError> = rememberedFor(
  (schema: Schema.Schema<unknown, unknown>) =>
    orBySchema(
      compileDecoder(schema.ast),
      Schema.decodeUnknownEither(schema),
      (decoded) => Either.right(decoded),
      counts.decoded
    )
) as <A, I>(schema: Schema.Schema<A, I>) => (input: unknown) => Either.Either<A, ParseResult.ParseError>
