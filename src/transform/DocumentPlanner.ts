/**
 * Plans invoices and bills, then their payments. A document is only planned when the target, applying its
 * own tax profiles and rounding, will arrive at the source's line amounts, tax and total to the cent; a
 * payment carries the bank-currency amount and the document-currency amount it settles.
 */
import { groupBy } from "../Multimap.js"
import * as Bodies from "./Bodies.js"
import { bankAmountIn, rateOn } from "./Fx.js"
import { planLines, tagsOf } from "./Lines.js"
import * as Money from "./Money.js"
import { deps, PlanProblem, type PlanContext } from "./PlanContext.js"
import { documentReferences, paymentOrder, paymentReference } from "./RecordIdentity.js"
import * as Refs from "./Refs.js"
import type { SourceBooks, SourceDocument, SourcePayment, SourceRate } from "./SourceModel.js"
import { flat } from "../Strings.js"

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

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

const documentBody = (ctx: PlanContext, books: SourceBooks, doc: SourceDocument, reference: string) => {
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

/** A planned document and its reference; `ambiguous` when its number names several documents. */
export type PlannedDocument = { readonly doc: SourceDocument; readonly reference: string } | "ambiguous"

export const planDocuments = (ctx: PlanContext, books: SourceBooks): Map<string, PlannedDocument> => {
  const planned = new Map<string, PlannedDocument>()
  for (const d of books.documents) {
    if (d.state === "voided")
      ctx.warn(
        d.lineage,
        `${d.kind} ${d.number} (${d.status})`,
        "voided documents are not migrated",
        "nothing to do"
      )
  }
  const refs = documentReferences(books.documents)
  for (const { doc: d, reference, uses } of refs.renamed)
    ctx.warn(
      d.lineage,
      `${d.kind} number ${d.number} is used ${uses} times`,
      "references identify documents in the target",
      `this one is migrated as ${reference}`
    )
  for (const [doc, reference] of refs) {
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
    const numberKey = flat(`${doc.kind}:${doc.number}`)
    if (ok)
      planned.set(
        numberKey,
        planned.has(numberKey) || reference !== doc.number ? "ambiguous" : { doc, reference }
      )
    else if (reference !== doc.number) planned.set(numberKey, "ambiguous")
  }
  return planned
}

/**
 * What an open document without payments has: written out, not spread from its planned document, which gave
 * each such object a hidden class of its own (10,212 of them at 20,000 invoices, 3 MB, in a heap snapshot).
 */
const NO_PAYMENTS: ReadonlyArray<SourcePayment> = []
const NO_AMOUNTS: ReadonlyArray<Money.Money> = []

/** A planned document's bank payments, each with the amount it settles in the document's currency. */
export interface DocumentCash {
  readonly doc: SourceDocument
  readonly reference: string
  readonly payments: ReadonlyArray<SourcePayment>
  readonly amounts: ReadonlyArray<Money.Money>
  /** Σ amounts, in the document's currency. */
  readonly cash: Money.Money
}

/** What the export says was settled on a document, by cash or credit: its total less its amount due. */
export const settledOf = (doc: SourceDocument): Money.Money => Money.sub(doc.total, doc.amountDue)

/**
 * Groups the bank payments by document and converts each to the document's currency (at the source rate of
 * the payment date). Payments whose document is ambiguous, not migrated, a draft, or foreign without a rate
 * are rejected here; the result holds every open planned document (with no payments: zero cash), keyed by
 * `kind:number`, or undefined for one whose payments were rejected (its settlement cannot be known).
 */
export const documentCash = (
  ctx: PlanContext,
  books: SourceBooks,
  documents: Map<string, PlannedDocument>
): Map<string, DocumentCash | undefined> => {
  const byDoc = groupBy(books.payments, (p) => flat(`${p.documentKind}:${p.documentNumber}`))
  const base = ctx.snapshot.baseCurrency
  const out = new Map<string, DocumentCash | undefined>()
  // The keys sorted, not the entries: an array for each of 167,000 entries at 100,000 invoices, at once.
  for (const docKey of [...documents.keys()].sort(compare)) {
    const planned = documents.get(docKey)!
    if (planned !== "ambiguous" && planned.doc.state === "open" && !byDoc.has(docKey))
      out.set(docKey, {
        doc: planned.doc,
        reference: planned.reference,
        payments: NO_PAYMENTS,
        amounts: NO_AMOUNTS,
        cash: Money.zero
      })
  }
  for (const docKey of [...byDoc.keys()].sort(compare)) {
    const payments = byDoc.get(docKey)!
    const planned = documents.get(docKey)
    const lineage = payments.map((p) => p.lineage)
    if (planned === "ambiguous") {
      ctx.reject(
        lineage,
        `payments against ${docKey.replace(":", " ")}`,
        "that number names more than one document, so the payment's document is ambiguous",
        "make document numbers unique in the source"
      )
      continue
    }
    if (!planned) {
      ctx.reject(
        lineage,
        `payments against ${docKey.replace(":", " ")}`,
        "the document is not migrated (missing, voided or rejected)",
        "fix the document first; its payments follow"
      )
      continue
    }
    const { doc, reference } = planned
    if (doc.state === "draft") {
      ctx.reject(
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
      out.set(docKey, undefined)
      ctx.reject(
        lineage,
        `payments against ${doc.kind} ${doc.number}`,
        `no ${doc.currency} rate on or before a payment date`,
        "add the rate to the exchange-rate file"
      )
      continue
    }
    const cash = Money.sum(amounts as Array<Money.Money>)
    out.set(docKey, { doc, reference, payments: sorted, amounts: amounts as Array<Money.Money>, cash })
  }
  return out
}

/**
 * Plans each document's payments once cash and credits together explain what the export says was settled
 * (`credited`: what credit notes were applied to it, by `kind:number`); otherwise its payments are rejected,
 * saying what the bank rows and the credits settle.
 */
export const planPayments = (
  ctx: PlanContext,
  cash: Map<string, DocumentCash | undefined>,
  credited: ReadonlyMap<string, Money.Money> = new Map()
): void => {
  const base = ctx.snapshot.baseCurrency
  for (const [docKey, c] of cash) {
    if (c === undefined) continue
    const { doc, reference, payments: sorted, amounts } = c
    const credit = credited.get(docKey) ?? Money.zero
    const settled = settledOf(doc)
    if (!Money.equals(Money.add(c.cash, credit), settled)) {
      const cur = doc.currency || base
      ctx.reject(
        sorted.length > 0 ? sorted.map((p) => p.lineage) : doc.lineage,
        sorted.length > 0 ? `payments against ${doc.kind} ${doc.number}` : `${doc.kind} ${doc.number}`,
        `the bank rows settle ${fmt(c.cash)} ${cur}${Money.isZero(credit) ? "" : ` and credit notes ${fmt(credit)} ${cur}`}, the document says ${fmt(settled)} paid`,
        "check the bank report's period covers every payment, the credit notes, and the exchange rates"
      )
      continue
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
}
