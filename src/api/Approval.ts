/**
 * The review of a generated document before it is kept: the draft is shown, then `Approve? [Y/n/reject
 * <reason>]`. Nothing is written until it is approved, so a refusal, an unusable reason or input that ends
 * without an answer leaves the out directory as it was (an existing file included). A rejection's reason is
 * appended to `rejections.log` in the out directory; when it is an instruction the tool understands (see
 * `Revisions`) the draft is revised and shown again.
 *
 * Exit codes: 0 the document was written; 1 it was not (declined, or a reason the tool cannot act on);
 * a missing answer is the `NoAnswer` failure.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as NodePath from "node:path"
import { Answers } from "./Answers.js"
import { generate, render } from "./OpenApiDocument.js"
import type { Resource } from "./Resource.js"
import * as Revisions from "./Revisions.js"

export const question = "Approve? [Y/n/reject <reason>]"

/** Input ended before an answer was given, and `--yes` was not: nothing was written. */
export class NoAnswer extends Schema.TaggedError<NoAnswer>()("NoAnswer", { path: Schema.String }) {
  override get message() {
    return `no answer on standard input, so ${this.path} was not written: answer Y, n or reject <reason> on standard input (a terminal or a pipe), or pass --yes to approve without asking`
  }
}

export type Answer = Data.TaggedEnum<{
  Approve: {}
  Decline: {}
  Reject: { readonly reason: string }
  Unclear: {}
}>
export const Answer = Data.taggedEnum<Answer>()

/** One line of input as an answer: `Y`/`y`/`yes` or an empty line approve, `n`/`no` declines. */
export const parseAnswer = (line: string): Answer => {
  const text = line.trim()
  if (/^(y|yes)?$/i.test(text)) return Answer.Approve()
  if (/^(n|no)$/i.test(text)) return Answer.Decline()
  const reject = text.match(/^reject(?:\s+(.*))?$/i)
  return reject ? Answer.Reject({ reason: (reject[1] ?? "").trim() }) : Answer.Unclear()
}

export interface Review {
  readonly resource: Resource
  readonly outDir: string
  /** Approve without asking (and so replace an existing file). */
  readonly yes: boolean
}

/** Where `resource`'s document is written in `outDir`. */
export const documentPath = (outDir: string, resource: Resource) =>
  NodePath.join(outDir, `${resource.endpoint}.yaml`)
export const rejectionsLog = (outDir: string) => NodePath.join(outDir, "rejections.log")

/** Shows the draft, asks, revises on understood rejections, and writes the document once approved. */
export const review = Effect.fn("Approval.review")(function* ({ resource: proposed, outDir, yes }: Review) {
  const fs = yield* FileSystem.FileSystem
  const path = documentPath(outDir, proposed)
  const existed = yield* fs.exists(path)
  const show = (text: string) => Console.log(`Draft of ${path} (written only when approved):\n\n${text}`)
  const write = (text: string) =>
    Effect.gen(function* () {
      yield* fs.makeDirectory(outDir, { recursive: true })
      const temporary = `${path}.${process.pid}.tmp`
      yield* fs.writeFileString(temporary, text)
      yield* fs.rename(temporary, path)
      yield* Console.log(`${existed ? "Replaced" : "Wrote"} ${path}`)
      return 0
    })
  const record = (reason: string, outcome: string) =>
    fs
      .makeDirectory(outDir, { recursive: true })
      .pipe(
        Effect.zipRight(
          fs.writeFileString(
            rejectionsLog(outDir),
            `${new Date().toISOString()}\t${proposed.endpoint}\t${outcome}\t${reason}\n`,
            { flag: "a" }
          )
        )
      )

  if (yes) {
    const text = render(generate(proposed))
    yield* show(text)
    if (existed) yield* Console.log(`${path} exists: --yes replaces it`)
    return yield* write(text)
  }

  const answers = yield* Answers
  let resource = proposed
  for (;;) {
    const text = render(generate(resource))
    yield* show(text)
    if (existed)
      yield* Console.log(`${path} exists: approving replaces it; any other answer leaves it as it is`)
    const answer = yield* ask(answers, path)
    if (answer._tag === "Approve") return yield* write(text)
    if (answer._tag === "Decline") {
      yield* Console.log(
        `Not approved: ${path} was not written${existed ? " (the existing file is unchanged)" : ""}`
      )
      return 1
    }
    const revised = Revisions.parse(answer.reason).pipe(
      Either.flatMap((instructions) =>
        Revisions.apply(resource, instructions).pipe(Either.map((revised) => ({ revised, instructions })))
      )
    )
    if (Either.isRight(revised)) {
      yield* record(answer.reason, "applied")
      yield* Console.log(
        `Rejected; revising: ${revised.right.instructions.map(Revisions.describe).join("; ")}`
      )
      resource = revised.right.revised
      continue
    }
    const refused = revised.left
    yield* record(answer.reason, refused.reason === "NotUnderstood" ? "not understood" : "cannot apply")
    yield* Console.error(refused.message)
    yield* Console.log(
      [
        `Rejected: ${path} was not written${existed ? " (the existing file is unchanged)" : ""}; the reason is recorded in ${rejectionsLog(outDir)}.`,
        `Instructions this tool carries out after reject (join several with ';'):`,
        ...Revisions.understood.map((i) => `  reject ${i}`)
      ].join("\n")
    )
    return 1
  }
})

/** Asks until the answer is usable: unclear answers and a `reject` without a reason are asked again. */
const ask = (answers: Answers["Type"], path: string) =>
  Effect.gen(function* () {
    for (;;) {
      const line = yield* answers.ask(question)
      if (Option.isNone(line)) return yield* new NoAnswer({ path })
      const answer = parseAnswer(line.value)
      if (answer._tag === "Unclear")
        yield* Console.log("Answer Y (keep it), n (discard it) or reject <reason>.")
      else if (answer._tag === "Reject" && answer.reason === "")
        yield* Console.log("Say why: reject <reason>.")
      else return answer
    }
  })
