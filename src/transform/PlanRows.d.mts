/** Types of `PlanRows.mjs` for the TypeScript that imports it. */
export declare const opRow: <P extends string, K extends string>(
  key: string,
  phase: P,
  kind: K,
  naturalKey: string,
  json: string,
  dependsOn: ReadonlyArray<string>,
  lineage: ReadonlyArray<string>
) => {
  readonly key: string
  readonly phase: P
  readonly kind: K
  readonly natural_key: string
  readonly depends_on: string
  readonly body: string
  readonly body_hash: string
  readonly lineage: string
  readonly hash_line: string
}
