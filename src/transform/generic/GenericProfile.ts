/**
 * The `generic` source profile: ledgers of any other system, staged through column profiles and read by
 * `ProfiledSource`; its maps are `mappings/generic/`, and its demo migrates the MYOB sample into a GBP
 * organisation whose platform accounts share no code or name with the samples'.
 */
import * as Effect from "effect/Effect"
import { spilled } from "../BooksSpill.js"
import type { SourceProfile } from "../Sources.js"
import * as ProfiledSource from "./ProfiledSource.js"

export const profile: SourceProfile = {
  id: "generic",
  system: {
    name: "the profiled ledger",
    exports: {
      trialBalance: (d) =>
        `the ledger's own trial balance as at ${d}, with a column profile whose "rows" is "trial_balance" (date in an asAt column or the file name)`,
      AR: (d) =>
        `the ledger's aged receivables listing as at ${d}, with a column profile whose "rows" is "aged_receivables"`,
      AP: (d) =>
        `the ledger's aged payables listing as at ${d}, with a column profile whose "rows" is "aged_payables"`
    }
  },
  mappings: "generic",
  read: ProfiledSource.read,
  readSpilled: Effect.flatMap(ProfiledSource.read, spilled),
  demo: { sample: "samples/myob-demo", organisation: "mappings/generic/demo-organisation.json" }
}
