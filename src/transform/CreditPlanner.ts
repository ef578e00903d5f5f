/**
 * Plans the credits: credit notes become customer or supplier credit notes with their own lines; a
 * prepayment held on its coded account is planned by `HeldPrepayments` (its cash on that account, its
 * applications and refunds later); an overpayment, or a prepayment that cannot be held so (tax, several
 * accounts), which the platform has no object for, becomes a cash-in (sales) or cash-out
 * (purchases) on the bank account that received or paid it, posted to the migration's clearing account,
 * plus a credit note for the contact whose one line posts to that same clearing account. Together they move
 * the bank and the contact's receivable or payable exactly as the source did, and the clearing account nets
 * to zero; the credit note is then applied to later documents or refunded like any other.
 */
import * as Bodies from "./Bodies.js"
import { foreignCurrency } from "./DocumentPlanner.js"
import { accountCurrency } from "./Fx.js"
import { planLines, tagsOf } from "./Lines.js"
import { normalizeName } from "./Mappings.js"
import * as Money from "./Money.js"
import { deps, PlanProblem, type AccountTarget, type PlanContext } from "./PlanContext.js"
import * as Refs from "./Refs.js"
import type { Books, SourceCredit, SourceCreditFunding } from "./SourceModel.js"
import { creditKind, creditMigrates, creditReferences, heldOnAccount } from "./TransactionIdentity.js"
import * as HeldPrepayments from "./HeldPrepayments.js"

/** The target account overpayments and prepayments pass through (it ends at zero). */
export const clearingAccountName = "Overpayment and Prepayment Clearing"

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const fmt = (m: Money.Money) => Money.toFixed(m)

/** A planned credit: its reference, op kind and key. */
export interface PlannedCredit {
  readonly credit: SourceCredit
  readonly reference: string
  readonly kind: "customer-credit-note" | "supplier-credit-note"
  /**
   * The op the credit's settlements depend on: its credit note, or (a prepayment held on its account,
   * `heldOnAccount`, which has no credit note of its own) its cash entry.
   */
  readonly key: string
}

const isPayment = (c: SourceCredit) => c.origin !== "credit-note"

/** Plans the clearing account when an overpayment or prepayment migrates; its reference target, else undefined. */
export const planClearingAccount = (ctx: PlanContext, books: Books): AccountTarget | undefined => {
  const using = (books.credits ?? []).filter(
    (c) => isPayment(c) && creditMigrates(c) && heldOnAccount(c) === undefined
  )
  if (using.length === 0) return undefined
  const existing = ctx.snapshot.accounts.find(
    (a) => normalizeName(a.name) === normalizeName(clearingAccountName)
  )
  const name = existing?.name ?? clearingAccountName
  const key = Refs.opKey("account", name)
  if (!existing)
    ctx.add(
      {
        key,
        phase: "accounts",
        kind: "account",
        naturalKey: name,
        sortKey: name,
        lineage: using[0]!.lineage
      },
      Bodies.Account,
      () => ({
        body: new Bodies.Account({
          name,
          classificationType: "Current Liability",
          description: "Overpayments and prepayments migrated as a cash entry and a credit note; nets to zero"
        }),
        dependsOn: []
      })
    )
  const target: AccountTarget = {
    ref: Refs.ref("account", name),
    opKey: ctx.opKeys.has(key) ? key : undefined,
    name,
    classificationType: existing?.accountType ?? "Current Liability"
  }
  ctx.accountsByName.set(normalizeName(name), target)
  return target
}

/**
 * Pairs each overpayment and prepayment with the bank row that funded it: same side, contact and date, the
 * bank's currency the credit's and the amount its total, oldest credit first; the rest are rejected.
 */
const matchFundings = (ctx: PlanContext, books: Books, credits: ReadonlyArray<SourceCredit>) => {
  const base = ctx.snapshot.baseCurrency
  const free = [...(books.creditFundings ?? [])].sort(
    (a, b) => compare(a.date, b.date) || compare(a.lineage, b.lineage)
  )
  const out = new Map<SourceCredit, SourceCreditFunding>()
  for (const c of credits) {
    const i = free.findIndex(
      (f) =>
        f.side === c.side &&
        normalizeName(f.contactName) === normalizeName(c.contactName) &&
        f.date === c.date &&
        accountCurrency(books.accounts, f.bankAccountName, base) === (c.currency || base) &&
        Money.equals(f.amount, c.total)
    )
    if (i >= 0) out.set(c, free.splice(i, 1)[0]!)
  }
  for (const f of free)
    ctx.reject(
      [f.lineage],
      `a ${f.origin} ${f.side === "sale" ? "received from" : "paid to"} "${f.contactName}" of ${fmt(f.amount)} on ${f.date}`,
      "no overpayment or prepayment row of the invoice or bill export matches it (contact, date, currency, amount)",
      "export the sales and purchase documents with their overpayments and prepayments for the same period"
    )
  return out
}

const creditNoteBody = (
  ctx: PlanContext,
  books: Books,
  c: SourceCredit,
  reference: string,
  clearing: AccountTarget | undefined
) => {
  const contact = ctx.contact(c.contactName)
  const fx = foreignCurrency(ctx, books.rates, { ...c, label: `credit ${reference}` })
  const tags = tagsOf(ctx, c.lines)
  const common = {
    reference,
    valueDate: c.date,
    contactResourceId: contact.ref,
    ...(fx.currency ? { currency: fx.currency } : {}),
    ...(tags.tags.length > 0 ? { tags: tags.tags } : {})
  }
  if (!isPayment(c)) {
    const lines = planLines(ctx, c)
    return {
      body: new Bodies.CreditNote({
        ...common,
        taxInclusion: lines.taxInclusive,
        saveAsDraft: c.state === "draft",
        lineItems: lines.lineItems
      }),
      dependsOn: deps(contact.opKey, ...lines.opKeys, ...fx.opKeys, ...tags.opKeys)
    }
  }
  if (clearing === undefined)
    throw new PlanProblem(
      "no clearing account",
      "an overpayment needs the clearing account",
      "report this defect"
    )
  const label = c.origin === "overpayment" ? "Overpayment" : "Prepayment"
  const what = c.lines
    .map((l) => l.description)
    .filter((d) => d !== "" && d.toLowerCase() !== label.toLowerCase())
  const name = [label, [...new Set(what)].join("; ")].filter((x) => x !== "").join(": ")
  return {
    body: new Bodies.CreditNote({
      ...common,
      taxInclusion: false,
      saveAsDraft: false,
      lineItems: [
        new Bodies.LineItem({
          name,
          quantity: Money.fromNumber(1),
          unitPrice: c.total,
          accountResourceId: clearing.ref
        })
      ]
    }),
    dependsOn: deps(contact.opKey, clearing.opKey, ...fx.opKeys, ...tags.opKeys)
  }
}

/** Plans every migrating credit; returns them with their references (voided ones are listed, not migrated). */
export const planCredits = (
  ctx: PlanContext,
  books: Books,
  clearing: AccountTarget | undefined
): Array<PlannedCredit> => {
  const credits = books.credits ?? []
  for (const c of credits)
    if (!creditMigrates(c))
      ctx.warn(
        c.lineage,
        `${c.origin.replace("-", " ")} ${c.number || c.reference || c.contactName} (${c.status})`,
        "voided and deleted credits are not migrated",
        "nothing to do"
      )
  const refs = creditReferences(credits, (c, reference, uses) =>
    ctx.warn(
      c.lineage,
      `credit note number ${c.number} is used ${uses} times`,
      "references identify credit notes in the target",
      `this one is migrated as ${reference}`
    )
  )
  const fundings = matchFundings(
    ctx,
    books,
    [...refs.keys()].filter((c) => isPayment(c) && c.opening !== true)
  )
  const base = ctx.snapshot.baseCurrency
  const planned: Array<PlannedCredit> = []
  for (const [c, reference] of refs) {
    const kind = creditKind(c)
    const key = Refs.opKey(kind, reference)
    const spec = {
      phase: "transactions" as const,
      sortKey: `${c.date}|${kind}|${reference}`,
      lineage: c.lineage
    }
    const funding = fundings.get(c)
    const heldOn = heldOnAccount(c)
    if (heldOn !== undefined && c.opening === true && c.state !== "draft") {
      // Its cash is in the opening balances: only its applications and refunds are to come.
      planned.push({ credit: c, reference, kind, key: HeldPrepayments.fundingKey(c, reference) })
      continue
    }
    if (isPayment(c) && (funding === undefined || c.state === "draft")) {
      ctx.reject(
        c.lineage,
        `${c.origin} of "${c.contactName}" on ${c.date} (${fmt(c.total)} ${c.currency || base})`,
        c.state === "draft"
          ? "a draft overpayment or prepayment has no cash to migrate"
          : "no bank row of the Account Transactions report received or paid it (same contact, date, currency and amount)",
        "export the Account Transactions report for every bank account over the same period"
      )
      continue
    }
    if (heldOn !== undefined && funding !== undefined) {
      const held = { credit: c, reference, kind, key: HeldPrepayments.fundingKey(c, reference) }
      if (HeldPrepayments.planFunding(ctx, books, held, heldOn, funding)) planned.push(held)
      continue
    }
    const ok = ctx.add({ ...spec, key, kind, naturalKey: reference }, Bodies.CreditNote, () =>
      creditNoteBody(ctx, books, c, reference, clearing)
    )
    if (!ok) continue
    planned.push({ credit: c, reference, kind, key })
    if (funding === undefined || clearing === undefined) continue
    const cashKind = c.side === "sale" ? ("cash-in" as const) : ("cash-out" as const)
    ctx.add(
      {
        ...spec,
        key: `${cashKind}:${reference}`,
        kind: cashKind,
        naturalKey: reference,
        sortKey: `${funding.date}|${cashKind}|${reference}`,
        lineage: [funding.lineage]
      },
      Bodies.CashEntry,
      () => {
        const bank = ctx.account(funding.bankAccountName)
        const contact = ctx.contact(c.contactName)
        const currency = accountCurrency(books.accounts, funding.bankAccountName, base)
        const fx = foreignCurrency(ctx, books.rates, {
          currency,
          date: funding.date,
          lineage: [funding.lineage],
          label: `${c.origin} ${reference}`
        })
        return {
          body: new Bodies.CashEntry({
            accountResourceId: bank.ref,
            reference,
            valueDate: funding.date,
            contactResourceId: contact.ref,
            ...(fx.currency ? { currency: fx.currency } : {}),
            internalNotes: `${c.origin === "overpayment" ? "Overpayment" : "Prepayment"} ${c.side === "sale" ? "from" : "to"} ${c.contactName}, held as credit note ${reference}`,
            journalEntries: [
              new Bodies.JournalEntry({
                accountResourceId: clearing.ref,
                type: c.side === "sale" ? "CREDIT" : "DEBIT",
                amount: funding.amount,
                description: `${c.origin} ${reference}`
              })
            ]
          }),
          dependsOn: deps(bank.opKey, contact.opKey, clearing.opKey, ...fx.opKeys)
        }
      }
    )
    const coded = c.lines.filter((l) => {
      const a =
        ctx.accountsByCode.get(l.accountCode.trim()) ?? ctx.accountsByName.get(normalizeName(l.accountCode))
      return (
        a !== undefined &&
        !ctx.snapshot.accounts.some((t) => t.controlFlag && normalizeName(t.name) === normalizeName(a.name))
      )
    })
    if (c.origin === "prepayment" && coded.length > 0 && !Money.isZero(c.remaining))
      ctx.warn(
        c.lineage,
        `prepayment ${reference} of "${c.contactName}"`,
        `its unapplied ${fmt(c.remaining)} is held as a credit on the contact's ${c.side === "sale" ? "receivable" : "payable"}, where the source codes it to ${[...new Set(coded.map((l) => l.accountCode))].join(", ")}`,
        "the trial balance of those accounts differs by the unapplied amount until the prepayment is applied"
      )
  }
  return planned
}
