/**
 * The reasons of a `reject <reason>` that the tool can carry out itself: `add field NAME:TYPE[:required]`,
 * `remove field NAME`, `rename field OLD to NEW`, `remove get`, `remove post` (several joined with `;`).
 * `parse` reads a reason into instructions; `apply` revises a resource with them, or says why it cannot.
 * Either way the reason is all or nothing: one part not understood or not applicable refuses the whole.
 */
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { type Field, fieldName, parseField } from "./Fields.js"
import type { Operation, Resource } from "./Resource.js"

export type Instruction = Data.TaggedEnum<{
  AddField: { readonly field: Field }
  RemoveField: { readonly name: string }
  RenameField: { readonly from: string; readonly to: string }
  RemoveOperation: { readonly operation: Operation }
}>
export const Instruction = Data.taggedEnum<Instruction>()

export const understood = [
  "add field NAME:TYPE[:required]",
  "remove field NAME",
  "rename field OLD to NEW",
  "remove get",
  "remove post"
] as const

/** A reason the tool cannot act on: not one of `understood`, or not possible for this resource. */
export class InstructionRefused extends Schema.TaggedError<InstructionRefused>()("InstructionRefused", {
  instruction: Schema.String,
  reason: Schema.Literal("NotUnderstood", "CannotApply"),
  detail: Schema.String
}) {
  override get message() {
    return this.reason === "NotUnderstood"
      ? `'${this.instruction}' is not an instruction this tool understands`
      : `cannot ${this.instruction}: ${this.detail}`
  }
}

const notUnderstood = (instruction: string) =>
  new InstructionRefused({ instruction, reason: "NotUnderstood", detail: "" })
const cannot = (instruction: string, detail: string) =>
  new InstructionRefused({ instruction, reason: "CannotApply", detail })

const parseOne = (text: string): Either.Either<Instruction, InstructionRefused> => {
  const instruction = text.trim().replace(/\s+/g, " ")
  const refuse = (e: { readonly detail: string }) => cannot(instruction, e.detail)
  let m: RegExpMatchArray | null
  if ((m = instruction.match(/^add field (\S+)$/i))) {
    return parseField(m[1]!).pipe(
      Either.mapBoth({ onLeft: refuse, onRight: (field) => Instruction.AddField({ field }) })
    )
  }
  if ((m = instruction.match(/^remove field (\S+)$/i))) {
    return fieldName(m[1]!).pipe(
      Either.mapBoth({ onLeft: refuse, onRight: (name) => Instruction.RemoveField({ name }) })
    )
  }
  if ((m = instruction.match(/^rename field (\S+) to (\S+)$/i))) {
    const [from, to] = [m[1]!, m[2]!]
    return Either.all([fieldName(from), fieldName(to)]).pipe(
      Either.mapBoth({ onLeft: refuse, onRight: ([from, to]) => Instruction.RenameField({ from, to }) })
    )
  }
  if ((m = instruction.match(/^remove (get|post)$/i))) {
    return Either.right(Instruction.RemoveOperation({ operation: m[1]!.toLowerCase() as Operation }))
  }
  return Either.left(notUnderstood(instruction))
}

/** The instructions in a rejection's reason, in order. */
export const parse = (reason: string): Either.Either<ReadonlyArray<Instruction>, InstructionRefused> => {
  const parts = reason.split(";").filter((p) => p.trim() !== "")
  return parts.length === 0 ? Either.left(notUnderstood(reason)) : Either.all(parts.map(parseOne))
}

/** What an instruction says, as a person would type it. */
export const describe = Instruction.$match({
  AddField: ({ field }) => `add field ${field.name}:${field.type}${field.required ? ":required" : ""}`,
  RemoveField: ({ name }) => `remove field ${name}`,
  RenameField: ({ from, to }) => `rename field ${from} to ${to}`,
  RemoveOperation: ({ operation }) => `remove ${operation}`
})

const applyOne = (
  resource: Resource,
  instruction: Instruction
): Either.Either<Resource, InstructionRefused> => {
  const { endpoint, fields, operations } = resource
  const what = resource.kind === "auth" ? "the User" : endpoint
  const has = (name: string) => fields.some((f) => f.name === name)
  const fieldList = fields.map((f) => f.name).join(", ")
  const refuse = (detail: string) => Either.left(cannot(describe(instruction), detail))
  switch (instruction._tag) {
    case "AddField":
      if (has(instruction.field.name)) return refuse(`${what} already has a field ${instruction.field.name}`)
      return Either.right({ ...resource, fields: [...fields, instruction.field] })
    case "RemoveField":
      if (!has(instruction.name))
        return refuse(`${what} has no field ${instruction.name} (its fields: ${fieldList})`)
      if (fields.length === 1) return refuse(`${instruction.name} is the only field of ${what}`)
      return Either.right({ ...resource, fields: fields.filter((f) => f.name !== instruction.name) })
    case "RenameField": {
      const { from, to } = instruction
      if (!has(from)) return refuse(`${what} has no field ${from} (its fields: ${fieldList})`)
      if (has(to)) return refuse(`${what} already has a field ${to}`)
      return Either.right({
        ...resource,
        fields: fields.map((f) => (f.name === from ? { ...f, name: to } : f))
      })
    }
    case "RemoveOperation":
      if (resource.kind === "auth") return refuse("the auth document has one operation, POST /auth/login")
      if (!operations.includes(instruction.operation))
        return refuse(`${instruction.operation} is already removed`)
      if (operations.length === 1) return refuse(`${instruction.operation} is the only operation left`)
      return Either.right({ ...resource, operations: operations.filter((o) => o !== instruction.operation) })
  }
}

/** `resource` revised by `instructions` in order, or the first that cannot be carried out. */
export const apply = (
  resource: Resource,
  instructions: ReadonlyArray<Instruction>
): Either.Either<Resource, InstructionRefused> =>
  instructions.reduce<Either.Either<Resource, InstructionRefused>>(
    (revised, instruction) => Either.flatMap(revised, (r) => applyOne(r, instruction)),
    Either.right(resource)
  )
