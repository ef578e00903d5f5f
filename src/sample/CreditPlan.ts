/**
 * Which approved invoices and bills are drawn with a credit, and what becomes of it: the counts come from the
 * company's size, the documents are picked at random among those not already special, and the fates and
 * currencies cycle through fixed lists so even a small company has each of them (a credit note allocated in
 * full, in part and refunded, in part and left open, refunded, left open, in USD and EUR; overpayments and
 * prepayments allocated, refunded, left open).
 */
import type { Currency } from "./Contacts.js"
import type { Fate, Origin } from "./Credits.js"
import type { Prng } from "./Prng.js"

/** The credit a document is drawn with, and the currency its document is forced into (if any). */
export interface Planned {
  readonly origin: Origin
  readonly fate: Fate
  readonly currency: Currency | undefined
}

/** How many of each to plan. */
export interface Counts {
  readonly creditNotes: number
  readonly voidedCreditNotes: number
  readonly overpayments: number
  readonly prepayments: number
}

const NOTE_FATES: ReadonlyArray<Fate> = [
  "allocated",
  "allocated-refunded",
  "open",
  "allocated",
  "refunded",
  "allocated-open"
]
const NOTE_CURRENCIES: ReadonlyArray<Currency | undefined> = [
  undefined,
  "USD",
  undefined,
  undefined,
  "EUR",
  undefined
]
const OVERPAYMENT_FATES: ReadonlyArray<Fate> = [
  "allocated",
  "open",
  "allocated-refunded",
  "allocated-open",
  "refunded"
]
/** Never "open" or "allocated-open": see `Credits.ts`. */
const PREPAYMENT_FATES: ReadonlyArray<Fate> = ["allocated", "allocated-refunded", "refunded"]

/**
 * Plans credits on documents among `count` (by index) that `taken` does not hold (fewer when they run out);
 * credit notes go on the first nine tenths of the year's documents, so that they can follow them.
 */
export const plan = (
  rng: Prng,
  count: number,
  taken: ReadonlySet<number>,
  counts: Counts
): Map<number, Planned> => {
  const planned = new Map<number, Planned>()
  const place = (lo: number, hi: number, p: Planned) => {
    for (let attempt = 0; attempt < 64 && hi >= lo; attempt++) {
      const i = rng.int(lo, hi)
      if (taken.has(i) || planned.has(i)) continue
      planned.set(i, p)
      return
    }
  }
  const notesEnd = Math.max(0, Math.floor(count * 0.9) - 1)
  for (let k = 0; k < counts.creditNotes; k++)
    place(0, notesEnd, {
      origin: "credit-note",
      fate: NOTE_FATES[k % NOTE_FATES.length]!,
      currency: NOTE_CURRENCIES[k % NOTE_CURRENCIES.length]
    })
  for (let k = 0; k < counts.voidedCreditNotes; k++)
    place(0, notesEnd, { origin: "credit-note", fate: "voided", currency: undefined })
  for (let k = 0; k < counts.overpayments; k++)
    place(Math.min(1, count - 1), count - 1, {
      origin: "overpayment",
      fate: OVERPAYMENT_FATES[k % OVERPAYMENT_FATES.length]!,
      currency: "SGD"
    })
  for (let k = 0; k < counts.prepayments; k++)
    place(Math.min(1, count - 1), count - 1, {
      origin: "prepayment",
      fate: PREPAYMENT_FATES[k % PREPAYMENT_FATES.length]!,
      currency: "SGD"
    })
  return planned
}
