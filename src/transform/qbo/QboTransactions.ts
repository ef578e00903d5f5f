/**
 * The Journal's transactions as source books, by QuickBooks transaction type:
 * - Invoice, Bill → documents: one line per income / expense line of the transaction (the Journal has no
 *   items or quantities: quantity 1 at the line's amount, with its description); an invoice's Sales Tax
 *   Payable line is its tax (`QboTax`);
 * - Credit Memo, Vendor Credit → credit notes;
 * - Payment, Bill Payment (Check / Credit Card) → payments, placed on documents by `QboLinking`;
 * - Sales Receipt, Refund Receipt, Expense, Check, Cash Expense, Credit Card Expense, Credit Card Credit,
 *   Sales Tax Payment → cash entries on their one bank-like account (Bank, Credit Card, Undeposited Funds);
 * - Deposit → a transfer out of each bank-like account it empties (Undeposited Funds) into the deposit's bank,
 *   plus a cash entry on that bank for any other lines;
 * - Transfer, Credit Card Payment → transfers;
 * - Journal Entry → journals;
 * - any other type: a cash entry when it moves one bank-like account and touches no receivable or payable,
 *   a journal when it moves none, else a reject (each said by a warning naming the type).
 * Accounts the Journal names that the Account List lacks are added with the type `Unmapped` and a warning.
 */
import * as Money from "../Money.js"
import type {
  CreditSide,
  DocumentKind,
  Issue,
  SourceAccount,
  SourceCashEntry,
  SourceCredit,
  SourceDocument,
  SourceJournal,
  SourceLine,
  SourceTransfer
} from "../SourceModel.js"
import { normalizeName } from "../Mappings.js"
import type { Chart, Role } from "./QboLists.js"
import type { JournalLine, JournalTransaction } from "./QboJournal.js"
import { label } from "./QboJournal.js"
import * as QboTax from "./QboTax.js"
import type { LinkPayment } from "./QboLinking.js"
import { append } from "../../Multimap.js"

/** The type an account named by the Journal but missing from the Account List gets (see the mappings). */
export const UNMAPPED = "Unmapped"

const documentTypes: Record<
  string,
  { kind: DocumentKind; credit: false } | { side: CreditSide; credit: true }
> = {
  invoice: { kind: "invoice", credit: false },
  bill: { kind: "bill", credit: false },
  "credit memo": { side: "sale", credit: true },
  "vendor credit": { side: "purchase", credit: true },
  "supplier credit": { side: "purchase", credit: true }
}
const paymentTypes: Record<string, DocumentKind> = {
  payment: "invoice",
  "receive payment": "invoice",
  "bill payment": "bill",
  "bill payment (check)": "bill",
  "bill payment (credit card)": "bill"
}
const cashTypes = new Set([
  "sales receipt",
  "refund receipt",
  "refund",
  "expense",
  "check",
  "cash expense",
  "credit card expense",
  "credit card credit",
  "sales tax payment"
])
const transferTypes = new Set(["transfer", "credit card payment"])

/** A document or credit as the Journal gives it, before the aging says what is open. */
export interface JournalDocument {
  readonly type: string
  readonly kind: DocumentKind | undefined
  readonly side: CreditSide
  readonly number: string
  readonly contactName: string
  readonly date: string
  readonly total: Money.Money
  readonly taxTotal: Money.Money
  readonly lines: ReadonlyArray<SourceLine>
  readonly lineage: ReadonlyArray<string>
}

export interface JournalBooks {
  /** The Account List's accounts plus the unmapped ones the Journal names. */
  readonly accounts: ReadonlyArray<SourceAccount>
  readonly documents: ReadonlyArray<JournalDocument>
  readonly payments: ReadonlyArray<LinkPayment>
  readonly cashEntries: ReadonlyArray<SourceCashEntry>
  readonly transfers: ReadonlyArray<SourceTransfer>
  readonly journals: ReadonlyArray<SourceJournal>
  /** How many transactions of each QuickBooks type became part of the books. */
  readonly counts: ReadonlyMap<string, number>
}

class Refused {
  constructor(
    readonly why: string,
    readonly fix: string
  ) {}
}

const sumNet = (lines: ReadonlyArray<JournalLine>) => Money.sum(lines.map((l) => l.net))
const fmt = (m: Money.Money) => Money.toFixed(m)

/** A payment's reference in messages and in the links file: its Num, else `YYYY-MM-DD contact amount`. */
export const paymentReference = (num: string, date: string, contact: string, amount: Money.Money) =>
  num !== "" ? num : `${date} ${contact} ${fmt(amount)}`

export const fromJournal = (
  transactions: ReadonlyArray<JournalTransaction>,
  listed: ReadonlyArray<SourceAccount>,
  chart: Chart,
  taxable: ReadonlyMap<string, boolean>,
  issues: Array<Issue>
): JournalBooks => {
  const accounts = [...listed]
  const unmapped = new Set<string>()
  const accountOf = (l: JournalLine): string => {
    const a = chart.find(l.account)
    if (a !== undefined) return a.name
    if (!unmapped.has(normalizeName(l.account))) {
      unmapped.add(normalizeName(l.account))
      accounts.push({
        code: "",
        name: l.account,
        type: UNMAPPED,
        taxCode: "",
        description: "",
        lineage: l.lineage
      })
      issues.push({
        severity: "warning",
        lineage: [l.lineage],
        what: `account "${l.account}"`,
        why: `the Journal posts to it but the Account List does not have it; it is created with the type "${UNMAPPED}", whose classification mappings/qbo/account-types.json states`,
        fix: "export the Account List again with this account, or map its classification in the mappings' account-types.json"
      })
    }
    return l.account
  }
  const role = (l: JournalLine): Role | undefined => chart.role(l.account)
  const documents: Array<JournalDocument> = []
  const payments: Array<LinkPayment> = []
  const cashEntries: Array<SourceCashEntry> = []
  const transfers: Array<SourceTransfer> = []
  const journals: Array<SourceJournal> = []
  const counts = new Map<string, number>()
  const unnumbered = new Map<string, number>()

  const documentOf = (
    t: JournalTransaction,
    kind: DocumentKind | undefined,
    side: CreditSide
  ): JournalDocument => {
    const control: Role = side === "sale" ? "AR" : "AP"
    const controls = t.lines.filter((l) => role(l) === control)
    if (controls.length !== 1)
      throw new Refused(
        `it has ${controls.length} ${control === "AR" ? "Accounts Receivable" : "Accounts Payable"} lines, a ${t.type} has one`,
        "export the Journal report again unmodified"
      )
    // Invoices and vendor credits debit their control account, bills and credit memos credit it.
    const sign = Money.fromNumber((kind === "invoice" || kind === "bill") === (side === "sale") ? 1 : -1)
    const total = Money.mul(sign, controls[0]!.net)
    if (!Money.greaterThan(total, Money.zero))
      throw new Refused(
        `its total is ${fmt(total)}`,
        `a ${t.type} with a total that is not positive cannot be migrated`
      )
    const taxLines = side === "sale" ? t.lines.filter((l) => role(l) === "tax") : []
    const rest = t.lines.filter((l) => l !== controls[0] && !taxLines.includes(l))
    const tax = Money.negate(Money.mul(sign, sumNet(taxLines)))
    const amounts = rest.map((l) => ({
      amount: Money.negate(Money.mul(sign, l.net)),
      description: l.description
    }))
    const taxName = taxLines.find((l) => l.description !== "")?.description ?? ""
    const inferred = QboTax.infer(amounts, tax, taxable, taxName)
    if (inferred === undefined)
      throw new Refused(
        `no sales tax rate reproduces its tax ${fmt(tax)} on its lines (${amounts.map((a) => fmt(a.amount)).join(", ")}), line by line to the cent`,
        "the platform computes tax per line from a tax profile's rate: enter this document by hand after the load"
      )
    const rate = inferred.rate
    const rateName =
      rate === undefined
        ? ""
        : QboTax.namedRate(taxName) !== undefined && Money.equals(QboTax.namedRate(taxName)!, rate)
          ? taxName
          : QboTax.rateName(rate)
    const lines: Array<SourceLine> = inferred.lines.map((tl) => {
      const l = rest[tl.index]!
      return {
        description: l.description,
        itemCode: "",
        quantity: Money.fromNumber(1),
        unitAmount: tl.amount,
        discount: Money.zero,
        lineAmount: tl.amount,
        accountCode: accountOf(l),
        taxType: tl.taxable ? rateName : "",
        taxAmount: tl.tax,
        lineage: l.lineage
      }
    })
    if (lines.length === 0)
      throw new Refused("it has no income or expense lines", "export the Journal report again")
    let number = t.num
    if (number === "") {
      const prefix = `${t.type.replace(/[^A-Za-z]/g, "").toUpperCase()}-${t.date.replace(/-/g, "")}`
      const n = (unnumbered.get(prefix) ?? 0) + 1
      unnumbered.set(prefix, n)
      number = `${prefix}-${n}`
    }
    return {
      type: t.type,
      kind,
      side,
      number,
      contactName: controls[0]!.name || t.name,
      date: t.date,
      total,
      taxTotal: tax,
      lines,
      lineage: t.lineage
    }
  }

  const cashOf = (
    t: JournalTransaction,
    bank: JournalLine,
    others: ReadonlyArray<JournalLine>
  ): SourceCashEntry => {
    if (others.some((l) => role(l) === "AR" || role(l) === "AP"))
      throw new Refused(
        "it moves a bank-like account and a receivable or payable together, which no platform cash entry does",
        "enter it by hand after the load"
      )
    const direction = Money.isNegative(bank.net) ? "out" : "in"
    const natural = (l: JournalLine) => (direction === "in" ? Money.negate(l.net) : l.net)
    return {
      direction,
      bankAccountName: accountOf(bank),
      date: t.date,
      contactName: t.name,
      reference: t.num,
      description: t.description || t.type,
      amount: Money.abs(bank.net),
      lines: others.map((l) => ({
        accountName: accountOf(l),
        amount: natural(l),
        description: l.description,
        lineage: l.lineage
      })),
      lineage: t.lineage
    }
  }

  const journalOf = (t: JournalTransaction): SourceJournal => ({
    narration: `${t.type}${t.num ? ` ${t.num}` : ` at ${t.lineage[0]}`}${t.description ? `: ${t.description}` : ""}`,
    date: t.date,
    lines: t.lines.map((l) => ({
      accountCode: accountOf(l),
      description: l.description,
      amount: l.net,
      lineage: l.lineage
    })),
    lineage: t.lineage
  })

  for (const t of transactions) {
    const type = normalizeName(t.type)
    const banks = t.lines.filter((l) => role(l) === "bank")
    try {
      const doc = documentTypes[type]
      const paid = paymentTypes[type]
      if (doc !== undefined) {
        documents.push(
          doc.credit
            ? documentOf(t, undefined, doc.side)
            : documentOf(t, doc.kind, doc.kind === "invoice" ? "sale" : "purchase")
        )
      } else if (paid !== undefined) {
        const control: Role = paid === "invoice" ? "AR" : "AP"
        const controls = t.lines.filter((l) => role(l) === control)
        const others = t.lines.filter((l) => role(l) !== control)
        const amount = Money.mul(Money.fromNumber(paid === "invoice" ? -1 : 1), sumNet(controls))
        if (Money.isZero(amount) && others.every((l) => Money.isZero(l.net))) {
          // Only credits applied: the Journal shows no money; the applications are inferred from the aging.
        } else {
          if (others.length !== 1 || role(others[0]!) !== "bank")
            throw new Refused(
              `it posts to ${others.map((l) => `"${l.account}"`).join(", ")} besides the ${control} account; a payment moves one bank-like account`,
              "enter it by hand after the load"
            )
          if (!Money.greaterThan(amount, Money.zero))
            throw new Refused(`its amount is ${fmt(amount)}`, "enter it by hand after the load")
          const contactName = controls.find((l) => l.name !== "")?.name ?? t.name
          payments.push({
            reference: paymentReference(t.num, t.date, contactName, amount),
            kind: paid,
            contactName,
            date: t.date,
            amount,
            bankAccountName: accountOf(others[0]!),
            lineage: t.lineage
          })
        }
      } else if (type === "deposit") {
        const into = banks.filter((l) => Money.greaterThan(l.net, Money.zero))
        const from = banks.filter((l) => Money.isNegative(l.net))
        const others = t.lines.filter((l) => role(l) !== "bank")
        if (into.length !== 1)
          throw new Refused(
            `it debits ${into.length} bank-like accounts, a deposit one`,
            "enter it by hand after the load"
          )
        const bank = into[0]!
        const byAccount = new Map<string, Array<JournalLine>>()
        for (const l of from) append(byAccount, accountOf(l), l)
        for (const [account, ls] of byAccount) {
          const amount = Money.negate(sumNet(ls))
          transfers.push({
            fromAccountName: account,
            toAccountName: accountOf(bank),
            date: t.date,
            reference: t.num || `Deposit ${t.date}`,
            amountOut: amount,
            amountIn: amount,
            lineage: [...ls.map((l) => l.lineage), bank.lineage]
          })
        }
        if (others.length > 0) {
          const net = Money.negate(sumNet(others))
          cashEntries.push(cashOf(t, { ...bank, net }, others))
        }
      } else if (transferTypes.has(type)) {
        const into = t.lines.filter((l) => Money.greaterThan(l.net, Money.zero))
        const from = t.lines.filter((l) => Money.isNegative(l.net))
        if (banks.length !== t.lines.length || into.length !== 1 || from.length !== 1)
          throw new Refused(
            "a transfer moves money from one bank-like account to another",
            "enter it by hand after the load"
          )
        transfers.push({
          fromAccountName: accountOf(from[0]!),
          toAccountName: accountOf(into[0]!),
          date: t.date,
          reference: t.num || `Transfer ${t.date}`,
          amountOut: Money.negate(from[0]!.net),
          amountIn: into[0]!.net,
          lineage: [from[0]!.lineage, into[0]!.lineage]
        })
      } else if (type === "journal entry") {
        journals.push(journalOf(t))
      } else if (cashTypes.has(type) || banks.length === 1) {
        if (banks.length !== 1)
          throw new Refused(
            `it moves ${banks.length} bank-like accounts, a ${t.type} one`,
            "enter it by hand after the load"
          )
        cashEntries.push(
          cashOf(
            t,
            banks[0]!,
            t.lines.filter((l) => l !== banks[0])
          )
        )
        if (!cashTypes.has(type)) warnOther(issues, t, "a cash entry on its one bank-like account")
      } else if (banks.length === 0 && !t.lines.some((l) => role(l) === "AR" || role(l) === "AP")) {
        journals.push(journalOf(t))
        warnOther(issues, t, "a journal")
      } else {
        throw new Refused(
          `a "${t.type}" is not a transaction type this migration reads`,
          "enter it by hand after the load"
        )
      }
      counts.set(t.type, (counts.get(t.type) ?? 0) + 1)
    } catch (e) {
      if (!(e instanceof Refused)) throw e
      issues.push({ severity: "reject", lineage: t.lineage, what: label(t), why: e.why, fix: e.fix })
    }
  }
  return { accounts, documents, payments, cashEntries, transfers, journals, counts }
}

const warnOther = (issues: Array<Issue>, t: JournalTransaction, as: string) =>
  issues.push({
    severity: "warning",
    lineage: t.lineage,
    what: label(t),
    why: `"${t.type}" is not a QuickBooks type this migration knows; it is migrated as ${as}, by its lines`,
    fix: "check it on the platform after the load"
  })

/** Documents and credits completed by what the aging reports say is open (see `QboSource`). */
export type { SourceCredit, SourceDocument }
