/**
 * Draws the lines of sales invoices and bills (item lines priced from the item, free-text lines from the
 * account's usual descriptions) and computes each line's amount and tax exactly.
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as BigDecimalOps from "effect/BigDecimal"
import { PROFILES } from "./BillCategories.js"
import type { BillCategory } from "./BillCategories.js"
import * as CalendarDate from "./CalendarDate.js"
import { CODES } from "./Chart.js"
import type { Currency } from "./Contacts.js"
import type { Item } from "./Items.js"
import * as Money from "./Money.js"
import type { Prng } from "./Prng.js"
import * as TaxRates from "./TaxRates.js"

/** One document line; LineAmount = round2(Quantity × UnitAmount), TaxAmount = round2(LineAmount × rate). */
export interface Line {
  readonly itemCode: string
  readonly description: string
  readonly quantity: BigDecimal.BigDecimal
  readonly unitAmount: BigDecimal.BigDecimal
  readonly lineAmount: BigDecimal.BigDecimal
  readonly accountCode: string
  readonly taxType: string
  readonly taxAmount: BigDecimal.BigDecimal
}

const line = (
  itemCode: string,
  description: string,
  quantity: BigDecimal.BigDecimal,
  unitAmount: BigDecimal.BigDecimal,
  accountCode: string,
  taxType: string
): Line => {
  const lineAmount = Money.round2(BigDecimalOps.multiply(quantity, unitAmount))
  return {
    itemCode,
    description,
    quantity,
    unitAmount,
    lineAmount,
    accountCode,
    taxType,
    taxAmount: TaxRates.taxOn(taxType, lineAmount)
  }
}

interface SalesText {
  readonly description: string
  readonly account: string
  readonly price: readonly [number, number]
  /** "one": quantity 1; "count": whole numbers; "hours": quarter hours; "measure": any two decimals. */
  readonly quantity: "one" | "count" | "hours" | "measure"
}

const SALES_TEXTS: ReadonlyArray<SalesText> = [
  {
    description: "Custom furniture order, as per quotation",
    account: CODES.sales,
    price: [20000, 450000],
    quantity: "one"
  },
  {
    description: "Space planning consultation",
    account: CODES.serviceIncome,
    price: [15000, 30000],
    quantity: "hours"
  },
  {
    description: "Delivery and assembly",
    account: CODES.serviceIncome,
    price: [3500, 12000],
    quantity: "count"
  },
  {
    description: "Ex-showroom display unit",
    account: CODES.otherRevenue,
    price: [5000, 60000],
    quantity: "one"
  },
  {
    description: "Upholstery fabric, cut to length (m)",
    account: CODES.sales,
    price: [1250, 4850],
    quantity: "measure"
  },
  {
    description: "Event furniture rental - {month}",
    account: CODES.otherRevenue,
    price: [8000, 90000],
    quantity: "count"
  }
]

const quantityOf = (rng: Prng, style: SalesText["quantity"]): BigDecimal.BigDecimal => {
  switch (style) {
    case "one":
      return Money.units(1, 0)
    case "count":
      return Money.units(rng.int(1, 12), 0)
    case "hours":
      return Money.cents(rng.int(2, 64) * 25)
    case "measure":
      return Money.cents(rng.int(50, 2500))
  }
}

const priceIn = (rng: Prng, [lo, hi]: readonly [number, number]): BigDecimal.BigDecimal => {
  const cents = rng.int(lo, hi)
  return Money.cents(rng.chance(0.5) ? Math.max(100, Math.round(cents / 100) * 100) : cents)
}

const withMonth = (text: string, day: CalendarDate.Day): string =>
  text.replace(
    "{month}",
    `${CalendarDate.monthName(CalendarDate.parts(day).month)} ${CalendarDate.parts(day).year}`
  )

const lineCount = (rng: Prng): number =>
  rng.weighted([
    [1, 35],
    [2, 30],
    [3, 20],
    [4, 15]
  ])

const salesTax = (rng: Prng, currency: Currency, itemRate: string | undefined): string =>
  currency !== "SGD"
    ? rng.weighted([
        [TaxRates.ZERO_RATED_SUPPLIES, 70],
        [TaxRates.OUT_OF_SCOPE_SUPPLIES, 30]
      ])
    : (itemRate ??
      rng.weighted([
        [TaxRates.STANDARD_SUPPLIES, 80],
        [TaxRates.ZERO_RATED_SUPPLIES, 7],
        [TaxRates.EXEMPT_SUPPLIES, 6],
        [TaxRates.OUT_OF_SCOPE_SUPPLIES, 7]
      ]))

/** The lines of a sales invoice in `currency` dated `day`. */
export const sales = (
  rng: Prng,
  items: ReadonlyArray<Item>,
  currency: Currency,
  day: CalendarDate.Day
): Array<Line> =>
  Array.from({ length: lineCount(rng) }, () => {
    if (items.length > 0 && rng.chance(0.6)) {
      const item = rng.pick(items)
      const quantity = item.hourly ? quantityOf(rng, "hours") : quantityOf(rng, "count")
      const { description, unitPrice, account, taxRate } = item.sales
      return line(item.code, description, quantity, unitPrice, account, salesTax(rng, currency, taxRate))
    }
    const text = rng.pick(SALES_TEXTS)
    const quantity = quantityOf(rng, text.quantity)
    const tax = salesTax(rng, currency, undefined)
    return line("", withMonth(text.description, day), quantity, priceIn(rng, text.price), text.account, tax)
  })

const purchaseTax = (rng: Prng, currency: Currency, gst: boolean): string =>
  currency !== "SGD" || !gst
    ? TaxRates.NO_GST
    : rng.chance(0.92)
      ? TaxRates.STANDARD_PURCHASES
      : TaxRates.NO_GST

/** The lines of a bill from a supplier of `category` in `currency` dated `day`. */
export const bill = (
  rng: Prng,
  items: ReadonlyArray<Item>,
  category: BillCategory,
  currency: Currency,
  day: CalendarDate.Day
): Array<Line> => {
  const profile = PROFILES[category]
  const stocked = items.filter((i) => i.purchases !== undefined)
  const count = category === "stock" ? lineCount(rng) : Math.min(lineCount(rng), 2)
  return Array.from({ length: count }, () => {
    const item = category === "stock" && stocked.length > 0 && rng.chance(0.7) ? rng.pick(stocked) : undefined
    if (item?.purchases !== undefined) {
      const { description, unitPrice, account, taxRate } = item.purchases
      const tax = currency === "SGD" ? taxRate : TaxRates.NO_GST
      return line(item.code, description, Money.units(rng.int(2, 40), 0), unitPrice, account, tax)
    }
    const quantity = Money.units(rng.int(profile.quantity[0], profile.quantity[1]), 0)
    const description = withMonth(rng.pick(profile.descriptions), day)
    const tax = purchaseTax(rng, currency, profile.gst)
    return line("", description, quantity, priceIn(rng, profile.price), profile.account, tax)
  })
}
