/**
 * Which transactions explain an account's difference. From the source books: what each migrated document,
 * payment and journal posts to each target account (by the plan's pairing and references). From the target:
 * its general-ledger lines for the account, with their references. A reference the source does not know is
 * an extra transaction; one the source posts to the account but the target does not is missing; one in both
 * with a different amount (or that the document comparison found changed) is changed. Lines the platform
 * derives itself (tax, exchange differences, rounding, control totals) carry a known reference on an account
 * the source does not post to directly: they explain nothing unless their transaction changed.
 */
import * as Money from "../transform/Money.js"
import {
  documentReferences,
  journalReference,
  paymentOrder,
  paymentReference
} from "../transform/RecordIdentity.js"
import type { SourceBooks, SourceDocument } from "../transform/SourceModel.js"
import { cashReferences, creditReferences } from "../transform/TransactionIdentity.js"
import type { Candidate } from "./Model.js"
import type { LedgerAccount } from "./TargetBooks.js"
import { append } from "../Multimap.js"

/** What one source transaction posts to one target account (amount in `currency`, debit positive). */
interface Expected {
  readonly entity: string
  readonly date: string
  readonly currency: string
  /** Undefined when the platform derives it (a foreign payment's settled amount): presence only. */
  amount: Money.Money | undefined
  readonly lineage: ReadonlyArray<string>
}

/** A source transaction as the target knows it: by its reference. */
interface Known {
  readonly entity: string
  readonly date: string
  readonly foreign: boolean
  readonly lineage: ReadonlyArray<string>
}

export interface SourcePostings {
  /** target account key → reference → what the source posts there. */
  readonly byAccount: ReadonlyMap<string, ReadonlyMap<string, Expected>>
  readonly known: ReadonlyMap<string, Known>
}

const fmt = (m: Money.Money | undefined) => (m === undefined ? "" : Money.toFixed(m))

/**
 * Builds the source's postings. `account` resolves a source account code or name to the target account's key
 * (undefined when the plan pairs it with none); `control` names the target's AR and AP control accounts.
 */
export const sourcePostings = (
  books: SourceBooks,
  baseCurrency: string,
  account: (codeOrName: string) => string | undefined,
  control: { readonly AR: string | undefined; readonly AP: string | undefined }
): SourcePostings => {
  const byAccount = new Map<string, Map<string, Expected>>()
  const known = new Map<string, Known>()
  const post = (
    key: string | undefined,
    reference: string,
    e: Omit<Expected, "amount">,
    amount: Money.Money | undefined
  ) => {
    if (key === undefined) return
    const refs = byAccount.get(key) ?? new Map<string, Expected>()
    byAccount.set(key, refs)
    const before = refs.get(reference)
    if (before === undefined) refs.set(reference, { ...e, amount })
    else before.amount = before.amount && amount ? Money.add(before.amount, amount) : undefined
  }
  const bankCurrency = (name: string) =>
    books.accounts.find((a) => a.name === name || a.code === name)?.currency || baseCurrency
  const refs = documentReferences(books.documents)
  const byNumber = new Map<string, SourceDocument | "ambiguous">()
  for (const [doc, reference] of refs) {
    const foreign = doc.currency !== "" && doc.currency !== baseCurrency
    known.set(reference, { entity: doc.kind, date: doc.date, foreign, lineage: doc.lineage })
    const k = `${doc.kind}:${doc.number}`
    byNumber.set(k, byNumber.has(k) || reference !== doc.number ? "ambiguous" : doc)
    if (doc.state !== "open") continue
    const sign = doc.kind === "invoice" ? -1 : 1
    const currency = doc.currency || baseCurrency
    const inclusive =
      !Money.isZero(doc.taxTotal) && Money.equals(Money.sum(doc.lines.map((l) => l.lineAmount)), doc.total)
    const e = { entity: doc.kind, date: doc.date, currency, lineage: doc.lineage }
    for (const l of doc.lines) {
      const net = inclusive ? Money.sub(l.lineAmount, l.taxAmount) : l.lineAmount
      post(account(l.accountCode), reference, e, sign > 0 ? net : Money.negate(net))
    }
    post(
      doc.kind === "invoice" ? control.AR : control.AP,
      reference,
      e,
      sign > 0 ? Money.negate(doc.total) : doc.total
    )
  }
  const payments = new Map<string, Array<(typeof books.payments)[number]>>()
  for (const p of books.payments) {
    const k = `${p.documentKind}:${p.documentNumber}`
    append(payments, k, p)
  }
  for (const [k, list] of payments) {
    const doc = byNumber.get(k)
    if (doc === undefined || doc === "ambiguous" || doc.state !== "open") continue
    const foreign = doc.currency !== "" && doc.currency !== baseCurrency
    paymentOrder(list).forEach((p, i) => {
      const reference = paymentReference(doc.number, i + 1)
      const e = { entity: `${doc.kind} payment`, date: p.date, lineage: [p.lineage] }
      known.set(reference, { ...e, foreign })
      const inflow = doc.kind === "invoice"
      post(
        account(p.bankAccountName),
        reference,
        { ...e, currency: bankCurrency(p.bankAccountName) },
        inflow ? p.amount : Money.negate(p.amount)
      )
      const settled = foreign ? undefined : inflow ? Money.negate(p.amount) : p.amount
      post(
        inflow ? control.AR : control.AP,
        reference,
        { ...e, currency: doc.currency || baseCurrency },
        settled
      )
    })
  }
  for (const [c, reference] of creditReferences(books.credits ?? []))
    known.set(reference, {
      entity: c.side === "sale" ? "customer credit" : "supplier credit",
      date: c.date,
      foreign: c.currency !== "" && c.currency !== baseCurrency,
      lineage: c.lineage
    })
  const cash = [
    ...(books.cashEntries ?? []).map((entry) => ({ _tag: "entry" as const, entry })),
    ...(books.transfers ?? []).map((transfer) => ({ _tag: "transfer" as const, transfer }))
  ]
  for (const [r, reference] of cashReferences(cash))
    known.set(reference, {
      entity: r._tag === "entry" ? `cash ${r.entry.direction}` : "transfer",
      date: r._tag === "entry" ? r.entry.date : r.transfer.date,
      foreign: false,
      lineage: r._tag === "entry" ? r.entry.lineage : r.transfer.lineage
    })
  for (const j of books.journals) {
    const reference = journalReference(j.date, j.narration)
    const e = { entity: "journal", date: j.date, currency: baseCurrency, lineage: j.lineage }
    known.set(reference, { entity: "journal", date: j.date, foreign: false, lineage: j.lineage })
    for (const l of j.lines) if (!Money.isZero(l.amount)) post(account(l.accountCode), reference, e, l.amount)
  }
  return { byAccount, known }
}

export interface Explanation {
  readonly candidates: ReadonlyArray<Candidate>
  /** Whether foreign-currency transactions post to the account (so conversion rounding may explain cents). */
  readonly foreign: boolean
}

/**
 * The candidates for a difference of `difference` (target − source) on the target account `key`, from its
 * general-ledger lines from `from` to `asAt`. Candidates whose amount equals the difference come first.
 */
export const explain = (
  key: string,
  difference: Money.Money,
  ledger: LedgerAccount | undefined,
  postings: SourcePostings,
  changed: ReadonlySet<string>,
  from: string,
  asAt: string
): Explanation => {
  const expected = new Map([...(postings.byAccount.get(key) ?? [])].filter(([, e]) => e.date <= asAt))
  const actual = new Map<
    string,
    { date: string; type: string; currency: string; amount: Money.Money; source: Money.Money }
  >()
  for (const l of ledger?.lines ?? []) {
    const a = actual.get(l.reference)
    actual.set(
      l.reference,
      a === undefined
        ? { date: l.date, type: l.type, currency: l.currency, amount: l.amount, source: l.sourceAmount }
        : { ...a, amount: Money.add(a.amount, l.amount), source: Money.add(a.source, l.sourceAmount) }
    )
  }
  const out: Array<Candidate & { weight: Money.Money }> = []
  const add = (c: Candidate, weight: Money.Money) => out.push({ ...c, weight })
  let foreign = false
  for (const [reference, a] of actual) {
    const k = postings.known.get(reference)
    if (k?.foreign) foreign = true
    const e = expected.get(reference)
    if (k === undefined) {
      add(
        {
          kind: "extra",
          entity: a.type || "transaction",
          reference,
          date: a.date,
          source: "",
          target: fmt(a.amount),
          lineage: []
        },
        a.amount
      )
    } else if (e === undefined) {
      if (changed.has(reference))
        add(
          {
            kind: "changed",
            entity: k.entity,
            reference,
            date: k.date,
            source: "",
            target: fmt(a.amount),
            lineage: k.lineage
          },
          a.amount
        )
    } else if (e.amount !== undefined && e.currency === a.currency && !Money.equals(e.amount, a.source)) {
      add(
        {
          kind: "changed",
          entity: e.entity,
          reference,
          date: e.date,
          source: fmt(e.amount),
          target: fmt(a.source),
          lineage: e.lineage
        },
        Money.sub(a.source, e.amount)
      )
    } else if (changed.has(reference)) {
      add(
        {
          kind: "changed",
          entity: k.entity,
          reference,
          date: k.date,
          source: fmt(e.amount),
          target: fmt(a.source),
          lineage: k.lineage
        },
        Money.zero
      )
    }
  }
  for (const [reference, e] of expected) {
    if (actual.has(reference)) continue
    if (postings.known.get(reference)?.foreign) foreign = true
    add(
      {
        kind: "missing",
        entity: e.entity,
        reference,
        date: e.date,
        source: fmt(e.amount),
        target: "",
        lineage: e.lineage
      },
      e.amount === undefined ? Money.zero : Money.negate(e.amount)
    )
  }
  if (ledger && !Money.isZero(ledger.opening))
    add(
      {
        kind: "extra",
        entity: "postings",
        reference: `before ${from}`,
        date: from,
        source: "",
        target: fmt(ledger.opening),
        lineage: []
      },
      ledger.opening
    )
  const exact = (c: { weight: Money.Money }) => Money.equals(c.weight, difference)
  const candidates = out
    .sort((a, b) => Number(exact(b)) - Number(exact(a)) || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map(({ weight: _, ...c }) => c)
  return { candidates, foreign }
}
