/** The organization's state as handlers see it: store, ledger, fixture, system-account roles and exchange rates. */
import { today } from "./Dates.js"
import type { AccountRole, OrganizationFixture } from "./Fixture.js"
import { invalid } from "./Http.js"
import { Ledger } from "./Ledger.js"
import type { Store } from "./Store.js"

/** An organization rate as stored (and returned by GET). */
export interface RateRecord {
  readonly resourceId: string
  readonly currencyCode: string
  readonly rate: number
  readonly rateFunctionalToSource: number
  readonly rateSourceToFunctional: number
  readonly rateApplicableFrom: number
  readonly rateApplicableTo: number | null
  readonly createdAt: number
  readonly updatedAt: number
}

/** An enabled currency; `resourceId` is the ISO code. */
export interface CurrencyRecord {
  readonly resourceId: string
  readonly currencyCode: string
  readonly baseCurrency: boolean
  readonly createdAt: number
}

/** The rate applied to a foreign amount and where it came from. */
export interface AppliedRate {
  readonly rate: number
  readonly source: "TRANSACTION" | "ORGANIZATION" | "PLATFORM"
}

/** Shared state and helpers for every resource module. */
export class Org {
  readonly ledger: Ledger
  readonly rates
  readonly currencies
  private roleIds: Partial<Record<AccountRole, string>> | undefined

  constructor(
    readonly store: Store,
    readonly fixture: OrganizationFixture,
    readonly maxRows: number
  ) {
    this.ledger = new Ledger(store.db)
    this.rates = store.collection<RateRecord>("rates")
    this.currencies = store.collection<CurrencyRecord>("currencies")
  }

  get base(): string {
    return this.fixture.baseCurrency
  }

  /** Audit timestamp (UTC epoch ms). */
  now(): number {
    return Date.now()
  }

  today(): number {
    return today(this.fixture.timeZone)
  }

  /** The account playing a system role (AR, AP, tax control, FX, rounding). */
  role(role: AccountRole): string {
    this.roleIds ??= JSON.parse(this.store.getMeta("roles") ?? "{}") as Partial<Record<AccountRole, string>>
    const id = this.roleIds[role]
    if (id === undefined) throw new Error(`the organization has no ${role} account`)
    return id
  }

  setRoles(roles: Partial<Record<AccountRole, string>>): void {
    this.roleIds = roles
    this.store.setMeta("roles", JSON.stringify(roles))
  }

  /** True when any document or journal refers to the contact. */
  contactInUse(id: string): boolean {
    for (const kind of ["invoices", "bills", "customerCreditNotes", "supplierCreditNotes", "journals"])
      for (const d of this.store
        .collection<{ resourceId: string; contactResourceId?: string | null }>(kind)
        .map.values())
        if (d.contactResourceId === id) return true
    return false
  }

  isEnabled(code: string): boolean {
    return code === this.base || this.currencies.get(code) !== undefined
  }

  /** The organization rate covering a date (latest `rateApplicableFrom` wins), else the platform rate. */
  rateFor(code: string, date: number): AppliedRate {
    let best: RateRecord | undefined
    for (const r of this.rates.map.values()) {
      if (r.currencyCode !== code || r.rateApplicableFrom > date) continue
      if ((r.rateApplicableTo ?? r.rateApplicableFrom) < date) continue
      if (best === undefined || r.rateApplicableFrom >= best.rateApplicableFrom) best = r
    }
    if (best !== undefined) return { rate: best.rate, source: "ORGANIZATION" }
    const platform = this.fixture.platformRates[code]
    if (platform === undefined) throw invalid(`no exchange rate is available for ${code} on that date`)
    return { rate: platform, source: "PLATFORM" }
  }

  /** The rate of a transaction: its own `exchangeRate` when given, else organization then platform rate. */
  transactionRate(code: string, date: number, custom: number | undefined): AppliedRate {
    if (code === this.base) return { rate: 1, source: "ORGANIZATION" }
    if (custom !== undefined) {
      if (custom <= 0) throw invalid("currency.exchangeRate must be greater than 0")
      return { rate: custom, source: "TRANSACTION" }
    }
    return this.rateFor(code, date)
  }
}
