/**
 * A person's answers to the tool's questions, one line each, read from standard input whether it is a
 * terminal or a pipe. One reader serves the whole session, so lines piped in ahead of their question wait
 * their turn instead of being lost; `ask` gives `None` once the input has ended (or was never there).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import * as Readline from "node:readline"

export class Answers extends Context.Tag("api/Answers")<
  Answers,
  {
    /** Shows `question` and waits for the next line; `None` when there are no more. */
    readonly ask: (question: string) => Effect.Effect<Option.Option<string>>
  }
>() {}

const write = (output: NodeJS.WritableStream, text: string) =>
  Effect.async<void>((resume) => void output.write(text, () => resume(Effect.void)))

/** Answers from `input`, questions to `output`; a piped answer is echoed so the transcript reads whole. */
export const make = (
  input: NodeJS.ReadableStream & { readonly isTTY?: boolean },
  output: NodeJS.WritableStream
) =>
  Effect.gen(function* () {
    const lines = yield* Mailbox.make<string>()
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        const reader = Readline.createInterface({ input, crlfDelay: Infinity, terminal: false })
        reader.on("line", (line) => lines.unsafeOffer(line))
        reader.on("close", () => lines.unsafeDone(Exit.void))
        input.on("error", () => reader.close())
        return reader
      }),
      (reader) => Effect.sync(() => reader.close())
    )
    return Answers.of({
      ask: (question) =>
        write(output, `${question} `).pipe(
          Effect.zipRight(Effect.optionFromOptional(lines.take)),
          Effect.tap((answer) =>
            input.isTTY ? Effect.void : write(output, `${Option.getOrElse(answer, () => "")}\n`)
          )
        )
    })
  })

/** Answers from standard input, questions on standard output. */
export const layer = Layer.scoped(
  Answers,
  Effect.suspend(() => make(process.stdin, process.stdout))
)

/** Nobody to ask (`--yes`): standard input is left alone. */
export const none = Layer.succeed(Answers, Answers.of({ ask: () => Effect.succeedNone }))

/** Answers given in advance (for tests): each question takes the next, then `None`. */
export const fromLines = (answers: ReadonlyArray<string>, asked: Array<string> = []) =>
  Layer.sync(Answers, () => {
    let next = 0
    return Answers.of({
      ask: (question) =>
        Effect.sync(() => {
          asked.push(question)
          return Option.fromNullable(answers[next++])
        })
    })
  })
