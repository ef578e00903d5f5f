/**
 * Reads QuickBooks Online's staged exports into source books: the lists (`QboLists`), the Journal's
 * transactions (`QboJournal`, `QboTransactions`), the Trial Balance and aging reports (`QboReports`), and the
 * optional links file (the `generic.credit_allocations` kind: `Credit Note Number` naming a payment's
 * reference or a credit memo / vendor credit number, `Document Number`, `Amount`), which states what the
 * linking would otherwise infer (`QboLinking`).
 *
 * The aging reports say what is open at their date: each document or credit is matched to its aging row
 * (same side and contact; by number, or, for an unnumbered one such as a bill without a Num, by date and
 * original amount). A document's paid amount is its total less its open balance (0 open when not listed);
 * a credit's remaining is its open balance (negated) and its use the rest. Payments are then placed on
 * documents by `QboLinking`, and credits on what payments leave by the existing allocation inference.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { rowsOfKind, where } from "../../staging/SourceRows.js"
import { normalizeName } from "../Mappings.js"
import * as Money from "../Money.js"
import type {
  Issue,
  SourceAgedReport,
  SourceAllocation,
  SourceBooks,
  SourceContact,
  SourceCredit,
  SourceCreditFunding,
  SourceDocument
} from "../SourceModel.js"
import { readAllocations } from "../xero/XeroAllocations.js"
import { readRows } from "./QboCells.js"
import { transactions } from "./QboJournal.js"
import * as QboLinking from "./QboLinking.js"
import { Chart, items, readAccount, readContact, taxableByDescription } from "./QboLists.js"
import * as QboReports from "./QboReports.js"
import type { Aging, AgingRow } from "./QboReports.js"
import { fromJournal, type JournalBooks, type JournalDocument } from "./QboTransactions.js"

const docTypes: Record<string, string> = {
  invoice: "Invoice",
  bill: "Bill",
  sale: "Credit Memo",
  purchase: "Vendor Credit"
}

/** The aging row of each document or credit (see the module comment), and the rows matched by none. */
export const matchAging = (
  docs: ReadonlyArray<JournalDocument>,
  agings: ReadonlyArray<Aging>
): { readonly rowOf: Map<JournalDocument, AgingRow>; readonly unmatched: ReadonlyArray<AgingRow> } => {
  const rowOf = new Map<JournalDocument, AgingRow>()
  const unmatched: Array<AgingRow> = []
  // The latest aging of each side is the one the books' open balances are read from.
  const latest = new Map<string, Aging>()
  for (const a of agings) if ((latest.get(a.side)?.asAt ?? "") <= a.asAt) latest.set(a.side, a)
  for (const aging of latest.values()) {
    const pool = docs.filter((d) => (d.side === "sale") === (aging.side === "AR"))
    const taken = new Set<JournalDocument>()
    for (const row of aging.rows) {
      const type = normalizeName(row.type)
      const fits = (d: JournalDocument) =>
        !taken.has(d) &&
        normalizeName(docTypes[d.kind ?? d.side]!) === type &&
        normalizeName(d.contactName) === normalizeName(row.contactName)
      const found =
        (row.number !== "" ? pool.find((d) => fits(d) && d.number === row.number) : undefined) ??
        pool.find((d) => fits(d) && d.date === row.date && Money.equals(d.total, Money.abs(row.amount)))
      if (found === undefined) unmatched.push(row)
      else (taken.add(found), rowOf.set(found, row))
    }
  }
  return { rowOf, unmatched }
}

const status = (open: Money.Money, total: Money.Money) =>
  Money.isZero(open) ? "Paid" : Money.equals(open, total) ? "Open" : "Partially paid"

/** The books from the Journal's pieces, the agings and the links file's rows. */
export const assemble = (
  journal: JournalBooks,
  agings: ReadonlyArray<Aging>,
  links: ReadonlyArray<SourceAllocation>,
  issues: Array<Issue>
): Pick<
  SourceBooks,
  "documents" | "credits" | "creditFundings" | "payments" | "allocations" | "agedReports"
> => {
  const { rowOf, unmatched: notDocuments } = matchAging(journal.documents, agings)
  const unmatched = [...notDocuments]
  const credits: Array<SourceCredit> = []
  const creditFundings: Array<SourceCreditFunding> = []
  // What no document of the contact can take of a payment, when the aging lists an open credit of that
  // contact and date (QuickBooks' unapplied payment), is an overpayment: a credit funded by the payment.
  const unapplied = (p: QboLinking.LinkPayment, rest: Money.Money) => {
    const side = p.kind === "invoice" ? "AR" : "AP"
    const at = unmatched.findIndex(
      (r) =>
        r.side === side &&
        Money.isNegative(r.open) &&
        r.date === p.date &&
        normalizeName(r.contactName) === normalizeName(p.contactName) &&
        !Money.greaterThan(Money.abs(r.open), rest)
    )
    if (at < 0) return false
    const remaining = Money.abs(unmatched.splice(at, 1)[0]!.open)
    const creditSide = p.kind === "invoice" ? "sale" : "purchase"
    credits.push({
      side: creditSide,
      origin: "overpayment",
      number: "",
      reference: p.reference,
      contactName: p.contactName,
      date: p.date,
      currency: "",
      state: "open",
      status: status(remaining, rest),
      total: rest,
      taxTotal: Money.zero,
      used: Money.sub(rest, remaining),
      remaining,
      lines: [
        {
          description: `Unapplied payment ${p.reference}`,
          itemCode: "",
          quantity: Money.fromNumber(1),
          unitAmount: rest,
          discount: Money.zero,
          lineAmount: rest,
          accountCode: "",
          taxType: "",
          taxAmount: Money.zero,
          lineage: p.lineage[0]!
        }
      ],
      lineage: p.lineage
    })
    creditFundings.push({
      side: creditSide,
      origin: "overpayment",
      contactName: p.contactName,
      bankAccountName: p.bankAccountName,
      date: p.date,
      amount: rest,
      reference: p.reference,
      lineage: p.lineage[0]!
    })
    return true
  }
  const linkDocs: Array<QboLinking.LinkDoc> = []
  const documents: Array<SourceDocument> = []
  for (const d of journal.documents) {
    if (d.kind === undefined) continue
    const row = rowOf.get(d)
    const open = row?.open ?? Money.zero
    linkDocs.push({
      kind: d.kind,
      number: d.number,
      contactName: d.contactName,
      date: d.date,
      paid: Money.sub(d.total, open),
      lineage: d.lineage[0]!
    })
  }
  const paymentRefs = new Set(journal.payments.map((p) => p.reference))
  const stated = links.filter((l) => paymentRefs.has(l.creditNumber))
  const linked = QboLinking.link(
    linkDocs,
    journal.payments,
    stated.map((l) => ({
      reference: l.creditNumber,
      documentNumber: l.documentNumber,
      amount: l.amount,
      lineage: l.lineage
    })),
    issues,
    unapplied
  )
  for (const row of unmatched)
    issues.push({
      severity: "reject",
      lineage: [row.lineage],
      what: `the open ${row.type} ${row.number || `of ${row.date}`} of ${row.contactName} (${Money.toFixed(row.open)}) on the aging report`,
      why: "no transaction of the Journal is that item, so the migrated books cannot hold it open",
      fix: "export the Journal from the books' first date to the aging report's date"
    })
  for (const d of journal.documents) {
    const row = rowOf.get(d)
    if (d.kind !== undefined) {
      const open = row?.open ?? Money.zero
      const paid = Money.sub(d.total, open)
      documents.push({
        kind: d.kind,
        number: d.number,
        contactName: d.contactName,
        date: d.date,
        // The Journal has no due dates: an open document's is the aging's; a bill, which the platform
        // finalizes only with one, is otherwise due on its date.
        dueDate: row?.dueDate ?? (d.kind === "bill" ? d.date : undefined),
        currency: "",
        state: "open",
        status: status(open, d.total),
        total: d.total,
        taxTotal: d.taxTotal,
        amountPaid: paid,
        amountDue: open,
        lines: d.lines,
        lineage: d.lineage
      })
    } else {
      const remaining = row === undefined ? Money.zero : Money.abs(row.open)
      credits.push({
        side: d.side,
        origin: "credit-note",
        number: d.number,
        reference: "",
        contactName: d.contactName,
        date: d.date,
        currency: "",
        state: "open",
        status: status(remaining, d.total),
        total: d.total,
        taxTotal: d.taxTotal,
        used: Money.sub(d.total, remaining),
        remaining,
        lines: d.lines,
        lineage: d.lineage
      })
    }
  }
  const docOfRow = new Map([...rowOf].map(([doc, row]) => [row, doc] as const))
  const agedReports: Array<SourceAgedReport> = agings.map((a) => ({
    side: a.side,
    asAt: a.asAt,
    file: a.file,
    items: a.rows.map((r) => {
      const doc = docOfRow.get(r)
      return {
        contactName: r.contactName,
        number: doc?.number ?? r.number,
        reference: "",
        date: r.date,
        dueDate: r.dueDate,
        outstanding: r.open,
        currency: undefined,
        lineage: r.lineage
      }
    })
  }))
  return {
    documents,
    credits,
    creditFundings,
    payments: linked.payments,
    allocations: links.filter((l) => !paymentRefs.has(l.creditNumber)),
    agedReports
  }
}

const unique = (contacts: ReadonlyArray<SourceContact>): Array<SourceContact> => {
  const seen = new Set<string>()
  return contacts.filter((c) => {
    const k = normalizeName(c.name)
    return seen.has(k) ? false : (seen.add(k), true)
  })
}

/**
 * A General Ledger / Transaction Detail by Account report is staged but not read: it lists each account's side
 * of a transaction under that account, so a transaction's lines cannot be put together again reliably. With a
 * Journal report beside it nothing is lost (a warning); without one no transaction can migrate (a reject).
 */
const ledgerNotRead = (
  rows: ReadonlyArray<{ readonly file: string; readonly line: number }>,
  withJournal: boolean
): Issue => {
  const files = [...new Set(rows.map((r) => r.file))]
  return {
    severity: withJournal ? "warning" : "reject",
    lineage: files.map((f) => where(rows.find((r) => r.file === f)!)),
    what: `the General Ledger / Transaction Detail by Account report (${rows.length} rows in ${files.join(", ")})`,
    why: withJournal
      ? "transactions are read from the Journal report, which keeps each transaction's lines together; this report's rows are left unread"
      : "transactions are read from the Journal report, which keeps each transaction's lines together, and the input has none; this report lists each account's side separately, so no transaction is migrated",
    fix: withJournal
      ? "nothing to do; leave the report out of the input folder to silence this"
      : "export Reports → Journal for the same period (Export → Export to CSV) into the input folder and run extract again"
  }
}

/** The QuickBooks Online books in the staging database. */
export const read: Effect.Effect<SourceBooks, never, SqlClient.SqlClient> = Effect.gen(function* () {
  const issues: Array<Issue> = []
  const listed = readRows(yield* rowsOfKind("qbo.accounts"), issues, readAccount)
  const chart = new Chart(listed)
  const itemRows = yield* rowsOfKind("qbo.items")
  const journalRows = yield* rowsOfKind("qbo.journal")
  const ledgerRows = yield* rowsOfKind("qbo.general_ledger")
  if (ledgerRows.length > 0) issues.push(ledgerNotRead(ledgerRows, journalRows.length > 0))
  const journal = fromJournal(
    transactions(journalRows, issues),
    listed,
    chart,
    taxableByDescription(itemRows),
    issues
  )
  const trialBalances = QboReports.trialBalances(yield* rowsOfKind("qbo.trial_balance"), chart, issues)
  const lastDate = [
    ...journal.documents.map((d) => d.date),
    ...journal.payments.map((p) => p.date),
    ...journal.cashEntries.map((c) => c.date),
    ...journal.transfers.map((t) => t.date),
    ...journal.journals.map((j) => j.date)
  ].reduce((a, b) => (a > b ? a : b), "")
  const agings = QboReports.agings(
    {
      ar: yield* rowsOfKind("qbo.ar_aging_detail"),
      ap: yield* rowsOfKind("qbo.ap_aging_detail"),
      unpaidBills: yield* rowsOfKind("qbo.unpaid_bills")
    },
    trialBalances[trialBalances.length - 1]?.asAt ?? (lastDate || undefined),
    issues
  )
  const links = readAllocations(yield* rowsOfKind("generic.credit_allocations"), issues)
  const assembled = assemble(journal, agings, links, issues)
  return {
    accounts: journal.accounts,
    contacts: unique([
      ...readRows(yield* rowsOfKind("qbo.customers"), issues, readContact("Customer", issues)),
      ...readRows(yield* rowsOfKind("qbo.vendors"), issues, readContact("Vendor", issues))
    ]),
    items: items(itemRows, issues).map((i) => ({
      ...i,
      sale: i.sale && { ...i.sale, accountCode: chart.find(i.sale.accountCode)?.name ?? i.sale.accountCode },
      purchase: i.purchase && {
        ...i.purchase,
        accountCode: chart.find(i.purchase.accountCode)?.name ?? i.purchase.accountCode
      }
    })),
    ...assembled,
    journals: journal.journals,
    rates: [],
    trialBalances,
    cashEntries: journal.cashEntries,
    transfers: journal.transfers,
    refunds: [],
    issues
  }
})
