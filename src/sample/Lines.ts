/**
 * Draws the lines of sales invoices and bills (item lines priced from the item, free-text lines from the
 * account's usual descriptions, some sales lines discounted, some documents tracked) and computes each line's
 * amount and tax exactly as Xero does.
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
import type { Tracking } from "./Tracking.js"
import * as Trackings from "./Tracking.js"

/**
 * One document line: LineAmount = round2(Quantity × UnitAmount × (1 − Discount/100)) (Xero's rule, the
 * discount a percentage, undefined when none), TaxAmount = round2(LineAmount × rate).
 */
export interface Line {
  readonly itemCode: string
  readonly description: string
  readonly quantity: BigDecimal.BigDecimal
  readonly unitAmount: BigDecimal.BigDecimal
  readonly discount: BigDecimal.BigDecimal | undefined
  readonly lineAmount: BigDecimal.BigDecimal
  readonly accountCode: string
  readonly taxType: string
  readonly taxAmount: BigDecimal.BigDecimal
  readonly tracking: ReadonlyArray<Tracking>
}

const ONE = Money.units(1, 0)
const CENT = Money.units(1, 2)

/** A line with its amount and tax computed; `discount` is a percentage. */
export const line = (
  itemCode: string,
  description: string,
  quantity: BigDecimal.BigDecimal,
  unitAmount: BigDecimal.BigDecimal,
  accountCode: string,
  taxType: string,
  discount: BigDecimal.BigDecimal | undefined = undefined,
  tracking: ReadonlyArray<Tracking> = Trackings.NONE
): Line => {
  const gross = BigDecimalOps.multiply(quantity, unitAmount)
  const lineAmount = Money.round2(
    discount === undefined
      ? gross
      : BigDecimalOps.multiply(gross, BigDecimalOps.subtract(ONE, BigDecimalOps.multiply(discount, CENT)))
  )
  return {
    itemCode,
    description,
    quantity,
    unitAmount,
    discount,
    lineAmount,
    accountCode,
    taxType,
    taxAmount: TaxRates.taxOn(taxType, lineAmount),
    tracking
  }
}

/** The trade discounts (percent) some sales lines get. */
const DISCOUNTS: ReadonlyArray<BigDecimal.BigDecimal> = [
  Money.units(5, 0),
  Money.units(10, 0),
  Money.units(125, 1),
  Money.units(15, 0),
  Money.units(20, 0)
]

/** A sales line's discount: about one line in ten has one. */
const discountOf = (rng: Prng): BigDecimal.BigDecimal | undefined =>
  rng.chance(0.1) ? rng.pick(DISCOUNTS) : undefined

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

/** The lines of a sales invoice in `currency` dated `day`, each with `tracking`. */
export const sales = (
  rng: Prng,
  items: ReadonlyArray<Item>,
  currency: Currency,
  day: CalendarDate.Day,
  tracking: ReadonlyArray<Tracking> = Trackings.NONE
): Array<Line> =>
  Array.from({ length: lineCount(rng) }, () => {
    if (items.length > 0 && rng.chance(0.6)) {
      const item = rng.pick(items)
      const quantity = item.hourly ? quantityOf(rng, "hours") : quantityOf(rng, "count")
      const { description, unitPrice, account, taxRate } = item.sales
      const tax = salesTax(rng, currency, taxRate)
      return line(item.code, description, quantity, unitPrice, account, tax, discountOf(rng), tracking)
    }
    const text = rng.pick(SALES_TEXTS)
    const quantity = quantityOf(rng, text.quantity)
    const tax = salesTax(rng, currency, undefined)
    const price = priceIn(rng, text.price)
    const description = withMonth(text.description, day)
    return line("", description, quantity, price, text.account, tax, discountOf(rng), tracking)
  })

const purchaseTax = (rng: Prng, currency: Currency, gst: boolean): string =>
  currency !== "SGD" || !gst
    ? TaxRates.NO_GST
    : rng.chance(0.92)
      ? TaxRates.STANDARD_PURCHASES
      : TaxRates.NO_GST

/** The lines of a bill from a supplier of `category` in `currency` dated `day`, each with `tracking`. */
export const bill = (
  rng: Prng,
  items: ReadonlyArray<Item>,
  category: BillCategory,
  currency: Currency,
  day: CalendarDate.Day,
  tracking: ReadonlyArray<Tracking> = Trackings.NONE
): Array<Line> => {
  const profile = PROFILES[category]
  const stocked = items.filter((i) => i.purchases !== undefined)
  const count = category === "stock" ? lineCount(rng) : Math.min(lineCount(rng), 2)
  return Array.from({ length: count }, () => {
    const item = category === "stock" && stocked.length > 0 && rng.chance(0.7) ? rng.pick(stocked) : undefined
    if (item?.purchases !== undefined) {
      const { description, unitPrice, account, taxRate } = item.purchases
      const tax = currency === "SGD" ? taxRate : TaxRates.NO_GST
      const quantity = Money.units(rng.int(2, 40), 0)
      return line(item.code, description, quantity, unitPrice, account, tax, undefined, tracking)
    }
    const quantity = Money.units(rng.int(profile.quantity[0], profile.quantity[1]), 0)
    const description = withMonth(rng.pick(profile.descriptions), day)
    const tax = purchaseTax(rng, currency, profile.gst)
    const price = priceIn(rng, profile.price)
    return line("", description, quantity, price, profile.account, tax, undefined, tracking)
  })
}
