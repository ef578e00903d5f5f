/**
 * `review`: writes the workspace's review.xlsx, the accountant's review of how the staged books match the
 * target (accounts, tax codes, contacts, items, currencies), reading the target (never writing). Decisions
 * typed in it are applied by the next `plan`.
 */
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ReadSnapshot from "../../load/ReadSnapshot.js"
import { confirmBelow } from "../../review/Matching.js"
import * as Review from "../../review/Review.js"
import { SHEETS } from "../../review/Workbook.js"
import * as Mappings from "../../transform/Mappings.js"
import * as Sources from "../../transform/Sources.js"
import { apiKeyFile, baseUrl, exitWith, mappings, staging, target, workspace } from "../common.js"

export const review = Command.make("review", { workspace, baseUrl, apiKeyFile, mappings }, (args) =>
  exitWith(
    Effect.gen(function* () {
      const from = yield* Sources.staged
      const books = yield* from.read
      const snapshot = yield* ReadSnapshot.read
      const maps = yield* Mappings.load(from.mappings, Option.getOrUndefined(args.mappings))
      const { path, suggestions } = yield* Review.generate(
        args.workspace,
        books,
        snapshot,
        maps,
        args.baseUrl
      )
      yield* Console.log(`Review workbook: ${path}`)
      yield* Console.log(
        `  ${"sheet".padEnd(12)} ${"rows".padStart(5)} ${"1.00".padStart(6)} ${`≥${confirmBelow.toFixed(2)}`.padStart(6)} ${"to confirm".padStart(10)}`
      )
      for (const sheet of SHEETS) {
        const rows = suggestions.filter((s) => s.sheet === sheet)
        const cols = [
          rows.length,
          rows.filter((s) => s.confidence >= 1).length,
          rows.filter((s) => s.confidence >= confirmBelow && s.confidence < 1).length
        ].map((n) => String(n).padStart(6))
        const low = rows.filter((s) => s.confidence < confirmBelow).length
        yield* Console.log(`  ${sheet.padEnd(12)}${cols.join("")} ${String(low).padStart(10)}`)
      }
      const low = suggestions.filter((s) => s.confidence < confirmBelow).length
      yield* Console.log(
        low === 0
          ? "Every suggestion is confident: edit any decision in column F, then run plan."
          : `${low} suggestion${low === 1 ? "" : "s"} below ${confirmBelow.toFixed(2)} (highlighted, decision blank): decide them in column F, then run plan; load refuses them unconfirmed unless --accept-suggestions.`
      )
      return 0
    }).pipe(Effect.provide(target(args.baseUrl, args.apiKeyFile, 8)), Effect.provide(staging(args.workspace)))
  )
).pipe(
  Command.withDescription(
    "Write WS/review.xlsx: how each source account, tax code, contact and item matches the target, with a confidence, a reason and a decision column (drop-downs). plan applies the decisions; load refuses low-confidence suggestions left unconfirmed unless --accept-suggestions."
  )
)
