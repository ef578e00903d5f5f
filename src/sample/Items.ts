/**
 * The untracked inventory items (goods bought for resale and sale-only services), scaled mildly with the
 * company's size, written as Xero's `InventoryItems.csv`. Prices are the ones invoices and bills copy.
 */
import type * as BigDecimal from "effect/BigDecimal"
import { CODES } from "./Chart.js"
import { CsvFile } from "./CsvFile.js"
import * as Money from "./Money.js"
import type { Prng } from "./Prng.js"
import * as TaxRates from "./TaxRates.js"

/** One side (purchases or sales) of an item. */
export interface ItemSide {
  readonly description: string
  readonly unitPrice: BigDecimal.BigDecimal
  readonly account: string
  readonly taxRate: string
}

/** An untracked item; `hourly` items are sold in fractional quantities. */
export interface Item {
  readonly code: string
  readonly name: string
  readonly hourly: boolean
  readonly purchases: ItemSide | undefined
  readonly sales: ItemSide
}

interface Template {
  readonly code: string
  readonly name: string
  readonly cost: number | undefined
  readonly price: number
  readonly hourly?: boolean
  readonly taxRate?: string
}

const GOODS: ReadonlyArray<Template> = [
  { code: "CHAIR-ERG", name: "Ergonomic office chair", cost: 18500, price: 32900 },
  { code: "DESK-SIT", name: "Sit-stand desk, 140 cm", cost: 42000, price: 74900 },
  { code: "MON-27", name: '27" 4K monitor', cost: 31000, price: 48900 },
  { code: "KB-WL", name: "Wireless keyboard, black", cost: 3850, price: 6900 },
  { code: "LAMP-LED", name: "LED desk lamp", cost: 2240, price: 4590 },
  { code: "CAB-3D", name: "3-drawer mobile cabinet", cost: 9800, price: 17900 },
  { code: "HUB-USB", name: "USB-C docking hub", cost: 6420, price: 11990 },
  { code: "WB-120", name: "Whiteboard 120 × 90 cm", cost: 7300, price: 13500 },
  { code: "PAPER-A4", name: "A4 copier paper (box of 5 reams)", cost: 2150, price: 3480 },
  { code: "TONER-BK", name: "Black toner cartridge", cost: 8935, price: 14299 }
]

const SERVICES: ReadonlyArray<Template> = [
  {
    code: "SVC-INSTALL",
    name: "Installation service (per hour)",
    cost: undefined,
    price: 12000,
    hourly: true
  },
  {
    code: "SVC-CONSULT",
    name: "Workplace consulting (per hour)",
    cost: undefined,
    price: 18000,
    hourly: true
  },
  { code: "SVC-MAINT", name: "Annual maintenance plan", cost: undefined, price: 96000 },
  { code: "SVC-TRAIN", name: "Ergonomics training workshop (half day)", cost: undefined, price: 85000 },
  {
    code: "SVC-SHIP-INTL",
    name: "International shipping & handling",
    cost: undefined,
    price: 6500,
    taxRate: TaxRates.ZERO_RATED_SUPPLIES
  }
]

/** Goods and services interleaved, so that a small company's first few items include both kinds. */
const BASE: ReadonlyArray<Template> = GOODS.flatMap((good, i) => {
  const service = i % 2 === 1 ? SERVICES[(i - 1) / 2] : undefined
  return service === undefined ? [good] : [service, good]
})

const toItem = (t: Template): Item => {
  const isService = t.cost === undefined
  return {
    code: t.code,
    name: t.name,
    hourly: t.hourly ?? false,
    purchases:
      t.cost === undefined
        ? undefined
        : {
            description: `${t.name} (supplier stock)`,
            unitPrice: Money.cents(t.cost),
            account: CODES.costOfGoodsSold,
            taxRate: TaxRates.STANDARD_PURCHASES
          },
    sales: {
      description: t.name,
      unitPrice: Money.cents(t.price),
      account: isService ? CODES.serviceIncome : CODES.sales,
      taxRate: t.taxRate ?? TaxRates.STANDARD_SUPPLIES
    }
  }
}

const jitter = (rng: Prng, hundredths: number): number => Math.round((hundredths * rng.int(85, 125)) / 100)

/** The first `count` items: the fifteen base items, then priced variants of the goods. */
export const generate = (rng: Prng, count: number): Array<Item> => {
  const items = BASE.slice(0, count).map(toItem)
  for (let k = 0; items.length < count; k++) {
    const base = GOODS[k % GOODS.length]
    if (base === undefined) break
    const model = Math.floor(k / GOODS.length) + 2
    const cost = jitter(rng, base.cost ?? 0)
    items.push(
      toItem({
        code: `${base.code}-${model}`,
        name: `${base.name} (model ${model})`,
        cost,
        price: Math.round((cost * rng.int(150, 190)) / 100)
      })
    )
  }
  return items
}

/** The header of Xero's inventory items export (the columns this sample fills). */
export const HEADER = [
  "*ItemCode",
  "ItemName",
  "Quantity",
  "PurchasesDescription",
  "PurchasesUnitPrice",
  "PurchasesAccount",
  "PurchasesTaxRate",
  "SalesDescription",
  "SalesUnitPrice",
  "SalesAccount",
  "SalesTaxRate",
  "InventoryAssetAccount",
  "CostOfGoodsSoldAccount"
] as const

/** Writes `InventoryItems.csv`; returns the number of data rows. */
export const write = (path: string, items: ReadonlyArray<Item>): number => {
  const file = new CsvFile(path)
  file.row(HEADER)
  for (const item of items) {
    const p = item.purchases
    file.row([
      item.code,
      item.name,
      "",
      p?.description ?? "",
      p === undefined ? "" : Money.format2(p.unitPrice),
      p?.account ?? "",
      p?.taxRate ?? "",
      item.sales.description,
      Money.format2(item.sales.unitPrice),
      item.sales.account,
      item.sales.taxRate,
      "",
      ""
    ])
  }
  return file.close() - 1
}
