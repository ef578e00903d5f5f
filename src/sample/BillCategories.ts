/**
 * What each kind of supplier bills the company for: the expense account, the GST treatment of SGD bills and
 * the line descriptions and price ranges that make a bill look real. Stock suppliers bill inventory items.
 */
import { CODES } from "./Chart.js"

/** A kind of supplier. */
export type BillCategory =
  | "stock"
  | "rent"
  | "telco"
  | "accounting"
  | "advertising"
  | "courier"
  | "office"
  | "insurance"
  | "utilities"
  | "travel"
  | "software"

/** How bills of one category are drawn. */
export interface BillProfile {
  readonly account: string
  /** Whether SGD bills carry GST (otherwise "No GST"). */
  readonly gst: boolean
  readonly descriptions: ReadonlyArray<string>
  /** Unit price range in cents. */
  readonly price: readonly [number, number]
  /** Whole-number quantity range. */
  readonly quantity: readonly [number, number]
  /** Relative number of bills per supplier of this category. */
  readonly frequency: number
}

/** The profile of every category; `{month}` in a description becomes the bill's month. */
export const PROFILES: Readonly<Record<BillCategory, BillProfile>> = {
  stock: {
    account: CODES.costOfGoodsSold,
    gst: true,
    descriptions: ["Assorted office furniture", "Replacement parts", "Packing materials"],
    price: [1500, 60000],
    quantity: [1, 24],
    frequency: 6
  },
  rent: {
    account: CODES.rent,
    gst: true,
    descriptions: ["Office rent - {month}", "Warehouse rent - {month}", "Service charge - {month}"],
    price: [180000, 520000],
    quantity: [1, 1],
    frequency: 4
  },
  telco: {
    account: CODES.telephone,
    gst: true,
    descriptions: ["Fibre broadband 1Gbps - {month}", "Mobile plans x6 - {month}", "Hosted PBX - {month}"],
    price: [4500, 48000],
    quantity: [1, 1],
    frequency: 3
  },
  accounting: {
    account: CODES.consulting,
    gst: true,
    descriptions: ["Bookkeeping - {month}", "GST return preparation", "Corporate secretarial services"],
    price: [35000, 240000],
    quantity: [1, 1],
    frequency: 2
  },
  advertising: {
    account: CODES.advertising,
    gst: true,
    descriptions: ["Social media campaign", "Search ads management", "Brochure design, 2 rounds of changes"],
    price: [25000, 380000],
    quantity: [1, 1],
    frequency: 2
  },
  courier: {
    account: CODES.freight,
    gst: true,
    descriptions: ["Same-day delivery", "Island-wide delivery, bulky items", "Courier charges - {month}"],
    price: [850, 6500],
    quantity: [1, 30],
    frequency: 3
  },
  office: {
    account: CODES.officeExpenses,
    gst: true,
    descriptions: ["Office cleaning - {month}", "Printing of name cards", "Pantry supplies", "Stationery"],
    price: [1200, 45000],
    quantity: [1, 10],
    frequency: 2
  },
  insurance: {
    account: CODES.insurance,
    gst: true,
    descriptions: ["Public liability insurance premium", "Work injury compensation premium"],
    price: [60000, 320000],
    quantity: [1, 1],
    frequency: 1
  },
  utilities: {
    account: CODES.utilities,
    gst: true,
    descriptions: ["Electricity - {month}", "Water and refuse removal - {month}"],
    price: [18000, 95000],
    quantity: [1, 1],
    frequency: 3
  },
  travel: {
    account: CODES.travel,
    gst: false,
    descriptions: ["Taxi rides - {month}", "Client visit transport", "Parking charges"],
    price: [600, 4800],
    quantity: [1, 12],
    frequency: 2
  },
  software: {
    account: CODES.subscriptions,
    gst: true,
    descriptions: ["Team plan subscription - {month}", "Additional user seats", "Cloud storage 2 TB"],
    price: [1200, 9900],
    quantity: [1, 15],
    frequency: 3
  }
}

/** Every category, in a stable order. */
export const CATEGORIES = Object.keys(PROFILES) as ReadonlyArray<BillCategory>
