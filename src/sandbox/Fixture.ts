/**
 * The organisation file a sandbox starts from (`fixtures/default-organization.json` is the default one, and a
 * rehearsal's snapshot of a real target is another). JSON, versioned:
 *
 * ```
 * { "format": "ledger-migrate/organisation", "version": 1,
 *   "name", "baseCurrency" (ISO 4217), "timeZone" (IANA),
 *   "enabledCurrencies": ["USD", …],                      other than the base currency
 *   "rates": [{ "currencyCode", "rate", "applicableFrom": "YYYY-MM-DD", "applicableTo"?: "YYYY-MM-DD" }],
 *                                                          organisation rates, foreign units per 1 base unit
 *   "platformRates": { "USD": 0.74, … },                   fallback rates when no organisation rate covers a date
 *   "classifications": [{ "name", "accountClass", "normalBalance" }],
 *   "accounts": [{ "name", "classificationType", "code"?, "controlFlag"?, "role"?, "systemAccount"?, "currencyCode"? }],
 *                                                          roles AR, AP, TAX, FX, ROUNDING are required, once each
 *   "bankAccounts"?: [{ "name", "code"?, "currencyCode"? }],
 *   "taxProfiles": [{ "name", "vatValue", "appliesToSale", "appliesToPurchase", "description"?, "taxTypeCode"? }],
 *   "contacts"?: [{ "name", "customer"?, "supplier"?, "currencyCode"? }],
 *   "items"?: [{ "itemCode", "name"?, "appliesToSale"?, "appliesToPurchase"? }],
 *   "tags"?: ["Region: Central", …],                        tag names (the analysis dimension on lines)
 *   "documents"?: [{ "kind": "invoice" | "bill" | "customerCreditNote" | "supplierCreditNote", "reference",
 *                    "date"?, "contact"?, "currencyCode"?, "status"?, "totalAmount"? }],
 *   "journals"?: [{ "reference", "date"?, "status"? }],
 *   "cashEntries"?: [{ "type": "JOURNAL_DIRECT_CASH_IN" | "JOURNAL_DIRECT_CASH_OUT" | "JOURNAL_CASH_TRANSFER",
 *                      "reference", "date"?, "bankAccount"?, "amount"? }] }
 * ```
 *
 * Existing documents, journals and cash entries are records by reference only: enough for the loader's
 * natural-key lookups to find (and adopt) them; they carry no lines and post nothing to the ledger.
 * `validateOrganisation` checks a parsed file and throws naming the first bad field (`accounts[3].role: …`).
 */
import { readFileSync } from "node:fs"
import { resource } from "../Resources.js"

/** The `format` value of an organisation file, and the version this code reads. */
export const ORGANISATION_FORMAT = "ledger-migrate/organisation"
export const ORGANISATION_VERSION = 1

/** A system role an account plays in postings. */
export type AccountRole = "AR" | "AP" | "TAX" | "FX" | "ROUNDING" | "RETAINED_EARNINGS"
const ROLES: ReadonlyArray<AccountRole> = ["AR", "AP", "TAX", "FX", "ROUNDING", "RETAINED_EARNINGS"]
/** The roles every organisation must give an account. */
export const REQUIRED_ROLES: ReadonlyArray<AccountRole> = ["AR", "AP", "TAX", "FX", "ROUNDING"]

/** An account classification (`classificationType` / `accountType` value). */
export interface FixtureClassification {
  readonly name: string
  readonly accountClass: "Asset" | "Liability" | "Equity" | "Revenue" | "Expense"
  readonly normalBalance: "DEBIT" | "CREDIT"
}

/** A chart-of-accounts entry created with the organization. */
export interface FixtureAccount {
  readonly name: string
  readonly classificationType: string
  readonly code?: string
  readonly controlFlag?: boolean
  readonly role?: AccountRole
  /** A system account without a posting role (cannot be deleted). Implied by `role`. */
  readonly systemAccount?: boolean
  readonly currencyCode?: string
}

/** A read-only tax profile. */
export interface FixtureTaxProfile {
  readonly name: string
  readonly description?: string
  readonly vatValue: number
  readonly appliesToSale: boolean
  readonly appliesToPurchase: boolean
  readonly taxTypeCode?: string
}

/** An organisation rate: foreign units per 1 base unit from `applicableFrom`. */
export interface FixtureRate {
  readonly currencyCode: string
  readonly rate: number
  readonly applicableFrom: string
  readonly applicableTo?: string | null
}

export interface FixtureContact {
  readonly name: string
  readonly customer?: boolean
  readonly supplier?: boolean
  readonly currencyCode?: string | null
}

export interface FixtureItem {
  readonly itemCode: string
  readonly name?: string
  readonly appliesToSale?: boolean
  readonly appliesToPurchase?: boolean
}

export type FixtureDocumentKind = "invoice" | "bill" | "customerCreditNote" | "supplierCreditNote"
const DOC_KINDS: ReadonlyArray<FixtureDocumentKind> = [
  "invoice",
  "bill",
  "customerCreditNote",
  "supplierCreditNote"
]

/** An existing document, by reference. */
export interface FixtureDocument {
  readonly kind: FixtureDocumentKind
  readonly reference: string
  readonly date?: string
  readonly contact?: string | null
  readonly currencyCode?: string
  readonly status?: string
  readonly totalAmount?: number
}

/** An existing journal, by reference. */
export interface FixtureJournal {
  readonly reference: string
  readonly date?: string
  readonly status?: "DRAFT" | "APPROVED" | "VOIDED"
}

export type FixtureCashType = "JOURNAL_DIRECT_CASH_IN" | "JOURNAL_DIRECT_CASH_OUT" | "JOURNAL_CASH_TRANSFER"
const CASH_TYPES: ReadonlyArray<FixtureCashType> = [
  "JOURNAL_DIRECT_CASH_IN",
  "JOURNAL_DIRECT_CASH_OUT",
  "JOURNAL_CASH_TRANSFER"
]

/** An existing cash entry, by reference. */
export interface FixtureCashEntry {
  readonly type: FixtureCashType
  readonly reference: string
  readonly date?: string
  /** The bank account's name (default: the first bank or cash account). */
  readonly bankAccount?: string
  readonly amount?: number
}

/** An organisation file (see the module comment). */
export interface OrganizationFixture {
  readonly format?: typeof ORGANISATION_FORMAT
  readonly version?: number
  readonly name: string
  readonly baseCurrency: string
  readonly timeZone: string
  readonly enabledCurrencies?: ReadonlyArray<string>
  readonly rates?: ReadonlyArray<FixtureRate>
  /** Fallback rates (foreign units per 1 base unit) when no organization rate covers a date. */
  readonly platformRates: Readonly<Record<string, number>>
  readonly classifications: ReadonlyArray<FixtureClassification>
  readonly accounts: ReadonlyArray<FixtureAccount>
  readonly bankAccounts?: ReadonlyArray<{
    readonly name: string
    readonly code?: string
    readonly currencyCode?: string
  }>
  readonly taxProfiles: ReadonlyArray<FixtureTaxProfile>
  readonly contacts?: ReadonlyArray<FixtureContact>
  readonly items?: ReadonlyArray<FixtureItem>
  /** Tags that exist, by name. */
  readonly tags?: ReadonlyArray<string>
  readonly documents?: ReadonlyArray<FixtureDocument>
  readonly journals?: ReadonlyArray<FixtureJournal>
  readonly cashEntries?: ReadonlyArray<FixtureCashEntry>
}

/** The organisation file is not valid: `field` is its JSON path. */
export class OrganisationFileError extends Error {
  constructor(
    readonly source: string,
    readonly field: string,
    readonly detail: string
  ) {
    super(`organisation file ${source}: ${field}: ${detail}`)
    this.name = "OrganisationFileError"
  }
}

const DEFAULT = resource("src/sandbox/fixtures/default-organization.json")
const CODE = /^[A-Z]{3}$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

/** Checks a parsed organisation file field by field; throws `OrganisationFileError` on the first bad one. */
export const validateOrganisation = (raw: unknown, source = "(object)"): OrganizationFixture => {
  const fail = (field: string, detail: string): never => {
    throw new OrganisationFileError(source, field, detail)
  }
  const obj = (v: unknown, field: string): Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : fail(field, "must be an object")
  const str = (o: Record<string, unknown>, k: string, at: string, optional = false): void => {
    if (o[k] === undefined && optional) return
    if (typeof o[k] !== "string" || o[k] === "") fail(`${at}${k}`, "must be a non-empty string")
  }
  const num = (o: Record<string, unknown>, k: string, at: string, optional = false): void => {
    if (o[k] === undefined && optional) return
    if (typeof o[k] !== "number" || !Number.isFinite(o[k])) fail(`${at}${k}`, "must be a number")
  }
  const bool = (o: Record<string, unknown>, k: string, at: string, optional = false): void => {
    if (o[k] === undefined && optional) return
    if (typeof o[k] !== "boolean") fail(`${at}${k}`, "must be true or false")
  }
  const code = (o: Record<string, unknown>, k: string, at: string, optional = false): void => {
    if ((o[k] === undefined || o[k] === null) && optional) return
    if (typeof o[k] !== "string" || !CODE.test(o[k]))
      fail(`${at}${k}`, "must be a 3-letter ISO currency code")
  }
  const date = (o: Record<string, unknown>, k: string, at: string, optional = false): void => {
    if ((o[k] === undefined || o[k] === null) && optional) return
    if (typeof o[k] !== "string" || !DATE.test(o[k])) fail(`${at}${k}`, "must be a date YYYY-MM-DD")
  }
  const oneOf = (
    o: Record<string, unknown>,
    k: string,
    at: string,
    values: ReadonlyArray<string>,
    optional = false
  ) => {
    if (o[k] === undefined && optional) return
    if (!values.includes(o[k] as string)) fail(`${at}${k}`, `must be one of ${values.join(", ")}`)
  }
  const list = (
    o: Record<string, unknown>,
    k: string,
    optional: boolean,
    each: (x: Record<string, unknown>, at: string) => void
  ) => {
    const v = o[k]
    if (v === undefined && optional) return
    if (!Array.isArray(v)) return fail(k, "must be a list")
    v.forEach((x, i) => each(obj(x, `${k}[${i}]`), `${k}[${i}].`))
  }
  const unique = (o: Record<string, unknown>, k: string, key: (x: Record<string, unknown>) => string) => {
    const seen = new Set<string>()
    ;((o[k] as Array<Record<string, unknown>> | undefined) ?? []).forEach((x, i) => {
      const id = key(x)
      if (seen.has(id)) fail(`${k}[${i}]`, `duplicate ${JSON.stringify(id)}`)
      seen.add(id)
    })
  }

  const f = obj(raw, "(file)")
  if (f.format !== undefined && f.format !== ORGANISATION_FORMAT)
    fail("format", `must be "${ORGANISATION_FORMAT}"`)
  if (f.version !== undefined && f.version !== ORGANISATION_VERSION)
    fail("version", `must be ${ORGANISATION_VERSION} (this program reads version ${ORGANISATION_VERSION})`)
  str(f, "name", "")
  code(f, "baseCurrency", "")
  str(f, "timeZone", "")
  try {
    new Intl.DateTimeFormat("en", { timeZone: f.timeZone as string })
  } catch {
    fail("timeZone", `unknown time zone ${JSON.stringify(f.timeZone)}`)
  }
  if (f.enabledCurrencies !== undefined) {
    if (!Array.isArray(f.enabledCurrencies)) fail("enabledCurrencies", "must be a list")
    ;(f.enabledCurrencies as Array<unknown>).forEach((c, i) => {
      if (typeof c !== "string" || !CODE.test(c))
        fail(`enabledCurrencies[${i}]`, "must be a 3-letter ISO currency code")
    })
  }
  const enabled = new Set<string>([
    f.baseCurrency as string,
    ...((f.enabledCurrencies as Array<string>) ?? [])
  ])
  list(f, "rates", true, (r, at) => {
    code(r, "currencyCode", at)
    if (!enabled.has(r.currencyCode as string))
      fail(`${at}currencyCode`, `${r.currencyCode as string} is not an enabled currency`)
    num(r, "rate", at)
    if ((r.rate as number) <= 0) fail(`${at}rate`, "must be greater than 0")
    date(r, "applicableFrom", at)
    date(r, "applicableTo", at, true)
  })
  const platform = obj(f.platformRates, "platformRates")
  for (const [k, v] of Object.entries(platform)) {
    if (!CODE.test(k)) fail(`platformRates.${k}`, "must be keyed by a 3-letter ISO currency code")
    if (typeof v !== "number" || v <= 0) fail(`platformRates.${k}`, "must be a number greater than 0")
  }
  list(f, "classifications", false, (c, at) => {
    str(c, "name", at)
    oneOf(c, "accountClass", at, ["Asset", "Liability", "Equity", "Revenue", "Expense"])
    oneOf(c, "normalBalance", at, ["DEBIT", "CREDIT"])
  })
  const classes = new Set((f.classifications as Array<{ name: string }>).map((c) => c.name))
  const roles = new Map<string, number>()
  list(f, "accounts", false, (a, at) => {
    str(a, "name", at)
    str(a, "classificationType", at)
    if (!classes.has(a.classificationType as string))
      fail(`${at}classificationType`, `unknown classification ${JSON.stringify(a.classificationType)}`)
    str(a, "code", at, true)
    bool(a, "controlFlag", at, true)
    bool(a, "systemAccount", at, true)
    code(a, "currencyCode", at, true)
    oneOf(a, "role", at, ROLES, true)
    if (typeof a.role === "string") {
      if (roles.has(a.role))
        fail(`${at}role`, `${a.role} is already the role of accounts[${roles.get(a.role)}]`)
      roles.set(a.role, Number(at.slice(9, -2)))
    }
  })
  for (const role of REQUIRED_ROLES)
    if (!roles.has(role))
      fail("accounts", `no account has role ${role} (every organisation needs ${REQUIRED_ROLES.join(", ")})`)
  list(f, "bankAccounts", true, (b, at) => {
    str(b, "name", at)
    str(b, "code", at, true)
    code(b, "currencyCode", at, true)
  })
  const allAccounts = [
    ...(f.accounts as Array<Record<string, unknown>>),
    ...((f.bankAccounts as Array<Record<string, unknown>>) ?? [])
  ]
  unique({ all: allAccounts }, "all", (a) => String(a.name).toLowerCase())
  list(f, "taxProfiles", false, (t, at) => {
    str(t, "name", at)
    num(t, "vatValue", at)
    bool(t, "appliesToSale", at)
    bool(t, "appliesToPurchase", at)
    str(t, "description", at, true)
    str(t, "taxTypeCode", at, true)
  })
  unique(f, "taxProfiles", (t) => String(t.name))
  list(f, "contacts", true, (c, at) => {
    str(c, "name", at)
    bool(c, "customer", at, true)
    bool(c, "supplier", at, true)
    code(c, "currencyCode", at, true)
  })
  unique(f, "contacts", (c) => String(c.name))
  list(f, "items", true, (x, at) => {
    str(x, "itemCode", at)
    str(x, "name", at, true)
    bool(x, "appliesToSale", at, true)
    bool(x, "appliesToPurchase", at, true)
  })
  unique(f, "items", (x) => String(x.itemCode))
  if (f.tags !== undefined) {
    if (!Array.isArray(f.tags)) fail("tags", "must be a list")
    const seen = new Set<string>()
    ;(f.tags as Array<unknown>).forEach((t, i) => {
      if (typeof t !== "string" || t === "") fail(`tags[${i}]`, "must be a non-empty string")
      if (seen.has(t as string)) fail(`tags[${i}]`, `duplicate ${JSON.stringify(t)}`)
      seen.add(t as string)
    })
  }
  const contactNames = new Set(((f.contacts as Array<{ name: string }>) ?? []).map((c) => c.name))
  list(f, "documents", true, (d, at) => {
    oneOf(d, "kind", at, DOC_KINDS)
    str(d, "reference", at)
    date(d, "date", at, true)
    code(d, "currencyCode", at, true)
    str(d, "status", at, true)
    num(d, "totalAmount", at, true)
    if (d.contact !== undefined && d.contact !== null) {
      str(d, "contact", at)
      if (!contactNames.has(d.contact as string))
        fail(`${at}contact`, `no contact named ${JSON.stringify(d.contact)} in contacts`)
    }
  })
  list(f, "journals", true, (j, at) => {
    str(j, "reference", at)
    date(j, "date", at, true)
    oneOf(j, "status", at, ["DRAFT", "APPROVED", "VOIDED"], true)
  })
  const bankNames = new Set(
    allAccounts
      .filter(
        (a) =>
          a.classificationType === "Bank Accounts" ||
          a.classificationType === "Cash" ||
          a.classificationType === undefined
      )
      .map((a) => String(a.name))
  )
  list(f, "cashEntries", true, (e, at) => {
    oneOf(e, "type", at, CASH_TYPES)
    str(e, "reference", at)
    date(e, "date", at, true)
    num(e, "amount", at, true)
    str(e, "bankAccount", at, true)
    if (typeof e.bankAccount === "string" && !bankNames.has(e.bankAccount))
      fail(`${at}bankAccount`, `no bank or cash account named ${JSON.stringify(e.bankAccount)}`)
    if (e.bankAccount === undefined && bankNames.size === 0)
      fail(`${at}bankAccount`, "the organisation has no bank or cash account")
  })
  return f as unknown as OrganizationFixture
}

/** Reads and validates an organisation file from a path, or validates the given object, or the shipped default. */
export const loadFixture = (fixture: string | OrganizationFixture | undefined): OrganizationFixture => {
  if (typeof fixture === "object") return validateOrganisation(fixture)
  const path = fixture ?? DEFAULT
  let text: string
  try {
    text = readFileSync(path, "utf8")
  } catch (e) {
    throw new OrganisationFileError(path, "(file)", `cannot be read: ${(e as Error).message}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    throw new OrganisationFileError(path, "(file)", `is not JSON: ${(e as Error).message}`)
  }
  return validateOrganisation(parsed, path)
}
