/**
 * Invariant 4's write-ahead, watched from the sandbox's side: when the sandbox commits a create, at least as
 * many operations as it has created so far have a durable intent (or outcome) in the loader's checkpoints,
 * read through a connection of the watch's own. An operation sent before its intent was committed shows as
 * a create with fewer durable intents than creates.
 */
import Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"

/** A watch over the checkpoints of `workspace`: pass `onWrite` to the sandbox; `early` lists what it caught. */
export const intentWatch = (workspace: string) =>
  Effect.gen(function* () {
    const early: Array<string> = []
    let created = 0
    let checkpoints: Database.Database | undefined
    yield* Effect.addFinalizer(() => Effect.sync(() => checkpoints?.close()))
    const onWrite = (method: string, path: string): void => {
      if (method !== "POST") return
      created++
      checkpoints ??= new Database(NodePath.join(workspace, "staging.db"), { readonly: true })
      const { n } = checkpoints
        .prepare("SELECT count(*) AS n FROM checkpoints WHERE status <> 'pending'")
        .get() as { n: number }
      if (n < created) early.push(`${path}: create ${created} with ${n} durable intents`)
    }
    return { onWrite, early, created: () => created }
  })
