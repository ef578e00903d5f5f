/**
 * A snapshot of the real target as an organisation file (the format `sandbox --organisation` and
 * `startSandbox({ fixture })` read; see `src/sandbox/Fixture.ts`): the mirror a rehearsal loads into.
 *
 * The platform marks its system accounts with `controlFlag` (receivables and payables) and `systemAccount`
 * (the others), but does not say which role each plays. The roles are inferred: a control account of the
 * asset class is AR, of the liability class AP; among the other system accounts, one named like tax (tax,
 * GST, VAT) is TAX, like rounding ROUNDING, like retained earnings RETAINED_EARNINGS, like exchange or currency
 * FX; then by class (a liability is TAX, equity RETAINED_EARNINGS, an expense FX). A role that cannot be told
 * fails with the candidates (`MirrorRefused`): a mirror whose postings go to other accounts than the
 * target's would rehearse another ledger.
 *
 * Held: the file is a pure function of the snapshot content (no clock, no ids), so the same snapshot always
 * gives the same mirror.
 */
import * as Schema from "effect/Schema"
import type { SnapshotContent } from "./MirrorSnapshot.js"

export type Role = "AR" | "AP" | "TAX" | "FX" | "ROUNDING" | "RETAINED_EARNINGS"
const REQUIRED: ReadonlyArray<Role> = ["AR", "AP", "TAX", "FX", "ROUNDING"]

/** The mirror cannot be built from this snapshot. */
export class MirrorRefused extends Schema.TaggedError<MirrorRefused>()("MirrorRefused", {
  detail: Schema.String
}) {
  override get message() {
    return `the snapshot cannot be mirrored: ${this.detail}`
  }
}

type Account = SnapshotContent["accounts"][number]

const byName: ReadonlyArray<[Role, RegExp]> = [
  ["TAX", /\b(tax|gst|vat|sst)\b/i],
  ["ROUNDING", /round/i],
  ["RETAINED_EARNINGS", /retained|accumulated (profit|earning)/i],
  ["FX", /exchange|currency|\bfx\b|forex/i]
]
const byClass: ReadonlyArray<[Role, string]> = [
  ["TAX", "Liability"],
  ["RETAINED_EARNINGS", "Equity"],
  ["FX", "Expense"],
  ["ROUNDING", "Expense"]
]

/** The role of each system account, by account name; fails when a required role has no account. */
export const roles = (accounts: ReadonlyArray<Account>): Map<string, Role> | MirrorRefused => {
  const out = new Map<string, Role>()
  const taken = new Set<Role>()
  const give = (a: Account | undefined, role: Role) => {
    if (a === undefined || taken.has(role) || out.has(a.name)) return
    out.set(a.name, role)
    taken.add(role)
  }
  give(
    accounts.find((a) => a.controlFlag && a.accountClass === "Asset"),
    "AR"
  )
  give(
    accounts.find((a) => a.controlFlag && a.accountClass === "Liability"),
    "AP"
  )
  const system = accounts.filter((a) => a.systemAccount && !a.controlFlag)
  for (const [role, re] of byName)
    give(
      system.find((a) => !out.has(a.name) && re.test(a.name)),
      role
    )
  for (const [role, cls] of byClass)
    give(
      system.find((a) => !out.has(a.name) && a.accountClass === cls),
      role
    )
  const missing = REQUIRED.filter((r) => !taken.has(r))
  if (missing.length > 0)
    return new MirrorRefused({
      detail: `no system account of the target plays ${missing.join(", ")} (system accounts: ${
        accounts
          .filter((a) => a.systemAccount || a.controlFlag)
          .map((a) => `${a.name} (${a.accountClass})`)
          .join(", ") || "none"
      }); the target's chart must mark them with controlFlag or systemAccount`
    })
  return out
}

/**
 * The organisation file of the mirror (plain JSON, validated by the sandbox when it starts). The target's
 * fallback rates can be read only for the currencies it has enabled; `fallbackRates` stands in for the others.
 */
export const organisation = (
  s: SnapshotContent,
  fallbackRates: Readonly<Record<string, number>>
): Record<string, unknown> | MirrorRefused => {
  const roleOf = roles(s.accounts)
  if (roleOf instanceof MirrorRefused) return roleOf
  const contacts = new Set(s.contacts.map((c) => c.name))
  const banks = s.accounts.filter((a) => ["Bank Accounts", "Cash"].includes(a.classificationType))
  return {
    format: "ledger-migrate/organisation",
    version: 1,
    name: s.organisation.name,
    baseCurrency: s.organisation.baseCurrency,
    timeZone: s.organisation.timeZone,
    enabledCurrencies: s.enabledCurrencies,
    rates: s.rates.map((r) => ({
      currencyCode: r.currencyCode,
      rate: r.rate,
      applicableFrom: r.applicableFrom,
      ...(r.applicableTo === null ? {} : { applicableTo: r.applicableTo })
    })),
    platformRates: { ...fallbackRates, ...s.platformRates },
    classifications: s.classifications,
    accounts: s.accounts.map((a) => {
      const role = roleOf.get(a.name)
      return {
        name: a.name,
        classificationType: a.classificationType,
        ...(a.code === null ? {} : { code: a.code }),
        ...(a.controlFlag ? { controlFlag: true } : {}),
        ...(role === undefined ? {} : { role }),
        ...(a.systemAccount && role === undefined ? { systemAccount: true } : {}),
        currencyCode: a.currencyCode
      }
    }),
    taxProfiles: s.taxProfiles,
    contacts: s.contacts.map((c) => ({
      name: c.name,
      customer: c.customer,
      supplier: c.supplier,
      ...(c.currencyCode === null ? {} : { currencyCode: c.currencyCode })
    })),
    items: s.items,
    tags: s.tags ?? [],
    documents: s.documents.map((d) => ({
      kind: d.kind,
      reference: d.reference,
      ...(d.date === null ? {} : { date: d.date }),
      ...(d.contact !== null && contacts.has(d.contact) ? { contact: d.contact } : {}),
      currencyCode: d.currencyCode,
      ...(d.status === "" ? {} : { status: d.status }),
      totalAmount: d.totalAmount
    })),
    journals: s.journals.map((j) => ({
      reference: j.reference,
      ...(j.date === null ? {} : { date: j.date }),
      ...(["DRAFT", "APPROVED", "VOIDED"].includes(j.status) ? { status: j.status } : {})
    })),
    cashEntries: s.cashEntries.map((e) => ({
      type: e.type,
      reference: e.reference,
      ...(e.date === null ? {} : { date: e.date }),
      ...(e.bankAccount !== null && banks.some((b) => b.name === e.bankAccount)
        ? { bankAccount: e.bankAccount }
        : {}),
      amount: e.amount
    }))
  }
}
