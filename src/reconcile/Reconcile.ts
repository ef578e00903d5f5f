/**
 * Proves the target matches the source: every migrating document exists exactly once with the source's
 * total, paid amount, balance, currency and draft state; every journal exists once with its debits; each
 * contact's outstanding receivables and payables agree per currency, both from the documents and from the
 * target's own AR/AP reports; and the target's trial balance balances.
 */
import * as Effect from "effect/Effect"
import { normalizeName } from "../transform/Mappings.js"
import * as Money from "../transform/Money.js"
import { assignReferences, migrating } from "../transform/DocumentPlanner.js"
import { journalReference } from "../transform/MasterDataPlanner.js"
import type { SourceBooks } from "../transform/SourceModel.js"
import { day, report, searchByDate, searchIn, str, type Row } from "./ReadBack.js"

export interface Mismatch {
  readonly entity: string
  readonly key: string
  readonly field: string
  readonly source: string
  readonly target: string
  readonly lineage: ReadonlyArray<string>
}

export interface Count {
  readonly entity: string
  readonly source: number
  readonly target: number
  readonly matched: number
}

export interface Reconciliation {
  readonly matches: boolean
  readonly counts: ReadonlyArray<Count>
  readonly mismatches: ReadonlyArray<Mismatch>
  readonly outstanding: ReadonlyArray<{
    readonly side: "AR" | "AP"
    readonly contact: string
    readonly currency: string
    readonly source: string
    readonly target: string
    readonly report: string
  }>
  readonly trialBalance: { readonly debit: string; readonly credit: string; readonly balanced: boolean }
}

const money = (v: unknown): Money.Money =>
  typeof v === "number"
    ? Money.fromNumber(v)
    : Money.parse(str(v)).pipe((o) => (o._tag === "Some" ? o.value : Money.zero))
const fmt = (m: Money.Money) => Money.toFixed(m)

const paidOf = (row: Row) =>
  Money.sum(
    (Array.isArray(row.paymentRecords) ? (row.paymentRecords as Array<Row>) : []).map((p) =>
      money(p.transactionAmount)
    )
  )

const isDraft = (row: Row) => str(row.status) === "DRAFT"
const isVoid = (row: Row) => ["VOID", "VOIDED"].includes(str(row.status))

export const reconcile = (books: SourceBooks, baseCurrency: string, asAt: string) =>
  Effect.gen(function* () {
    const mismatches: Array<Mismatch> = []
    const counts: Array<Count> = []
    const docs = assignReferences(migrating(books.documents))
    const dates = [...docs.keys()].map((d) => d.date).sort()
    const from = dates[0] ?? asAt
    const outstandingSource = new Map<string, Money.Money>()
    const outstandingTarget = new Map<string, Money.Money>()
    const bump = (m: Map<string, Money.Money>, k: string, v: Money.Money) =>
      m.set(k, Money.add(m.get(k) ?? Money.zero, v))

    for (const kind of ["invoice", "bill"] as const) {
      const side = kind === "invoice" ? "AR" : "AP"
      const target = (yield* searchByDate(`/${kind}s/search`, from, asAt)).filter((r) => !isVoid(r))
      const byRef = new Map<string, Array<Row>>()
      for (const r of target) byRef.set(str(r.reference), [...(byRef.get(str(r.reference)) ?? []), r])
      let matched = 0
      let expected = 0
      for (const [doc, reference] of docs) {
        if (doc.kind !== kind) continue
        expected++
        const currency = doc.currency || baseCurrency
        if (doc.state === "open")
          bump(outstandingSource, `${side}|${normalizeName(doc.contactName)}|${currency}`, doc.amountDue)
        const found = byRef.get(reference) ?? []
        const miss = (field: string, source: string, targetValue: string) =>
          mismatches.push({
            entity: kind,
            key: reference,
            field,
            source,
            target: targetValue,
            lineage: doc.lineage
          })
        if (found.length !== 1) {
          miss("count", "1", String(found.length))
          continue
        }
        const row = found[0]!
        const before = mismatches.length
        const paid = paidOf(row)
        const total = money(row.totalAmount)
        if (!Money.equals(total, doc.total)) miss("totalAmount", fmt(doc.total), fmt(total))
        if (!Money.equals(paid, doc.amountPaid)) miss("paid", fmt(doc.amountPaid), fmt(paid))
        if (!Money.equals(Money.sub(total, paid), doc.amountDue))
          miss("balance", fmt(doc.amountDue), fmt(Money.sub(total, paid)))
        if ((str(row.currencyCode) || baseCurrency) !== currency)
          miss("currency", currency, str(row.currencyCode))
        if (isDraft(row) !== (doc.state === "draft")) miss("status", doc.status, str(row.status))
        if (day(row.valueDate) !== doc.date) miss("valueDate", doc.date, day(row.valueDate))
        if (mismatches.length === before) matched++
      }
      for (const r of target) {
        if (!isDraft(r)) {
          const contact = str((r.contact as Row | undefined)?.name)
          bump(
            outstandingTarget,
            `${side}|${normalizeName(contact)}|${str(r.currencyCode) || baseCurrency}`,
            Money.sub(money(r.totalAmount), paidOf(r))
          )
        }
      }
      counts.push({ entity: `${kind}s`, source: expected, target: target.length, matched })
      const payments = books.payments.filter((p) => p.documentKind === kind).length
      const targetPayments = target.reduce(
        (n, r) => n + (Array.isArray(r.paymentRecords) ? r.paymentRecords.length : 0),
        0
      )
      counts.push({
        entity: `${kind} payments`,
        source: payments,
        target: targetPayments,
        matched: Math.min(payments, targetPayments)
      })
      if (payments !== targetPayments) {
        mismatches.push({
          entity: `${kind} payments`,
          key: "all",
          field: "count",
          source: String(payments),
          target: String(targetPayments),
          lineage: []
        })
      }
    }

    const journalRefs = books.journals.map((j) => ({ j, ref: journalReference(j.date, j.narration) }))
    const targetJournals = (yield* searchIn(
      "/journals/search",
      "reference",
      journalRefs.map((x) => x.ref)
    )).filter((r) => !isVoid(r))
    let journalsMatched = 0
    for (const { j, ref } of journalRefs) {
      const found = targetJournals.filter((r) => str(r.reference) === ref)
      const debit = Money.sum(j.lines.filter((l) => !Money.isNegative(l.amount)).map((l) => l.amount))
      const entries = Array.isArray(found[0]?.journalEntries) ? (found[0]!.journalEntries as Array<Row>) : []
      const targetDebit = Money.sum(
        entries.filter((e) => str(e.type) === "DEBIT").map((e) => money(e.amount))
      )
      if (found.length !== 1)
        mismatches.push({
          entity: "journal",
          key: ref,
          field: "count",
          source: "1",
          target: String(found.length),
          lineage: j.lineage
        })
      else if (!Money.equals(debit, targetDebit))
        mismatches.push({
          entity: "journal",
          key: ref,
          field: "debits",
          source: fmt(debit),
          target: fmt(targetDebit),
          lineage: j.lineage
        })
      else journalsMatched++
    }
    counts.push({
      entity: "journals",
      source: journalRefs.length,
      target: targetJournals.length,
      matched: journalsMatched
    })

    const reportTotals = new Map<string, Money.Money>()
    for (const side of ["AR", "AP"] as const) {
      const r = yield* report(side === "AR" ? "ar-report" : "ap-report", { endDate: asAt })
      for (const row of Array.isArray(r.rows) ? (r.rows as Array<Row>) : []) {
        bump(
          reportTotals,
          `${side}|${normalizeName(str(row.contactName))}|${str(row.currencyCode) || baseCurrency}`,
          money(row.outstandingAmount)
        )
      }
    }
    const outstanding: Array<Reconciliation["outstanding"][number]> = []
    const keys = [
      ...new Set([...outstandingSource.keys(), ...outstandingTarget.keys(), ...reportTotals.keys()])
    ].sort()
    for (const k of keys) {
      const [side, contact, currency] = k.split("|") as ["AR" | "AP", string, string]
      const s = outstandingSource.get(k) ?? Money.zero
      const t = outstandingTarget.get(k) ?? Money.zero
      const rep = reportTotals.get(k) ?? Money.zero
      if (Money.isZero(s) && Money.isZero(t) && Money.isZero(rep)) continue
      outstanding.push({ side, contact, currency, source: fmt(s), target: fmt(t), report: fmt(rep) })
      if (!Money.equals(s, t) || !Money.equals(s, rep)) {
        mismatches.push({
          entity: `${side} outstanding`,
          key: `${contact} ${currency}`,
          field: "outstanding",
          source: fmt(s),
          target: `${fmt(t)} (documents), ${fmt(rep)} (report)`,
          lineage: []
        })
      }
    }

    const tb = yield* report("trial-balance", { startDate: from, endDate: asAt })
    const totals = (tb.totals ?? {}) as Row
    const debit = money(totals.debitAmount)
    const credit = money(totals.creditAmount)
    const balanced = Money.equals(debit, credit)
    if (!balanced)
      mismatches.push({
        entity: "trial balance",
        key: asAt,
        field: "debits = credits",
        source: fmt(debit),
        target: fmt(credit),
        lineage: []
      })

    return {
      matches: mismatches.length === 0,
      counts,
      mismatches,
      outstanding,
      trialBalance: { debit: fmt(debit), credit: fmt(credit), balanced }
    } satisfies Reconciliation
  })
