/**
 * Checks one recorded exchange against the platform's document. A request: the operation it reaches
 * (directly, or through a specification route in the allow-list), its body against that operation's schema,
 * the path parameters the body echoes, and the JSON content type. A response: its status among those the
 * operation documents, its body against that status's schema (or, through the allow-list, against the shape
 * the specification gives instead), what the specification adds to an untyped create (the new id), and the
 * JSON content type. Violations the allow-list excuses are set apart with the entry that excused them; the
 * rest fail the test, described so they can be read in the output.
 */
import type { Conflict, OperationId, ResponseConflict, RouteConflict } from "./Conflicts.js"
import { matchTemplate, type Operation, type PlatformDocument, type Violation } from "./OpenApi.js"
import type { Recorded } from "./RecordingProxy.js"
import { createsWithId, shapes, type Shape } from "./Specification.js"

export interface Checked {
  readonly side: "request" | "response"
  readonly request: Recorded
  /** The body checked, as parsed (the raw text when it is not JSON). */
  readonly body: unknown
  /** The operation the request reaches: the document's, or the specification's for a routed request. */
  readonly operation: string | undefined
  /** The document operation whose schemas the exchange was checked against. */
  readonly validatedAs: Operation | undefined
  /** The specification's shape a response was checked against instead of the document's, if any. */
  readonly shape: Shape | undefined
  readonly violations: ReadonlyArray<Violation>
  readonly excusedBy: ReadonlyArray<Conflict>
}

const violation = (keyword: string, field: string, message: string): Violation => ({
  keyword,
  field,
  instancePath: field,
  message,
  definition: undefined
})

const templateOf = (id: OperationId) => id.slice(id.indexOf(" ") + 1)

const segmentsOf = (path: string) =>
  path
    .split("?")[0]!
    .split("/")
    .filter((s) => s !== "")

const lastSegment = (pointer: string) => pointer.slice(pointer.lastIndexOf("/") + 1)

/** Does `conflict` excuse `v`, found on a request or response body checked against `operation`? */
export const excuses = (
  conflict: Conflict,
  operation: Operation,
  v: Violation,
  side: Checked["side"] = "request"
): boolean => {
  switch (conflict.kind) {
    case "route":
    case "response":
      return false
    case "field":
      return (
        side === "request" &&
        conflict.operation === operation.id &&
        conflict.field === v.field &&
        conflict.keyword === v.keyword
      )
    case "definition":
      return (
        conflict.definition === v.definition &&
        conflict.field === lastSegment(v.field) &&
        conflict.keyword === v.keyword
      )
  }
}

interface Routed {
  readonly operation: string
  readonly validatedAs: Operation | undefined
  readonly params: Record<string, string>
  readonly via?: RouteConflict
}

const route = (
  platform: PlatformDocument,
  conflicts: ReadonlyArray<Conflict>,
  request: Recorded
): Routed | undefined => {
  const concrete = segmentsOf(request.path)
  for (const c of conflicts) {
    if (c.kind !== "route" || !c.operation.startsWith(`${request.method} `)) continue
    const found = matchTemplate(templateOf(c.operation), concrete)
    if (found)
      return {
        operation: c.operation,
        validatedAs: platform.byId(c.validateAs),
        params: found.params,
        via: c
      }
  }
  const direct = platform.match(request.method, request.path)
  if (direct) return { operation: direct.operation.id, validatedAs: direct.operation, params: direct.params }
  for (const c of conflicts) {
    if (c.kind !== "response") continue
    for (const op of c.operations) {
      if (!op.startsWith(`${request.method} `)) continue
      const found = matchTemplate(templateOf(op), concrete)
      if (found) return { operation: op, validatedAs: undefined, params: found.params }
    }
  }
  return undefined
}

const parsed = (raw: string, found: Array<Violation>, what: string): unknown => {
  if (raw === "") return undefined
  try {
    return JSON.parse(raw)
  } catch {
    found.push(violation("json", "", `the ${what} is not JSON`))
    return raw
  }
}

const contentType = (type: string | undefined, found: Array<Violation>) => {
  if (!/^application\/json\b/i.test(type ?? ""))
    found.push(violation("contentType", "", `content type ${JSON.stringify(type)}, not application/json`))
}

const noOperation = (request: Recorded) =>
  violation(
    "operation",
    "",
    `no operation in the document for ${request.method} ${request.path.split("?")[0]}`
  )

/** Sets apart the violations the allow-list excuses, and records which entries did. */
const excused = (
  conflicts: ReadonlyArray<Conflict>,
  op: Operation | undefined,
  found: ReadonlyArray<Violation>,
  side: Checked["side"],
  already: ReadonlyArray<Conflict | undefined>
) => {
  const excusedBy = new Set<Conflict>(already.filter((c): c is Conflict => c !== undefined))
  const violations = found.filter((v) => {
    const c = op && conflicts.find((c) => excuses(c, op, v, side))
    if (c) excusedBy.add(c)
    return c === undefined
  })
  return { violations, excusedBy: [...excusedBy] }
}

/** Checks a recorded request that carries a body. */
export const check = (
  platform: PlatformDocument,
  conflicts: ReadonlyArray<Conflict>,
  request: Recorded
): Checked => {
  const found: Array<Violation> = []
  const body = parsed(request.body, found, "body")
  contentType(request.contentType, found)
  const routed = route(platform, conflicts, request)
  const base = { side: "request" as const, request, body, operation: routed?.operation, shape: undefined }
  if (!routed?.validatedAs)
    return { ...base, validatedAs: undefined, violations: [...found, noOperation(request)], excusedBy: [] }
  const op = routed.validatedAs
  found.push(...platform.validate(op, body))
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    for (const [name, value] of Object.entries(routed.params)) {
      const echoed = (body as Record<string, unknown>)[name]
      if (echoed !== undefined && echoed !== value) {
        found.push(
          violation(
            "echo",
            `/${name}`,
            `the path says ${name}=${JSON.stringify(value)}, the body ${JSON.stringify(echoed)}`
          )
        )
      }
    }
  }
  return { ...base, validatedAs: op, ...excused(conflicts, op, found, "request", [routed.via]) }
}

/** The allow-list entry that gives a success body of `operation` the specification's shape instead. */
const shapeFor = (conflicts: ReadonlyArray<Conflict>, operation: string): ResponseConflict | undefined =>
  conflicts.find(
    (c): c is ResponseConflict => c.kind === "response" && c.operations.some((o) => o === operation)
  )

/** Checks the response a recorded request got. */
export const checkResponse = (
  platform: PlatformDocument,
  conflicts: ReadonlyArray<Conflict>,
  request: Recorded
): Checked => {
  const found: Array<Violation> = []
  const status = request.status ?? 0
  const body = parsed(request.response?.body ?? "", found, "response body")
  if (request.response === undefined) found.push(violation("response", "", "no response was recorded"))
  else contentType(request.response.contentType, found)
  const routed = route(platform, conflicts, request)
  const op = routed?.validatedAs
  const success = status >= 200 && status < 300
  const instead = routed && success ? shapeFor(conflicts, op?.id ?? routed.operation) : undefined
  const base = { side: "response" as const, request, body, operation: routed?.operation, validatedAs: op }
  if (!op && !instead)
    return { ...base, shape: undefined, violations: [...found, noOperation(request)], excusedBy: [] }
  if (instead) {
    if (op) found.push(...platform.validateStatus(op, status))
    found.push(...platform.checkWritten(shapes[instead.validateAs], body))
  } else if (op) found.push(...platform.validateResponse(op, status, body))
  if (op && success && createsWithId.operations.includes(op.id as OperationId))
    found.push(...platform.checkWritten(createsWithId.schema, body))
  const distinct = [...new Map(found.map((v) => [`${v.keyword} ${v.field}`, v])).values()]
  return {
    ...base,
    shape: instead?.validateAs,
    ...excused(conflicts, op, distinct, "response", [routed?.via, instead])
  }
}

/** An allow-list entry as a line (a response entry once per operation it names). */
export const conflictNames = (c: Conflict): ReadonlyArray<string> =>
  c.kind === "route"
    ? [`route ${c.operation}`]
    : c.kind === "response"
      ? c.operations.map((o) => `response of ${o} as ${c.validateAs}`)
      : c.kind === "field"
        ? [`${c.keyword} ${c.field} on ${c.operation}`]
        : [`${c.keyword} ${c.field} in ${c.definition}`]

/** The allow-list entries (for a response entry, the operations) no checked exchange needed. */
export const unused = (
  conflicts: ReadonlyArray<Conflict>,
  checked: ReadonlyArray<Checked>
): Array<string> => {
  const used = new Set<string>()
  for (const c of checked)
    for (const e of c.excusedBy)
      used.add(
        e.kind === "response"
          ? `response of ${c.validatedAs?.id ?? c.operation} as ${e.validateAs}`
          : conflictNames(e)[0]!
      )
  return conflicts.flatMap(conflictNames).filter((name) => !used.has(name))
}

const shorten = (s: string, max = 1500) => (s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s)

/** One violation as a line: keyword, field, instancePath, the definition that failed, ajv's message. */
export const describeViolation = (v: Violation): string =>
  `${v.keyword} at ${v.field || "(body)"} (instancePath ${JSON.stringify(v.instancePath)}${v.definition ? `, in ${v.definition}` : ""}): ${v.message}`

const against = (c: Checked): string => {
  if (!c.validatedAs && !c.shape) return `${c.request.method} ${c.request.path.split("?")[0]}`
  const routedFrom = c.validatedAs && c.operation !== c.validatedAs.id ? ` of ${c.validatedAs.id}` : ""
  if (c.side === "request")
    return `${c.operation} (body schema ${c.validatedAs?.bodyDefinition ?? "inline"}${routedFrom})`
  const schema = c.shape
    ? `the specification's ${c.shape}`
    : (c.validatedAs?.responses.get(c.request.status ?? 0)?.$ref as string | undefined)?.replace(
        "#/definitions/",
        ""
      )
  return `${c.operation} → HTTP ${c.request.status} (response schema ${schema ?? "inline"}${routedFrom})`
}

/**
 * The failures, grouped by operation and the set of violations (so 250 payments failing alike are one
 * entry with a count), each group with its first offending exchange and body.
 */
export const describeFailures = (failed: ReadonlyArray<Checked>): string => {
  const groups = new Map<string, { count: number; example: Checked }>()
  for (const c of failed) {
    const lines = [
      ...new Set(
        c.violations.map(
          (v) => `  - ${v.keyword} at ${v.field || "(body)"}${v.definition ? ` in ${v.definition}` : ""}`
        )
      )
    ]
    const key = [against(c), ...lines].join("\n")
    const g = groups.get(key)
    if (g) g.count++
    else groups.set(key, { count: 1, example: c })
  }
  return [...groups]
    .map(([key, { count, example }]) => {
      const body = typeof example.body === "string" ? example.body : JSON.stringify(example.body)
      const first = example.violations.map((v) => `    ${describeViolation(v)}`).join("\n")
      return `${key}\n  ${count} ${example.side}(s); the first, #${example.request.seq} ${example.request.method} ${example.request.path}:\n${first}\n    ${example.side} body: ${shorten(body ?? "")}`
    })
    .join("\n\n")
}
