/**
 * Suggests, for every source account, tax code, contact and item, what it becomes in the target, with a
 * confidence and a reason; and resolves those suggestions with the accountant's decisions (review.xlsx) into
 * the choices the plan applies. Pure and deterministic: the plan is built from `decide(...)` whether or not a
 * workbook exists, so an unedited workbook gives the plan that no workbook gives.
 *
 * Accounts, in order: the reviewed account map (mappings/<source>/accounts.json); a system role (AR, AP, tax
 * control, exchange gains, rounding, retained earnings) held by exactly one target account; the same code;
 * the same name; the same normalised name; the most alike name. Never across incompatible classes (roles
 * excepted: a system account is the target's own, whatever the source classed it as). Tax codes: the tax
 * map, the same name, then the rate the source's lines carry and the side they are on. Contacts: within the
 * source and against the target, the same name once legal form, punctuation, case and spacing are set aside.
 * Items: by code.
 */
import type { Mappings } from "../transform/Mappings.js"
import { normalizeName } from "../transform/Mappings.js"
import * as Money from "../transform/Money.js"
import { surveyOf } from "../transform/DocumentSurvey.js"
import { recordAt } from "../transform/Records.js"
import type { Books, SourceAccount, SourceLine } from "../transform/SourceModel.js"
import type { TargetAccount, TargetSnapshot, TargetTaxProfile } from "../transform/TargetSnapshot.js"
import { classOf, compatible, sourceRole, targetRole } from "./Classes.js"
import { contactKey, jaroWinkler, normalise, score, similarity } from "./Similarity.js"

/** Decisions below this confidence must be confirmed (a decision typed in review.xlsx) before load. */
export const confirmBelow = 0.9
/** A name at least this alike is suggested as the same account (below `confirmBelow`: to be confirmed). */
export const fuzzyFloor = 0.8
/** A create-new suggestion whose nearest candidate is at least this alike is to be confirmed. */
export const nearFloor = 0.75
/** Two contacts' keys at least this alike (and not equal) are flagged as possibly the same business. */
export const contactNear = 0.93

export type Sheet = "Accounts" | "Tax codes" | "Contacts" | "Items"

/** What a source record becomes. */
export type Choice =
  | { readonly kind: "adopt"; readonly target: string }
  | { readonly kind: "create" }
  | { readonly kind: "merge"; readonly into: string }
  | { readonly kind: "no-profile" }
  | { readonly kind: "none" }

/** The words a choice has in the workbook's decision column. */
export const CREATE = "create new"
export const NO_PROFILE = "no tax profile"

export const choiceText = (c: Choice): string =>
  c.kind === "adopt"
    ? c.target
    : c.kind === "merge"
      ? c.into
      : c.kind === "create"
        ? CREATE
        : c.kind === "no-profile"
          ? NO_PROFILE
          : ""

export interface Suggestion {
  readonly sheet: Sheet
  /** The source record's identity on its sheet (account code or name, tax code, contact name, item code). */
  readonly key: string
  /** How the source names it, its type or detail, where it is, and how much it is used. */
  readonly label: string
  readonly code: string
  readonly detail: string
  readonly where: string
  readonly usage: string
  /** An account's classification in the target's terms (its type through the account-type map). */
  readonly classification?: string
  readonly choice: Choice
  readonly confidence: number
  readonly reason: string
}

export interface Matching {
  readonly suggestions: ReadonlyArray<Suggestion>
  /** The choice per `sheet|key`: the workbook's decision where there is one, else the suggestion. */
  readonly choices: ReadonlyMap<string, Choice>
}

export const choiceKey = (sheet: Sheet, key: string): string => `${sheet}|${key}`

/** A source account's identity: its code, or its name when it has none. */
export const accountKey = (a: Pick<SourceAccount, "code" | "name">): string =>
  a.code.trim() !== "" ? a.code.trim() : normalizeName(a.name)

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

// ---- accounts ----------------------------------------------------------------------------------------------

const accountUsage = (books: Books) => {
  // The documents' lines and the payments, as the survey counted them.
  const n = new Map(surveyOf(books).accountUses)
  const bump = (k: string) => {
    const key = normalizeName(k)
    if (key !== "") n.set(key, (n.get(key) ?? 0) + 1)
  }
  const lines = (ls: ReadonlyArray<{ readonly accountCode: string }>) =>
    ls.forEach((l) => bump(l.accountCode))
  for (const c of books.credits ?? []) lines(c.lines)
  for (const j of books.journals) lines(j.lines)
  for (const e of books.cashEntries ?? []) {
    bump(e.bankAccountName)
    for (const l of e.lines) bump(l.accountName)
  }
  for (const t of books.transfers ?? []) {
    bump(t.fromAccountName)
    bump(t.toAccountName)
  }
  return (a: SourceAccount) =>
    (a.code ? (n.get(normalizeName(a.code)) ?? 0) : 0) + (n.get(normalizeName(a.name)) ?? 0)
}

/** The balance of each account in the source's latest trial balance, when the input has one. */
const balances = (books: Books) => {
  const tb = [...books.trialBalances].sort((a, b) => byText(b.asAt, a.asAt))[0]
  const m = new Map<string, string>()
  if (!tb) return (_: SourceAccount) => ""
  for (const l of tb.lines) {
    const text = `${Money.toFixed(Money.sub(l.debit, l.credit))} at ${tb.asAt}`
    if (l.accountCode) m.set(`code:${l.accountCode}`, text)
    m.set(`name:${normalizeName(l.accountName)}`, text)
  }
  return (a: SourceAccount) => m.get(`code:${a.code}`) ?? m.get(`name:${normalizeName(a.name)}`) ?? ""
}

const suggestAccount = (
  a: SourceAccount,
  classification: string | undefined,
  snapshot: TargetSnapshot,
  mappings: Mappings,
  journalled: boolean
): { choice: Choice; confidence: number; reason: string } => {
  // An account the source's journals post to (a profiled ledger's receivables, say) is an ordinary account
  // there; the target's control accounts take no journal line, so they are never suggested for it.
  const targets = journalled ? snapshot.accounts.filter((t) => !t.controlFlag) : snapshot.accounts
  const byName = new Map(targets.map((t) => [normalizeName(t.name), t]))
  const fits = (t: TargetAccount) => classification !== undefined && compatible(classification, t.accountType)
  const adopt = (t: TargetAccount, confidence: number, reason: string) => ({
    choice: { kind: "adopt" as const, target: t.name },
    confidence,
    reason
  })
  const alias = mappings.accounts.get(a.name)
  if (alias) {
    const t = byName.get(normalizeName(alias))
    if (t) return adopt(t, 1, `account map: "${alias}"`)
  }
  const role = sourceRole(a)
  if (role) {
    const holders = targets.filter((t) => targetRole(t) === role)
    if (holders.length === 1) return adopt(holders[0]!, 1, `role: ${role}`)
  }
  const code = a.code.trim()
  if (code !== "") {
    const t = targets.find((x) => x.code.trim() === code && fits(x))
    if (t) {
      const s = similarity(a.name, t.name)
      return adopt(t, s >= 0.6 ? 0.95 : 0.85, `same code ${code} (name ${score(s)})`)
    }
  }
  const exact = byName.get(normalizeName(a.name))
  if (exact && (classification === undefined || fits(exact))) return adopt(exact, 1, "same name")
  const norm = targets.find((t) => normalise(t.name) === normalise(a.name) && fits(t))
  if (norm) return adopt(norm, 0.97, "same name once punctuation and case are set aside")
  // Receivables and payables take no lines but a document's: never a name-alike's suggestion.
  const ranked = targets
    .filter((t) => fits(t) && !t.controlFlag)
    .map((t) => ({ t, s: similarity(a.name, t.name) }))
    .sort((x, y) => y.s - x.s || byText(x.t.name, y.t.name))
  const best = ranked[0]
  // Alike names are never certain: at most 0.95, below the same name (1) and the same normalised name (0.97).
  if (best && best.s >= fuzzyFloor)
    return adopt(best.t, Math.min(0.95, Number(best.s.toFixed(2))), `name ${score(best.s)}`)
  if (exact) {
    const cls = classOf(exact.accountType) ?? exact.accountType
    return {
      choice: { kind: "none" },
      confidence: 0,
      reason: `the target's "${exact.name}" is ${cls === "Asset" || cls === "Equity" || cls === "Expense" ? "an" : "a"} ${cls} account (${exact.accountType}), which a ${classification ?? a.type} account cannot become, and a new account cannot take its name: choose a target account`
    }
  }
  if (best && best.s >= nearFloor)
    return {
      choice: { kind: "create" },
      confidence: 0.7,
      reason: `no account alike enough; nearest "${best.t.name}" (name ${score(best.s)})`
    }
  return {
    choice: { kind: "create" },
    confidence: 1,
    reason: best ? `not in the target (nearest "${best.t.name}", name ${score(best.s)})` : "not in the target"
  }
}

// ---- tax codes ---------------------------------------------------------------------------------------------

interface TaxUse {
  readonly code: string
  sale: number
  purchase: number
  /** The lines of the documents carrying the code (read again only when its rate is looked for). */
  readonly documents: ReadonlyArray<number>
  readonly lines: Array<SourceLine>
  where: string
}

const taxUses = (books: Books): Array<TaxUse> => {
  const uses = new Map<string, TaxUse>()
  // The documents' lines as the survey gathered them (their first spelling, counts and least row).
  for (const [k, u] of surveyOf(books).taxUses)
    uses.set(k, {
      code: u.code,
      sale: u.sale,
      purchase: u.purchase,
      documents: u.documents,
      lines: [],
      where: u.where
    })
  const use = (code: string, side: "sale" | "purchase", where: string, line?: SourceLine) => {
    if (code.trim() === "") return
    const k = normalizeName(code)
    const u = uses.get(k) ?? { code: code.trim(), sale: 0, purchase: 0, documents: [], lines: [], where }
    uses.set(k, u)
    u[side]++
    if (line) u.lines.push(line)
    if (where < u.where) u.where = where
  }
  for (const c of books.credits ?? []) for (const l of c.lines) use(l.taxType, c.side, l.lineage, l)
  for (const i of books.items) {
    if (i.sale) use(i.sale.taxType, "sale", i.lineage)
    if (i.purchase) use(i.purchase.taxType, "purchase", i.lineage)
  }
  return [...uses.values()].sort((a, b) => byText(normalizeName(a.code), normalizeName(b.code)))
}

/** Whether a line's tax is `rate`% of its amount, tax-exclusive or inclusive, to within a cent. */
const lineAtRate = (l: SourceLine, rate: number): boolean => {
  const r = Money.fromNumber(rate)
  const hundred = Money.fromNumber(100)
  const cent = Money.fromNumber(0.01)
  // exclusive: tax × 100 = amount × rate; inclusive: tax × (100 + rate) = amount × rate (each to a cent of tax)
  const within = (scale: Money.Money) =>
    !Money.greaterThan(
      Money.abs(Money.sub(Money.mul(l.taxAmount, scale), Money.mul(l.lineAmount, r))),
      Money.mul(cent, scale)
    )
  return within(hundred) || within(Money.add(hundred, r))
}

/** The lines of `u`'s code: the documents' (read again) and the credits'. */
const linesOf = (books: Books, u: TaxUse): Array<SourceLine> => {
  const k = normalizeName(u.code)
  const out: Array<SourceLine> = []
  for (const place of u.documents)
    for (const l of recordAt(books.documents, place).lines) if (normalizeName(l.taxType) === k) out.push(l)
  return [...out, ...u.lines]
}

const suggestTax = (
  books: Books,
  u: TaxUse,
  snapshot: TargetSnapshot,
  mappings: Mappings
): { choice: Choice; confidence: number; reason: string } => {
  const profiles = snapshot.taxProfiles
  const byName = new Map(profiles.map((p) => [normalizeName(p.name), p]))
  const mapped = mappings.taxCodes.get(u.code)
  if (mapped === null)
    return { choice: { kind: "no-profile" }, confidence: 1, reason: "tax map: no tax profile" }
  if (mapped !== undefined && byName.has(normalizeName(mapped)))
    return {
      choice: { kind: "adopt", target: byName.get(normalizeName(mapped))!.name },
      confidence: 1,
      reason: `tax map: "${mapped}"`
    }
  const exact = byName.get(normalizeName(u.code))
  if (exact) return { choice: { kind: "adopt", target: exact.name }, confidence: 1, reason: "same name" }
  const sides = (p: TargetTaxProfile) =>
    (u.sale === 0 || p.appliesToSale) && (u.purchase === 0 || p.appliesToPurchase)
  const priced = linesOf(books, u).filter((l) => !Money.isZero(l.lineAmount))
  const fitsRate = (p: TargetTaxProfile) =>
    priced.length > 0 && priced.filter((l) => lineAtRate(l, p.vatValue)).length * 10 >= priced.length * 9
  const side = [u.sale > 0 ? "sales" : "", u.purchase > 0 ? "purchases" : ""]
    .filter((s) => s !== "")
    .join(" and ")
  const mapNote = mapped !== undefined ? ` (the tax map's "${mapped}" is not in the target)` : ""
  const fitting = profiles.filter((p) => sides(p) && fitsRate(p))
  if (fitting.length === 1)
    return {
      choice: { kind: "adopt", target: fitting[0]!.name },
      // A rate and a side are evidence, not a name: the accountant confirms every tax code matched by them.
      confidence: 0.85,
      reason: `rate ${fitting[0]!.vatValue}% on ${priced.length} lines, ${side}: the only such profile${mapNote}`
    }
  if (fitting.length > 1) {
    const ranked = fitting
      .map((p) => ({ p, s: similarity(u.code, p.name) }))
      .sort((a, b) => b.s - a.s || byText(a.p.name, b.p.name))
    return {
      choice: { kind: "adopt", target: ranked[0]!.p.name },
      confidence: 0.6,
      reason: `rate ${ranked[0]!.p.vatValue}% on ${priced.length} lines, ${side}: ${fitting.length} profiles fit, nearest name ${score(ranked[0]!.s)}${mapNote}`
    }
  }
  return {
    choice: { kind: "none" },
    confidence: 0,
    reason: `no tax profile of the target fits (${priced.length > 0 ? `the lines' rate, ${side}` : `no priced lines, ${side}`})${mapNote}; the platform cannot create tax profiles: choose one, or "${NO_PROFILE}"`
  }
}

// ---- contacts and items ------------------------------------------------------------------------------------

interface ContactUse {
  name: string
  where: string
  uses: number
  listed: boolean
}

const contactUses = (books: Books): Array<ContactUse> => {
  const m = new Map<string, ContactUse>()
  const add = (name: string, where: string, listed: boolean, uses: number) => {
    if (name.trim() === "") return
    const k = normalizeName(name)
    const c = m.get(k) ?? { name, where, uses: 0, listed: false }
    m.set(k, c)
    c.uses += uses
    if (listed && !c.listed) {
      c.listed = true
      c.where = where
    }
  }
  for (const c of books.contacts) add(c.name, c.lineage, true, 0)
  // The migrating documents' contacts as the survey counted them (each name and row as first met).
  for (const u of surveyOf(books).contactUses.values()) add(u.name, u.where, false, u.uses)
  for (const c of books.credits ?? [])
    if (c.state !== "voided") add(c.contactName, c.lineage[0] ?? "", false, 1)
  for (const e of books.cashEntries ?? []) add(e.contactName, e.lineage[0] ?? "", false, 1)
  return [...m.entries()].sort(([a], [b]) => byText(a, b)).map(([, c]) => c)
}

// ---- all of it ---------------------------------------------------------------------------------------------

/** Every suggestion for `books` against `snapshot`, sheet by sheet, in a stable order. */
export const suggest = (books: Books, snapshot: TargetSnapshot, mappings: Mappings): Array<Suggestion> => {
  const out: Array<Suggestion> = []
  const journalled = new Set(books.journals.flatMap((j) => j.lines.map((l) => normalizeName(l.accountCode))))
  const isJournalled = (a: SourceAccount) =>
    (a.code.trim() !== "" && journalled.has(normalizeName(a.code))) || journalled.has(normalizeName(a.name))
  const usage = accountUsage(books)
  const balance = balances(books)
  const seen = new Set<string>()
  for (const a of [...books.accounts].sort((x, y) => byText(x.name, y.name))) {
    // The migration's own accounts (a conversion's clearing accounts, no source row) are not the source's.
    if (a.lineage === "") continue
    const key = accountKey(a)
    if (seen.has(key)) continue
    seen.add(key)
    const classification =
      (a.detailType ? mappings.accountTypes.get(`${a.type}: ${a.detailType}`) : undefined) ??
      mappings.accountTypes.get(a.type) ??
      undefined
    const s = suggestAccount(a, classification, snapshot, mappings, isJournalled(a))
    const b = balance(a)
    out.push({
      sheet: "Accounts",
      key,
      label: a.name,
      code: a.code,
      detail: classification ? `${a.type} (${classification})` : a.type,
      where: a.lineage,
      usage: `${usage(a)} lines${b ? `; balance ${b}` : ""}`,
      ...(classification ? { classification } : {}),
      ...s
    })
  }
  for (const u of taxUses(books)) {
    out.push({
      sheet: "Tax codes",
      key: normalizeName(u.code),
      label: u.code,
      code: "",
      detail: [u.sale > 0 ? `sales ${u.sale}` : "", u.purchase > 0 ? `purchases ${u.purchase}` : ""]
        .filter((x) => x)
        .join(", "),
      where: u.where,
      usage: `${u.sale + u.purchase} uses`,
      ...suggestTax(books, u, snapshot, mappings)
    })
  }
  const contacts = contactUses(books)
  const targetByName = new Map(snapshot.contactNames.map((n) => [normalizeName(n), n]))
  const targetByKey = new Map<string, string>()
  for (const n of [...snapshot.contactNames].sort(byText))
    if (!targetByKey.has(contactKey(n))) targetByKey.set(contactKey(n), n)
  const firstByKey = new Map<string, ContactUse>()
  for (const c of [...contacts].sort(
    (a, b) => Number(b.listed) - Number(a.listed) || byText(normalizeName(a.name), normalizeName(b.name))
  ))
    if (!firstByKey.has(contactKey(c.name))) firstByKey.set(contactKey(c.name), c)
  const keys = [...new Set([...targetByKey.keys(), ...firstByKey.keys()])]
  for (const c of contacts) {
    const k = contactKey(c.name)
    const exact = targetByName.get(normalizeName(c.name))
    const sameKey = targetByKey.get(k)
    const primary = firstByKey.get(k)!
    const near = keys
      .filter((x) => x !== k)
      .map((x) => ({ x, s: jaroWinkler(x, k) }))
      .filter((x) => x.s >= contactNear)
      .sort((a, b) => b.s - a.s || byText(a.x, b.x))[0]
    const s: { choice: Choice; confidence: number; reason: string } = exact
      ? { choice: { kind: "adopt", target: exact }, confidence: 1, reason: "same name in the target" }
      : sameKey
        ? {
            choice: { kind: "adopt", target: sameKey },
            confidence: 0.95,
            reason: `the target's "${sameKey}" once legal form, punctuation, case and spacing are set aside`
          }
        : primary !== c
          ? {
              choice: { kind: "merge", into: primary.name },
              confidence: 0.95,
              reason: `a duplicate in the source of "${primary.name}" (legal form, punctuation, case or spacing)`
            }
          : near
            ? {
                choice: { kind: "create" },
                confidence: 0.7,
                reason: `kept apart, but alike "${targetByKey.get(near.x) ?? firstByKey.get(near.x)?.name ?? near.x}" (name ${score(near.s)}): the same business?`
              }
            : { choice: { kind: "create" }, confidence: 1, reason: "not in the target" }
    out.push({
      sheet: "Contacts",
      key: normalizeName(c.name),
      label: c.name,
      code: "",
      detail: c.listed ? "contacts export" : "on documents only",
      where: c.where,
      usage: `${c.uses} documents`,
      ...s
    })
  }
  const itemCodes = new Map(snapshot.itemCodes.map((c) => [c.trim(), c]))
  const itemFolded = new Map(snapshot.itemCodes.map((c) => [c.trim().toLowerCase(), c]))
  const itemUse = surveyOf(books).itemUses
  for (const i of [...books.items].sort((a, b) => byText(a.code, b.code))) {
    const same = itemCodes.get(i.code.trim())
    const folded = itemFolded.get(i.code.trim().toLowerCase())
    const s: { choice: Choice; confidence: number; reason: string } = same
      ? { choice: { kind: "adopt", target: same }, confidence: 1, reason: "same code in the target" }
      : folded
        ? { choice: { kind: "adopt", target: folded }, confidence: 0.95, reason: "same code but for case" }
        : { choice: { kind: "create" }, confidence: 1, reason: "no such code in the target" }
    out.push({
      sheet: "Items",
      key: i.code,
      label: i.name || i.code,
      code: i.code,
      detail: i.tracked ? "tracked" : "untracked",
      where: i.lineage,
      usage: `${itemUse.get(i.code) ?? 0} lines`,
      ...s
    })
  }
  return out
}

/** The accountant's decisions read from review.xlsx, by `sheet|key`. */
export type Decisions = ReadonlyMap<string, Choice>

/** The suggestions for `books` with `decisions` applied. */
export const decide = (
  books: Books,
  snapshot: TargetSnapshot,
  mappings: Mappings,
  decisions: Decisions = new Map()
): Matching => decided(suggest(books, snapshot, mappings), decisions)

/** `suggestions` (`suggest`'s, which no decision changes) with `decisions` applied. */
export const decided = (suggestions: ReadonlyArray<Suggestion>, decisions: Decisions): Matching => {
  const choices = new Map<string, Choice>()
  for (const s of suggestions) {
    const k = choiceKey(s.sheet, s.key)
    choices.set(k, decisions.get(k) ?? s.choice)
  }
  return { suggestions, choices }
}

/** A suggestion that must be confirmed before load: below `confirmBelow` and not decided in the workbook. */
export const unconfirmed = (
  suggestions: ReadonlyArray<Suggestion>,
  decisions: Decisions
): Array<Suggestion> =>
  suggestions.filter((s) => s.confidence < confirmBelow && !decisions.has(choiceKey(s.sheet, s.key)))
