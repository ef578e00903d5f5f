/** The generic exchange-rates file: `Date,Currency,Base Currency,Base per Unit`, one rate per line. */
import * as Table from "../Table.js"

/** Exchange rates, staged as `generic.exchange_rates`. */
export const profile = Table.profile({
  kind: "generic.exchange_rates",
  required: ["Date", "Currency", "Base Currency", "Base per Unit"],
  known: ["Units per Base", "Source"]
})
