/**
 * An operation's row as the plan's store writes it, and its line of the plan hash (plain JavaScript, so that
 * the thread that writes the plan's scratch, `ScratchWorker.mjs`, makes its rows as `Plan.rowOf` does: one
 * function for both). Its body is hashed once, its dependencies and lineage serialised once, for the row and
 * the plan hash alike.
 */
import { createHash } from "node:crypto"

/**
 * The row of the operation named `key`, `phase`, `kind` and `naturalKey` whose canonical body is `json`, with
 * its dependencies and lineage.
 * @param {string} key
 * @param {string} phase
 * @param {string} kind
 * @param {string} naturalKey
 * @param {string} json
 * @param {ReadonlyArray<string>} dependsOn
 * @param {ReadonlyArray<string>} lineage
 */
export const opRow = (key, phase, kind, naturalKey, json, dependsOn, lineage) => {
  const body = createHash("sha256").update(json).digest("hex")
  return {
    key,
    phase,
    kind,
    natural_key: naturalKey,
    depends_on: JSON.stringify(dependsOn),
    body: json,
    body_hash: body,
    lineage: JSON.stringify(lineage),
    hash_line: [key, phase, kind, dependsOn.join(","), body, lineage.join(",")].join("|")
  }
}
