/**
 * Reads files staged through column profiles (the `generic` source) into source books, each file as its
 * profile says its rows are (`rows`):
 * - `ledger`: a listing whose rows, grouped by the profile's `group` fields and the date (default: the
 *   reference and the date), become balanced journals. The amount is a debit and a credit column, a signed
 *   amount, or (`sign: "by-type"`, Sage 50) a positive net and tax amount posted by the row's type: the net
 *   on the row's account, the tax on the type's tax account, their sum on its control account opposite. A
 *   group whose debits and credits differ is rejected with every one of its file:lines.
 * - `accounts`: the chart (code, name, type); without one, accounts are made from the codes and names the
 *   other files show, classified by the profile's code ranges; a code no range covers is `Unmapped`, with a
 *   warning, and the plan refuses it until it is mapped.
 * - `trial_balance`: the ledger's own trial balance, one per as-at date (an `asAt` column, else a date in
 *   the file name such as `TrialBalance-2025-03-31.csv`): the reconciliation's proof and a quick conversion's
 *   opening balances.
 * - `aged_receivables` / `aged_payables`: open items per contact at a date (found as for a trial balance).
 * The workspace's exchange-rate file is read as for any source. Every row becomes part of the books or an
 * issue naming its file:line.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ColumnProfile, RowsKind } from "../../extract/generic/ColumnProfile.js"
import * as ProfileStore from "../../extract/generic/ProfileStore.js"
import { rowsOfKind, where, type StagedRow } from "../../staging/SourceRows.js"
import * as Dates from "../Dates.js"
import { normalizeName } from "../Mappings.js"
import * as Money from "../Money.js"
import type {
  Issue,
  SourceAccount,
  SourceAgedItem,
  SourceAgedReport,
  SourceBooks,
  SourceContact,
  SourceJournal,
  SourceJournalLine,
  SourceRate,
  SourceTrialBalance,
  SourceTrialBalanceLine
} from "../SourceModel.js"
import { readRows } from "../xero/StagedCells.js"
import { accountCode, amount, cell, columnOf, date, required, RowProblem } from "./ProfiledCells.js"
import { append } from "../../Multimap.js"

/** The source type of an account nothing classifies; mapped by nobody until the user says. */
export const UNMAPPED = "Unmapped"

/** The staged files of one profile. */
interface Profiled {
  readonly profile: ColumnProfile
  readonly rows: ReadonlyArray<StagedRow>
}

/** An account as the files show it: where it was first seen, and what each kind of file says of it. */
interface SeenAccount {
  readonly code: string
  readonly lineage: string
  chart?: { readonly name: string; readonly type: string }
  tbName?: string
  ledgerName?: string
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

class Accounts {
  readonly seen = new Map<string, SeenAccount>()
  see(code: string, row: StagedRow): SeenAccount {
    let a = this.seen.get(code)
    if (a === undefined) this.seen.set(code, (a = { code, lineage: where(row) }))
    return a
  }
}

/** A ledger row's postings: signed amounts (debit positive) per account code. */
const postings = (
  profile: ColumnProfile,
  row: StagedRow,
  accounts: Accounts
): ReadonlyArray<{ readonly code: string; readonly amount: Money.Money }> => {
  const account = accountCode(profile, required(row, "account"))
  const seen = accounts.see(account, row)
  const name = cell(row, "accountName")
  if (name !== "" && seen.ledgerName === undefined) seen.ledgerName = name
  const columns = profile.columns
  if (profile.sign === "by-type") {
    const type = required(row, "type").toUpperCase()
    const rule = profile.postings?.[type]
    if (rule === undefined)
      throw new RowProblem(
        `${columnOf(profile, "type")} "${type}" has no posting rule in the profile`,
        `add "${type}" to the profile's postings (nominal debit or credit, its tax and control accounts)`
      )
    const net = amount(profile, row, "amount")
    const tax = columns["taxAmount"] !== undefined ? amount(profile, row, "taxAmount", true) : Money.zero
    const sign = (m: Money.Money) => (rule.nominal === "debit" ? m : Money.negate(m))
    const out = [{ code: account, amount: sign(net) }]
    if (!Money.isZero(tax)) {
      if (rule.tax === undefined)
        throw new RowProblem(
          `a ${type} row with tax ${Money.toFixed(tax)} but the profile's ${type} posting has no tax account`,
          `give the ${type} posting a "tax" account in the profile`
        )
      const taxCode = accountCode(profile, rule.tax)
      accounts.see(taxCode, row)
      out.push({ code: taxCode, amount: sign(tax) })
    }
    if (rule.control !== undefined) {
      const control = accountCode(
        profile,
        rule.control === "@contact" ? required(row, "contact") : rule.control
      )
      accounts.see(control, row)
      out.push({ code: control, amount: Money.negate(sign(Money.add(net, tax))) })
    }
    return out
  }
  if (columns["debit"] !== undefined || columns["credit"] !== undefined) {
    const debit = amount(profile, row, "debit", true)
    const credit = amount(profile, row, "credit", true)
    return [{ code: account, amount: Money.sub(debit, credit) }]
  }
  return [{ code: account, amount: amount(profile, row, "amount") }]
}

interface LedgerLine {
  readonly key: string
  readonly label: string
  readonly date: string
  readonly description: string
  readonly lines: ReadonlyArray<SourceJournalLine>
  readonly lineage: string
}

const fmt = (m: Money.Money) => Money.toFixed(m)

/** A ledger's rows as journals, one per group; an unbalanced group is rejected as a whole. */
const ledgerJournals = (ledger: Profiled, accounts: Accounts, issues: Array<Issue>): Array<SourceJournal> => {
  const { profile } = ledger
  const fields = profile.group ?? ["reference"]
  const lines = readRows(ledger.rows, issues, (row): LedgerLine => {
    const d = date(profile, row, "date")
    const keys = fields.map((f) => cell(row, f))
    const description = cell(row, "description") || cell(row, "memo")
    return {
      key: `${keys.join("\u0000")}\u0000${d}`,
      label: keys.filter((k) => k !== "").join(" "),
      date: d,
      description,
      lines: postings(profile, row, accounts).map((p) => ({
        accountCode: p.code,
        description,
        amount: p.amount,
        lineage: where(row)
      })),
      lineage: where(row)
    }
  })
  const groups = new Map<string, Array<LedgerLine>>()
  for (const l of lines) append(groups, l.key, l)
  const out: Array<SourceJournal> = []
  for (const group of groups.values()) {
    const head = group[0]!
    const all = group.flatMap((g) => g.lines)
    const debit = Money.sum(all.filter((l) => !Money.isNegative(l.amount)).map((l) => l.amount))
    const credit = Money.negate(Money.sum(all.filter((l) => Money.isNegative(l.amount)).map((l) => l.amount)))
    const what = `the journal ${head.label === "" ? "without a reference" : JSON.stringify(head.label)} of ${head.date}`
    const lineage = group.map((g) => g.lineage)
    if (!Money.equals(debit, credit)) {
      issues.push({
        severity: "reject",
        lineage,
        what: `${what} (${lineage.join(", ")})`,
        why: `its debits ${fmt(debit)} and credits ${fmt(credit)} differ by ${fmt(Money.sub(debit, credit))}`,
        fix:
          `correct the listing so that the lines of each ${fields.map((f) => columnOf(profile, f)).join(" and ")} ` +
          "and date balance, or group its rows by other columns (the profile's group)"
      })
      continue
    }
    if (Money.isZero(debit)) {
      issues.push({
        severity: "warning",
        lineage,
        what,
        why: "all its amounts are zero",
        fix: "nothing to migrate; remove the rows if they are not meant to be there"
      })
      continue
    }
    const first = group.find((g) => g.description !== "")?.description ?? ""
    out.push({
      narration: [head.label, first].filter((s) => s !== "").join(": ") || `Journal of ${head.date}`,
      date: head.date,
      lines: all,
      lineage
    })
  }
  return out.sort((a, b) => compare(a.date, b.date) || compare(a.narration, b.narration))
}

/** The date a report is as at: its `asAt` column, else a YYYY-MM-DD in its file name. */
const asAtOf = (profile: ColumnProfile, rows: ReadonlyArray<StagedRow>): string => {
  const first = rows[0]!
  if (profile.columns["asAt"] !== undefined && cell(first, "asAt") !== "") return date(profile, first, "asAt")
  const named = /(\d{4})-(\d{2})-(\d{2})/.exec(first.file)
  const fromName = named
    ? Option.getOrUndefined(Dates.fromParts(Number(named[1]), Number(named[2]), Number(named[3])))
    : undefined
  if (fromName === undefined)
    throw new RowProblem(
      `${first.file} does not say its date`,
      `name the file with its as-at date (e.g. TrialBalance-2025-03-31.csv), or map an asAt column in the profile`
    )
  return fromName
}

/** Rows grouped by file, in file order. */
const byFile = (rows: ReadonlyArray<StagedRow>) => {
  const files = new Map<string, Array<StagedRow>>()
  for (const r of rows) append(files, r.file, r)
  return [...files.values()]
}

/** Runs `read` on a whole report; a problem rejects every row of it. */
const report = <A>(rows: ReadonlyArray<StagedRow>, issues: Array<Issue>, read: () => A): A | undefined => {
  try {
    return read()
  } catch (e) {
    if (!(e instanceof RowProblem)) throw e
    issues.push({
      severity: "reject",
      lineage: rows.map(where),
      what: e.what,
      why: "the report cannot be read",
      fix: e.fix
    })
    return undefined
  }
}

const trialBalances = (tb: Profiled, accounts: Accounts, issues: Array<Issue>): Array<SourceTrialBalance> => {
  const { profile } = tb
  const signed = profile.columns["debit"] === undefined && profile.columns["credit"] === undefined
  return byFile(tb.rows).flatMap((rows) => {
    const asAt = report(rows, issues, () => asAtOf(profile, rows))
    if (asAt === undefined) return []
    const lines = readRows(rows, issues, (row): SourceTrialBalanceLine => {
      const name = cell(row, "accountName")
      const code = accountCode(profile, cell(row, "account"))
      if (code === "" && name === "")
        throw new RowProblem("the row names no account", `fill in ${columnOf(profile, "account")}`)
      if (code !== "") {
        const seen = accounts.see(code, row)
        if (name !== "" && seen.tbName === undefined) seen.tbName = name
      }
      const balance = signed ? amount(profile, row, "amount") : undefined
      return {
        accountName: name,
        accountCode: code,
        section: cell(row, "section"),
        debit:
          balance === undefined
            ? amount(profile, row, "debit", true)
            : Money.isNegative(balance)
              ? Money.zero
              : balance,
        credit:
          balance === undefined
            ? amount(profile, row, "credit", true)
            : Money.isNegative(balance)
              ? Money.negate(balance)
              : Money.zero,
        lineage: where(row)
      }
    })
    return [
      {
        asAt,
        lines,
        totalDebit: Money.sum(lines.map((l) => l.debit)),
        totalCredit: Money.sum(lines.map((l) => l.credit)),
        file: rows[0]!.file
      }
    ]
  })
}

const agedReports = (side: "AR" | "AP", aged: Profiled, issues: Array<Issue>): Array<SourceAgedReport> => {
  const { profile } = aged
  return byFile(aged.rows).flatMap((rows) => {
    const asAt = report(rows, issues, () => asAtOf(profile, rows))
    if (asAt === undefined) return []
    const items = readRows(rows, issues, (row): SourceAgedItem => ({
      contactName: required(row, "contact"),
      number: cell(row, "number"),
      reference: cell(row, "reference"),
      date: cell(row, "date") === "" ? asAt : date(profile, row, "date"),
      dueDate: cell(row, "dueDate") === "" ? undefined : date(profile, row, "dueDate"),
      outstanding: amount(profile, row, "amount"),
      currency: undefined,
      lineage: where(row)
    }))
    return [{ side, asAt, items, file: rows[0]!.file }]
  })
}

const readChart = (chart: Profiled, accounts: Accounts, issues: Array<Issue>) =>
  readRows(chart.rows, issues, (row) => {
    const name = required(row, "accountName")
    const code = accountCode(chart.profile, cell(row, "account"))
    const seen = accounts.see(code === "" ? name : code, row)
    seen.chart = { name, type: cell(row, "type") }
  })

/** The class a code range gives the account, from the first profile whose ranges cover it. */
const classOf = (profiles: ReadonlyArray<ColumnProfile>, code: string): string | undefined => {
  for (const p of profiles)
    for (const r of p.accountCodes?.classes ?? []) {
      const [from, to] = [accountCode(p, r.from), accountCode(p, r.to)]
      if (code.length === from.length && code >= from && code <= to) return r.type
    }
  return undefined
}

/** The chart: every account seen, named and classified (see the module's comment). */
const chartOf = (
  accounts: Accounts,
  profiles: ReadonlyArray<ColumnProfile>,
  issues: Array<Issue>
): Array<SourceAccount> => {
  const names = new Map<string, string>()
  for (const p of profiles)
    for (const [code, name] of Object.entries(p.accountCodes?.names ?? {}))
      if (!names.has(accountCode(p, code))) names.set(accountCode(p, code), name)
  const control = new Map<string, "AR" | "AP">()
  for (const p of profiles) {
    if (p.accountCodes?.receivables) control.set(accountCode(p, p.accountCodes.receivables), "AR")
    if (p.accountCodes?.payables) control.set(accountCode(p, p.accountCodes.payables), "AP")
  }
  const taken = new Set<string>()
  const out: Array<SourceAccount> = []
  for (const a of [...accounts.seen.values()].sort((x, y) => compare(x.code, y.code))) {
    let name = a.chart?.name || a.tbName || a.ledgerName || names.get(a.code) || `Account ${a.code}`
    if (taken.has(normalizeName(name))) name = `${name} (${a.code})`
    taken.add(normalizeName(name))
    let type = a.chart?.type || classOf(profiles, a.code)
    if (type === undefined) {
      type = UNMAPPED
      issues.push({
        severity: "warning",
        lineage: [a.lineage],
        what: `account "${a.code}" (${name})`,
        why: "no chart gives its type and none of the profiles' code ranges covers it, so it is classified Unmapped (created as the mappings' \"Unmapped\" entry says: a Current Asset unless changed)",
        fix:
          `add a range covering "${a.code}" to the profile's accountCodes.classes, give a chart file with its type, ` +
          `or map "${UNMAPPED}" in the workspace's account-types.json; otherwise reclassify the account after the load`
      })
    }
    const side = control.get(a.code)
    out.push({
      code: a.chart !== undefined && a.code === a.chart.name ? "" : a.code,
      name,
      type,
      taxCode: "",
      description: "",
      lineage: a.lineage,
      ...(side !== undefined ? { control: side } : {})
    })
  }
  return out
}

const readRate = (row: StagedRow): SourceRate => {
  const basePerUnit = Option.getOrThrowWith(
    Money.parse(cell(row, "Base per Unit").replace(/,/g, "")),
    () => new RowProblem(`Base per Unit "${cell(row, "Base per Unit")}" is not an amount`, "correct the rate")
  )
  if (!Money.greaterThan(basePerUnit, Money.zero))
    throw new RowProblem("Base per Unit is not positive", "correct the rate")
  return {
    currency: required(row, "Currency").toUpperCase(),
    baseCurrency: required(row, "Base Currency").toUpperCase(),
    date: Option.getOrThrowWith(
      Dates.parseDayFirst(required(row, "Date")),
      () => new RowProblem(`Date "${cell(row, "Date")}" is not a date`, "correct the Date")
    ),
    basePerUnit,
    lineage: where(row)
  }
}

/** The profiled books in the staging database. */
export const read: Effect.Effect<SourceBooks, never, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const issues: Array<Issue> = []
  const profiles = yield* ProfileStore.staged
  const kinds = yield* sql<{ kind: string }>`SELECT DISTINCT kind FROM src_files ORDER BY kind`.pipe(
    Effect.orDie
  )
  const byRows = new Map<RowsKind, Array<Profiled>>()
  const used: Array<ColumnProfile> = []
  let rates: Array<SourceRate> = []
  for (const { kind } of kinds) {
    const rows = yield* rowsOfKind(kind)
    if (kind === "generic.exchange_rates") {
      rates = readRows(rows, issues, readRate)
      continue
    }
    if (kind === "generic.credit_allocations") {
      if (rows.length > 0)
        issues.push({
          severity: "warning",
          lineage: rows.map(where),
          what: "the credit allocations file",
          why: "a profiled ledger migrates as journals, which hold no credit notes to allocate",
          fix: "nothing to do; leave the file out of the input"
        })
      continue
    }
    const profile = profiles.get(kind)
    if (profile === undefined) {
      if (rows.length > 0)
        issues.push({
          severity: "reject",
          lineage: rows.map(where),
          what: `the ${kind} rows`,
          why: "no column profile says what they are",
          fix: "extract them again with --profile FILE naming the profile that describes them"
        })
      continue
    }
    used.push(profile)
    append(byRows, profile.rows ?? "ledger", { profile, rows })
  }
  const of = (k: RowsKind) => byRows.get(k) ?? []
  const accounts = new Accounts()
  for (const c of of("accounts")) readChart(c, accounts, issues)
  const tbs = of("trial_balance").flatMap((t) => trialBalances(t, accounts, issues))
  const journals = of("ledger").flatMap((l) => ledgerJournals(l, accounts, issues))
  const aged = [
    ...of("aged_receivables").flatMap((a) => agedReports("AR", a, issues)),
    ...of("aged_payables").flatMap((a) => agedReports("AP", a, issues))
  ]
  const contacts = new Map<string, SourceContact>()
  for (const r of aged)
    for (const i of r.items)
      if (!contacts.has(normalizeName(i.contactName)))
        contacts.set(normalizeName(i.contactName), {
          name: i.contactName,
          email: "",
          phone: "",
          taxId: "",
          lineage: i.lineage
        })
  const chart = chartOf(accounts, used, issues)
  const nameOf = new Map(chart.map((a) => [a.code, a.name]))
  return {
    accounts: chart,
    contacts: [...contacts.values()],
    items: [],
    documents: [],
    payments: [],
    journals,
    rates,
    trialBalances: tbs
      .map((t) => ({
        ...t,
        lines: t.lines.map((l) =>
          l.accountName === "" ? { ...l, accountName: nameOf.get(l.accountCode) ?? "" } : l
        )
      }))
      .sort((a, b) => compare(a.asAt, b.asAt)),
    agedReports: aged.sort((a, b) => compare(a.asAt, b.asAt)),
    issues
  }
})
