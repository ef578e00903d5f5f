/**
 * Streams one side's documents (sales invoices or bills) with the credits drawn alongside them: each draft
 * gets its planned credit (a credit note after it, or an overpayment or prepayment before it), then its
 * settlement of what the credit does not settle; both are written to the side's export (the advance before
 * the document, the credit note after it), posted to the general ledger (the document first, so the credit
 * can be allocated to it), their money recorded in the bank report and a credit note's allocation in the
 * allocations file. Nothing is kept once written but counts.
 */
import type { AllocationsFile } from "./AllocationsFile.js"
import type { BankLedger, Source } from "./BankLedger.js"
import type { Currency } from "./Contacts.js"
import * as CreditPostings from "./CreditPostings.js"
import type { Planned } from "./CreditPlan.js"
import * as Credits from "./Credits.js"
import type { Credit } from "./Credits.js"
import type { DocumentFile } from "./DocumentFile.js"
import * as Documents from "./Documents.js"
import type { Draft } from "./Documents.js"
import type { RateTable } from "./ExchangeRates.js"
import * as Money from "./Money.js"
import type { OpenItems } from "./OpenItems.js"
import * as Postings from "./Postings.js"
import type { Prng } from "./Prng.js"
import type { State } from "./Settlement.js"

/** Counts of documents by currency and by state. */
export interface DocumentCounts {
  documents: number
  lines: number
  readonly byCurrency: Record<Currency, number>
  readonly byState: Record<State, number>
  payments: number
}

/** Counts of one side's credits: by kind and fate, allocations and refunds. */
export interface CreditCounts {
  creditNotes: number
  voidedCreditNotes: number
  overpayments: number
  prepayments: number
  /** Credits allocated to a document, refunded (at least in part), left with something open. */
  allocated: number
  refunded: number
  open: number
  /** Credit notes in another currency than SGD. */
  foreign: number
}

export const emptyCounts = (): DocumentCounts => ({
  documents: 0,
  lines: 0,
  byCurrency: { SGD: 0, USD: 0, EUR: 0 },
  byState: { paid: 0, partial: 0, unpaid: 0, draft: 0, voided: 0 },
  payments: 0
})

export const emptyCreditCounts = (): CreditCounts => ({
  creditNotes: 0,
  voidedCreditNotes: 0,
  overpayments: 0,
  prepayments: 0,
  allocated: 0,
  refunded: 0,
  open: 0,
  foreign: 0
})

/** Where one side's documents and credits go. */
export interface Sinks {
  readonly file: DocumentFile
  readonly bank: BankLedger
  readonly items: OpenItems
  readonly rates: RateTable
  readonly allocations: AllocationsFile
  readonly counts: DocumentCounts
  readonly credits: CreditCounts
  readonly numbers: Credits.CreditNumbers
  /** Draws the credits. */
  readonly rng: Prng
}

const ORIGIN_WORD = { overpayment: "Overpayment", prepayment: "Prepayment" } as const

/** Records a credit's money in the bank report and its allocation in the allocations file, and counts it. */
const record = (s: Sinks, c: Credit, doc: Documents.Document): void => {
  const sales = c.kind === "invoice"
  const word = sales ? "Receivable" : "Payable"
  const name = c.contact.name
  if (c.origin !== "credit-note" && c.bank !== undefined)
    s.bank.add(c.bank, c.day, {
      source: `${word} ${ORIGIN_WORD[c.origin]}` as Source,
      description: `${name} - ${ORIGIN_WORD[c.origin]}`,
      reference: "",
      debit: sales,
      amount: c.total
    })
  for (const r of c.refunds)
    s.bank.add(r.bank, r.day, {
      source:
        `${word} ${c.origin === "credit-note" ? "Credit Note" : ORIGIN_WORD[c.origin]} Refund` as Source,
      description:
        c.origin === "credit-note"
          ? `${name} - Refund: ${c.number}`
          : `${name} - ${ORIGIN_WORD[c.origin]} refund`,
      reference: c.number,
      debit: !sales,
      amount: r.bankAmount
    })
  const allocated = Money.toCents(c.allocated) > 0n
  if (allocated && c.origin === "credit-note") s.allocations.add(c.number, doc.number, c.allocated)
  const k = s.credits
  if (c.voided) k.voidedCreditNotes++
  else if (c.origin === "credit-note") k.creditNotes++
  else if (c.origin === "overpayment") k.overpayments++
  else k.prepayments++
  if (c.voided) return
  if (allocated) k.allocated++
  if (c.refunds.length > 0) k.refunded++
  if (Money.toCents(c.total) > Money.toCents(c.used)) k.open++
  if (c.origin === "credit-note" && c.currency !== "SGD") k.foreign++
}

/** Draws, writes, posts and counts one document with its planned credit (if any). */
export const emit = (
  s: Sinks,
  rng: Prng,
  ctx: Documents.Context,
  draft: Draft,
  state: State,
  planned: Planned | undefined,
  serial: number
): void => {
  const credit =
    planned === undefined
      ? undefined
      : planned.origin === "credit-note"
        ? Credits.creditNote(s.rng, s.rates, s.numbers, draft, planned.fate)
        : Credits.advance(s.rng, s.rates, draft, planned.origin, planned.fate)
  const doc = Documents.settle(rng, ctx, draft, state, credit?.allocated)
  if (credit !== undefined && credit.origin !== "credit-note") s.file.addCredit(credit)
  s.file.add(doc)
  if (credit !== undefined && credit.origin === "credit-note") s.file.addCredit(credit)
  Postings.document(s.items, s.rates, doc)
  for (const p of doc.payments) {
    s.bank.add(p.bank, p.day, {
      source: doc.kind === "invoice" ? "Receivable Payment" : "Payable Payment",
      description: `${doc.contact.name} - Payment: ${doc.number}`,
      reference: doc.number,
      debit: doc.kind === "invoice",
      amount: p.bankAmount
    })
  }
  if (credit !== undefined) {
    CreditPostings.credit(s.items, s.rates, credit, Postings.documentKey(doc), serial)
    record(s, credit, doc)
  }
  s.counts.documents++
  s.counts.lines += doc.lines.length
  s.counts.payments += doc.payments.length
  s.counts.byCurrency[doc.currency]++
  s.counts.byState[doc.state]++
}
