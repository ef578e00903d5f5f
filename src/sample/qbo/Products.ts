/** The QuickBooks sample's products and services (Service and Non-inventory), taxable or not. */
import { ACC } from "./Chart.js"

/** A product or service of the Products and Services list. */
export interface Product {
  readonly name: string
  readonly sku: string
  readonly type: "Service" | "Non-inventory"
  readonly description: string
  /** Sales price in cents. */
  readonly priceCents: number
  readonly income: string
  readonly taxable: boolean
  /** Quantities an invoice line draws (hours, visits, yards). */
  readonly qty: readonly [number, number]
  readonly purchase?: { readonly description: string; readonly costCents: number; readonly expense: string }
}

/** The products and services, in the list's order. */
export const PRODUCTS: ReadonlyArray<Product> = [
  {
    name: "Design Consultation",
    sku: "",
    type: "Service",
    description: "Garden design consultation (per hour)",
    priceCents: 9500,
    income: ACC.design,
    taxable: false,
    qty: [1, 6]
  },
  {
    name: "Flagstone",
    sku: "HS-FLAG",
    type: "Non-inventory",
    description: "Flagstone, installed (per sq ft)",
    priceCents: 1850,
    income: ACC.productSales,
    taxable: true,
    qty: [20, 160],
    purchase: { description: "Flagstone", costCents: 900, expense: ACC.stone }
  },
  {
    name: "Irrigation Repair",
    sku: "",
    type: "Service",
    description: "Irrigation system repair (per hour)",
    priceCents: 8500,
    income: ACC.installation,
    taxable: true,
    qty: [1, 5]
  },
  {
    name: "Landscape Installation",
    sku: "",
    type: "Service",
    description: "Landscape installation labor (per hour)",
    priceCents: 6500,
    income: ACC.installation,
    taxable: true,
    qty: [4, 40]
  },
  {
    name: "Lawn Maintenance",
    sku: "",
    type: "Service",
    description: "Lawn and bed maintenance visit",
    priceCents: 14500,
    income: ACC.lawnCare,
    taxable: true,
    qty: [1, 4]
  },
  {
    name: "Mulch",
    sku: "MAT-MULCH",
    type: "Non-inventory",
    description: "Hardwood mulch (per cubic yard)",
    priceCents: 6800,
    income: ACC.productSales,
    taxable: true,
    qty: [2, 12],
    purchase: { description: "Bulk hardwood mulch", costCents: 3200, expense: ACC.plants }
  },
  {
    name: "Plants",
    sku: "MAT-PLNT",
    type: "Non-inventory",
    description: "Shrubs and perennials",
    priceCents: 3400,
    income: ACC.productSales,
    taxable: true,
    qty: [3, 30],
    purchase: { description: "Nursery stock", costCents: 1600, expense: ACC.plants }
  },
  {
    name: "Site Survey",
    sku: "",
    type: "Service",
    description: "Site survey and plan drawing",
    priceCents: 45000,
    income: ACC.design,
    taxable: false,
    qty: [1, 1]
  }
]
