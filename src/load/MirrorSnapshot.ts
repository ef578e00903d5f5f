/**
 * The rehearsal's snapshot of the real target: everything a mirror of it needs, read with GETs and searches
 * only (`rehearse`, issue 17). Organisation, base and enabled currencies with their rates, the account
 * classifications, the chart with its control and system accounts, tax profiles, contacts, items, tags, and the
 * references of existing documents, credit notes, journals and cash entries.
 *
 * Invariants: nothing is ever written to the target; every list is read to its end, and any failure (a 401,
 * a truncated search, an unexpected answer) fails the whole snapshot (`SnapshotIncomplete`): a rehearsal never
 * runs against a partial mirror. The content holds no resource ids and every list is sorted, so the same
 * target gives the same content and the same sha256 (`contentHash`, which excludes the time it was taken).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import * as NodeFs from "node:fs"
import { searchByDate } from "../reconcile/ReadBack.js"
import { fromEpochMs } from "../transform/Dates.js"
import { all, list, listRows, organizationAndCurrencies, str } from "./ReadSnapshot.js"
import { TargetApi, unwrap } from "./TargetApi.js"
import type { TargetError } from "./TargetErrors.js"

export const SNAPSHOT_FORMAT = "ledger-migrate/target-snapshot"

type Row = Record<string, unknown>

/** What the snapshot holds (no resource ids; every list sorted). */
export interface SnapshotContent {
  readonly organisation: { readonly name: string; readonly baseCurrency: string; readonly timeZone: string }
  readonly enabledCurrencies: ReadonlyArray<string>
  readonly rates: ReadonlyArray<{
    currencyCode: string
    rate: number
    applicableFrom: string
    applicableTo: string | null
  }>
  /** The target's fallback rate per enabled currency (its effective rate on a day no organisation rate covers). */
  readonly platformRates: Readonly<Record<string, number>>
  readonly classifications: ReadonlyArray<{ name: string; accountClass: string; normalBalance: string }>
  readonly accounts: ReadonlyArray<{
    name: string
    code: string | null
    classificationType: string
    accountClass: string
    currencyCode: string
    controlFlag: boolean
    systemAccount: boolean
  }>
  readonly taxProfiles: ReadonlyArray<{
    name: string
    description: string
    vatValue: number
    appliesToSale: boolean
    appliesToPurchase: boolean
    taxTypeCode: string
  }>
  readonly contacts: ReadonlyArray<{
    name: string
    customer: boolean
    supplier: boolean
    currencyCode: string | null
  }>
  readonly items: ReadonlyArray<{
    itemCode: string
    name: string
    appliesToSale: boolean
    appliesToPurchase: boolean
  }>
  /** Tag names (`Category: Option`). */
  readonly tags: ReadonlyArray<string>
  readonly documents: ReadonlyArray<{
    kind: "invoice" | "bill" | "customerCreditNote" | "supplierCreditNote"
    reference: string
    date: string | null
    contact: string | null
    currencyCode: string
    status: string
    totalAmount: number
  }>
  readonly journals: ReadonlyArray<{ reference: string; date: string | null; status: string }>
  readonly cashEntries: ReadonlyArray<{
    type: string
    reference: string
    date: string | null
    bankAccount: string | null
    amount: number
  }>
}

/** A saved snapshot: `WS/snapshot.json`. */
export interface Snapshot {
  readonly format: typeof SNAPSHOT_FORMAT
  readonly takenAt: string
  readonly baseUrl: string
  readonly sha256: string
  readonly content: SnapshotContent
}

/** The snapshot could not be read completely, or a saved one is damaged. */
export class SnapshotIncomplete extends Schema.TaggedError<SnapshotIncomplete>()("SnapshotIncomplete", {
  where: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `the snapshot of ${this.where} is incomplete: ${this.detail}. A rehearsal never runs against a partial mirror: fix the cause (for a 401 or 403, the API key in JK_API_KEY or --api-key-file) and run rehearse again.`
  }
}

const sortBy = <A>(xs: Array<A>, key: (a: A) => string): Array<A> =>
  xs.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
const date = (v: unknown): string | null => (typeof v === "number" ? fromEpochMs(v) : null)
const num = (v: unknown): number => (typeof v === "number" ? v : 0)

const DOCS = [
  ["invoice", "/invoices/search"],
  ["bill", "/bills/search"],
  ["customerCreditNote", "/customer-credit-notes/search"],
  ["supplierCreditNote", "/supplier-credit-notes/search"]
] as const

const CASH_TYPES = ["JOURNAL_DIRECT_CASH_IN", "JOURNAL_DIRECT_CASH_OUT", "JOURNAL_CASH_TRANSFER"]

/**
 * The organisation's name, base currency and time zone, from one read of its record (an organisation the
 * target does not show: defaults), and its currency list.
 */
const organisationAndBase = Effect.gen(function* () {
  const { org, currencies, base } = yield* organizationAndCurrencies
  return {
    base,
    currencies,
    organisation: {
      name: str(org.name) || "Target organisation",
      baseCurrency: base,
      timeZone: str(org.timeZone) || "UTC"
    }
  }
})

/** The chart of accounts, sorted by name. */
const accountsIn = (base: string) =>
  Effect.map(all("/chart-of-accounts/search", "name"), (rows) =>
    sortBy(
      rows.map((a) => ({
        name: str(a.name),
        code: str(a.code) || null,
        classificationType: str(a.classificationType) || str(a.accountType),
        accountClass: str(a.accountClass),
        currencyCode: str(a.currencyCode) || base,
        controlFlag: a.controlFlag === true,
        systemAccount: a.systemAccount === true
      })),
      (a) => a.name
    )
  )

/** What the snapshot keeps of a cash leg, as each page arrives. */
const legOf = (l: Row) => {
  const account = l.account as Row | undefined
  return {
    id: str(l.parentEntityResourceId) || str(l.businessTransactionResourceId),
    status: str(l.transactionStatus),
    direction: str(l.direction),
    entry: {
      type: str(l.businessTransactionType),
      reference: str(l.businessTransactionReference),
      date: date(l.valueDate),
      bankAccount: str(account?.name) || null,
      amount: num(l.totalAmount)
    } satisfies SnapshotContent["cashEntries"][number]
  }
}

/**
 * Every row of a search (and its `filter`), each kept as `keep` makes it as its page arrives, read between the
 * first row's date and the last's a window of dates at a time (`ReadBack.searchByDate`): a target holding more
 * invoices than one search returns (10,000 on the platform) is read whole, where one search of them all was
 * truncated and the rehearsal refused. A target whose rows carry no date is read in one search.
 */
const everyByDate = <A>(
  path: string,
  sortBy: string,
  keep: (row: Row) => A,
  filter?: Record<string, unknown>
) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const edge = (order: "ASC" | "DESC") =>
      Effect.map(
        api.read("POST", path, {
          ...(filter ? { filter } : {}),
          sort: { sortBy: ["valueDate"], order },
          limit: 1,
          offset: 0
        }),
        (body) => listRows(body)[0]
      )
    const [first, last] = yield* Effect.all([edge("ASC"), edge("DESC")], { concurrency: "unbounded" })
    if (first === undefined || last === undefined) return []
    const from = date(first.valueDate)
    const to = date(last.valueDate)
    if (from === null || to === null) return (yield* all(path, sortBy, filter)).map(keep)
    return yield* searchByDate(path, from, to, sortBy, keep, filter)
  })

/** Any failure of a snapshot's reads, as the snapshot's own. */
const incomplete =
  (where: string) =>
  <A, R>(read: Effect.Effect<A, TargetError, R>): Effect.Effect<A, SnapshotIncomplete, R> =>
    Effect.mapError(read, (e) => new SnapshotIncomplete({ where, detail: e.message }))

/** Reads the whole snapshot content from the target (GETs and searches only). */
const readContent: Effect.Effect<SnapshotContent, TargetError, TargetApi> = Effect.gen(function* () {
  const api = yield* TargetApi
  const { base, organisation, currencies: listed } = yield* organisationAndBase
  // The master data side by side (against a target 100 ms away, each read one after another made the
  // snapshot wait on each round trip), then the documents, journals and cash legs side by side, each row kept
  // as what the snapshot holds of it as its page arrives.
  const ratesOf = (code: string) =>
    Effect.all(
      [
        list(`/organization-currencies/${code}/rates?limit=1000&offset=0`),
        Effect.map(api.read("GET", `/organization/currencies/${code}/effective-rate?date=1900-01-01`), unwrap)
      ],
      { concurrency: "unbounded" }
    )
  const read = yield* Effect.all(
    {
      currencies: Effect.suspend(() => {
        const codes = listed
          .map((c) => str(c.currencyCode))
          .filter((c) => c !== "" && c !== base)
          .sort()
        return Effect.map(Effect.forEach(codes, ratesOf, { concurrency: "unbounded" }), (read) =>
          codes.map((code, i) => ({ code, rates: read[i]![0], effective: read[i]![1] }))
        )
      }),
      classifications: list("/account-classifications?limit=1000&offset=0"),
      accounts: accountsIn(base),
      taxProfiles: all("/tax-profiles/search", "name"),
      contactRows: all("/contacts/search", "name"),
      items: all("/items/search", "itemCode"),
      tags: all("/tags/search", "tagName")
    },
    { concurrency: "unbounded" }
  )
  const currencies = read.currencies.map((c) => c.code)
  const rates: Array<SnapshotContent["rates"][number]> = []
  const platformRates: Record<string, number> = {}
  for (const { code, rates: rows, effective } of read.currencies) {
    for (const r of rows)
      rates.push({
        currencyCode: code,
        rate: num(r.rateFunctionalToSource ?? r.rate),
        applicableFrom: date(r.rateApplicableFrom) ?? "",
        applicableTo: date(r.rateApplicableTo)
      })
    if (typeof effective.rateFunctionalToSource === "number")
      platformRates[code] = effective.rateFunctionalToSource
  }
  const classifications = read.classifications.map((c) => {
    const accountClass = str(c.accountClass)
    return {
      name: str(c.classificationType) || str(c.name),
      accountClass,
      normalBalance:
        str(c.normalBalance) || (["Asset", "Expense"].includes(accountClass) ? "DEBIT" : "CREDIT")
    }
  })
  const accounts = read.accounts
  const taxProfiles = read.taxProfiles.map((p) => ({
    name: str(p.name),
    description: str(p.description) || str(p.name),
    vatValue: num(p.vatValue),
    appliesToSale: p.appliesToSale === true,
    appliesToPurchase: p.appliesToPurchase === true,
    taxTypeCode: str(p.taxTypeCode) || str(p.name)
  }))
  const contactRows = read.contactRows
  const contactName = new Map(contactRows.map((c) => [str(c.resourceId), str(c.name)]))
  const contacts = contactRows.map((c) => ({
    name: str(c.name),
    customer: c.customer === true,
    supplier: c.supplier === true,
    currencyCode: str(c.currencyCode) || null
  }))
  const items = read.items.map((i) => ({
    itemCode: str(i.itemCode),
    name: str(i.name) || str(i.itemCode),
    appliesToSale: i.appliesToSale === true,
    appliesToPurchase: i.appliesToPurchase === true
  }))
  const tags = read.tags.map((t) => str(t.tagName) || str(t.name))
  const documentOf =
    (kind: (typeof DOCS)[number][0]) =>
    (d: Row): SnapshotContent["documents"][number] => {
      const contact = d.contact as Row | null | undefined
      return {
        kind,
        reference: str(d.reference),
        date: date(d.valueDate),
        contact: str(contact?.name) || contactName.get(str(d.contactResourceId)) || null,
        currencyCode: str(d.currencyCode) || base,
        status: str(d.status),
        totalAmount: num(d.totalAmount)
      }
    }
  const history = yield* Effect.all(
    {
      documents: Effect.forEach(DOCS, ([kind, path]) => everyByDate(path, "reference", documentOf(kind)), {
        concurrency: "unbounded"
      }),
      journals: everyByDate("/journals/search", "reference", (j) => ({
        reference: str(j.reference),
        date: date(j.valueDate),
        status: str(j.status)
      })),
      legs: everyByDate("/cashflow-transactions/search", "businessTransactionReference", legOf, {
        businessTransactionType: { in: CASH_TYPES }
      })
    },
    { concurrency: "unbounded" }
  )
  const documents = history.documents.flat()
  const journals = history.journals
  const legs = history.legs
  const entries = new Map<string, SnapshotContent["cashEntries"][number]>()
  for (const { id, status, direction, entry } of legs) {
    if (status === "VOID" || !CASH_TYPES.includes(entry.type)) continue
    // A transfer has two legs: the entry is kept by the leg it leaves from.
    if (entries.has(id) && direction !== "PAYOUT") continue
    entries.set(id, entry)
  }
  const key = (...parts: Array<unknown>) => JSON.stringify(parts)
  return {
    organisation,
    enabledCurrencies: currencies,
    rates: sortBy(rates, (r) => key(r.currencyCode, r.applicableFrom, r.rate)),
    platformRates,
    classifications: sortBy(classifications, (c) => c.name),
    accounts,
    taxProfiles: sortBy(taxProfiles, (t) => t.name),
    contacts: sortBy(contacts, (c) => c.name),
    items: sortBy(items, (i) => i.itemCode),
    tags: tags.sort(),
    documents: sortBy(documents, (d) => key(d.kind, d.reference, d.date, d.contact, d.totalAmount, d.status)),
    journals: sortBy(journals, (j) => key(j.reference, j.date, j.status)),
    cashEntries: sortBy([...entries.values()], (e) => key(e.type, e.reference, e.date, e.amount))
  }
})

/** The sha256 of a snapshot's content (the time it was taken is not part of it). */
export const contentHash = (content: SnapshotContent): string =>
  createHash("sha256").update(JSON.stringify(content)).digest("hex")

/** Reads the target into a snapshot; any failure is `SnapshotIncomplete`, naming what failed. */
export const take = Effect.gen(function* () {
  const api = yield* TargetApi
  const content = yield* readContent.pipe(incomplete(api.baseUrl))
  return {
    format: SNAPSHOT_FORMAT,
    takenAt: new Date().toISOString(),
    baseUrl: api.baseUrl,
    sha256: contentHash(content),
    content
  } satisfies Snapshot
})

/** What a preview shows of the target when it does not run the plan in a copy of it. */
export type Outline = Pick<SnapshotContent, "organisation" | "accounts">

/** Whether an outline is a whole snapshot's content (`take`'s, not `outline`'s). */
export const isWhole = (o: Outline): o is SnapshotContent => "documents" in o

/**
 * The organisation and its chart alone, read as `take` reads them: what `plan`'s preview shows of the target
 * when the plan is too large to run in a copy of it (`PlanPreview.PROJECTION_LIMIT`). The whole snapshot
 * reads every document, journal and cash entry in the target as well: a plan of 20,000 invoices made again
 * against the target they were loaded into wrote its preview in 2.25-2.30 s with those reads and 1.63-1.76 s
 * without them (three runs each).
 */
export const outline: Effect.Effect<Outline, SnapshotIncomplete, TargetApi> = Effect.gen(function* () {
  const api = yield* TargetApi
  return yield* Effect.gen(function* () {
    const { base, organisation } = yield* organisationAndBase
    return { organisation, accounts: yield* accountsIn(base) }
  }).pipe(incomplete(api.baseUrl))
})

/** Writes a snapshot as JSON. */
export const save = (file: string, snapshot: Snapshot): void =>
  NodeFs.writeFileSync(file, `${JSON.stringify(snapshot, null, 2)}\n`)

/** Reads a saved snapshot and checks its hash against its content. */
export const load = (file: string): Effect.Effect<Snapshot, SnapshotIncomplete> =>
  Effect.try({
    try: () => JSON.parse(NodeFs.readFileSync(file, "utf8")) as Snapshot,
    catch: (e) => new SnapshotIncomplete({ where: file, detail: `it cannot be read as JSON (${String(e)})` })
  }).pipe(
    Effect.filterOrFail(
      (s) => s.format === SNAPSHOT_FORMAT && typeof s.content === "object" && s.content !== null,
      () => new SnapshotIncomplete({ where: file, detail: `it is not a ${SNAPSHOT_FORMAT} file` })
    ),
    Effect.filterOrFail(
      (s) => contentHash(s.content) === s.sha256,
      (s) =>
        new SnapshotIncomplete({
          where: file,
          detail: `its content does not hash to its sha256 ${s.sha256} (edited or damaged); take it again`
        })
    )
  )
