/**
 * A full conversion from a start date: the opening position on the day before it, exactly as a quick
 * conversion builds it from the source's own Trial Balance and aged reports at that day, then every
 * transaction dated on or after the start date, as a full migration moves it.
 *
 * What happened in the period to records older than the start date is replayed on their conversion
 * records: a payment, credit application or refund in the period of a document or credit open the day
 * before applies to its conversion document or credit note (by number and contact, as the aged report lists
 * it). To know exactly what was settled before and after the date, the whole history is planned in memory
 * first: its credit applications (each dated the later of the credit's and the document's date, as the
 * plan sends them) and refunds say which credit went where, so that
 * - a conversion document's total is its own-currency amount open the day before (its total less what its
 *   payments and credits settled before the date), and what it says is paid is what was settled after;
 * - a conversion credit note's total is what was left of the credit the day before;
 * - the period's applications are stated to the planner rather than inferred again;
 * - a prepayment made before the date and still unapplied the day before, which the source holds on the
 *   account its line is coded to (not on the contact's balance, so not in the aged report), comes in as a
 *   prepayment of the opening position (`opening`: its cash is in the opening journal) for what was left of
 *   it, so that its applications and refunds in the period move it off that account as the source did (one
 *   the target cannot hold on its account, with tax or several accounts, opens as a credit note on the
 *   start date on its first account, with a warning).
 * A payment in the period of a document the aged report does not list as open, and a draft dated before the
 * start date, are listed with their source rows and not migrated.
 */
import { addDays } from "./Dates.js"
import { bankAmountIn } from "./Fx.js"
import type { Mappings } from "./Mappings.js"
import * as Money from "./Money.js"
import type { OpenItemMatch } from "./OpenItems.js"
import * as PlanBuilder from "./PlanBuilder.js"
import * as QuickConversion from "./QuickConversion.js"
import { documentReferences } from "./RecordIdentity.js"
import * as Refs from "./Refs.js"
import type {
  Issue,
  SourceAllocation,
  SourceBooks,
  SourceCredit,
  SourceDocument,
  SourcePayment,
  SourceRefund
} from "./SourceModel.js"
import type { TargetSnapshot } from "./TargetSnapshot.js"
import {
  creditKind,
  creditMigrates,
  creditReferences,
  heldOnAccount,
  heldRecordOf
} from "./TransactionIdentity.js"
import { append, groupBy } from "../Multimap.js"

/** A credit applied to a document in the source's whole history, as the full plan infers or states it. */
interface Application {
  readonly credit: SourceCredit
  readonly doc: SourceDocument
  readonly amount: Money.Money
  /** The later of the credit's and the document's date: when the plan applies it. */
  readonly date: string
}

/** The whole history's settlements of credits: applications, and which credit each refund row went to. */
const settlements = (source: SourceBooks, snapshot: TargetSnapshot, mappings: Mappings) => {
  const full = PlanBuilder.build(source, snapshot, mappings)
  const docs = new Map<string, SourceDocument>()
  for (const [d, r] of documentReferences(source.documents)) docs.set(Refs.opKey(d.kind, r), d)
  const credits = new Map<string, SourceCredit>()
  const references = creditReferences(source.credits ?? [])
  for (const [c, r] of references) credits.set(Refs.opKey(creditKind(c), r), c)
  // A prepayment held on its account is applied through credit notes `<ref>-A<n>` and refunded by cash
  // entries `<ref>-RFD<n>`, all of which stand for it.
  const held = new Map<string, SourceCredit>()
  for (const [c, r] of references) if (heldOnAccount(c) !== undefined) held.set(r, c)
  const creditOf = (ref: string | undefined): SourceCredit | undefined => {
    const parsed = Refs.parse(ref ?? "")
    if (parsed === undefined) return undefined
    const record = heldRecordOf(parsed.naturalKey)
    return (
      credits.get(parsed.key) ?? (record?.record === "application" ? held.get(record.prepayment) : undefined)
    )
  }
  const applications: Array<Application> = []
  const refundOf = new Map<string, SourceCredit>()
  for (const op of full.ops) {
    const applying = op.kind === "invoice-credit" || op.kind === "bill-credit"
    const heldRefund = heldRecordOf(op.naturalKey)
    const refunding =
      op.kind === "customer-refund" ||
      op.kind === "supplier-refund" ||
      ((op.kind === "cash-in" || op.kind === "cash-out") && heldRefund?.record === "refund")
    // Only these kinds' bodies are read (a body is parsed from its JSON when read).
    if (!applying && !refunding) continue
    const body = op.body as {
      readonly resourceId: string
      readonly credits?: ReadonlyArray<{ creditNoteResourceId: string; amountApplied: number }>
    }
    if (applying) {
      const doc = docs.get(Refs.parse(body.resourceId)?.key ?? "")
      for (const a of body.credits ?? []) {
        const credit = creditOf(a.creditNoteResourceId)
        if (doc === undefined || credit === undefined) continue
        const amount = Money.parse(String(a.amountApplied))
        if (amount._tag === "None") continue
        const date = doc.date > credit.date ? doc.date : credit.date
        applications.push({ credit, doc, amount: amount.value, date })
      }
    }
    const credit =
      op.kind === "customer-refund" || op.kind === "supplier-refund"
        ? creditOf(body.resourceId)
        : (op.kind === "cash-in" || op.kind === "cash-out") && heldRefund?.record === "refund"
          ? held.get(heldRefund.prepayment)
          : undefined
    if (credit !== undefined) for (const l of op.lineage) refundOf.set(l, credit)
  }
  return { applications, refundOf, references }
}

/** Every record dated on or after `from`; the rest belong to the opening position. */
const inPeriod = <A extends { readonly date: string }>(xs: ReadonlyArray<A> | undefined, from: string) =>
  (xs ?? []).filter((x) => x.date >= from)

/**
 * Builds the books of a conversion from `from`: the opening position the day before, from the source's
 * reports at that day, and the period's transactions; or refuses, as a quick conversion does, when the
 * reports the day before are missing or cannot give a true opening position.
 */
export const books = (
  source: SourceBooks,
  from: string,
  snapshot: TargetSnapshot,
  mappings: Mappings
): QuickConversion.Conversion | QuickConversion.ConversionRefused => {
  const asAt = addDays(from, -1)
  const base = snapshot.baseCurrency
  const { applications, refundOf, references } = settlements(source, snapshot, mappings)
  const appliedTo = new Map<SourceDocument, Array<Application>>()
  const appliedFrom = new Map<SourceCredit, Array<Application>>()
  for (const a of applications) {
    append(appliedTo, a.doc, a)
    append(appliedFrom, a.credit, a)
  }
  const refundsOf = new Map<SourceCredit, Array<SourceRefund>>()
  for (const r of source.refunds ?? []) {
    const c = refundOf.get(r.lineage)
    if (c !== undefined) append(refundsOf, c, r)
  }
  const before = <A extends { readonly date: string }>(xs: ReadonlyArray<A> | undefined) =>
    (xs ?? []).filter((x) => x.date < from)
  const paymentsOf = groupBy(source.payments, (p) => `${p.documentKind}:${p.documentNumber}`)
  /**
   * What bank rows and credit applications dated before the start date took off a document or a credit, in
   * its currency; undefined when a rate is missing.
   */
  const takenBefore = (
    cash: ReadonlyArray<SourcePayment | SourceRefund> | undefined,
    applied: ReadonlyArray<Application> | undefined,
    currency: string
  ): Money.Money | undefined => {
    const amounts = before(cash).map((row) => bankAmountIn(source, base, row, currency))
    if (amounts.some((a) => a === undefined)) return undefined
    return Money.sum([...(amounts as Array<Money.Money>), ...before(applied).map((a) => a.amount)])
  }
  const settledBefore = (d: SourceDocument) =>
    takenBefore(paymentsOf.get(`${d.kind}:${d.number}`), appliedTo.get(d), d.currency)
  const usedBefore = (c: SourceCredit) => takenBefore(refundsOf.get(c), appliedFrom.get(c), c.currency)
  const openBefore = (found: OpenItemMatch): Money.Money | undefined => {
    if (found._tag === "document") {
      const s = settledBefore(found.doc)
      return s === undefined ? undefined : Money.sub(found.doc.total, s)
    }
    const u = usedBefore(found.credit)
    return u === undefined ? undefined : Money.sub(found.credit.total, u)
  }

  const opening = QuickConversion.books(source, asAt, snapshot, mappings, openBefore)
  if (opening instanceof QuickConversion.ConversionRefused)
    return new QuickConversion.ConversionRefused({
      ...opening,
      mode: `conversion from ${from}`,
      fix: `${opening.fix} (a conversion from ${from} opens from the reports as at the day before, ${asAt})`
    })

  const issues: Array<Issue> = [...source.issues, ...opening.books.issues]
  // The conversion records, each carrying what the period settled of its source record.
  const conversionDocs = new Map<string, SourceDocument>()
  const conversionCredits = new Map<SourceCredit, SourceCredit>()
  const documents: Array<SourceDocument> = opening.books.documents.map((doc) => {
    const found = opening.origins.get(doc)
    if (found?._tag !== "document") return doc
    conversionDocs.set(`${found.doc.kind}:${found.doc.number}`, doc)
    const due = found.doc.amountDue
    return { ...doc, amountDue: due, amountPaid: Money.sub(doc.total, due) }
  })
  const credits: Array<SourceCredit> = (opening.books.credits ?? []).map((credit) => {
    const found = opening.origins.get(credit)
    if (found?._tag !== "credit") return credit
    const remaining = found.credit.remaining
    const made = { ...credit, remaining, used: Money.sub(credit.total, remaining) }
    conversionCredits.set(found.credit, made)
    return made
  })

  // Prepayments made before the date and unapplied the day before: on their coded account, not in the report.
  for (const c of source.credits ?? []) {
    if (c.origin !== "prepayment" || c.date >= from || !creditMigrates(c) || c.state !== "open") continue
    const used = usedBefore(c)
    const left = used === undefined ? undefined : Money.sub(c.total, used)
    if (left === undefined || !Money.greaterThan(left, Money.zero)) continue
    const accounts = [...new Set(c.lines.map((l) => l.accountCode))]
    const number = references.get(c) ?? ""
    const held = heldOnAccount(c) !== undefined
    if (!held)
      issues.push({
        severity: "warning",
        lineage: c.lineage,
        what: `prepayment ${number} of "${c.contactName}": ${Money.toFixed(left)} unapplied on ${asAt}`,
        why: `its lines post to ${accounts.join(", ")}${c.lines.some((l) => !Money.isZero(l.taxAmount)) ? " with tax" : ""}; the credit note opening it on ${from} posts the whole amount, free of tax, to ${accounts[0]}`,
        fix: "check that account's balance in the reconciliation"
      })
    const made: SourceCredit = {
      ...c,
      number,
      // Held on its account, it stays there until applied; any other opens as a credit note on the start date.
      ...(held ? { opening: true } : { origin: "credit-note" as const, date: from }),
      status: "Opening balance",
      total: left,
      taxTotal: Money.zero,
      used: Money.sub(left, c.remaining),
      lines: [
        QuickConversion.oneLine(
          `Prepayment of ${c.date}, unapplied on ${asAt}`,
          left,
          accounts[0] ?? "",
          c.lineage[0] ?? ""
        )
      ]
    }
    conversionCredits.set(c, made)
    credits.push(made)
  }

  // The period's own transactions; drafts dated before the date have no place in either.
  for (const d of source.documents)
    if (d.date < from && d.state === "draft")
      issues.push({
        severity: "warning",
        lineage: d.lineage,
        what: `draft ${d.kind} ${d.number} of ${d.date}`,
        why: `it is dated before the start date ${from}, and a draft is in no report the opening position comes from`,
        fix: "enter it in the target if it is still wanted, or move the start date"
      })
  documents.push(...inPeriod(source.documents, from))
  credits.push(...inPeriod(source.credits, from))

  const payments = inPeriod(source.payments, from).filter((p) => {
    const key = `${p.documentKind}:${p.documentNumber}`
    const own = source.documents.some(
      (d) => d.kind === p.documentKind && d.number === p.documentNumber && d.date >= from
    )
    if (own || conversionDocs.has(key)) return true
    issues.push({
      severity: "reject",
      lineage: [p.lineage],
      what: `a payment of ${Money.toFixed(p.amount)} on ${p.date} against ${p.documentKind} ${p.documentNumber}`,
      why: `the ${p.documentKind} is dated before the start date ${from}, and the aged report as at ${asAt} does not list it as open, so it has no conversion document to apply to`,
      fix: `check the aged report as at ${asAt} lists every open item, and that the payment belongs to this ${p.documentKind}`
    })
    return false
  })

  const numberOf = (c: SourceCredit) =>
    conversionCredits.get(c)?.number || c.number || references.get(c) || ""
  const refunds = inPeriod(source.refunds, from).map((r) => {
    const c = refundOf.get(r.lineage)
    const made = c === undefined ? undefined : conversionCredits.get(c)
    return made === undefined ? r : { ...r, creditNumber: made.number }
  })
  const allocations: Array<SourceAllocation> = applications
    .filter((a) => a.date >= from)
    .map((a) => ({
      creditNumber: numberOf(a.credit),
      documentNumber: a.doc.number,
      amount: a.amount,
      lineage: a.credit.lineage[0] ?? ""
    }))
  const statedBefore = (source.allocations ?? []).filter((a) =>
    applications.some(
      (x) =>
        x.date < from &&
        x.doc.number === a.documentNumber &&
        (x.credit.number || references.get(x.credit)) === a.creditNumber
    )
  )
  if (statedBefore.length > 0)
    issues.push({
      severity: "warning",
      lineage: statedBefore.map((a) => a.lineage),
      what: `${statedBefore.length} rows of the allocations file`,
      why: `they were applied before the start date ${from}, so the opening position holds them`,
      fix: "nothing to do"
    })

  return {
    books: {
      ...opening.books,
      documents,
      credits,
      payments,
      journals: [...opening.books.journals, ...inPeriod(source.journals, from)],
      refunds,
      creditFundings: inPeriod(source.creditFundings, from),
      cashEntries: inPeriod(source.cashEntries, from),
      transfers: inPeriod(source.transfers, from),
      allocations,
      items: source.items,
      trialBalances: source.trialBalances.filter((t) => t.asAt >= asAt),
      agedReports: source.agedReports.filter((r) => r.asAt >= asAt),
      issues
    },
    clearingAccounts: opening.clearingAccounts,
    files: opening.files,
    origins: opening.origins
  }
}
