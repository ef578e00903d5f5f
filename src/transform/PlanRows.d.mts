/** Types of `PlanRows.mjs` for the TypeScript that imports it: the row is `Plan.OpRow`. */
import type { OpKind, OpRow, Phase } from "./Plan.js"

export declare const opRow: (
  key: string,
  phase: Phase,
  kind: OpKind,
  naturalKey: string,
  json: string,
  dependsOn: ReadonlyArray<string>,
  lineage: ReadonlyArray<string>
) => OpRow
