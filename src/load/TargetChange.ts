/**
 * Whether the real target is still as the rehearsal saw it: before a rehearsed plan's first write, `load`
 * reads a fresh snapshot (read-only, `MirrorSnapshot.take`) and compares its sha256 with the one the
 * rehearsal mirrored. A different hash is a `TargetChanged` naming the sections that differ (when the
 * rehearsal's snapshot is still saved in the workspace), so the user rehearses again rather than trusting a
 * rehearsal of another target state.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as NodeFs from "node:fs"
import * as MirrorSnapshot from "./MirrorSnapshot.js"
import type { SnapshotContent } from "./MirrorSnapshot.js"

/** The sections of two snapshots' contents that differ, with their sizes then and now ("contacts 5 → 6"). */
export const differences = (then: SnapshotContent, now: SnapshotContent): Array<string> =>
  (Object.keys(now) as Array<keyof SnapshotContent>)
    .filter((k) => JSON.stringify(then[k]) !== JSON.stringify(now[k]))
    .map((k) => {
      const size = (v: unknown) => (Array.isArray(v) ? ` ${v.length}` : "")
      return Array.isArray(now[k]) ? `${k}${size(then[k])} →${size(now[k])}` : k
    })

/** The target is not as it was when the plan was rehearsed: the rehearsal no longer predicts the load. */
export class TargetChanged extends Schema.TaggedError<TargetChanged>()("TargetChanged", {
  where: Schema.String,
  rehearsed: Schema.String,
  now: Schema.String,
  runId: Schema.String,
  sections: Schema.Array(Schema.String)
}) {
  override get message() {
    return `${this.where} has changed since the rehearsal ${this.runId} (snapshot ${this.rehearsed.slice(0, 12)} then, ${this.now.slice(0, 12)} now${this.sections.length > 0 ? `: ${this.sections.join(", ")}` : ""}), so that rehearsal no longer predicts this load. Run rehearse again (and plan first if the target's chart, tax profiles or contacts changed), or pass --force to load anyway.`
  }
}

/**
 * The target compared with the rehearsal's snapshot (`rehearsedHash`, of run `runId`; `savedFile` is where
 * the rehearsal saved it, to name the sections that changed): undefined when it is the same.
 */
export const check = (rehearsedHash: string, runId: string, savedFile: string) =>
  Effect.gen(function* () {
    const now = yield* MirrorSnapshot.take
    if (now.sha256 === rehearsedHash) return undefined
    const then = NodeFs.existsSync(savedFile)
      ? yield* MirrorSnapshot.load(savedFile).pipe(Effect.option)
      : Option.none()
    return new TargetChanged({
      where: now.baseUrl,
      rehearsed: rehearsedHash,
      now: now.sha256,
      runId,
      sections:
        Option.isSome(then) && then.value.sha256 === rehearsedHash
          ? differences(then.value.content, now.content)
          : []
    })
  })
