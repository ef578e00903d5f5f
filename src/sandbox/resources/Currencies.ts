/** Organization currencies (enable; base refused) and organization rates on both path forms. */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import { parseDate } from "../Dates.js"
import { created, createdResource, invalid, notFound, ok } from "../Http.js"
import { invert } from "../Money.js"
import type { Org, RateRecord } from "../Org.js"
import type { Router } from "../Router.js"
import { listing, type SearchSpec } from "../Search.js"

const ISO = new Set(Intl.supportedValuesOf("currency"))

const currencySpec: SearchSpec = { fields: { currencyCode: "string" } }
const rateSpec: SearchSpec = {
  fields: { rateApplicableFrom: "date", createdAt: "datetime" },
  defaultSort: { field: "rateApplicableFrom", order: "ASC" }
}

const checkCode = (org: Org, raw: string, forRates: boolean): string => {
  const code = raw.toUpperCase()
  if (!ISO.has(code)) throw invalid(`${raw} is not an ISO 4217 currency code`)
  if (code === org.base)
    throw invalid(
      forRates
        ? `a rate cannot be set for the organization's base currency ${org.base}`
        : `${org.base} is the organization's base currency and cannot be enabled`
    )
  return code
}

const readRate = (org: Org, code: string, b: Body, id: string, createdAt: number): RateRecord => {
  const rate = b.num("rate")
  if (rate === undefined) throw invalid("rate is required")
  if (rate <= 0) throw invalid("rate must be greater than 0")
  const from = b.reqDate("rateApplicableFrom")
  const to = b.date("rateApplicableTo") ?? null
  if (to !== null && to < from) throw invalid("rateApplicableTo must not be before rateApplicableFrom")
  const direction = b.str("rateDirection") ?? "FUNCTIONAL_TO_SOURCE"
  if (direction !== "FUNCTIONAL_TO_SOURCE" && direction !== "SOURCE_TO_FUNCTIONAL")
    throw invalid("rateDirection must be FUNCTIONAL_TO_SOURCE or SOURCE_TO_FUNCTIONAL")
  const f2s = direction === "FUNCTIONAL_TO_SOURCE" ? rate : invert(rate)
  return {
    resourceId: id,
    currencyCode: code,
    rate: f2s,
    rateFunctionalToSource: f2s,
    rateSourceToFunctional: invert(f2s),
    rateApplicableFrom: from,
    rateApplicableTo: to,
    createdAt,
    updatedAt: org.now()
  }
}

/** Registers the currency and rate endpoints. */
export const register = (r: Router, org: Org): void => {
  const enabledRows = () => [
    { resourceId: org.base, currencyCode: org.base, baseCurrency: true, createdAt: 0 },
    ...org.currencies.values()
  ]
  r.get("/organization/currencies", (c) => ok(listing(enabledRows(), c.query, currencySpec, org.maxRows)))
  r.get("/organization/currencies/:code", (c) => {
    const row = enabledRows().find((x) => x.currencyCode === c.params["code"]?.toUpperCase())
    if (row === undefined) throw notFound(`currency ${c.params["code"]} is not enabled`)
    return ok({ data: row })
  })
  r.post("/organization/currencies", (c) => {
    const b = Body.of(c.body)
    const list = b.strings("currencies")
    if (list === undefined || list.length === 0)
      throw invalid("currencies must be a non-empty array of currency codes")
    const codes = list.map((x) => checkCode(org, x, false))
    for (const code of codes) {
      if (org.currencies.get(code) === undefined)
        org.currencies.put({
          resourceId: code,
          currencyCode: code,
          baseCurrency: false,
          createdAt: org.now()
        })
    }
    return created({ data: { currencies: codes } })
  })

  const rateOf = (code: string, id: string): RateRecord => {
    const rate = org.rates.get(id)
    if (rate === undefined || rate.currencyCode !== code) throw notFound(`rate ${id} of ${code} not found`)
    return rate
  }
  const enabledCode = (raw: string | undefined): string => {
    const code = checkCode(org, raw ?? "", true)
    if (!org.isEnabled(code))
      throw invalid(`currency ${code} is not enabled for the organization; enable it first`)
    return code
  }

  for (const prefix of ["/organization-currencies", "/organization/currencies"]) {
    r.post(`${prefix}/:code/rates`, (c) => {
      const code = enabledCode(c.params["code"])
      const now = org.now()
      const rate = readRate(org, code, Body.of(c.body), randomUUID(), now)
      org.rates.put(rate)
      return createdResource({ resourceId: rate.resourceId, createdAt: now })
    })
    r.get(`${prefix}/:code/rates`, (c) => {
      const code = enabledCode(c.params["code"])
      const rows = org.rates.values().filter((x) => x.currencyCode === code)
      return ok(listing(rows, c.query, rateSpec, org.maxRows))
    })
    r.get(`${prefix}/:code/rates/:id`, (c) =>
      ok({ data: rateOf(enabledCode(c.params["code"]), c.params["id"] ?? "") })
    )
    r.put(`${prefix}/:code/rates/:id`, (c) => {
      const code = enabledCode(c.params["code"])
      const old = rateOf(code, c.params["id"] ?? "")
      const b = Body.of(c.body)
      b.requireResourceId(old.resourceId)
      const next = readRate(org, code, b, old.resourceId, old.createdAt)
      org.rates.put(next)
      return ok({ data: next })
    })
    r.delete(`${prefix}/:code/rates/:id`, (c) => {
      const code = (c.params["code"] ?? "").toUpperCase()
      const old = rateOf(code, c.params["id"] ?? "")
      org.rates.remove(old.resourceId)
      return ok({ data: { resourceId: old.resourceId, deleted: true } })
    })
  }
  r.get("/organization/currencies/:code/effective-rate", (c) => {
    const code = enabledCode(c.params["code"])
    const q = c.query.get("date")
    const date = q === null ? org.today() : parseDate(q)
    if (date === undefined) throw invalid("date must be a YYYY-MM-DD date")
    const applied = org.rateFor(code, date)
    return ok({
      data: {
        currencyCode: code,
        date,
        rateFunctionalToSource: applied.rate,
        rateSourceToFunctional: invert(applied.rate),
        source: applied.source
      }
    })
  })
}
