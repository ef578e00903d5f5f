/**
 * The raw material for contacts: forty hand-picked companies (ordered so that any prefix of twenty still
 * holds every role, currency and quirk), name parts for the extra contacts of large companies, and
 * Singapore, US and European address parts.
 */
import type { BillCategory } from "./BillCategories.js"

const list = (text: string): ReadonlyArray<string> => text.split("|")

/** Whether a contact buys from us, sells to us, or both. */
export type Role = "customer" | "supplier" | "both"

/** The countries contacts live in. */
export type Country = "SG" | "US" | "DE" | "FR"

/** A hand-picked contact before addresses and people are drawn. */
export interface ContactSeed {
  readonly name: string
  readonly role: Role
  readonly country: Country
  readonly category?: BillCategory
}

/** The hand-picked contacts; the first twenty cover every role, currency and supplier kind. */
export const SEEDS: ReadonlyArray<ContactSeed> = [
  { name: "Marina Bay Interiors Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Lim, Tan and Associates LLP", role: "customer", country: "SG" },
  { name: "Wong & Sons Trading Pte. Ltd.", role: "both", country: "SG", category: "stock" },
  { name: "Café Nüsantara Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Pacific Rim Logistics Inc.", role: "customer", country: "US" },
  { name: "Rheinland Büromöbel GmbH", role: "supplier", country: "DE", category: "stock" },
  { name: "Keppel Office Supplies Pte. Ltd.", role: "supplier", country: "SG", category: "stock" },
  { name: "Orchard Property Management Pte. Ltd.", role: "supplier", country: "SG", category: "rent" },
  { name: "Lion City Telecom Pte. Ltd.", role: "supplier", country: "SG", category: "telco" },
  { name: "Tanjong Pagar Accounting Services LLP", role: "supplier", country: "SG", category: "accounting" },
  { name: "Harbourfront Design Studio Pte. Ltd.", role: "both", country: "SG", category: "advertising" },
  { name: "Northwind Analytics LLC", role: "customer", country: "US" },
  { name: "Bergmann Consulting GmbH", role: "customer", country: "DE" },
  { name: "Cloudnine Software Inc.", role: "supplier", country: "US", category: "software" },
  { name: "Jurong Tech Hub Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Swift Courier Services Pte. Ltd.", role: "supplier", country: "SG", category: "courier" },
  { name: "Tiong Bahru Bakery Co.", role: "customer", country: "SG" },
  { name: "Kallang Events Pte. Ltd.", role: "both", country: "SG", category: "office" },
  { name: "Bukit Timah Dental Clinic Pte. Ltd.", role: "customer", country: "SG" },
  { name: "PowerGrid Energy Pte. Ltd.", role: "supplier", country: "SG", category: "utilities" },
  { name: "Sentosa Hospitality Group Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Changi Freight Forwarders Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Novena Medical Centre Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Greenleaf Architects Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Evergreen Insurance Brokers Pte. Ltd.", role: "supplier", country: "SG", category: "insurance" },
  { name: "Silicon Strait Ventures Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Bugis Street Retail Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Atlas Components Ltd.", role: "supplier", country: "US", category: "stock" },
  { name: "Clementi Learning Centre Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Lumière Events SARL", role: "customer", country: "FR" },
  { name: "Redhill Print & Copy Pte. Ltd.", role: "supplier", country: "SG", category: "office" },
  { name: "MetroCab Transport Pte. Ltd.", role: "supplier", country: "SG", category: "travel" },
  { name: "Queenstown Engineering Works Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Seaside Yoga Studio", role: "customer", country: "SG" },
  { name: "Punggol Digital Marketing Pte. Ltd.", role: "supplier", country: "SG", category: "advertising" },
  { name: "Great Lakes Trading Co.", role: "customer", country: "US" },
  { name: "Holland Village Florist", role: "customer", country: "SG" },
  { name: "Tampines Furniture Mart Pte. Ltd.", role: "supplier", country: "SG", category: "stock" },
  { name: "Boon Lay Precision Pte. Ltd.", role: "customer", country: "SG" },
  { name: "Ang Mo Kio Community Services Ltd.", role: "customer", country: "SG" }
]

/** First words of generated company names. */
export const NAME_PLACES: ReadonlyArray<string> = list(
  "Admiralty|Bedok|Bishan|Buona Vista|Chinatown|Dover|Eunos|Geylang|Hougang|Jalan Besar|Joo Chiat|Kembangan|Lavender|Mandai|Newton|Pasir Ris|Potong Pasir|Redhill|Rochor|Seletar|Sembawang|Serangoon|Simei|Tanah Merah|Telok Blangah|Toa Payoh|Ubi|Woodlands|Yishun|Yio Chu Kang"
)

/** Middle words of generated company names. */
export const NAME_TRADES: ReadonlyArray<string> = list(
  "Trading|Engineering|Design|Logistics|Consulting|Interiors|Supplies|Systems|Builders|Catering|Medical|Education|Digital|Hardware|Printing|Renovation|Electrical|Marine|Precision|Wellness|Retail|Properties|Media|Technologies|Foods"
)

/** Legal suffixes of generated company names. */
export const NAME_SUFFIXES: ReadonlyArray<string> = list("Pte. Ltd.|LLP|Enterprise|Holdings Pte. Ltd.")

/** Singapore street names. */
export const SG_STREETS: ReadonlyArray<string> = list(
  "Anson Road|Raffles Place|Shenton Way|Robinson Road|Cecil Street|North Bridge Road|Ubi Avenue 1|Kaki Bukit Road 3|Jurong West Street 41|Ang Mo Kio Industrial Park 2|Tampines Street 92|Kallang Place|Changi Business Park Crescent|Alexandra Road|Orchard Road"
)

/** Singapore building names. */
export const SG_BUILDINGS: ReadonlyArray<string> = list(
  "International Plaza|Suntec Tower Two|Ubi Techpark|Alexandra Point|The Central|Kallang Basin Industrial Estate|Tampines Grande|Fragrance Empire Building|"
)

/** US cities with their state and ZIP code. */
export const US_CITIES: ReadonlyArray<readonly [string, string, string]> = [
  ["San Francisco", "CA", "94105"],
  ["Austin", "TX", "78701"],
  ["Seattle", "WA", "98101"],
  ["Boston", "MA", "02110"],
  ["New York", "NY", "10001"]
]

/** US street names. */
export const US_STREETS: ReadonlyArray<string> = list("Market Street|Congress Avenue|Pine Street|Main Street")

/** German cities with their postal code. */
export const DE_CITIES: ReadonlyArray<readonly [string, string]> = [
  ["Berlin", "10117"],
  ["München", "80331"],
  ["Hamburg", "20095"]
]

/** German street names. */
export const DE_STREETS: ReadonlyArray<string> = list("Friedrichstraße|Maximilianstraße|Mönckebergstraße")

/** French cities with their postal code. */
export const FR_CITIES: ReadonlyArray<readonly [string, string]> = [
  ["Paris", "75002"],
  ["Lyon", "69002"]
]

/** French street names. */
export const FR_STREETS: ReadonlyArray<string> = list(
  "rue de la Paix|rue de la République|boulevard Haussmann"
)

/** Given names of contact people. */
export const FIRST_NAMES: ReadonlyArray<string> = list(
  "Wei Ling|Jun Jie|Siti|Rajesh|Mei Hua|Ahmad|Priya|Kelvin|Nurul|Daniel|Hui Min|Arjun|Grace|Marcus|Farah|Jonathan|Li Ting|Vikram|Chloé|Jürgen"
)

/** Family names of contact people. */
export const LAST_NAMES: ReadonlyArray<string> = list(
  "Tan|Lim|Lee|Ng|Wong|Goh|Chua|Koh|Rahman|Kumar|Nair|Ong|Teo|Yeo|Chong|Ismail|Pillai|Smith|Müller|Dubois"
)
