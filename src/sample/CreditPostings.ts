/**
 * Xero's posting rules for credits, as lines of the sample's general ledger (base SGD), beside `Postings`:
 * - a credit note posts its document's lines reversed and raises a credit on the control account (an open
 *   item whose outstanding amount is negative); its allocation to a document clears both, each at its own
 *   rate, the difference to Realised Currency Gains; its refund moves the bank against it like a payment;
 * - an overpayment is money against the control account: the bank row raises the credit there, and it is
 *   allocated and refunded like a credit note;
 * - a prepayment is money against the account its line is coded to (Customer Deposits, Prepayments), never
 *   on the control account: an allocation moves what it allocates from that account to the document on the
 *   control account, a refund moves it back to the bank.
 * Voided credit notes post nothing.
 */
import { BANKS, CODES } from "./Chart.js"
import type { Credit } from "./Credits.js"
import { CONTROL, type OpenItem } from "./GeneralLedger.js"
import * as ExchangeRates from "./ExchangeRates.js"
import * as Money from "./Money.js"
import type { OpenItems } from "./OpenItems.js"
import * as Postings from "./Postings.js"

/** The ledger key of a credit; `serial` tells apart a contact's overpayments on one day. */
export const creditKey = (c: Credit, serial: number): string =>
  `${c.kind === "invoice" ? "AR" : "AP"}|${c.origin}|${c.number || `${c.day}#${serial}`}|${c.contact.name}`

const bankCode = (bank: number | undefined, what: string): string => {
  const account = bank === undefined ? undefined : BANKS[bank]
  if (account === undefined || account.currency !== undefined) throw new Error(`${what}: not an SGD bank`)
  return account.code
}

/** Posts a credit, its allocation to the document `docKey` (if any) and its refunds. */
export const credit = (
  items: OpenItems,
  rates: ExchangeRates.RateTable,
  c: Credit,
  docKey: string | undefined,
  serial: number
): void => {
  if (c.voided) return
  const sales = c.kind === "invoice"
  const side = sales ? "AR" : "AP"
  const key = creditKey(c, serial)
  const what = c.origin === "credit-note" ? `credit note ${c.number}` : `${c.origin} of ${c.contact.name}`
  /** +1 when the money of the credit comes in (a customer's advance), -1 when it goes out. */
  const dir: 1n | -1n = sales ? 1n : -1n
  const cents = Money.exactCents(c.total)
  const account = c.lines[0]?.accountCode ?? CODES.rounding
  if (c.origin === "credit-note") {
    Postings.raise(items, rates, {
      ...c,
      what,
      side,
      sign: sales ? -1n : 1n,
      key,
      contact: c.contact.name,
      dueDay: undefined
    })
  } else if (c.origin === "overpayment") {
    const item: OpenItem = {
      side,
      key,
      contact: c.contact.name,
      number: "",
      reference: "Overpayment",
      day: c.day,
      dueDay: undefined,
      totalCents: -cents,
      taxCents: 0n
    }
    items.ledger.post(c.day, what, [
      { account: bankCode(c.bank, what), cents: dir * cents },
      { account: CONTROL[side], cents: -dir * cents, item }
    ])
    items.raise(item, ExchangeRates.rateOn(rates, "SGD", c.day), c.total)
  } else {
    items.ledger.post(c.day, what, [
      { account: bankCode(c.bank, what), cents: dir * cents },
      { account, cents: -dir * cents }
    ])
  }

  if (Money.exactCents(c.allocated) > 0n) {
    if (docKey === undefined) throw new Error(`${what} is allocated to no document`)
    const allocation = `allocation of ${what}`
    if (c.origin !== "prepayment")
      Postings.allocate(items, c.allocationDay, allocation, docKey, key, c.allocated)
    else {
      const doc = items.clear(docKey, c.allocated)
      const allocated = Money.exactCents(c.allocated)
      items.ledger.post(c.allocationDay, allocation, [
        { account: CONTROL[side], cents: -dir * doc.base, item: doc.item },
        { account, cents: dir * allocated },
        { account: CODES.realisedCurrencyGains, cents: dir * (doc.base - allocated) }
      ])
    }
  }

  c.refunds.forEach((r, i) => {
    const refund = `refund ${i + 1} of ${what}`
    if (c.origin !== "prepayment") Postings.settle(items, rates, refund, key, r, !sales)
    else {
      const cash = Money.exactCents(r.bankAmount)
      items.ledger.post(r.day, refund, [
        { account: bankCode(r.bank, refund), cents: -dir * cash },
        { account, cents: dir * cash }
      ])
    }
  })
}
