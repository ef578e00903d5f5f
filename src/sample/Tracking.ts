/**
 * The sample company's two Xero tracking categories (Xero allows two active ones per organisation): `Region`,
 * the showroom a sale or cost belongs to, and `Channel`, how a sale was made. Some documents carry them on
 * every line (`TrackingName1`/`TrackingOption1`, `TrackingName2`/`TrackingOption2`), as do some journals.
 * Tracking never changes what a transaction posts.
 */
import type { Prng } from "./Prng.js"

/** One tracking option on a line: its category and the option chosen. */
export interface Tracking {
  readonly name: string
  readonly option: string
}

/** The category of the showroom a transaction belongs to. */
export const REGION = "Region"

/** The category of the way a sale was made. */
export const CHANNEL = "Channel"

const REGIONS = ["Central", "East", "West", "North"] as const
const CHANNELS = ["Showroom", "Projects", "Online"] as const

/** No tracking. */
export const NONE: ReadonlyArray<Tracking> = []

/** The region option `option` (one of the four showrooms). */
export const region = (option: (typeof REGIONS)[number]): ReadonlyArray<Tracking> => [
  { name: REGION, option }
]

/** The tracking of a sales invoice's lines: about a quarter are tracked by region, half of those by channel too. */
export const forSale = (rng: Prng): ReadonlyArray<Tracking> => {
  if (!rng.chance(0.25)) return NONE
  const first = { name: REGION, option: rng.pick(REGIONS) }
  return rng.chance(0.5) ? [first, { name: CHANNEL, option: rng.pick(CHANNELS) }] : [first]
}

/** The tracking of a bill's lines: about one bill in six is tracked by region. */
export const forBill = (rng: Prng): ReadonlyArray<Tracking> =>
  rng.chance(1 / 6) ? [{ name: REGION, option: rng.pick(REGIONS) }] : NONE

/** The four tracking cells of a line: TrackingName1, TrackingOption1, TrackingName2, TrackingOption2. */
export const cells = (tracking: ReadonlyArray<Tracking>): [string, string, string, string] => {
  const [a, b] = tracking
  return [a?.name ?? "", a?.option ?? "", b?.name ?? "", b?.option ?? ""]
}
