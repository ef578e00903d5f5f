/**
 * Plans money moved directly through bank accounts: Receive Money and Spend Money become cash-in and
 * cash-out entries on the bank account (the contact, the description as internal notes, one journal entry
 * per account line of the source, each on its side, amounts in the bank's currency and the currency object
 * for a foreign bank so the ledger values them); bank transfers become cash transfers with both sides'
 * amounts, each in its own account's currency, so a cross-currency transfer carries the source's rate.
 */
import * as Bodies from "./Bodies.js"
import { foreignCurrency } from "./DocumentPlanner.js"
import { accountCurrency } from "./Fx.js"
import { normalizeName } from "./Mappings.js"
import * as Money from "./Money.js"
import { deps, PlanProblem, type PlanContext } from "./PlanContext.js"
import type { Books, SourceCashEntry, SourceTransfer } from "./SourceModel.js"
import { cashReferences, type CashRecord } from "./TransactionIdentity.js"

const fmt = (m: Money.Money) => Money.toFixed(m)

const isControl = (ctx: PlanContext, name: string) =>
  ctx.snapshot.accounts.some((t) => t.controlFlag && normalizeName(t.name) === normalizeName(name))

const entryBody = (ctx: PlanContext, books: Books, e: SourceCashEntry, reference: string) => {
  const base = ctx.snapshot.baseCurrency
  const bank = ctx.account(e.bankAccountName)
  const contact = e.contactName.trim() === "" ? undefined : ctx.contact(e.contactName)
  const fx = foreignCurrency(ctx, books.rates, {
    currency: accountCurrency(books.accounts, e.bankAccountName, base),
    date: e.date,
    lineage: e.lineage,
    label: `cash entry ${reference}`
  })
  const natural = e.direction === "in" ? "CREDIT" : "DEBIT"
  const opposite = e.direction === "in" ? "DEBIT" : "CREDIT"
  const lines = e.lines.filter((l) => !Money.isZero(l.amount))
  const accounts = lines.map((l) => {
    const a = ctx.account(l.accountName)
    if (isControl(ctx, a.name))
      throw new PlanProblem(
        `line ${l.lineage} posts to the control account "${a.name}"`,
        "receivables and payables move only through invoices, bills, credit notes and their settlements",
        "code the line to another account in the source"
      )
    if (a.ref === bank.ref)
      throw new PlanProblem(
        `line ${l.lineage} posts to its own bank account`,
        "a cash entry offsets its bank",
        "code it to another account"
      )
    return a
  })
  const total = Money.sum(lines.map((l) => l.amount))
  if (!Money.equals(total, e.amount) || !Money.greaterThan(total, Money.zero))
    throw new PlanProblem(
      `its account lines add up to ${fmt(total)}, the bank row says ${fmt(e.amount)}`,
      "a cash entry's lines must add up to the positive amount that moved through the bank",
      "export the Account Transactions report for every account over the same period"
    )
  return {
    body: new Bodies.CashEntry({
      accountResourceId: bank.ref,
      reference,
      valueDate: e.date,
      ...(contact ? { contactResourceId: contact.ref } : {}),
      ...(fx.currency ? { currency: fx.currency } : {}),
      ...(e.description ? { internalNotes: e.description } : {}),
      journalEntries: lines.map(
        (l, i) =>
          new Bodies.JournalEntry({
            accountResourceId: accounts[i]!.ref,
            type: Money.isNegative(l.amount) ? opposite : natural,
            amount: Money.abs(l.amount),
            ...(l.description || e.description ? { description: l.description || e.description } : {})
          })
      ) as [Bodies.JournalEntry, ...Array<Bodies.JournalEntry>]
    }),
    dependsOn: deps(bank.opKey, contact?.opKey, ...accounts.map((a) => a.opKey), ...fx.opKeys)
  }
}

const transferBody = (ctx: PlanContext, books: Books, t: SourceTransfer, reference: string) => {
  const base = ctx.snapshot.baseCurrency
  const from = ctx.account(t.fromAccountName)
  const to = ctx.account(t.toAccountName)
  const fromCurrency = accountCurrency(books.accounts, t.fromAccountName, base)
  const toCurrency = accountCurrency(books.accounts, t.toAccountName, base)
  if (fromCurrency === toCurrency && !Money.equals(t.amountOut, t.amountIn))
    throw new PlanProblem(
      `the transfer's sides disagree: ${t.lineage[0]} takes ${fmt(t.amountOut)} out of "${t.fromAccountName}", ${t.lineage[1]} puts ${fmt(t.amountIn)} into "${t.toAccountName}"`,
      `both accounts are in ${fromCurrency}, so both sides must move the same amount`,
      "correct the transfer in the source system and export again"
    )
  const fx = [fromCurrency, toCurrency].flatMap(
    (currency) =>
      foreignCurrency(ctx, books.rates, {
        currency,
        date: t.date,
        lineage: t.lineage,
        label: `transfer ${reference}`
      }).opKeys
  )
  return {
    body: new Bodies.CashTransfer({
      reference,
      valueDate: t.date,
      cashOut: new Bodies.CashTransferSide({ accountResourceId: from.ref, amount: t.amountOut }),
      cashIn: new Bodies.CashTransferSide({ accountResourceId: to.ref, amount: t.amountIn }),
      internalNotes: `Transfer from ${t.fromAccountName} to ${t.toAccountName}`
    }),
    dependsOn: deps(from.opKey, to.opKey, ...fx)
  }
}

/** Plans every cash entry and transfer, in the transactions phase. */
export const planCash = (ctx: PlanContext, books: Books): void => {
  const records: Array<CashRecord> = [
    ...(books.cashEntries ?? []).map((entry) => ({ _tag: "entry" as const, entry })),
    ...(books.transfers ?? []).map((transfer) => ({ _tag: "transfer" as const, transfer }))
  ]
  const refs = cashReferences(records, (r, reference, uses) =>
    ctx.warn(
      r._tag === "entry" ? r.entry.lineage : r.transfer.lineage,
      `bank reference ${reference.replace(/-\d+$/, "")} is used ${uses} times`,
      "references identify cash entries and transfers in the target",
      `this one is migrated as ${reference}`
    )
  )
  for (const [r, reference] of refs) {
    if (r._tag === "entry") {
      const kind = r.entry.direction === "in" ? ("cash-in" as const) : ("cash-out" as const)
      ctx.add(
        {
          key: `${kind}:${reference}`,
          phase: "transactions",
          kind,
          naturalKey: reference,
          sortKey: `${r.entry.date}|${kind}|${reference}`,
          lineage: r.entry.lineage
        },
        Bodies.CashEntry,
        () => entryBody(ctx, books, r.entry, reference)
      )
    } else {
      ctx.add(
        {
          key: `cash-transfer:${reference}`,
          phase: "transactions",
          kind: "cash-transfer",
          naturalKey: reference,
          sortKey: `${r.transfer.date}|cash-transfer|${reference}`,
          lineage: r.transfer.lineage
        },
        Bodies.CashTransfer,
        () => transferBody(ctx, books, r.transfer, reference)
      )
    }
  }
}
