/**
 * Plans invoices and bills, then their payments. A document is only planned when the target, applying its
 * own tax profiles and rounding, will arrive at the source's line amounts, tax and total to the cent; a
 * payment carries the bank-currency amount and the document-currency amount it settles.
 */
import * as Bodies from "./Bodies.js"
import { documentKey, type SettledDocument, type SpilledBooks } from "./BooksSpill.js"
import { bankAmountIn, rateOn } from "./Fx.js"
import { planLines, tagsOf } from "./Lines.js"
import * as Money from "./Money.js"
import { deps, PlanProblem, type PlanContext } from "./PlanContext.js"
import { paymentOrder, paymentReference, type Numbering } from "./RecordIdentity.js"
import * as Refs from "./Refs.js"
import { creditTaker, namedDocuments, type DocUse } from "./CreditSettlements.js"
import type { Books, Issue, SourceDocument, SourcePayment, SourceRate } from "./SourceModel.js"

export { lineAmounts } from "./Lines.js"
export { rateOn } from "./Fx.js"

const fmt = (m: Money.Money) => Money.toFixed(m)

/**
 * The currency object and dependencies of a transaction in `currency` on `date`: none in the base currency;
 * else the currency (and the rate in force, when the source has one, with a warning when it has none).
 */
export const foreignCurrency = (
  ctx: PlanContext,
  rates: ReadonlyArray<SourceRate>,
  what: {
    readonly currency: string
    readonly date: string
    readonly lineage: ReadonlyArray<string>
    readonly label: string
    /** A rate of the record's own (a conversion document's), sent instead of the organisation's. */
    readonly exchangeRate?: Money.Money | undefined
  }
): { readonly currency?: Bodies.TransactionCurrency; readonly opKeys: ReadonlyArray<string | undefined> } => {
  if (what.currency === "" || what.currency === ctx.snapshot.baseCurrency) return { opKeys: [] }
  if (what.exchangeRate !== undefined) {
    const key = `currency:${what.currency}`
    return {
      currency: new Bodies.TransactionCurrency({
        sourceCurrency: what.currency,
        exchangeRate: what.exchangeRate
      }),
      opKeys: [ctx.opKeys.has(key) ? key : undefined]
    }
  }
  const rate = rateOn(rates, what.currency, what.date)
  if (!rate) {
    ctx.warn(
      what.lineage,
      `${what.label} in ${what.currency}`,
      `no ${what.currency} rate on or before ${what.date}`,
      "the target will use its platform rate; add the rate to the exchange-rate file to control it"
    )
  }
  const keys = [`currency:${what.currency}`, rate ? `rate:${what.currency}:${rate.date}` : ""]
  return {
    currency: new Bodies.TransactionCurrency({ sourceCurrency: what.currency }),
    opKeys: keys.map((k) => (ctx.opKeys.has(k) ? k : undefined))
  }
}

const documentBody = (ctx: PlanContext, books: Books, doc: SourceDocument, reference: string) => {
  const contact = ctx.contact(doc.contactName)
  const lines = planLines(ctx, doc)
  const tags = tagsOf(ctx, doc.lines)
  const fx = foreignCurrency(ctx, books.rates, { ...doc, label: `${doc.kind} ${doc.number}` })
  if (doc.dueDate === undefined && doc.kind === "bill" && doc.state === "open") {
    throw new PlanProblem(
      "a bill without a due date",
      "the platform finalizes a bill only with a due date",
      "fill in DueDate"
    )
  }
  return {
    body: new Bodies.Document({
      reference,
      valueDate: doc.date,
      ...(doc.dueDate ? { dueDate: doc.dueDate < doc.date ? doc.date : doc.dueDate } : {}),
      contactResourceId: contact.ref,
      ...(fx.currency ? { currency: fx.currency } : {}),
      taxInclusion: lines.taxInclusive,
      saveAsDraft: doc.state === "draft",
      lineItems: lines.lineItems,
      ...(tags.tags.length > 0 ? { tags: tags.tags } : {})
    }),
    dependsOn: deps(contact.opKey, ...lines.opKeys, ...fx.opKeys, ...tags.opKeys)
  }
}

/**
 * Which documents were planned: their references' numbering, whether each (by place) was planned, and the
 * keys (`kind:number`) that several migrating documents share, whose payments' document is ambiguous.
 */
export interface PlannedDocuments {
  readonly numbering: Numbering
  readonly planned: Uint8Array
  readonly shared: ReadonlySet<string>
}

/**
 * Plans every migrating document, in the references' order (`numbering`), each read from the books' spill
 * with its lines as its turn comes; the voided are warned of, and so are the numbers used more than once.
 */
export const planDocuments = (ctx: PlanContext, books: SpilledBooks): PlannedDocuments => {
  const spill = books.documents.spill
  for (const place of books.documents.survey.voided) {
    const d = spill.headAt(place)
    ctx.warn(
      d.lineage,
      `${d.kind} ${d.number} (${d.status})`,
      "voided documents are not migrated",
      "nothing to do"
    )
  }
  const numbering = books.documents.numbering
  const shared = new Set<string>()
  for (const [place, { reference, uses }] of numbering.renamed) {
    const d = spill.headAt(place)
    shared.add(documentKey(d.kind, d.number))
    ctx.warn(
      d.lineage,
      `${d.kind} number ${d.number} is used ${uses} times`,
      "references identify documents in the target",
      `this one is migrated as ${reference}`
    )
  }
  const planned = new Uint8Array(books.documents.length)
  let at = 0
  for (const doc of spill.documentsAt(numbering.order)) {
    const place = numbering.order[at++]!
    const reference = numbering.renamed.get(place)?.reference ?? doc.number
    const key = Refs.opKey(doc.kind, reference)
    const ok = ctx.add(
      {
        key,
        phase: "transactions",
        kind: doc.kind,
        naturalKey: reference,
        sortKey: `${doc.date}|${doc.kind}|${reference}`,
        lineage: doc.lineage
      },
      Bodies.Document,
      () => documentBody(ctx, books, doc, reference)
    )
    if (ok) planned[place] = 1
  }
  return { numbering, planned, shared }
}

/** What an open document without payments has (one list for all of them). */
const NO_PAYMENTS: ReadonlyArray<SourcePayment> = []
const NO_AMOUNTS: ReadonlyArray<Money.Money> = []

/** A planned document's bank payments, each with the amount it settles in the document's currency. */
export interface DocumentCash {
  readonly doc: SettledDocument
  readonly reference: string
  readonly payments: ReadonlyArray<SourcePayment>
  readonly amounts: ReadonlyArray<Money.Money>
  /** Σ amounts, in the document's currency. */
  readonly cash: Money.Money
}

/** What the export says was settled on a document, by cash or credit: its total less its amount due. */
export const settledOf = (doc: Pick<SourceDocument, "total" | "amountDue">): Money.Money =>
  Money.sub(doc.total, doc.amountDue)

/**
 * Each open planned document (with no payments: zero cash), and each document's bank payments converted to
 * its currency (at the source rate of the payment date), keyed by `kind:number`: first the documents without
 * payments, then those with, each in key order; undefined for a document whose payments were rejected (its
 * settlement cannot be known: the payments' document is ambiguous, not migrated or a draft, or it is foreign
 * and a rate is missing). Made as they are taken, from the books' spill.
 */
export function* documentCash(
  ctx: PlanContext,
  books: SpilledBooks,
  documents: PlannedDocuments
): Generator<readonly [string, DocumentCash | undefined], void, undefined> {
  const spill = books.documents.spill
  const base = ctx.snapshot.baseCurrency
  for (const doc of spill.unpaidOpen()) {
    if (documents.planned[doc.place] !== 1) continue
    const docKey = documentKey(doc.kind, doc.number)
    if (documents.shared.has(docKey)) continue
    yield [
      docKey,
      { doc, reference: doc.number, payments: NO_PAYMENTS, amounts: NO_AMOUNTS, cash: Money.zero }
    ]
  }
  const reject = (lineage: ReadonlyArray<string>, what: string, why: string, fix: string) =>
    ctx.reject(lineage, what, why, fix)
  for (const { key: docKey, payments, documents: ofKey } of spill.paymentGroups()) {
    const lineage = payments.map((p) => p.lineage)
    if (documents.shared.has(docKey)) {
      reject(
        lineage,
        `payments against ${docKey.replace(":", " ")}`,
        "that number names more than one document, so the payment's document is ambiguous",
        "make document numbers unique in the source"
      )
      continue
    }
    const doc = ofKey[0]
    if (doc === undefined || documents.planned[doc.place] !== 1) {
      reject(
        lineage,
        `payments against ${docKey.replace(":", " ")}`,
        "the document is not migrated (missing, voided or rejected)",
        "fix the document first; its payments follow"
      )
      continue
    }
    const reference = doc.number
    if (doc.state === "draft") {
      reject(
        lineage,
        `payments against draft ${doc.kind} ${doc.number}`,
        "a draft cannot be paid",
        "approve it in the source"
      )
      continue
    }
    const sorted = paymentOrder(payments)
    const amounts = sorted.map((p) => bankAmountIn(books, base, p, doc.currency))
    if (amounts.some((a) => a === undefined)) {
      yield [docKey, undefined]
      reject(
        lineage,
        `payments against ${doc.kind} ${doc.number}`,
        `no ${doc.currency} rate on or before a payment date`,
        "add the rate to the exchange-rate file"
      )
      continue
    }
    const cash = Money.sum(amounts as Array<Money.Money>)
    yield [docKey, { doc, reference, payments: sorted, amounts: amounts as Array<Money.Money>, cash }]
  }
}

/**
 * Plans the payments of one document once cash and credits together explain what the export says was settled
 * (`credit`: what credit notes were applied to it); otherwise its payments are rejected, saying what the bank
 * rows and the credits settle.
 */
const planDocumentPayments = (ctx: PlanContext, c: DocumentCash, credit: Money.Money): void => {
  const base = ctx.snapshot.baseCurrency
  const { doc, reference, payments: sorted, amounts } = c
  const settled = settledOf(doc)
  if (!Money.equals(Money.add(c.cash, credit), settled)) {
    const cur = doc.currency || base
    ctx.reject(
      sorted.length > 0 ? sorted.map((p) => p.lineage) : doc.lineage,
      sorted.length > 0 ? `payments against ${doc.kind} ${doc.number}` : `${doc.kind} ${doc.number}`,
      `the bank rows settle ${fmt(c.cash)} ${cur}${Money.isZero(credit) ? "" : ` and credit notes ${fmt(credit)} ${cur}`}, the document says ${fmt(settled)} paid`,
      "check the bank report's period covers every payment, the credit notes, and the exchange rates"
    )
    return
  }
  const docRef = Refs.opKey(doc.kind, reference)
  sorted.forEach((p, i) => {
    const n = i + 1
    const key = `payment:${doc.kind}:${reference}:${n}`
    ctx.add(
      {
        key,
        phase: "settlements",
        kind: doc.kind === "invoice" ? "invoice-payment" : "bill-payment",
        naturalKey: `${doc.kind}:${reference}:${n}`,
        sortKey: `${p.date}|${doc.kind}|${reference}|${n}`,
        lineage: [p.lineage]
      },
      Bodies.Payments,
      () => {
        const bank = ctx.account(p.bankAccountName)
        return {
          body: new Bodies.Payments({
            resourceId: Refs.ref(doc.kind, reference),
            payments: [
              new Bodies.Payment({
                paymentAmount: p.amount,
                transactionAmount: amounts[i]!,
                accountResourceId: bank.ref,
                paymentMethod: "BANK_TRANSFER",
                reference: paymentReference(reference, n),
                valueDate: p.date
              })
            ]
          }),
          dependsOn: deps(docRef, bank.opKey)
        }
      }
    )
  })
}

/**
 * Plans the payments of every planned document (`documentCash`, read once): at once those of a document no
 * credit can go to (nothing left to explain, and not in the allocations file), the others (`creditTaker`)
 * once `credit` has applied the credits to them, given what it applied to each (`kind:number` → amount).
 * The issues are told as if every document's payments were planned after the credits, in `documentCash`'s
 * order: those of a document planned at once are held until then.
 */
export const planPayments = (
  ctx: PlanContext,
  books: SpilledBooks,
  documents: PlannedDocuments,
  credit: (takers: ReadonlyArray<DocUse>) => ReadonlyMap<string, Money.Money>
): void => {
  const named = namedDocuments(books)
  const takers: Array<DocUse> = []
  const later: Array<DocUse | ReadonlyArray<Issue>> = []
  for (const [docKey, c] of documentCash(ctx, books, documents)) {
    if (c === undefined) continue
    const taker = creditTaker(named, docKey, c)
    if (taker !== undefined) {
      takers.push(taker)
      later.push(taker)
      continue
    }
    const told = ctx.issues.length
    planDocumentPayments(ctx, c, Money.zero)
    if (ctx.issues.length > told) later.push(ctx.issues.splice(told))
  }
  const credited = credit(takers)
  for (const x of later)
    if (Array.isArray(x)) ctx.issues.push(...x)
    else {
      const d = x as DocUse
      planDocumentPayments(ctx, d.cash, credited.get(d.docKey) ?? Money.zero)
    }
}
