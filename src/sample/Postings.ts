/**
 * Xero's posting rules for what the generator draws, as lines of the sample's general ledger (base SGD); a
 * document's or credit's rate is the one in force on its date (`ExchangeRates.rateOn`), 1 for SGD:
 * - an approved invoice or bill raises an open item: each line at round2(line amount × rate), its tax total
 *   at round2(tax total × rate), the control account (AR or AP) at round2(total × rate), and what those
 *   roundings leave over to Rounding (860). A credit note posts the same lines reversed. Drafts and voided
 *   documents post nothing;
 * - money for an open item (a payment, a credit's refund) moves the bank at its base value (an SGD bank at
 *   the money that moved, the USD bank at round2(USD × the day's rate)), the control account at what it
 *   clears of the item (`OpenItems`), and the difference to Realised Currency Gains (499);
 * - an allocation of a credit to a document clears both on the control account, each at its own rate, the
 *   difference to Realised Currency Gains;
 * - Spend and Receive Money move the bank against their lines' accounts and the GST account; a transfer
 *   moves one bank against the other at the SGD amount (the rate it implies); a manual journal posts its
 *   lines as they are (SGD).
 * Overpayments and prepayments are posted by `CreditPostings`.
 */
import type * as BigDecimal from "effect/BigDecimal"
import { BANK, BANKS, CODES } from "./Chart.js"
import type { CashEntry, Transfer } from "./CashBook.js"
import type { Currency } from "./Contacts.js"
import type { Document } from "./Documents.js"
import * as ExchangeRates from "./ExchangeRates.js"
import { CONTROL, type LedgerLine, type OpenItem, type Side } from "./GeneralLedger.js"
import type { GeneralLedger } from "./GeneralLedger.js"
import type { Journal } from "./Journals.js"
import type { Line } from "./Lines.js"
import * as Money from "./Money.js"
import type { OpenItems } from "./OpenItems.js"

/** What raising an open item needs; `sign` is the control account's direction (+1 debit). */
export interface Raised {
  readonly what: string
  readonly side: Side
  readonly sign: 1n | -1n
  readonly key: string
  readonly number: string
  readonly reference: string
  readonly contact: string
  readonly day: number
  readonly dueDay: number | undefined
  readonly currency: Currency
  readonly lines: ReadonlyArray<Line>
  readonly taxTotal: BigDecimal.BigDecimal
  readonly total: BigDecimal.BigDecimal
}

/** Posts a document or credit note and registers it as an open item. */
export const raise = (items: OpenItems, rates: ExchangeRates.RateTable, r: Raised): OpenItem => {
  const rate = ExchangeRates.rateOn(rates, r.currency, r.day)
  const totalCents = Money.baseCents(r.total, rate)
  /** The outstanding amount's sign: a debit raises a receivable, a credit a payable. */
  const outstanding = r.side === "AR" ? r.sign : -r.sign
  const item: OpenItem = {
    side: r.side,
    key: r.key,
    contact: r.contact,
    number: r.number,
    reference: r.reference,
    day: r.day,
    dueDay: r.dueDay,
    totalCents: outstanding * totalCents,
    taxCents: outstanding * Money.baseCents(r.taxTotal, rate)
  }
  const lines: Array<LedgerLine> = r.lines.map((l) => ({
    account: l.accountCode,
    cents: -r.sign * Money.baseCents(l.lineAmount, rate)
  }))
  lines.push({ account: CODES.gst, cents: -r.sign * Money.baseCents(r.taxTotal, rate) })
  lines.push({ account: CONTROL[r.side], cents: r.sign * totalCents, item })
  const residue = lines.reduce((s, l) => s + l.cents, 0n)
  lines.push({ account: CODES.rounding, cents: -residue })
  items.ledger.post(r.day, r.what, lines)
  items.raise(item, rate, r.total)
  return item
}

/** The base cents of `amount` through the bank with index `bank` on `day`. */
export const bankBase = (
  rates: ExchangeRates.RateTable,
  bank: number,
  amount: BigDecimal.BigDecimal,
  day: number
): bigint =>
  bank === BANK.usd
    ? Money.baseCents(amount, ExchangeRates.rateOn(rates, "USD", day))
    : Money.exactCents(amount)

/** Money for an open item: `amount` of it settled by `bankAmount` into (`inflow`) or out of a bank. */
export const settle = (
  items: OpenItems,
  rates: ExchangeRates.RateTable,
  what: string,
  key: string,
  m: {
    readonly day: number
    readonly bank: number
    readonly amount: BigDecimal.BigDecimal
    readonly bankAmount: BigDecimal.BigDecimal
  },
  inflow: boolean
): void => {
  const bank = BANKS[m.bank]
  if (bank === undefined) throw new Error(`${what}: no bank ${m.bank}`)
  const { item, base } = items.clear(key, m.amount)
  const cash = bankBase(rates, m.bank, m.bankAmount, m.day)
  const dir = inflow ? 1n : -1n
  items.ledger.post(m.day, what, [
    { account: bank.code, cents: dir * cash },
    { account: CONTROL[item.side], cents: -dir * base, item },
    { account: CODES.realisedCurrencyGains, cents: -dir * (cash - base) }
  ])
}

/** Allocates `amount` of the credit `creditKey` to the document `docKey` (same side, contact, currency). */
export const allocate = (
  items: OpenItems,
  day: number,
  what: string,
  docKey: string,
  creditKey: string,
  amount: BigDecimal.BigDecimal
): void => {
  const doc = items.clear(docKey, amount)
  const credit = items.clear(creditKey, amount)
  const s = doc.item.side === "AR" ? 1n : -1n
  items.ledger.post(day, what, [
    { account: CONTROL[doc.item.side], cents: -s * doc.base, item: doc.item },
    { account: CONTROL[credit.item.side], cents: s * credit.base, item: credit.item },
    { account: CODES.realisedCurrencyGains, cents: s * (doc.base - credit.base) }
  ])
}

/** The ledger key of a document. */
export const documentKey = (doc: Pick<Document, "kind" | "number" | "contact">): string =>
  `${doc.kind === "invoice" ? "AR" : "AP"}|${doc.kind}|${doc.number}|${doc.contact.name}`

/** Posts an invoice or bill and its payments; drafts and voided documents post nothing. */
export const document = (items: OpenItems, rates: ExchangeRates.RateTable, doc: Document): void => {
  if (doc.state === "draft" || doc.state === "voided") return
  const key = documentKey(doc)
  const invoice = doc.kind === "invoice"
  raise(items, rates, {
    ...doc,
    what: `${doc.kind} ${doc.number}`,
    side: invoice ? "AR" : "AP",
    sign: invoice ? 1n : -1n,
    key,
    contact: doc.contact.name
  })
  doc.payments.forEach((p, i) =>
    settle(
      items,
      rates,
      `payment ${i + 1} of ${doc.kind} ${doc.number}`,
      key,
      { ...p, amount: p.documentAmount },
      invoice
    )
  )
}

/** Posts a Spend or Receive Money entry. */
export const cashEntry = (ledger: GeneralLedger, e: CashEntry): void => {
  const bank = BANKS[e.bank]
  if (bank === undefined || bank.currency !== undefined) throw new Error(`${e.reference}: not an SGD bank`)
  const dir = e.kind === "Receive Money" ? 1n : -1n
  const tax = e.lines.reduce((s, l) => s + Money.exactCents(l.tax), 0n)
  ledger.post(e.day, `${e.kind} ${e.reference}`, [
    { account: bank.code, cents: dir * Money.exactCents(e.gross) },
    ...e.lines.map((l) => ({ account: l.account, cents: -dir * Money.exactCents(l.net) })),
    { account: CODES.gst, cents: -dir * tax }
  ])
}

/** Posts a bank transfer at its SGD side's amount (both sides, when both banks are in SGD). */
export const transfer = (ledger: GeneralLedger, t: Transfer): void => {
  const [from, to] = [BANKS[t.from], BANKS[t.to]]
  if (from === undefined || to === undefined) throw new Error(`${t.reference}: no such bank`)
  const sgd = Money.exactCents(t.from === BANK.usd ? t.amountIn : t.amountOut)
  ledger.post(t.day, `transfer ${t.reference}`, [
    { account: from.code, cents: -sgd },
    { account: to.code, cents: sgd }
  ])
}

/** Posts a manual journal (positive = debit). */
export const journal = (ledger: GeneralLedger, j: Journal): void =>
  ledger.post(
    j.day,
    `journal "${j.narration}"`,
    j.lines.map((l) => ({ account: l.accountCode, cents: Money.exactCents(l.amount) }))
  )
