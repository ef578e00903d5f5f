/** The profiles each source is recognised against, and choosing one for a file from its first records. */
import * as Effect from "effect/Effect"
import { ExtractError } from "./ExtractError.js"
import * as CreditAllocations from "./generic/CreditAllocations.js"
import * as ExchangeRates from "./generic/ExchangeRates.js"
import * as QboJournal from "./qbo/Journal.js"
import * as QboLists from "./qbo/Lists.js"
import * as QboReports from "./qbo/Reports.js"
import type { Profile, Recognition } from "./Profile.js"
import type { SourceRecord } from "./SourceRecord.js"
import * as Table from "./Table.js"
import * as AccountTransactions from "./xero/AccountTransactions.js"
import * as Documents from "./xero/Documents.js"
import * as Layouts from "./xero/Layouts.js"
import * as Reports from "./xero/Reports.js"
import * as Templates from "./xero/Templates.js"

/** The sources a migration can come from. */
export type Source = "xero" | "qbo" | "generic"

const generic: ReadonlyArray<Profile> = [ExchangeRates.profile, CreditAllocations.profile]

const xero: ReadonlyArray<Profile> = [
  Table.profile(Layouts.accounts),
  Table.profile(Layouts.contacts),
  Table.profile(Layouts.items),
  Table.profile(Layouts.manualJournals),
  Table.profile(Layouts.bankStatement),
  Documents.profile,
  Templates.profile,
  AccountTransactions.profile,
  ...Reports.profiles
]

const qbo: ReadonlyArray<Profile> = [...QboLists.profiles, QboJournal.profile, ...QboReports.profiles]

/** The profiles a file of `source` may match (the generic ones always apply). */
export const forSource = (source: Source): ReadonlyArray<Profile> =>
  source === "xero" ? [...xero, ...generic] : source === "qbo" ? [...qbo, ...generic] : generic

/** Below this a profile's claim is not a recognition. */
export const THRESHOLD = 0.75
/** Claims closer than this to the best one make the file ambiguous. */
export const MARGIN = 0.1

const pct = (c: number) => `${Math.round(c * 100)}%`

/** The layouts `profiles` recognise, each with what a file of it must hold, for messages. */
export const expected = (profiles: ReadonlyArray<Profile>): string =>
  profiles.map((p) => `${p.kinds.join("/")} — ${p.expects}`).join("; ")

/**
 * The one recognition of a file: the most confident claim at or above 75%, unless another claim is within
 * 10 points of it (ambiguous) or none reaches 75% (unrecognised); both errors name the candidates.
 */
export const choose = (
  profiles: ReadonlyArray<Profile>,
  head: ReadonlyArray<SourceRecord>,
  file: string
): Effect.Effect<Recognition, ExtractError> => {
  const claims = profiles
    .flatMap((p) => p.recognise(head, file))
    .sort((a, b) => b.confidence - a.confidence || a.kind.localeCompare(b.kind))
  const best = claims[0]
  if (best === undefined || best.confidence < THRESHOLD) {
    const near = claims.map((c) => `${c.kind} (${pct(c.confidence)}: ${c.evidence})`)
    return Effect.fail(
      new ExtractError({
        what: "unrecognised file",
        where: file,
        why:
          (near.length > 0 ? `closest: ${near.join("; ")}. ` : "no known layout matches its headers. ") +
          `Expected one of: ${expected(profiles)}`,
        fix: "export the report again in one of the expected layouts, or describe its columns in a profile file"
      })
    )
  }
  const rivals = claims.filter((c) => c !== best && best.confidence - c.confidence < MARGIN)
  if (rivals.length > 0) {
    return Effect.fail(
      new ExtractError({
        what: "ambiguous file",
        where: file,
        why: `candidates: ${[best, ...rivals].map((c) => `${c.kind} (${pct(c.confidence)}: ${c.evidence})`).join("; ")}`,
        fix: "split the file so that it holds one kind of export, or give a profile file that names its kind"
      })
    )
  }
  return Effect.succeed(best)
}
