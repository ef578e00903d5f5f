/**
 * The company's contacts (customers, suppliers and a few that are both) with addresses, people, payment
 * terms and default accounts, written as the first-generation Xero `Contacts.csv` export.
 */
import type { BillCategory } from "./BillCategories.js"
import { CATEGORIES, PROFILES } from "./BillCategories.js"
import { CODES } from "./Chart.js"
import type { ContactSeed, Country, Role } from "./ContactPool.js"
import * as Pool from "./ContactPool.js"
import * as Addresses from "./Addresses.js"
import type { Address } from "./Addresses.js"
import { CsvFile } from "./CsvFile.js"
import type { Prng } from "./Prng.js"
import * as TaxRates from "./TaxRates.js"

/** A document currency. */
export type Currency = "SGD" | "USD" | "EUR"

/** A contact person. */
export interface Person {
  readonly firstName: string
  readonly lastName: string
  readonly email: string
}

/** A contact with everything the export and the documents need. */
export interface Contact {
  readonly name: string
  readonly role: Role
  readonly country: Country
  readonly currency: Currency
  readonly category: BillCategory | undefined
  readonly accountNumber: string
  readonly email: string
  readonly primary: Person
  readonly others: ReadonlyArray<Person>
  readonly postal: Address
  readonly street: Address | undefined
  readonly phone: string
  readonly mobile: string
  readonly website: string
  readonly taxNumber: string
  readonly companyNumber: string
  readonly bankAccountNumber: string
  readonly salesTermDays: number
  readonly billTermDays: number
  /** Prefix of this supplier's own invoice numbers, unique among contacts. */
  readonly billPrefix: string
  /** 0: `ABC-10482`, 1: `ABC/25/0003`, 2: our own `BILL-0001` numbering. */
  readonly billStyle: number
}

const CURRENCY: Readonly<Record<Country, Currency>> = { SG: "SGD", US: "USD", DE: "EUR", FR: "EUR" }

/** Whether the contact receives our invoices. */
export const isCustomer = (c: Contact): boolean => c.role !== "supplier"

/** Whether the contact sends us bills. */
export const isSupplier = (c: Contact): boolean => c.role !== "customer"

const generatedSeed = (rng: Prng, k: number): ContactSeed => {
  const places = Pool.NAME_PLACES.length
  const trades = Pool.NAME_TRADES.length
  const block = Math.floor(k / places)
  const place = Pool.NAME_PLACES[k % places] ?? ""
  const trade = Pool.NAME_TRADES[(block + k) % trades] ?? ""
  const suffix = Pool.NAME_SUFFIXES[Math.floor(k / (places * trades)) % Pool.NAME_SUFFIXES.length] ?? ""
  const round = Math.floor(k / (places * trades * Pool.NAME_SUFFIXES.length))
  const role = rng.weighted<Role>([
    ["customer", 60],
    ["supplier", 33],
    ["both", 7]
  ])
  const country = rng.weighted<Country>([
    ["SG", 84],
    ["US", 10],
    ["DE", 4],
    ["FR", 2]
  ])
  const name = `${place} ${trade} ${suffix}${round > 0 ? ` ${round + 1}` : ""}`
  return role === "customer"
    ? { name, role, country }
    : { name, role, country, category: rng.pick(CATEGORIES) }
}

const initials = (name: string): string => {
  const letters = Addresses.ascii(name)
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length > 0 && !["and", "Pte", "Ltd", "LLP", "Co", "Inc"].includes(w))
    .map((w) => w[0]?.toUpperCase() ?? "")
    .join("")
  const prefix = letters.slice(0, 3).padEnd(2, "X")
  return prefix === "INV" || prefix === "BIL" ? "SUP" : prefix
}

const person = (rng: Prng, domain: string): Person => {
  const firstName = rng.pick(Pool.FIRST_NAMES)
  const lastName = rng.pick(Pool.LAST_NAMES)
  const local = Addresses.ascii(`${firstName}.${lastName}`)
    .toLowerCase()
    .replace(/[^a-z.]/g, "")
  return { firstName, lastName, email: `${local}@${domain}` }
}

const build = (rng: Prng, seed: ContactSeed, index: number, prefixes: Set<string>): Contact => {
  const supplier = seed.role !== "customer"
  const domain = Addresses.domain(seed.name, seed.country)
  let billPrefix = initials(seed.name)
  for (let n = 2; prefixes.has(billPrefix); n++) billPrefix = `${initials(seed.name)}${n}`
  prefixes.add(billPrefix)
  const postal = Addresses.draw(rng, seed.country)
  const uen = `${rng.int(1995, 2022)}${String(rng.int(0, 99999)).padStart(5, "0")}${rng.pick([..."CDEGHKMNRWZ"])}`
  return {
    name: seed.name,
    role: seed.role,
    country: seed.country,
    currency: CURRENCY[seed.country],
    category: supplier ? (seed.category ?? "office") : undefined,
    accountNumber: `${supplier && seed.role !== "both" ? "SUP" : "CUS"}-${String(index + 1).padStart(4, "0")}`,
    email: `accounts@${domain}`,
    primary: person(rng, domain),
    others: Array.from(
      {
        length: rng.weighted([
          [0, 5],
          [1, 3],
          [2, 2]
        ] as const)
      },
      () => person(rng, domain)
    ),
    postal,
    street: rng.chance(0.5) ? postal : undefined,
    phone: Addresses.phone(rng, seed.country),
    mobile:
      seed.country === "SG" && rng.chance(0.4) ? `+65 9${rng.int(100, 999)} ${rng.int(1000, 9999)}` : "",
    website: rng.chance(0.6) ? `www.${domain}` : "",
    taxNumber: Addresses.taxNumber(rng, seed.country, uen),
    companyNumber: seed.country === "SG" ? uen : "",
    bankAccountNumber: supplier ? Addresses.bankAccount(rng, seed.country) : "",
    salesTermDays: rng.weighted([
      [7, 2],
      [14, 3],
      [30, 5]
    ] as const),
    billTermDays: rng.weighted([
      [7, 2],
      [14, 3],
      [30, 5]
    ] as const),
    billPrefix,
    billStyle: rng.weighted([
      [0, 5],
      [1, 3],
      [2, 2]
    ] as const)
  }
}

/** `count` contacts: the hand-picked ones first, then generated Singapore-style companies. */
export const generate = (rng: Prng, count: number): Array<Contact> => {
  const names = new Set<string>()
  const prefixes = new Set<string>()
  const contacts: Array<Contact> = []
  for (let k = 0; contacts.length < count; k++) {
    const seed = k < Pool.SEEDS.length ? Pool.SEEDS[k] : generatedSeed(rng, k - Pool.SEEDS.length)
    if (seed === undefined || names.has(seed.name)) continue
    names.add(seed.name)
    contacts.push(build(rng, seed, contacts.length, prefixes))
  }
  return contacts
}

const PERSON_COLUMNS = [1, 2, 3, 4, 5].flatMap((n) =>
  ["FirstName", "LastName", "Email", "IncludeInEmail"].map((f) => `Person${n}${f}`)
)

const addressColumns = (prefix: "PO" | "SA"): Array<string> => [
  `${prefix}AttentionTo`,
  ...[1, 2, 3, 4].map((n) => `${prefix}AddressLine${n}`),
  `${prefix}City`,
  `${prefix}Region`,
  `${prefix}PostalCode`,
  `${prefix}Country`
]

/** The header of Xero's (first-generation) contacts export. */
export const HEADER: ReadonlyArray<string> = [
  "*ContactName",
  "AccountNumber",
  "EmailAddress",
  "FirstName",
  "LastName",
  ...addressColumns("PO"),
  ...addressColumns("SA"),
  ...["PhoneNumber", "FaxNumber", "MobileNumber", "DDINumber", "SkypeName"],
  ...["BankAccountName", "BankAccountNumber", "BankAccountParticulars", "TaxNumber"],
  ...["AccountsReceivableTaxCodeName", "AccountsPayableTaxCodeName", "Website", "LegalName", "Discount"],
  ...["CompanyNumber", "DueDateBillDay", "DueDateBillTerm", "DueDateSalesDay", "DueDateSalesTerm"],
  ...[
    "SalesAccount",
    "PurchasesAccount",
    "TrackingName1",
    "SalesTrackingOption1",
    "PurchasesTrackingOption1"
  ],
  ...["TrackingName2", "SalesTrackingOption2", "PurchasesTrackingOption2", "BrandingTheme"],
  ...["DefaultTaxBills", "DefaultTaxSales"],
  ...PERSON_COLUMNS
]

const addressCells = (a: Address | undefined, attention: string): Array<string> =>
  a === undefined
    ? ["", "", "", "", "", "", "", "", ""]
    : [attention, a.line1, a.line2, a.line3, a.line4, a.city, a.region, a.postalCode, a.countryName]

const row = (c: Contact): Array<string> => {
  const customer = isCustomer(c)
  const supplier = isSupplier(c)
  const foreign = c.currency !== "SGD"
  const people = [...c.others.flatMap((p) => [p.firstName, p.lastName, p.email, "Yes"])]
  return [
    c.name,
    c.accountNumber,
    c.email,
    c.primary.firstName,
    c.primary.lastName,
    ...addressCells(c.postal, "Accounts Department"),
    ...addressCells(c.street, ""),
    ...[c.phone, "", c.mobile, "", ""],
    ...[supplier ? c.name : "", c.bankAccountNumber, "", c.taxNumber],
    customer && foreign ? TaxRates.ZERO_RATED_SUPPLIES : "",
    supplier && foreign ? TaxRates.NO_GST : "",
    ...[c.website, c.name, ""],
    c.companyNumber,
    ...(supplier ? [String(c.billTermDays), "DAYSAFTERBILLDATE"] : ["", ""]),
    ...(customer ? [String(c.salesTermDays), "DAYSAFTERBILLDATE"] : ["", ""]),
    customer ? CODES.sales : "",
    supplier && c.category !== undefined ? PROFILES[c.category].account : "",
    ...["", "", "", "", "", "", "", "", ""],
    ...people,
    ...Array.from({ length: PERSON_COLUMNS.length - people.length }, () => "")
  ]
}

/** Writes `Contacts.csv`; returns the number of data rows. */
export const write = (path: string, contacts: ReadonlyArray<Contact>): number => {
  const file = new CsvFile(path)
  file.row(HEADER)
  for (const c of contacts) file.row(row(c))
  return file.close() - 1
}
