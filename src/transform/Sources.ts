/**
 * The source systems a migration can come from, each as a source profile: how its staged exports become
 * `SourceBooks` (the one model everything downstream reads), which shipped mappings folder it uses, and how
 * the reconciliation names it and its own reports. A new source adds a reader and an entry here; nothing
 * downstream changes. Which source a workspace holds is what `extract --source` recorded for its files.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { SourceSystem } from "../reconcile/Model.js"
import { spilled, type SpilledBooks } from "./BooksSpill.js"
import type { SourceBooks } from "./SourceModel.js"
import * as GenericProfile from "./generic/GenericProfile.js"
import * as QboSource from "./qbo/QboSource.js"
import * as XeroSource from "./xero/XeroSource.js"

export type SourceId = "xero" | "qbo" | "generic"

export const SOURCE_IDS: ReadonlyArray<SourceId> = ["xero", "qbo", "generic"]

export interface SourceProfile {
  readonly id: SourceId
  /** How the reconciliation names the system and where its own reports are in its menus. */
  readonly system: SourceSystem
  /** The shipped mappings folder (`mappings/<folder>/`) its account types and tax codes are read from. */
  readonly mappings: string
  /** The staged exports as source books; every row becomes part of them or an issue naming its file:line. */
  readonly read: Effect.Effect<SourceBooks, never, SqlClient.SqlClient>
  /**
   * The same books with their documents and payments kept out of the heap (`BooksSpill`), as a plan reads
   * them: the spill is closed when the scope ends.
   */
  readonly readSpilled: Effect.Effect<SpilledBooks, never, SqlClient.SqlClient | Scope.Scope>
  /**
   * What `demo --source <id>` migrates: the bundled sample (a path under the package root) and the sandbox
   * organisation file it loads into (absent: the shipped default organisation).
   */
  readonly demo: { readonly sample: string; readonly organisation?: string }
}

const xero: SourceProfile = {
  id: "xero",
  system: {
    name: "Xero",
    exports: {
      trialBalance: (d) =>
        `Xero's Trial Balance (Accounting → Reports → Trial Balance, date ${d}, Export → Excel or CSV)`,
      AR: (d) =>
        `Xero's Aged Receivables Detail (Accounting → Reports → Aged Receivables Detail, as at ${d}, Export → Excel or CSV)`,
      AP: (d) =>
        `Xero's Aged Payables Detail (Accounting → Reports → Aged Payables Detail, as at ${d}, Export → Excel or CSV)`
    }
  },
  mappings: "xero",
  read: XeroSource.read,
  readSpilled: XeroSource.readSpilled,
  demo: { sample: "samples/xero-demo" }
}

const qbo: SourceProfile = {
  id: "qbo",
  system: {
    name: "QuickBooks Online",
    exports: {
      trialBalance: (d) =>
        `QuickBooks Online's Trial Balance (Reports → Trial Balance, Report period: As of ${d}, Export → Export to CSV)`,
      AR: (d) =>
        `QuickBooks Online's A/R Aging Detail (Reports → A/R Aging Detail, Report period: As of ${d}, Export → Export to CSV)`,
      AP: (d) =>
        `QuickBooks Online's A/P Aging Detail (Reports → A/P Aging Detail, Report period: As of ${d}, Export → Export to CSV)`
    }
  },
  mappings: "qbo",
  read: QboSource.read,
  readSpilled: Effect.flatMap(QboSource.read, spilled),
  demo: { sample: "samples/qbo-demo", organisation: "src/sandbox/fixtures/us-organization.json" }
}

const profiles: Record<SourceId, SourceProfile> = {
  xero,
  qbo,
  generic: GenericProfile.profile
}

export const profile = (id: SourceId): SourceProfile => profiles[id]

/**
 * The source the workspace's staged files came from. A workspace holds one source: files staged from two
 * (extract run twice with different `--source`) are refused, naming both, since their books cannot be merged.
 */
export const staged: Effect.Effect<SourceProfile, never, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ source: string; files: number }>`
    SELECT source, COUNT(*) AS files FROM src_files GROUP BY source ORDER BY source`
  if (rows.length === 0)
    return yield* Effect.dieMessage(
      "nothing is staged in this workspace: run extract --input DIR --workspace WS first"
    )
  if (rows.length > 1)
    return yield* Effect.dieMessage(
      `this workspace holds exports of ${rows.length} sources (${rows.map((r) => `${r.source}: ${r.files} file${r.files === 1 ? "" : "s"}`).join(", ")}); ` +
        "a migration reads one source: extract each source into its own workspace"
    )
  const id = rows[0]!.source
  const known = SOURCE_IDS.find((s) => s === id)
  if (known === undefined)
    return yield* Effect.dieMessage(`this workspace's files were staged from an unknown source "${id}"`)
  return profiles[known]
}).pipe(Effect.orDie)
