/**
 * Xero's posting rules for what the generator draws, as lines of the sample's general ledger (base SGD):
 * - an approved invoice or bill: each line at round2(line amount × the document's rate), its tax total at
 *   round2(tax total × rate), the control account (AR or AP) at round2(total × rate) against the document
 *   as an open item, and what those roundings leave over to Rounding (860). Drafts and voided documents
 *   post nothing;
 * - a payment from an SGD bank: the bank at the money that moved, the control account at the part of the
 *   document it settles converted at the document's rate — the payment that completes a document clears
 *   whatever its earlier payments left, so a paid document leaves nothing on the control account — and the
 *   difference to Realised Currency Gains (499);
 * - a manual journal: its lines as they are (SGD).
 * A document's rate is the one in force on its date (`ExchangeRates.rateOn`), 1 for SGD.
 */
import type * as BigDecimal from "effect/BigDecimal"
import { BANKS, CODES } from "./Chart.js"
import type { Document } from "./Documents.js"
import * as ExchangeRates from "./ExchangeRates.js"
import { CONTROL, type GeneralLedger, type LedgerLine, type OpenItem } from "./GeneralLedger.js"
import type { Journal } from "./Journals.js"

/** `value × 10^-scale` in whole cents, rounded half away from zero (plain bigints: this runs per line). */
const roundCents = (value: bigint, scale: number): bigint => {
  if (scale <= 2) return value * 10n ** BigInt(2 - scale)
  const d = 10n ** BigInt(scale - 2)
  const q = value / d
  const r = value % d
  return (r < 0n ? -r : r) * 2n >= d ? q + (value < 0n ? -1n : 1n) : q
}

/** Exact cents of a value that has at most two decimals. */
const centsOf = (x: BigDecimal.BigDecimal): bigint => {
  const cents = roundCents(x.value, x.scale)
  if (x.scale > 2 && cents * 10n ** BigInt(x.scale - 2) !== x.value)
    throw new Error(`not a whole number of cents: ${x.value}e-${x.scale}`)
  return cents
}

/** Base cents of a document-currency amount at `rate`: round2(amount × rate). */
const toBase = (x: BigDecimal.BigDecimal, rate: BigDecimal.BigDecimal): bigint =>
  roundCents(x.value * rate.value, x.scale + rate.scale)

/** Posts an invoice or bill and its payments; drafts and voided documents post nothing. */
export const document = (ledger: GeneralLedger, rates: ExchangeRates.RateTable, doc: Document): void => {
  if (doc.state === "draft" || doc.state === "voided") return
  const side = doc.kind === "invoice" ? "AR" : "AP"
  /** +1 for the control account's side of an invoice (a debit), -1 for a bill's. */
  const sign = doc.kind === "invoice" ? 1n : -1n
  const rate = ExchangeRates.rateOn(rates, doc.currency, doc.day)
  const totalCents = toBase(doc.total, rate)
  const item: OpenItem = {
    side,
    key: `${side}|${doc.number}|${doc.contact.name}`,
    contact: doc.contact.name,
    number: doc.number,
    reference: doc.reference,
    day: doc.day,
    dueDay: doc.dueDay,
    totalCents,
    taxCents: toBase(doc.taxTotal, rate)
  }
  const lines: Array<LedgerLine> = doc.lines.map((l) => ({
    account: l.accountCode,
    cents: -sign * toBase(l.lineAmount, rate)
  }))
  lines.push({ account: CODES.gst, cents: -sign * item.taxCents })
  lines.push({ account: CONTROL[side], cents: sign * totalCents, item })
  const residue = lines.reduce((s, l) => s + l.cents, 0n)
  lines.push({ account: CODES.rounding, cents: -residue })
  ledger.post(doc.day, `${doc.kind} ${doc.number}`, lines)

  const totalDocCents = centsOf(doc.total)
  let paidDocCents = 0n
  let clearedCents = 0n
  doc.payments.forEach((p, i) => {
    paidDocCents += centsOf(p.documentAmount)
    const cleared =
      paidDocCents === totalDocCents ? totalCents - clearedCents : toBase(p.documentAmount, rate)
    clearedCents += cleared
    const bank = BANKS[p.bank]
    if (bank === undefined) throw new Error(`${doc.kind} ${doc.number}: no bank ${p.bank}`)
    const cash = centsOf(p.bankAmount)
    ledger.post(p.day, `payment ${i + 1} of ${doc.kind} ${doc.number}`, [
      { account: bank.code, cents: sign * cash },
      { account: CONTROL[side], cents: -sign * cleared, item },
      { account: CODES.realisedCurrencyGains, cents: -sign * (cash - cleared) }
    ])
  })
}

/** Posts a manual journal (positive = debit). */
export const journal = (ledger: GeneralLedger, j: Journal): void =>
  ledger.post(
    j.day,
    `journal "${j.narration}"`,
    j.lines.map((l) => ({ account: l.accountCode, cents: centsOf(l.amount) }))
  )
