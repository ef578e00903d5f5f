/**
 * Reads what the plan needs from the target (read-only): base currency, enabled currencies and their rates,
 * chart of accounts, tax profiles, contact names and item codes. Every list is read to the end (`all`); one
 * that cannot be read whole fails rather than planning against half a chart.
 */
import * as Effect from "effect/Effect"
import type { TargetSnapshot } from "../transform/TargetSnapshot.js"
import { fromEpochMs } from "../transform/Dates.js"
import { DEFAULT_MAX_ROWS, PAGES_AT_ONCE, TargetApi, unwrap } from "./TargetApi.js"
import { TargetProtocolError, TargetRejected, type TargetError } from "./TargetErrors.js"

export const str = (v: unknown): string => (typeof v === "string" ? v : "")

/**
 * What the next character of a text may be, as classes of the platform's `reg` filter, which together take
 * every text: its end, a digit, each letter in either case, anything else.
 */
const NEXT_CHARACTERS = [
  "$",
  "[0-9]",
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("").map((c) => `[${c}${c.toLowerCase()}]`),
  "[^0-9A-Za-z]"
]

/** How deep a list is cut by its texts' leading characters before it is given up as too large. */
const MOST_CHARACTERS = 6

/**
 * Every row of a search, sorted by `sortBy` when read in one search. A list holding more rows
 * than one search returns (10,000 on the platform) is read again cut by the leading characters of `sortBy`
 * (a contact's name, an item's code), each part cut again while it is still too large; a part that cannot be
 * cut further (one text, or characters outside digits and letters) fails, naming the filter it was read by.
 */
export const all = (path: string, sortBy: string, filter?: Record<string, unknown>) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const search = (by?: string) =>
      api.searchAll(path, {
        filter: { ...filter, ...(by === undefined ? {} : { [sortBy]: { reg: [by] } }) },
        sort: { sortBy: [sortBy], order: "ASC" },
        pagesAtOnce: PAGES_AT_ONCE,
        // A search the first page counts above the platform's cap is cut without reading it to the cap.
        splitAbove: DEFAULT_MAX_ROWS
      })
    const whole = yield* search()
    if (!whole.truncated) return whole.rows
    // The parts in the classes' order, whatever order they are answered in.
    const cut = (prefix: string, depth: number): Effect.Effect<Array<Record<string, unknown>>, TargetError> =>
      Effect.map(
        Effect.forEach(
          NEXT_CHARACTERS,
          (next) =>
            Effect.gen(function* () {
              const pattern = `^${prefix}${next}`
              const found = yield* search(pattern)
              if (!found.truncated) return found.rows
              if (next === "$" || next.startsWith("[^") || depth + 1 >= MOST_CHARACTERS)
                return yield* new TargetProtocolError({
                  operation: `POST ${path}`,
                  detail: `the target truncated the list, even the part whose ${sortBy} matches ${pattern}; it is too large to plan against`
                })
              return yield* cut(prefix + next, depth + 1)
            }),
          { concurrency: PAGES_AT_ONCE }
        ),
        (parts) => parts.flat()
      )
    return yield* cut("", 0)
  })

/** The rows of a list answer, wrapped in `{ data }` or not. */
export const listRows = (body: unknown): Array<Record<string, unknown>> => {
  const b = body as { data?: unknown } | unknown[]
  if (Array.isArray(b)) return b as Array<Record<string, unknown>>
  return Array.isArray(b?.data) ? (b.data as Array<Record<string, unknown>>) : []
}

/** The organization's record (`GET /organization`); empty when the target has no such endpoint (404). */
export const organization = Effect.flatMap(TargetApi, (api) =>
  api.read("GET", "/organization").pipe(
    Effect.map(unwrap),
    Effect.catchIf(
      (e) => e instanceof TargetRejected && e.status === 404,
      () => Effect.succeed({} as Record<string, unknown>)
    )
  )
)

/** A GET list read to its end (a `truncated` answer fails). */
export const list = (path: string) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const body = yield* api.read("GET", path)
    if ((body as { truncated?: unknown } | undefined)?.truncated === true)
      return yield* new TargetProtocolError({
        operation: `GET ${path}`,
        detail: "the target truncated the list"
      })
    return listRows(body)
  })

/**
 * The organization's record and its currency list, read side by side, and the base currency they give: the
 * record's, else the list's base flag. The list is read once, for the base currency and for the currencies.
 */
export const organizationAndCurrencies = Effect.gen(function* () {
  const [org, currencies] = yield* Effect.all(
    [organization, list("/organization/currencies?limit=1000&offset=0")],
    { concurrency: "unbounded" }
  )
  const fromOrg =
    str(org.baseCurrency) || str(org.currency) || str(org.currencyCode) || str(org.functionalCurrency)
  const flagged = currencies.find(
    (c) => c.baseCurrency === true || c.isBaseCurrency === true || c.base === true
  )
  const base = fromOrg || (flagged === undefined ? "" : str(flagged.currencyCode))
  if (base === "")
    return yield* new TargetProtocolError({
      operation: "GET /organization",
      detail: "no base currency in the organization or its currency list"
    })
  return { org, currencies, base }
})

export const read = Effect.gen(function* () {
  // The organisation and its currencies first, then every list side by side: against a target 100 ms away,
  // each read one after another made the snapshot wait on each round trip.
  const { base, currencies: listed } = yield* organizationAndCurrencies
  const currencies = listed.map((c) => str(c.currencyCode)).filter((c) => c !== "")
  const ratesOf = (code: string) =>
    Effect.map(list(`/organization-currencies/${code}/rates?limit=1000&offset=0`), (rows) =>
      rows.flatMap((r) =>
        typeof r.rateApplicableFrom === "number" ? [`${code}:${fromEpochMs(r.rateApplicableFrom)}`] : []
      )
    )
  const read = yield* Effect.all(
    {
      rates: Effect.forEach(
        currencies.filter((c) => c !== base),
        ratesOf,
        { concurrency: "unbounded" }
      ),
      accounts: all("/chart-of-accounts/search", "name"),
      taxProfiles: all("/tax-profiles/search", "name"),
      contacts: all("/contacts/search", "name"),
      items: all("/items/search", "itemCode")
    },
    { concurrency: "unbounded" }
  )
  const rates = read.rates.flat()
  const accounts = read.accounts.map((a) => ({
    name: str(a.name),
    code: str(a.code),
    accountType: str(a.accountType) || str(a.classificationType),
    controlFlag: a.controlFlag === true,
    currencyCode: str(a.currencyCode)
  }))
  const taxProfiles = read.taxProfiles.map((p) => ({
    name: str(p.name),
    vatValue: typeof p.vatValue === "number" ? p.vatValue : 0,
    appliesToSale: p.appliesToSale === true,
    appliesToPurchase: p.appliesToPurchase === true
  }))
  const contactNames = read.contacts.map((c) => str(c.name))
  const itemCodes = read.items.map((i) => str(i.itemCode))
  const byName = <A extends { name: string }>(xs: Array<A>) =>
    xs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return {
    baseCurrency: base,
    enabledCurrencies: [...new Set([base, ...currencies])].sort(),
    accounts: byName(accounts),
    taxProfiles: byName(taxProfiles),
    contactNames: contactNames.sort(),
    itemCodes: itemCodes.sort(),
    rates: rates.sort()
  } satisfies TargetSnapshot
})
