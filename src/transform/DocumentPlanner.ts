/**
 * Plans invoices and bills, then their payments. A document is only planned when the target, applying its
 * own tax profiles and rounding, will arrive at the source's line amounts, tax and total to the cent; a
 * payment carries the bank-currency amount and the document-currency amount it settles.
 */
import * as Bodies from "./Bodies.js"
import * as Money from "./Money.js"
import { deps, PlanProblem, type PlanContext } from "./PlanContext.js"
import * as Refs from "./Refs.js"
import type { SourceBooks, SourceDocument, SourceLine, SourcePayment, SourceRate } from "./SourceModel.js"

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The amounts the platform computes for a line: amount = round2(qty × price), tax by profile rate. */
export const lineAmounts = (
  line: { quantity: Money.Money; unitPrice: Money.Money },
  vatPercent: number,
  taxInclusive: boolean
) => {
  const amount = Money.round2(Money.mul(line.quantity, line.unitPrice))
  const v = Money.fromNumber(vatPercent)
  const tax = taxInclusive
    ? Money.round2(Money.div(Money.mul(amount, v), Money.add(Money.fromNumber(100), v), 12))
    : Money.round2(Money.div(Money.mul(amount, v), Money.fromNumber(100), 12))
  return { amount, tax }
}

/** The source rate in force on `date` (the latest one on or before it). */
export const rateOn = (
  rates: ReadonlyArray<SourceRate>,
  currency: string,
  date: string
): SourceRate | undefined => {
  let best: SourceRate | undefined
  for (const r of rates)
    if (r.currency === currency && r.date <= date && (!best || r.date > best.date)) best = r
  return best
}

const fmt = (m: Money.Money) => Money.toFixed(m)

const checkLine = (ctx: PlanContext, line: SourceLine, taxInclusive: boolean) => {
  if (!Money.isZero(line.discount)) {
    throw new PlanProblem(
      `line ${line.lineage} has a ${fmt(line.discount)}% discount`,
      "discounted lines are not migrated by this version",
      "remove the discount into the unit price in the export"
    )
  }
  const tax = ctx.taxProfile(line.taxType)
  const computed = lineAmounts(
    { quantity: line.quantity, unitPrice: line.unitAmount },
    tax?.profile.vatValue ?? 0,
    taxInclusive
  )
  if (!Money.equals(computed.amount, line.lineAmount)) {
    throw new PlanProblem(
      `line ${line.lineage}: ${fmt(line.quantity)} × ${fmt(line.unitAmount)} = ${fmt(computed.amount)}, the export says ${fmt(line.lineAmount)}`,
      "the target computes line amounts from quantity and price",
      "correct the line in the source system and export again"
    )
  }
  if (!Money.equals(computed.tax, line.taxAmount)) {
    throw new PlanProblem(
      `line ${line.lineage}: tax "${line.taxType}" at ${tax?.profile.vatValue ?? 0}% gives ${fmt(computed.tax)}, the export says ${fmt(line.taxAmount)}`,
      "the target computes tax from its own profile; the totals would not reconcile",
      "check the tax mapping for this rate, or correct the tax in the source"
    )
  }
  return { tax, computed }
}

const documentBody = (ctx: PlanContext, books: SourceBooks, doc: SourceDocument, reference: string) => {
  const contact = ctx.contact(doc.contactName)
  const sumLines = Money.sum(doc.lines.map((l) => l.lineAmount))
  const taxInclusive = !Money.isZero(doc.taxTotal) && Money.equals(sumLines, doc.total)
  const opKeys: Array<string | undefined> = [contact.opKey]
  const lineItems = doc.lines.map((line) => {
    const account = ctx.account(line.accountCode)
    const { tax } = checkLine(ctx, line, taxInclusive)
    const item = line.itemCode ? ctx.items.get(line.itemCode) : undefined
    if (line.itemCode && !item) {
      throw new PlanProblem(
        `item ${JSON.stringify(line.itemCode)} on line ${line.lineage} is not in the items export`,
        "a line's item must exist",
        "add the item or clear the item code"
      )
    }
    opKeys.push(account.opKey, item?.opKey)
    return new Bodies.LineItem({
      name: line.description || line.itemCode || account.name,
      quantity: line.quantity,
      unitPrice: line.unitAmount,
      accountResourceId: account.ref,
      ...(tax ? { taxProfileResourceId: tax.ref } : {}),
      ...(item ? { itemResourceId: item.ref } : {})
    })
  })
  const taxSum = Money.sum(doc.lines.map((l) => l.taxAmount))
  const total = taxInclusive ? sumLines : Money.add(sumLines, taxSum)
  if (!Money.equals(total, doc.total) || !Money.equals(taxSum, doc.taxTotal)) {
    throw new PlanProblem(
      `its lines add up to ${fmt(total)} (tax ${fmt(taxSum)}), the export's Total is ${fmt(doc.total)} (tax ${fmt(doc.taxTotal)})`,
      "the target would hold a different total",
      "export the document again; a line may be missing"
    )
  }
  const base = ctx.snapshot.baseCurrency
  const foreign = doc.currency !== "" && doc.currency !== base
  if (foreign) {
    const rate = rateOn(books.rates, doc.currency, doc.date)
    if (!rate) {
      ctx.warn(
        doc.lineage,
        `${doc.kind} ${doc.number} in ${doc.currency}`,
        `no ${doc.currency} rate on or before ${doc.date}`,
        "the target will use its platform rate; add the rate to the exchange-rate file to control it"
      )
    }
    for (const k of [`currency:${doc.currency}`, rate ? `rate:${doc.currency}:${rate.date}` : ""]) {
      opKeys.push(ctx.opKeys.has(k) ? k : undefined)
    }
  }
  if (doc.dueDate === undefined && doc.kind === "bill" && doc.state === "open") {
    throw new PlanProblem(
      "a bill without a due date",
      "the platform finalizes a bill only with a due date",
      "fill in DueDate"
    )
  }
  const [first, ...rest] = lineItems
  if (!first)
    throw new PlanProblem(
      "a document without lines",
      "a finalized document needs lines",
      "export it with its lines"
    )
  return {
    body: new Bodies.Document({
      reference,
      valueDate: doc.date,
      ...(doc.dueDate ? { dueDate: doc.dueDate < doc.date ? doc.date : doc.dueDate } : {}),
      contactResourceId: contact.ref,
      ...(foreign ? { currency: new Bodies.TransactionCurrency({ sourceCurrency: doc.currency }) } : {}),
      taxInclusion: taxInclusive,
      saveAsDraft: doc.state === "draft",
      lineItems: [first, ...rest]
    }),
    dependsOn: deps(...opKeys)
  }
}

/**
 * References made unique: a repeated number keeps its first use (by date, contact, source line) and the
 * others get `-2`, `-3`, … ; `onDuplicate` hears of each renamed document.
 */
export const assignReferences = (
  docs: ReadonlyArray<SourceDocument>,
  onDuplicate: (doc: SourceDocument, reference: string, uses: number) => void = () => {}
): Map<SourceDocument, string> => {
  const refs = new Map<SourceDocument, string>()
  const byNumber = new Map<string, Array<SourceDocument>>()
  for (const d of docs)
    byNumber.set(`${d.kind}:${d.number}`, [...(byNumber.get(`${d.kind}:${d.number}`) ?? []), d])
  for (const group of byNumber.values()) {
    const sorted = [...group].sort(
      (a, b) =>
        compare(a.date, b.date) ||
        compare(a.contactName, b.contactName) ||
        compare(a.lineage[0]!, b.lineage[0]!)
    )
    sorted.forEach((d, i) => {
      const reference = i === 0 ? d.number : `${d.number}-${i + 1}`
      refs.set(d, reference)
      if (i > 0) onDuplicate(d, reference, sorted.length)
    })
  }
  return refs
}

/** The documents that migrate: everything but voided ones. */
export const migrating = (docs: ReadonlyArray<SourceDocument>) => docs.filter((d) => d.state !== "voided")

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
  const refs = assignReferences(migrating(books.documents), (d, reference, uses) =>
    ctx.warn(
      d.lineage,
      `${d.kind} number ${d.number} is used ${uses} times`,
      "references identify documents in the target",
      `this one is migrated as ${reference}`
    )
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
    const numberKey = `${doc.kind}:${doc.number}`
    if (ok)
      planned.set(
        numberKey,
        planned.has(numberKey) || reference !== doc.number ? "ambiguous" : { doc, reference }
      )
    else if (reference !== doc.number) planned.set(numberKey, "ambiguous")
  }
  return planned
}

export const planPayments = (
  ctx: PlanContext,
  books: SourceBooks,
  documents: Map<string, PlannedDocument>
): void => {
  const byDoc = new Map<string, Array<SourcePayment>>()
  for (const p of books.payments)
    byDoc.set(`${p.documentKind}:${p.documentNumber}`, [
      ...(byDoc.get(`${p.documentKind}:${p.documentNumber}`) ?? []),
      p
    ])
  const base = ctx.snapshot.baseCurrency
  for (const [docKey, payments] of [...byDoc].sort(([a], [b]) => compare(a, b))) {
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
    const sorted = [...payments].sort((a, b) => compare(a.date, b.date) || compare(a.lineage, b.lineage))
    const foreign = doc.currency !== "" && doc.currency !== base
    const amounts = sorted.map((p) => {
      if (!foreign) return p.amount
      const rate = rateOn(books.rates, doc.currency, p.date)
      return rate ? Money.round2(Money.div(p.amount, rate.basePerUnit, 12)) : undefined
    })
    if (amounts.some((a) => a === undefined)) {
      ctx.reject(
        lineage,
        `payments against ${doc.kind} ${doc.number}`,
        `no ${doc.currency} rate on or before a payment date`,
        "add the rate to the exchange-rate file"
      )
      continue
    }
    const settled = Money.sum(amounts as Array<Money.Money>)
    if (!Money.equals(settled, doc.amountPaid)) {
      ctx.reject(
        lineage,
        `payments against ${doc.kind} ${doc.number}`,
        `the bank rows settle ${fmt(settled)} ${doc.currency || base}, the document says ${fmt(doc.amountPaid)} paid`,
        "check the bank report's period covers every payment, and the exchange rates"
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
          phase: "payments",
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
                  reference: `${reference}-PMT${n}`,
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
