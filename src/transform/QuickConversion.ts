/**
 * A quick conversion: the opening position at a cut-over date instead of the whole history. From the
 * source's own Trial Balance and aged receivables and payables as at that date it makes "conversion books",
 * which the ordinary planner then plans:
 * - one conversion document per open item: an invoice or bill, or a credit note for a negative item, under
 *   the item's number (a derived one when the report gives none), with its own date and due date (so its
 *   ageing is kept), in its own currency when the full export says what that is (at the rate that gives the
 *   report's base amount to the cent, sent explicitly), its one tax-free line posting to the AR or AP
 *   conversion clearing account;
 * - one transfer-trial-balance journal at the date with every non-zero balance of the Trial Balance, except
 *   that the receivables and payables control balances go to the two clearing accounts, which then end at
 *   zero.
 * The chart, contacts and exchange rates are planned as in a full migration. Inputs that cannot give a true
 * opening position are refused as a whole (`ConversionRefused`), never approximated.
 */
import * as Schema from "effect/Schema"
import { normalizeName, type Mappings } from "./Mappings.js"
import * as Money from "./Money.js"
import * as OpenItems from "./OpenItems.js"
import { targetAccount } from "./RecordIdentity.js"
import { rateOn } from "./Fx.js"
import type {
  Issue,
  SourceAccount,
  SourceAgedItem,
  SourceAgedReport,
  SourceBooks,
  SourceCredit,
  SourceDocument,
  SourceJournalLine,
  SourceLine
} from "./SourceModel.js"
import type { TargetSnapshot } from "./TargetSnapshot.js"

/** The two clearing accounts a quick conversion posts through (each ends at zero). */
export const clearingAccounts = { AR: "AR Conversion Clearing", AP: "AP Conversion Clearing" } as const

/** The narration of the transfer-trial-balance journal (its reference is derived from it and the date). */
export const journalNarration = (asAt: string) => `Opening balances: trial balance as at ${asAt}`

/** Inputs that cannot give a true opening position; nothing is planned. */
export class ConversionRefused extends Schema.TaggedError<ConversionRefused>()("ConversionRefused", {
  what: Schema.String,
  why: Schema.String,
  fix: Schema.String,
  /** Which conversion was refused ("quick conversion" when absent). */
  mode: Schema.optional(Schema.String)
}) {
  override get message() {
    return `${this.mode ?? "quick conversion"} refused: ${this.what}: ${this.why}. ${this.fix}`
  }
}

/** The conversion books, and the source files they were made from. */
export interface Conversion {
  readonly books: SourceBooks
  readonly clearingAccounts: ReadonlyArray<string>
  readonly files: ReadonlyArray<string>
  /** Each conversion document and credit note with the source record its open item stands for, if found. */
  readonly origins: ReadonlyMap<SourceDocument | SourceCredit, OpenItems.OpenItemMatch | undefined>
}

/**
 * The own-currency amount of an open foreign item at the date, when the caller knows it exactly (a
 * conversion from a start date replays the source's settlements); undefined to read it from the export.
 */
export type OwnAmount = (found: OpenItems.OpenItemMatch) => Money.Money | undefined

const fmt = (m: Money.Money) => Money.toFixed(m)
const sum = (xs: ReadonlyArray<Money.Money>) => Money.sum([...xs])

const clearingAccount = (name: string): SourceAccount => ({
  code: "",
  name,
  type: "Current Liability",
  taxCode: "",
  description:
    "Migration: open items of the quick conversion against the opening trial balance; ends at zero",
  lineage: ""
})

/** A line of one unit of `amount` on `account`, free of tax: what a conversion record carries. */
export const oneLine = (
  description: string,
  amount: Money.Money,
  account: string,
  lineage: string
): SourceLine => ({
  description,
  itemCode: "",
  quantity: Money.fromNumber(1),
  unitAmount: amount,
  discount: Money.zero,
  lineAmount: amount,
  accountCode: account,
  taxType: "",
  taxAmount: Money.zero,
  lineage
})

/**
 * A source control account the source marks as such (`control`) stands, in a conversion, for the target's
 * own receivables or payables control account, which the conversion documents post to: paired with it, the
 * reconciliation compares the source balance with the target's open items.
 */
const asTargetControl = (a: SourceAccount, snapshot: TargetSnapshot): SourceAccount => {
  if (a.control === undefined) return a
  const kind = a.control === "AR" ? /asset/i : /liabilit/i
  const target = snapshot.accounts.find((t) => t.controlFlag && kind.test(t.accountType))
  return target === undefined ? a : { ...a, name: target.name }
}

/**
 * Builds the conversion books for `asAt`, or refuses: no Trial Balance or aged report at that date, a Trial
 * Balance that does not balance or names an account the chart lacks, an aged report whose total is not the
 * control account's balance, or an open foreign item without a rate.
 */
export const books = (
  source: SourceBooks,
  asAt: string,
  snapshot: TargetSnapshot,
  mappings: Mappings,
  known?: OwnAmount
): Conversion | ConversionRefused => {
  const base = snapshot.baseCurrency
  const tb = source.trialBalances.find((t) => t.asAt === asAt)
  const aged = (side: "AR" | "AP") => source.agedReports.find((r) => r.side === side && r.asAt === asAt)
  const ar = aged("AR")
  const ap = aged("AP")
  const missing = [
    ...(tb ? [] : ["Trial Balance"]),
    ...(ar ? [] : ["Aged Receivables Detail"]),
    ...(ap ? [] : ["Aged Payables Detail"])
  ]
  if (tb === undefined || ar === undefined || ap === undefined) {
    const found = [
      ...source.trialBalances.map((t) => `Trial Balance as at ${t.asAt} (${t.file})`),
      ...source.agedReports.map((r) => `${r.side} as at ${r.asAt} (${r.file})`)
    ]
    return new ConversionRefused({
      what: `no ${missing.join(" and no ")} as at ${asAt} in the input`,
      why: `a quick conversion is built from the source's own reports at the cut-over date; the input holds ${found.length > 0 ? found.join("; ") : "none"}`,
      fix: `export them as at ${asAt} (Xero: Reports › Trial Balance, Aged Receivables Detail, Aged Payables Detail, each "as at" that date), add them to the input folder and run extract again`
    })
  }

  const debit = sum(tb.lines.map((l) => l.debit))
  const credit = sum(tb.lines.map((l) => l.credit))
  if (!Money.equals(debit, credit))
    return new ConversionRefused({
      what: `the Trial Balance as at ${asAt} (${tb.file})`,
      why: `its debits ${fmt(debit)} and credits ${fmt(credit)} differ by ${fmt(Money.sub(debit, credit))}`,
      fix: "export the Trial Balance again; a ledger's own trial balance always balances"
    })

  const byCode = new Map(source.accounts.filter((a) => a.code !== "").map((a) => [a.code, a]))
  const byName = new Map(source.accounts.map((a) => [normalizeName(a.name), a]))
  const target = new Map(snapshot.accounts.map((a) => [normalizeName(a.name), a]))
  const controlOf = (a: SourceAccount): "AR" | "AP" | undefined => {
    if (a.control !== undefined) return a.control
    const t = targetAccount(a, mappings.accounts, target).existing
    if (!t?.controlFlag) return undefined
    return /asset/i.test(t.accountType) ? "AR" : /liabilit/i.test(t.accountType) ? "AP" : undefined
  }
  const journalLines: Array<SourceJournalLine> = []
  const control = { AR: Money.zero, AP: Money.zero }
  for (const l of tb.lines) {
    const balance = Money.sub(l.debit, l.credit)
    if (Money.isZero(balance)) continue
    const a =
      (l.accountCode ? byCode.get(l.accountCode) : undefined) ?? byName.get(normalizeName(l.accountName))
    if (a === undefined)
      return new ConversionRefused({
        what: `${l.lineage}: the Trial Balance's account "${l.accountName}"${l.accountCode ? ` (${l.accountCode})` : ""}`,
        why: "it is not in the chart of accounts export",
        fix: "export the chart of accounts with every account, including archived ones, and run extract again"
      })
    const side = controlOf(a)
    if (side !== undefined) control[side] = Money.add(control[side], balance)
    journalLines.push({
      accountCode: side === undefined ? a.code || a.name : clearingAccounts[side],
      description: side === undefined ? a.name : `${a.name}: open items, as conversion documents`,
      amount: balance,
      lineage: l.lineage
    })
  }

  const documents: Array<SourceDocument> = []
  const credits: Array<SourceCredit> = []
  const warnings: Array<Issue> = []
  const origins = new Map<SourceDocument | SourceCredit, OpenItems.OpenItemMatch | undefined>()
  for (const side of ["AR", "AP"] as const) {
    const report: SourceAgedReport = side === "AR" ? ar : ap
    const items = Array.from(report.items)
    const total = sum(items.map((i) => i.outstanding))
    const expected = side === "AR" ? control.AR : Money.negate(control.AP)
    const inBase = items.every((i) => i.currency === undefined || i.currency === base)
    if (inBase && !Money.equals(total, expected))
      return new ConversionRefused({
        what: `the ${side === "AR" ? "Aged Receivables" : "Aged Payables"} Detail as at ${asAt} (${report.file})`,
        why: `its total ${fmt(total)} is not the ${side === "AR" ? "receivables" : "payables"} control balance ${fmt(expected)} of the Trial Balance (a difference of ${fmt(Money.sub(total, expected))})`,
        fix: "export both reports at the same date and basis (accrual), with every contact, and run extract again"
      })
    const match = OpenItems.matcher(source, side)
    for (const i of items) {
      if (Money.isZero(i.outstanding)) continue
      const found = match(i)
      const own = found === undefined ? undefined : known?.(found)
      const made = conversionItem(source, asAt, side, i, found, own, base, clearingAccounts[side], warnings)
      if (made instanceof ConversionRefused) return made
      if (made._tag === "document") documents.push(made.doc)
      else credits.push(made.credit)
      origins.set(made._tag === "document" ? made.doc : made.credit, found)
    }
  }

  const journal = {
    narration: journalNarration(asAt),
    date: asAt,
    lines: journalLines,
    lineage: [tb.lines[0]?.lineage ?? tb.file]
  }
  return {
    books: {
      accounts: [
        ...source.accounts.map((a) => asTargetControl(a, snapshot)),
        clearingAccount(clearingAccounts.AR),
        clearingAccount(clearingAccounts.AP)
      ],
      contacts: source.contacts,
      items: [],
      documents,
      payments: [],
      journals: [journal],
      rates: source.rates,
      trialBalances: source.trialBalances.filter((t) => t.asAt === asAt),
      agedReports: source.agedReports.filter((r) => r.asAt === asAt),
      credits,
      issues: warnings
    },
    clearingAccounts: [clearingAccounts.AR, clearingAccounts.AP],
    files: [tb.file, ar.file, ap.file],
    origins
  }
}

/**
 * An open item's own-currency amount at `asAt` from the export, when nothing settled it after that date:
 * what the export says is due (or left of a credit), if no payment of the document and no credit of the
 * contact is dated after `asAt`; undefined otherwise.
 */
const ownAmount = (
  source: SourceBooks,
  asAt: string,
  found: OpenItems.OpenItemMatch | undefined
): Money.Money | undefined => {
  if (found === undefined) return undefined
  const contact = normalizeName(found._tag === "document" ? found.doc.contactName : found.credit.contactName)
  const laterCredit = (source.credits ?? []).some(
    (c) => c.date > asAt && normalizeName(c.contactName) === contact
  )
  if (found._tag === "document") {
    const laterPayment = source.payments.some(
      (p) => p.date > asAt && p.documentKind === found.doc.kind && p.documentNumber === found.doc.number
    )
    const due = found.doc.amountDue
    return laterPayment || laterCredit || Money.isNegative(due) || Money.isZero(due) ? undefined : due
  }
  const laterRefund = (source.refunds ?? []).some(
    (r) => r.date > asAt && normalizeName(r.contactName) === contact
  )
  const left = found.credit.remaining
  return laterRefund || laterCredit || Money.isNegative(left) || Money.isZero(left) ? undefined : left
}

/**
 * One open item as a conversion document or credit note. Its currency and own amount come from the report
 * when it shows a currency, else from the source record the item stands for; a foreign item carries the rate
 * that turns its own amount into the report's base amount.
 */
const conversionItem = (
  source: SourceBooks,
  asAt: string,
  side: "AR" | "AP",
  i: SourceAgedItem,
  found: OpenItems.OpenItemMatch | undefined,
  known: Money.Money | undefined,
  base: string,
  clearing: string,
  warnings: Array<Issue>
):
  | { readonly _tag: "document"; readonly doc: SourceDocument }
  | { readonly _tag: "credit"; readonly credit: SourceCredit }
  | ConversionRefused => {
  const negative = Money.isNegative(i.outstanding)
  const baseAmount = Money.abs(i.outstanding)
  const record = found?._tag === "document" ? found.doc : found?.credit
  const recordCurrency = record?.currency || base
  const currency = i.currency ?? recordCurrency
  let amount = baseAmount
  let exchangeRate: Money.Money | undefined
  if (i.currency === undefined && currency !== base) {
    const own = known ?? ownAmount(source, asAt, found)
    if (own !== undefined) amount = own
    else {
      const rate = rateOn(source.rates, currency, record?.date ?? i.date)
      if (rate === undefined)
        return new ConversionRefused({
          what: `${i.lineage}: open item ${i.number || i.reference} of "${i.contactName}" in ${currency}`,
          why: `the report gives its amount in ${base} only, and there is no ${currency} rate on or before ${record?.date ?? i.date} to find its ${currency} amount`,
          fix: "export the aged report with its currency shown, or add the rate to the exchange-rate file"
        })
      amount = Money.round2(Money.div(baseAmount, rate.basePerUnit, 12))
      warnings.push({
        severity: "warning",
        lineage: [i.lineage, ...(record?.lineage.slice(0, 1) ?? [])],
        what: `open item ${i.number || i.reference} of "${i.contactName}": ${Money.toFixed(amount)} ${currency}`,
        why: `the report gives ${Money.toFixed(baseAmount)} ${base}, and the ${currency} still open at ${asAt} was settled further after it; the ${currency} amount is the ${base} one at the document's rate (${Money.toFixed(rate.basePerUnit)}), which may differ from the source's by a cent`,
        fix: `compare it with the source's aged report in ${currency}; export that report with currencies shown to carry the exact amount`
      })
    }
    exchangeRate = Money.div(amount, baseAmount, 12)
  }
  const number = OpenItems.conversionNumber(side, i)
  const description = `Opening balance: ${i.number || i.reference || "open item"} of ${i.date}`
  const lines = [oneLine(description, amount, clearing, i.lineage)]
  const common = {
    contactName: i.contactName,
    date: i.date,
    currency: currency === base ? "" : currency,
    status: "Opening balance",
    total: amount,
    taxTotal: Money.zero,
    lines,
    lineage: [i.lineage],
    ...(exchangeRate !== undefined ? { exchangeRate } : {})
  }
  if (!negative)
    return {
      _tag: "document",
      doc: {
        ...common,
        kind: side === "AR" ? "invoice" : "bill",
        number,
        dueDate: i.dueDate ?? i.date,
        state: "open",
        amountPaid: Money.zero,
        amountDue: amount
      }
    }
  return {
    _tag: "credit",
    credit: {
      ...common,
      side: side === "AR" ? "sale" : "purchase",
      origin: "credit-note",
      number,
      reference: i.reference,
      state: "open",
      used: Money.zero,
      remaining: amount
    }
  }
}
