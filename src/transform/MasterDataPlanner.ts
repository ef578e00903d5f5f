/**
 * Plans the master data: currencies to enable, organization rates (inverted to foreign units per 1 base
 * unit without changing any conversion's rounding, each covering the days until the next one), accounts (matched by name, else created with a mapped
 * classification), contacts (roles inferred from documents), items and journals.
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Bodies from "./Bodies.js"
import * as Dates from "./Dates.js"
import { normalizeName } from "./Mappings.js"
import * as Money from "./Money.js"
import { tagsOf } from "./Lines.js"
import { deps, PlanProblem, type PlanContext } from "./PlanContext.js"
import { journalReference, targetAccount } from "./RecordIdentity.js"
import { accountKey } from "../review/Matching.js"
import * as Refs from "./Refs.js"
import { surveyOf } from "./DocumentSurvey.js"
import type { Books, SourceItemSide } from "./SourceModel.js"
import { append } from "../Multimap.js"

/**
 * Rates are sent as foreign units per 1 base unit (the platform's direction): the source's base-per-unit
 * rate inverted and truncated to this many significant digits. Truncation keeps foreign ÷ rate at or just
 * above foreign × the source's rate, by less than 10⁻⁴ of a cent for base amounts under 100 million, so the
 * platform rounds each conversion (half away from zero) as the source did. (Rounded to 10 decimals, 1/1.3324
 * made a 5,962.50 USD bill 7,944.43 SGD where the source's 5,962.50 × 1.3324 = 7,944.435 is 7,944.44.)
 */
export const rateDigits = 15

/** 1 ÷ `basePerUnit`, truncated to `rateDigits` significant digits. */
export const inverseRate = (basePerUnit: Money.Money): Money.Money => {
  const { value, scale } = BigDecimal.normalize(basePerUnit)
  const quotient = (e: number) => (scale + e >= 0 ? 10n ** BigInt(scale + e) / value : 0n)
  let e = rateDigits
  for (let q = quotient(e); q !== 0n && q.toString().length !== rateDigits; q = quotient(e))
    e += rateDigits - q.toString().length
  return BigDecimal.normalize(BigDecimal.make(quotient(e), e))
}

export const planCurrenciesAndRates = (ctx: PlanContext, books: Books, lastDate: string): void => {
  const base = ctx.snapshot.baseCurrency
  const enabled = new Set(ctx.snapshot.enabledCurrencies)
  const used = new Set<string>()
  for (const c of surveyOf(books).currencies) if (c !== base) used.add(c)
  for (const r of books.rates) if (r.currency !== base) used.add(r.currency)
  for (const c of books.credits ?? [])
    if (c.currency !== "" && c.currency !== base && c.state !== "voided") used.add(c.currency)
  for (const a of books.accounts) if (a.currency && a.currency !== base) used.add(a.currency)
  for (const code of [...used].sort()) {
    if (enabled.has(code)) continue
    const lineage = books.rates.filter((r) => r.currency === code).map((r) => r.lineage)
    ctx.add(
      {
        key: Refs.opKey("currency", code),
        phase: "currencies",
        kind: "currency",
        naturalKey: code,
        sortKey: code,
        lineage
      },
      Bodies.EnableCurrencies,
      () => ({ body: new Bodies.EnableCurrencies({ currencies: [code] }), dependsOn: [] })
    )
  }
  const existing = new Set(ctx.snapshot.rates)
  const byCurrency = new Map<string, Array<(typeof books.rates)[number]>>()
  for (const r of books.rates) {
    if (r.baseCurrency !== base) {
      ctx.reject(
        [r.lineage],
        `rate ${r.currency}/${r.baseCurrency}`,
        `the target's base currency is ${base}`,
        `give rates against ${base}`
      )
      continue
    }
    if (r.currency === base) continue
    append(byCurrency, r.currency, r)
  }
  for (const [code, rates] of byCurrency) {
    const sorted = [...rates].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    sorted.forEach((r, i) => {
      const next = sorted[i + 1]
      if (next && next.date === r.date) {
        ctx.reject(
          [r.lineage, next.lineage],
          `two ${code} rates for ${r.date}`,
          "a currency has one rate per date",
          "keep one of them"
        )
        return
      }
      const key = `rate:${code}:${r.date}`
      if (existing.has(`${code}:${r.date}`)) return
      const to = next ? Dates.addDays(next.date, -1) : lastDate > r.date ? lastDate : r.date
      ctx.add(
        {
          key,
          phase: "rates",
          kind: "rate",
          naturalKey: `${code}:${r.date}`,
          sortKey: `${code}:${r.date}`,
          lineage: [r.lineage]
        },
        Bodies.CurrencyRate,
        () => ({
          body: new Bodies.CurrencyRate({
            currencyCode: code,
            rate: inverseRate(r.basePerUnit),
            rateApplicableFrom: r.date,
            rateApplicableTo: to
          }),
          dependsOn: deps(ctx.opKeys.has(`currency:${code}`) ? `currency:${code}` : undefined)
        })
      )
    })
  }
}

export const planAccounts = (ctx: PlanContext, books: Books): void => {
  const target = new Map(ctx.snapshot.accounts.map((a) => [normalizeName(a.name), a]))
  const codes = new Set(ctx.snapshot.accounts.map((a) => a.code.trim()).filter((c) => c !== ""))
  for (const a of [...books.accounts].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) {
    const choice = ctx.choice("Accounts", accountKey(a))
    if (choice?.kind === "none") {
      const why = ctx.matching.suggestions.find((s) => s.sheet === "Accounts" && s.key === accountKey(a))
      ctx.reject(
        [a.lineage],
        `account "${a.name}"`,
        why?.reason ?? "no target account fits it",
        "decide it on the Accounts sheet of review.xlsx (review --workspace WS), then plan again"
      )
      continue
    }
    const { name, existing } =
      choice?.kind === "adopt"
        ? {
            name: target.get(normalizeName(choice.target))?.name ?? choice.target,
            existing: target.get(normalizeName(choice.target))
          }
        : choice?.kind === "create"
          ? { name: a.name, existing: undefined }
          : targetAccount(a, ctx.mappings.accounts, target)
    const classificationType =
      existing?.accountType ??
      (a.detailType ? ctx.mappings.accountTypes.get(`${a.type}: ${a.detailType}`) : undefined) ??
      ctx.mappings.accountTypes.get(a.type) ??
      undefined
    if (!classificationType) {
      ctx.reject(
        [a.lineage],
        `account "${a.name}"`,
        `its type "${a.type}" has no classification mapping`,
        `add "${a.type}" to ${ctx.mappings.accountTypes.file}`
      )
      continue
    }
    const key = Refs.opKey("account", name)
    const created = !existing && !ctx.opKeys.has(key)
    if (created) {
      const bank = classificationType === "Bank Accounts"
      // A code the target already gives another account is left off (the platform refuses a second one).
      const code = a.code && !codes.has(a.code.trim()) ? a.code : ""
      if (a.code && code === "")
        ctx.warn(
          [a.lineage],
          `account "${a.name}"`,
          `the target already has an account with code ${a.code}`,
          "it is created without a code; give it one in the target afterwards"
        )
      const ok = ctx.add(
        { key, phase: "accounts", kind: "account", naturalKey: name, sortKey: name, lineage: [a.lineage] },
        Bodies.Account,
        () => ({
          body: new Bodies.Account({
            name,
            ...(code ? { code } : {}),
            classificationType,
            ...(bank ? { currency: a.currency || ctx.snapshot.baseCurrency } : {}),
            ...(a.description ? { description: a.description } : {})
          }),
          dependsOn: []
        })
      )
      if (!ok) continue
    }
    const t = {
      ref: Refs.ref("account", name),
      opKey: ctx.opKeys.has(key) ? key : undefined,
      name,
      classificationType
    }
    if (a.code) ctx.accountsByCode.set(a.code, t)
    ctx.accountsByName.set(normalizeName(a.name), t)
    ctx.accountPairings.push({ sourceCode: a.code, sourceName: a.name, targetName: name, lineage: a.lineage })
  }
}

export const planContacts = (ctx: PlanContext, books: Books): void => {
  const roles = new Map<
    string,
    { customer: boolean; supplier: boolean; name: string; lineage: Array<string> }
  >()
  const role = (name: string) => {
    const k = normalizeName(name)
    const r = roles.get(k) ?? { customer: false, supplier: false, name, lineage: [] }
    roles.set(k, r)
    return r
  }
  const details = new Map(books.contacts.map((c) => [normalizeName(c.name), c]))
  for (const c of books.contacts) role(c.name).lineage.push(c.lineage)
  const onTransaction = (name: string, customer: boolean, lineage: string) => {
    if (name.trim() === "") return
    const r = role(name)
    if (customer) r.customer = true
    else r.supplier = true
    if (!details.has(normalizeName(name)) && r.lineage.length === 0) {
      r.lineage.push(lineage)
      ctx.warn(
        [lineage],
        `contact "${name}"`,
        "it is on a document but not in the contacts export",
        "it is created from the document's name only"
      )
    }
  }
  // The migrating documents' contacts as the survey gathered them: each name and first row as first met, with
  // every role its documents give it.
  for (const r of surveyOf(books).roles.values()) {
    if (r.customer) onTransaction(r.name, true, r.lineage)
    if (r.supplier) onTransaction(r.name, false, r.lineage)
  }
  for (const c of books.credits ?? [])
    if (c.state !== "voided") onTransaction(c.contactName, c.side === "sale", c.lineage[0]!)
  for (const e of books.cashEntries ?? []) onTransaction(e.contactName, e.direction === "in", e.lineage[0]!)
  const existing = new Set(ctx.snapshot.contactNames.map(normalizeName))
  // The review's decisions: a contact merged into another source contact adds its roles and rows to it; one
  // adopted is the target's existing contact.
  const merged = new Map<string, string>()
  for (const [k, r] of roles) {
    const choice = ctx.choice("Contacts", k)
    if (choice?.kind === "adopt") {
      ctx.contacts.set(k, choice.target)
      roles.delete(k)
    } else if (choice?.kind === "merge" && roles.has(normalizeName(choice.into))) {
      const into = roles.get(normalizeName(choice.into))!
      into.customer ||= r.customer
      into.supplier ||= r.supplier
      into.lineage.push(...r.lineage)
      merged.set(k, normalizeName(choice.into))
      roles.delete(k)
    }
  }
  for (const [k, r] of [...roles].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const c = details.get(k)
    const key = Refs.opKey("contact", r.name)
    if (!existing.has(k)) {
      const ok = ctx.add(
        { key, phase: "contacts", kind: "contact", naturalKey: r.name, sortKey: k, lineage: r.lineage },
        Bodies.Contact,
        () => ({
          body: new Bodies.Contact({
            name: r.name,
            billingName: r.name,
            customer: r.customer,
            supplier: r.supplier,
            ...(c?.email ? { email: c.email } : {}),
            ...(c?.phone ? { phone: c.phone.replace(/[^\d+]/g, "") } : {}),
            ...(c?.taxId ? { taxId: c.taxId } : {})
          }),
          dependsOn: []
        })
      )
      if (!ok) continue
    }
    ctx.contacts.set(k, r.name)
  }
  for (const [k, into] of merged) {
    const name = ctx.contacts.get(into)
    if (name !== undefined) ctx.contacts.set(k, name)
  }
}

const itemSide = (ctx: PlanContext, side: SourceItemSide | undefined, fallbackName: string) => {
  if (!side || side.accountCode === "") return undefined
  const account = ctx.account(side.accountCode)
  const tax = ctx.taxProfile(side.taxType)
  return { name: side.description || fallbackName, price: side.unitPrice ?? Money.zero, account, tax }
}

export const planItems = (ctx: PlanContext, books: Books): void => {
  const existing = new Set(ctx.snapshot.itemCodes.map((c) => c.trim()))
  for (const item of [...books.items].sort((a, b) => (a.code < b.code ? -1 : 1))) {
    const choice = ctx.choice("Items", item.code)
    if (choice?.kind === "adopt") {
      ctx.items.set(item.code, { ref: Refs.ref("item", choice.target), opKey: undefined })
      continue
    }
    const key = Refs.opKey("item", item.code)
    if (!existing.has(item.code)) {
      const ok = ctx.add(
        {
          key,
          phase: "items",
          kind: "item",
          naturalKey: item.code,
          sortKey: item.code,
          lineage: [item.lineage]
        },
        Bodies.Item,
        () => {
          if (item.tracked) {
            throw new PlanProblem(
              "a tracked inventory item",
              "inventory items need costing, unit and opening quantities, which this version does not migrate",
              "untrack it in the export (clear InventoryAssetAccount) to migrate it as a non-inventory item"
            )
          }
          const name = item.name || item.code
          const sale = itemSide(ctx, item.sale, name)
          const purchase = itemSide(ctx, item.purchase, name)
          return {
            body: new Bodies.Item({
              itemCode: item.code,
              internalName: name,
              itemCategory: "NON_INVENTORY",
              appliesToSale: sale !== undefined,
              appliesToPurchase: purchase !== undefined,
              ...(sale
                ? {
                    saleItemName: sale.name,
                    salePrice: sale.price,
                    saleAccountResourceId: sale.account.ref,
                    ...(sale.tax ? { saleTaxProfile: sale.tax.ref } : {})
                  }
                : {}),
              ...(purchase
                ? {
                    purchaseItemName: purchase.name,
                    purchaseItemPrice: purchase.price,
                    purchaseAccountResourceId: purchase.account.ref,
                    ...(purchase.tax ? { purchaseTaxProfile: purchase.tax.ref } : {})
                  }
                : {})
            }),
            dependsOn: deps(sale?.account.opKey, purchase?.account.opKey)
          }
        }
      )
      if (!ok) continue
    }
    ctx.items.set(item.code, {
      ref: Refs.ref("item", item.code),
      opKey: ctx.opKeys.has(key) ? key : undefined
    })
  }
}

export const planJournals = (ctx: PlanContext, books: Books): void => {
  for (const j of books.journals) {
    const reference = journalReference(j.date, j.narration)
    ctx.add(
      {
        key: Refs.opKey("journal", reference),
        phase: "transactions",
        kind: "journal",
        naturalKey: reference,
        sortKey: `${j.date}|journal|${reference}`,
        lineage: j.lineage
      },
      Bodies.Journal,
      () => {
        const lines = j.lines.filter((l) => !Money.isZero(l.amount))
        const accounts = lines.map((l) => ctx.account(l.accountCode))
        for (const a of accounts) {
          if (
            ctx.snapshot.accounts.some(
              (t) => t.controlFlag && normalizeName(t.name) === normalizeName(a.name)
            )
          ) {
            throw new PlanProblem(
              `a journal line posts to the control account "${a.name}"`,
              "receivables and payables move only through invoices, bills and payments",
              "post it through a document, or to another account"
            )
          }
        }
        const tags = tagsOf(ctx, j.lines)
        return {
          body: new Bodies.Journal({
            reference,
            valueDate: j.date,
            saveAsDraft: false,
            journalEntries: lines.map(
              (l, i) =>
                new Bodies.JournalEntry({
                  accountResourceId: accounts[i]!.ref,
                  type: Money.isNegative(l.amount) ? "CREDIT" : "DEBIT",
                  amount: Money.abs(l.amount),
                  description: l.description || j.narration
                })
            ),
            ...(tags.tags.length > 0 ? { tags: tags.tags } : {})
          }),
          dependsOn: deps(...accounts.map((a) => a.opKey), ...tags.opKeys)
        }
      }
    )
  }
}
