/**
 * Groups the operations a load could not complete into what the user must do: rejected by the platform
 * (fix the source or the mappings, then `load --retry-rejected`), skipped because a dependency failed (fix
 * that one), in doubt or pending (run `load` again). Each names its source rows.
 */
import type { Problem } from "../staging/Checkpoints.js"

export interface ProblemGroup {
  readonly status: string
  readonly what: string
  readonly action: string
  readonly problems: ReadonlyArray<Problem>
}

const actions: Record<string, { what: string; action: string }> = {
  rejected: {
    what: "refused by the platform or not valid to send",
    action: "fix the source rows or the mappings, run plan again, then load --retry-rejected"
  },
  skipped: {
    what: "not sent because something they depend on did not complete",
    action: "fix the operation named in the reason; they follow it"
  },
  in_doubt: {
    what: "sent, outcome unknown and not yet resolved",
    action: "run load again: they are looked up by natural key before any resend"
  },
  pending: { what: "not completed in this run (transient failures)", action: "run load again" },
  sending: {
    what: "interrupted while being sent",
    action: "run load again: they are looked up by natural key before any resend"
  }
}

export const group = (problems: ReadonlyArray<Problem>): Array<ProblemGroup> =>
  Object.entries(actions).flatMap(([status, a]) => {
    const ps = problems.filter((p) => p.status === status)
    return ps.length === 0 ? [] : [{ status, ...a, problems: ps }]
  })

/** Terminal lines: one heading per group, then each operation with its reason and first source row. */
export const lines = (groups: ReadonlyArray<ProblemGroup>, limit = 20): Array<string> =>
  groups.flatMap((g) => [
    `${g.problems.length} ${g.status}: ${g.what}. What to do: ${g.action}.`,
    ...g.problems.slice(0, limit).map((p) => `  ${p.key} (${p.lineage[0] ?? "no source row"}): ${p.error}`),
    ...(g.problems.length > limit ? [`  … and ${g.problems.length - limit} more (see problems.json)`] : [])
  ])
