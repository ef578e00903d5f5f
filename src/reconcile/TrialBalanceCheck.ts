/**
 * The target's trial balance against the source's own Trial Balance at the same date, account by account.
 * A source row finds its source account by code, then by name, and the target account through the plan's
 * pairing (several source accounts may become one target account: their sums are compared). Zero tolerance:
 * one cent is a difference. Differences are classified: an account the target lacks, an account only the
 * target has, a sign reversed, or (once the ledger has been read) rounding or a missing/extra transaction.
 */
import { normalizeName } from "../transform/Mappings.js"
import * as Money from "../transform/Money.js"
import type { AccountPairing } from "../transform/RecordIdentity.js"
import type { SourceTrialBalance, SourceTrialBalanceLine } from "../transform/SourceModel.js"
import type { Explanation } from "./Candidates.js"
import type {
  Amounts,
  Difference,
  DifferenceClass,
  TrialBalanceComparison,
  TrialBalanceRow
} from "./Model.js"
import type { TargetChartAccount, TargetTrialBalance } from "./TargetBooks.js"

/** One target account (or a source account the target lacks) with the source rows that land on it. */
export interface AccountGroup {
  /** The normalized target account name: the key of the group. */
  readonly key: string
  /** The target account's name as the target spells it; undefined when the target has no such account. */
  readonly targetName: string | undefined
  /** The name the plan gave the target account (the source's spelling when the target lacks it). */
  readonly wanted: string
  readonly section: string
  readonly lines: ReadonlyArray<SourceTrialBalanceLine>
  /** Whether some source account is paired with this target account. */
  readonly paired: boolean
  readonly source: Money.Money
  readonly target: Money.Money
}

/** Resolves a source account code or name to the target account name the plan pairs it with. */
export const pairingResolver = (pairing: ReadonlyArray<AccountPairing>) => {
  const byCode = new Map(pairing.filter((p) => p.sourceCode !== "").map((p) => [p.sourceCode, p.targetName]))
  const byName = new Map(pairing.map((p) => [normalizeName(p.sourceName), p.targetName]))
  return (code: string, name = code): string | undefined =>
    (code.trim() !== "" ? byCode.get(code.trim()) : undefined) ?? byName.get(normalizeName(name))
}

/** The trial balance section an account class is shown under. */
export const classSections: Record<string, string> = {
  Asset: "Assets",
  Liability: "Liabilities",
  Equity: "Equity",
  Revenue: "Revenue",
  Expense: "Expenses"
}

const netOf = (l: SourceTrialBalanceLine) => Money.sub(l.debit, l.credit)

/** Groups the source Trial Balance's rows and the target's balances by target account. */
export const groupAccounts = (
  tb: SourceTrialBalance,
  target: TargetTrialBalance,
  chart: ReadonlyArray<TargetChartAccount>,
  pairing: ReadonlyArray<AccountPairing>
): Array<AccountGroup> => {
  const resolve = pairingResolver(pairing)
  const inChart = new Map(chart.map((a) => [normalizeName(a.name), a]))
  const balances = new Map(target.rows.map((r) => [normalizeName(r.accountName), r]))
  const paired = new Set(pairing.map((p) => normalizeName(p.targetName)))
  const groups = new Map<string, { wanted: string; section: string; lines: Array<SourceTrialBalanceLine> }>()
  for (const l of tb.lines) {
    const wanted = resolve(l.accountCode, l.accountName) ?? l.accountName
    const key = normalizeName(wanted)
    const g = groups.get(key) ?? { wanted, section: l.section, lines: [] }
    g.lines.push(l)
    groups.set(key, g)
  }
  for (const r of target.rows) {
    const key = normalizeName(r.accountName)
    if (groups.has(key)) continue
    const cls = inChart.get(key)?.accountClass ?? ""
    groups.set(key, { wanted: r.accountName, section: classSections[cls] ?? (cls || "Other"), lines: [] })
  }
  return [...groups].map(([key, g]) => ({
    key,
    targetName: inChart.get(key)?.name ?? balances.get(key)?.accountName,
    wanted: g.wanted,
    section: g.section || classSections[inChart.get(key)?.accountClass ?? ""] || "Other",
    lines: g.lines,
    paired: paired.has(key) || g.lines.length > 0,
    source: Money.sum(g.lines.map(netOf)),
    target: balances.get(key)?.balance ?? Money.zero
  }))
}

export const differs = (g: AccountGroup) => !Money.equals(g.source, g.target)

/** A group the target's general ledger can explain: it differs and the target has the account. */
export const needsLedger = (g: AccountGroup) => differs(g) && g.targetName !== undefined

const fmt = (m: Money.Money) => Money.toFixed(m)
const debit = (m: Money.Money) => (Money.isNegative(m) ? Money.zero : m)
const credit = (m: Money.Money) => (Money.isNegative(m) ? Money.negate(m) : Money.zero)

const amounts = (source: Money.Money, target: Money.Money): Amounts => ({
  sourceDebit: fmt(debit(source)),
  sourceCredit: fmt(credit(source)),
  targetDebit: fmt(debit(target)),
  targetCredit: fmt(credit(target)),
  difference: fmt(Money.sub(target, source))
})

const total = (
  rows: ReadonlyArray<{ source: Money.Money; target: Money.Money }>,
  pick: (m: Money.Money) => Money.Money
) => ({
  source: Money.sum(rows.map((r) => pick(r.source))),
  target: Money.sum(rows.map((r) => pick(r.target)))
})

const sumAmounts = (groups: ReadonlyArray<AccountGroup>): Amounts => {
  const d = total(groups, debit)
  const c = total(groups, credit)
  return {
    sourceDebit: fmt(d.source),
    sourceCredit: fmt(c.source),
    targetDebit: fmt(d.target),
    targetCredit: fmt(c.target),
    difference: fmt(Money.sub(Money.sub(d.target, c.target), Money.sub(d.source, c.source)))
  }
}

const one = Money.fromNumber(1)

/** The class of a group's difference, given what its ledger explains (undefined: not read). */
const classify = (g: AccountGroup, why: Explanation | undefined): DifferenceClass => {
  if (g.targetName === undefined) return "missing-account"
  if (!g.paired) return "extra-account"
  if (!Money.isZero(g.source) && Money.equals(g.target, Money.negate(g.source))) return "sign-reversed"
  const diff = Money.abs(Money.sub(g.target, g.source))
  if (why && why.candidates.length === 0 && why.foreign && !Money.greaterThan(diff, one)) return "rounding"
  return "transaction"
}

const name = (g: AccountGroup) => g.lines[0]?.accountName ?? g.targetName ?? g.wanted

const fixFor = (
  cls: DifferenceClass,
  g: AccountGroup,
  groups: ReadonlyArray<AccountGroup>,
  why: Explanation | undefined
): string => {
  const twin = (want: (o: AccountGroup) => boolean) =>
    groups.find((o) => o !== g && want(o) && Money.equals(o.target, g.source) && !Money.isZero(g.source))
  switch (cls) {
    case "missing-account": {
      const renamed = twin((o) => !o.paired)
      return `The plan pairs "${name(g)}" with the target account "${g.wanted}", which the target does not have: it was renamed or deleted after the load, or its creation was rejected (see the load's problems).${renamed ? ` The target's "${renamed.targetName}" holds exactly this balance and pairs with no source account: rename it back to "${g.wanted}".` : ` Create "${g.wanted}" (or map "${name(g)}" to the account holding its balance in the account map) and load again.`}`
    }
    case "extra-account":
      return `The target's "${g.targetName}" holds a balance no source account pairs with. If it stands for a source account, map that account to it in the account map; otherwise reverse the postings named here in the target.`
    case "sign-reversed":
      return "The target holds the balance on the other side: a posting with debit and credit swapped, or an account classified on the wrong side. Reverse the postings named here and post them the right way round."
    case "rounding":
      return "Within 1.00 and only foreign-currency postings touch the account: the platform converts foreign amounts line by line. Post a rounding journal of the difference in the target if the books must agree to the cent."
    default:
      return why && why.candidates.length > 0
        ? "Compare the transactions named here with the source: create the missing ones, remove the extra ones, correct the changed ones in the target."
        : "No single transaction explains it: compare this account's ledger in both systems (the source's Account Transactions report for the account, the target's general ledger)."
  }
}

/** The comparison table and its differences, once the ledger has explained what it can. */
export const compare = (
  tb: SourceTrialBalance,
  target: TargetTrialBalance,
  groups: ReadonlyArray<AccountGroup>,
  explanations: ReadonlyMap<string, Explanation>
): { readonly comparison: TrialBalanceComparison; readonly differences: Array<Difference> } => {
  const differences: Array<Difference> = []
  const sectionOrder = [...new Set([...tb.lines.map((l) => l.section), ...groups.map((g) => g.section)])]
  const rows = (section: string) =>
    groups
      .filter((g) => g.section === section && (g.lines.length > 0 || !Money.isZero(g.target)))
      .map((g): TrialBalanceRow => {
        const why = explanations.get(g.key)
        const cls = differs(g) ? classify(g, why) : undefined
        const lineage = g.lines.map((l) => l.lineage)
        if (cls)
          differences.push({
            class: cls,
            area: "Trial balance",
            asAt: tb.asAt,
            subject: name(g),
            source: fmt(g.source),
            target: fmt(g.target),
            difference: fmt(Money.sub(g.target, g.source)),
            fix: fixFor(cls, g, groups, why),
            candidates: why?.candidates ?? [],
            lineage
          })
        return {
          section,
          sourceAccounts: g.lines.map((l) => ({ name: l.accountName, code: l.accountCode })),
          targetAccount: g.targetName,
          ...amounts(g.source, g.target),
          status: cls ?? "ok",
          lineage
        }
      })
  const sections = sectionOrder
    .map((s) => ({
      name: s || "Other",
      rows: rows(s),
      totals: sumAmounts(groups.filter((g) => g.section === s))
    }))
    .filter((s) => s.rows.length > 0)
  const balanced = Money.equals(target.debit, target.credit)
  return {
    comparison: {
      asAt: tb.asAt,
      file: tb.file,
      sections,
      totals: sumAmounts(groups),
      targetBalanced: balanced
    },
    differences
  }
}
