/**
 * The target's books as the reconciliation reads them back, typed: its chart, its trial balance, AR and AP
 * reports and general ledger at a date, its documents and journals. Only this module knows the response
 * shapes; the comparisons work on these types (and tests build them by hand).
 */
import * as Effect from "effect/Effect"
import { TargetApi, unwrap } from "../load/TargetApi.js"
import * as Money from "../transform/Money.js"
import { day, eachByDate, report, searchByDate, searchIn, str, type Row } from "./ReadBack.js"

export interface TargetChartAccount {
  readonly name: string
  readonly code: string
  /** Asset, Liability, Equity, Revenue or Expense. */
  readonly accountClass: string
  readonly accountType: string
  readonly controlFlag: boolean
}

export interface TargetBalance {
  readonly accountName: string
  readonly accountCode: string
  /** Debit positive. */
  readonly balance: Money.Money
}

export interface TargetTrialBalance {
  readonly asAt: string
  readonly rows: ReadonlyArray<TargetBalance>
  readonly debit: Money.Money
  readonly credit: Money.Money
}

export interface TargetAgedRow {
  readonly contact: string
  readonly currency: string
  readonly outstanding: Money.Money
  readonly outstandingBase: Money.Money
}

export interface TargetPayment {
  readonly reference: string
  readonly date: string
  /** In the document's currency. */
  readonly amount: Money.Money
}

/** The four kinds of document the target keeps balances on. */
export type TargetDocumentKind = "invoice" | "bill" | "customer-credit-note" | "supplier-credit-note"

export interface TargetDocument {
  readonly kind: TargetDocumentKind
  readonly reference: string
  readonly contact: string
  readonly currency: string
  /** Document-currency units per 1 base unit. */
  readonly exchangeRate: Money.Money
  readonly date: string
  readonly dueDate: string
  readonly status: string
  readonly total: Money.Money
  /** Cash against it: an invoice's or bill's payments, a credit note's refunds. */
  readonly payments: ReadonlyArray<TargetPayment>
  /** Credit applications: credit notes applied to an invoice or bill, or a credit note's uses on documents. */
  readonly credits: ReadonlyArray<TargetPayment>
}

/** Whether a document is a credit note: its open amount is owed to the contact, not by them. */
export const isCreditNote = (d: Pick<TargetDocument, "kind">): boolean =>
  d.kind === "customer-credit-note" || d.kind === "supplier-credit-note"

/** What settled a document up to `asAt` (all of it without one): payments or refunds, and credit applications. */
export const settledOf = (d: TargetDocument, asAt?: string): Money.Money =>
  Money.sum(
    [...d.payments, ...d.credits].filter((p) => asAt === undefined || p.date <= asAt).map((p) => p.amount)
  )

/** The document's outstanding amount in its own currency, counting settlements up to `asAt`. */
export const outstandingOf = (d: TargetDocument, asAt?: string): Money.Money =>
  Money.sub(d.total, settledOf(d, asAt))

export interface TargetJournal {
  readonly reference: string
  readonly date: string
  readonly status: string
  readonly debit: Money.Money
}

export interface LedgerLine {
  readonly reference: string
  readonly date: string
  readonly type: string
  /** Base currency, debit positive. */
  readonly amount: Money.Money
  readonly currency: string
  /** In `currency`, debit positive. */
  readonly sourceAmount: Money.Money
}

export interface LedgerAccount {
  readonly accountName: string
  readonly opening: Money.Money
  readonly lines: ReadonlyArray<LedgerLine>
}

/** A target amount (a JSON number, or a decimal string) as money; anything else is zero. */
export const money = (v: unknown): Money.Money =>
  typeof v === "number"
    ? Money.fromNumber(v)
    : Money.parse(str(v)).pipe((o) => (o._tag === "Some" ? o.value : Money.zero))

const rows = (data: Row, field: string): Array<Row> =>
  Array.isArray(data[field]) ? (data[field] as Array<Row>) : []

/** Debit positive, from a row's debitAmount / creditAmount. */
const net = (r: Row) => Money.sub(money(r.debitAmount), money(r.creditAmount))

export const isVoid = (status: string) => status === "VOID" || status === "VOIDED"

export const chart = Effect.gen(function* () {
  const api = yield* TargetApi
  const { rows: found } = yield* api.searchAll("/chart-of-accounts/search", {
    sort: { sortBy: ["name"], order: "ASC" }
  })
  return found.map((a): TargetChartAccount => ({
    name: str(a.name),
    code: str(a.code),
    accountClass: str(a.accountClass),
    accountType: str(a.accountType) || str(a.classificationType),
    controlFlag: a.controlFlag === true
  }))
})

/** The organization's name, or "" when the target does not say. */
export const company = Effect.gen(function* () {
  const api = yield* TargetApi
  const org = yield* api.read("GET", "/organization").pipe(
    Effect.map(unwrap),
    Effect.orElseSucceed(() => ({}) as Record<string, unknown>)
  )
  return str(org.name) || str(org.organizationName)
})

export const trialBalance = (from: string, asAt: string) =>
  Effect.map(
    report("trial-balance", { startDate: from < asAt ? from : asAt, endDate: asAt }),
    (data): TargetTrialBalance => {
      const totals = (data.totals ?? {}) as Row
      return {
        asAt,
        rows: rows(data, "rows").map((r) => ({
          accountName: str(r.accountName),
          accountCode: str(r.accountCode),
          balance: net(r)
        })),
        debit: money(totals.debitAmount),
        credit: money(totals.creditAmount)
      }
    }
  )

export const aged = (side: "AR" | "AP", asAt: string, baseCurrency: string) =>
  Effect.map(report(side === "AR" ? "ar-report" : "ap-report", { endDate: asAt }), (data) =>
    rows(data, "rows").map((r): TargetAgedRow => ({
      contact: str(r.contactName),
      currency: str(r.currencyCode) || baseCurrency,
      outstanding: money(r.outstandingAmount),
      outstandingBase: money(r.outstandingBaseAmount ?? r.outstandingAmount)
    }))
  )

const settlements = (r: Row, field: string, amount: string): Array<TargetPayment> =>
  rows(r, field).map((p) => ({
    reference: str(p.reference),
    date: day(p.valueDate),
    amount: money(p[amount])
  }))

/**
 * A row of the target's documents of one kind as a document with its payments, refunds and credits. Each row
 * becomes a document as its page arrives: a big company's full rows (lines, addresses, audit fields) would be
 * most of reconcile's memory otherwise, and a copy of the fields read kept until the search ends was a
 * second representation of every document beside the documents made of it.
 */
const documentOf =
  (kind: TargetDocumentKind, baseCurrency: string) =>
  (r: Row): TargetDocument => ({
    kind,
    reference: str(r.reference),
    contact: str((r.contact as Row | undefined)?.name),
    currency: str(r.currencyCode) || baseCurrency,
    exchangeRate: typeof r.exchangeRate === "number" ? money(r.exchangeRate) : Money.fromNumber(1),
    date: day(r.valueDate),
    dueDate: day(r.dueDate),
    status: str(r.status),
    total: money(r.totalAmount),
    payments: isCreditNote({ kind })
      ? settlements(r, "refunds", "transactionAmount")
      : settlements(r, "paymentRecords", "transactionAmount"),
    credits: settlements(r, "creditApplications", "amountApplied")
  })

/** The target's documents of one kind dated `from` to `to`. */
export const documents = (kind: TargetDocumentKind, from: string, to: string, baseCurrency: string) =>
  searchByDate(`/${kind}s/search`, from, to, "reference", documentOf(kind, baseCurrency))

/** The target's documents of one kind dated `from` to `to`, handed to `each` a window at a time in date order. */
export const documentWindows = <E, R>(
  kind: TargetDocumentKind,
  from: string,
  to: string,
  baseCurrency: string,
  each: (docs: ReadonlyArray<TargetDocument>) => Effect.Effect<void, E, R>
) => eachByDate(`/${kind}s/search`, from, to, "reference", documentOf(kind, baseCurrency), each)

export const journals = (references: ReadonlyArray<string>) =>
  Effect.map(searchIn("/journals/search", "reference", references), (found) =>
    found.map((r): TargetJournal => ({
      reference: str(r.reference),
      date: day(r.valueDate),
      status: str(r.status),
      debit: Money.sum(
        (Array.isArray(r.journalEntries) ? (r.journalEntries as Array<Row>) : [])
          .filter((e) => str(e.type) === "DEBIT")
          .map((e) => money(e.amount))
      )
    }))
  )

/** The general ledger by account from `from` to `to`, keyed by account name. */
export const generalLedger = (from: string, to: string) =>
  Effect.map(
    report("general-ledger", { startDate: from < to ? from : to, endDate: to, groupBy: "ACCOUNT" }),
    (data) =>
      new Map(
        rows(data, "groups").map((g): [string, LedgerAccount] => [
          str(g.accountName),
          {
            accountName: str(g.accountName),
            opening: money(g.openingBalance),
            lines: rows(g, "lines").map((l) => {
              const amount = net(l)
              const source = Money.abs(money(l.sourceAmount))
              return {
                reference: str(l.reference),
                date: day(l.valueDate),
                type: str(l.businessTransactionType),
                amount,
                currency: str(l.sourceCurrencyCode),
                sourceAmount: Money.isNegative(amount) ? Money.negate(source) : source
              }
            })
          }
        ])
      )
  )
