/**
 * Checks one recorded request against the platform's document: the operation it reaches (directly, or
 * through a specification route in the allow-list), its body against that operation's schema, the path
 * parameters the body echoes, and the JSON content type. Violations the allow-list excuses are set apart
 * with the entry that excused them; the rest fail the test, described so they can be read in the output.
 */
import type { Conflict, OperationId, RouteConflict } from "./Conflicts.js"
import { matchTemplate, type Operation, type PlatformDocument, type Violation } from "./OpenApi.js"
import type { Recorded } from "./RecordingProxy.js"

export interface Checked {
  readonly request: Recorded
  /** The body as parsed (the raw text when it is not JSON). */
  readonly body: unknown
  /** The operation the request reaches: the document's, or the specification's for a routed request. */
  readonly operation: string | undefined
  /** The document operation whose schema the body was checked against. */
  readonly validatedAs: Operation | undefined
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

/** Does `conflict` excuse `v`, found on a body checked against `operation`? */
export const excuses = (conflict: Conflict, operation: Operation, v: Violation): boolean => {
  switch (conflict.kind) {
    case "route":
      return false
    case "field":
      return (
        conflict.operation === operation.id && conflict.field === v.field && conflict.keyword === v.keyword
      )
    case "definition":
      return (
        conflict.definition === v.definition &&
        conflict.field === lastSegment(v.field) &&
        conflict.keyword === v.keyword
      )
  }
}

const route = (
  platform: PlatformDocument,
  conflicts: ReadonlyArray<Conflict>,
  request: Recorded
):
  | {
      operation: string
      validatedAs: Operation | undefined
      params: Record<string, string>
      via?: RouteConflict
    }
  | undefined => {
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
  return direct && { operation: direct.operation.id, validatedAs: direct.operation, params: direct.params }
}

/** Checks a recorded request that carries a body. */
export const check = (
  platform: PlatformDocument,
  conflicts: ReadonlyArray<Conflict>,
  request: Recorded
): Checked => {
  let body: unknown = request.body
  const found: Array<Violation> = []
  try {
    body = JSON.parse(request.body)
  } catch {
    found.push(violation("json", "", "the body is not JSON"))
  }
  if (!/^application\/json\b/i.test(request.contentType ?? "")) {
    found.push(
      violation(
        "contentType",
        "",
        `content type ${JSON.stringify(request.contentType)}, not application/json`
      )
    )
  }
  const routed = route(platform, conflicts, request)
  if (!routed?.validatedAs) {
    return {
      request,
      body,
      operation: routed?.operation,
      validatedAs: undefined,
      violations: [
        ...found,
        violation(
          "operation",
          "",
          `no operation in the document for ${request.method} ${request.path.split("?")[0]}`
        )
      ],
      excusedBy: []
    }
  }
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
  const excusedBy = new Set<Conflict>(routed.via ? [routed.via] : [])
  const violations = found.filter((v) => {
    const c = conflicts.find((c) => excuses(c, op, v))
    if (c) excusedBy.add(c)
    return c === undefined
  })
  return {
    request,
    body,
    operation: routed.operation,
    validatedAs: op,
    violations,
    excusedBy: [...excusedBy]
  }
}

const shorten = (s: string, max = 1500) => (s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s)

/** One violation as a line: keyword, field, instancePath, the definition that failed, ajv's message. */
export const describeViolation = (v: Violation): string =>
  `${v.keyword} at ${v.field || "(body)"} (instancePath ${JSON.stringify(v.instancePath)}${v.definition ? `, in ${v.definition}` : ""}): ${v.message}`

/**
 * The failures, grouped by operation and the set of violations (so 250 payments failing alike are one
 * entry with a count), each group with its first offending request and body.
 */
export const describeFailures = (failed: ReadonlyArray<Checked>): string => {
  const groups = new Map<string, { count: number; example: Checked }>()
  for (const c of failed) {
    const on = c.validatedAs
      ? `${c.operation} (body schema ${c.validatedAs.bodyDefinition ?? "inline"}${c.operation === c.validatedAs.id ? "" : ` of ${c.validatedAs.id}`})`
      : `${c.request.method} ${c.request.path.split("?")[0]}`
    const lines = [
      ...new Set(
        c.violations.map(
          (v) => `  - ${v.keyword} at ${v.field || "(body)"}${v.definition ? ` in ${v.definition}` : ""}`
        )
      )
    ]
    const key = [on, ...lines].join("\n")
    const g = groups.get(key)
    if (g) g.count++
    else groups.set(key, { count: 1, example: c })
  }
  return [...groups]
    .map(([key, { count, example }]) => {
      const body = typeof example.body === "string" ? example.body : JSON.stringify(example.body)
      const first = example.violations.map((v) => `    ${describeViolation(v)}`).join("\n")
      return `${key}\n  ${count} request(s); the first, #${example.request.seq} ${example.request.method} ${example.request.path}:\n${first}\n    body: ${shorten(body)}`
    })
    .join("\n\n")
}
