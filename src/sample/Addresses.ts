/**
 * Plausible contact details by country: postal addresses (Singapore units and buildings, US suites,
 * European streets), phone numbers, web domains, tax and bank account numbers.
 */
import type { Country } from "./ContactPool.js"
import * as Pool from "./ContactPool.js"
import type { Prng } from "./Prng.js"

/** A postal or street address in Xero's four-line layout. */
export interface Address {
  readonly line1: string
  readonly line2: string
  readonly line3: string
  readonly line4: string
  readonly city: string
  readonly region: string
  readonly postalCode: string
  readonly countryName: string
}

/** The text with accents removed (`Café` becomes `Cafe`), for e-mail addresses and codes. */
export const ascii = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ß/g, "ss")

const TLD: Readonly<Record<Country, string>> = { SG: "com.sg", US: "com", DE: "de", FR: "fr" }

const LEGAL_WORDS = new Set(["pte", "ltd", "llp", "inc", "co", "gmbh", "sarl", "llc", "and", "the"])

/** A web domain derived from a company name (`Lim, Tan and Associates LLP` → `limtanassociates.com.sg`). */
export const domain = (name: string, country: Country): string => {
  const words = ascii(name)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !LEGAL_WORDS.has(w))
  return `${words.slice(0, 3).join("")}.${TLD[country]}`
}

const digits = (rng: Prng, count: number): string =>
  Array.from({ length: count }, () => String(rng.int(0, 9))).join("")

const singapore = (rng: Prng): Address => {
  const building = rng.pick(Pool.SG_BUILDINGS)
  const unit = `#${String(rng.int(1, 32)).padStart(2, "0")}-${String(rng.int(1, 88)).padStart(2, "0")}`
  return {
    line1: `${rng.int(1, 180)} ${rng.pick(Pool.SG_STREETS)}`,
    line2: building === "" ? unit : `${unit}, ${building}`,
    line3: "",
    line4: "",
    city: "Singapore",
    region: "",
    postalCode: `${String(rng.int(1, 82)).padStart(2, "0")}${digits(rng, 4)}`,
    countryName: "Singapore"
  }
}

const unitedStates = (rng: Prng): Address => {
  const [city, state, zip] = rng.pick(Pool.US_CITIES)
  return {
    line1: `${rng.int(100, 2400)} ${rng.pick(Pool.US_STREETS)}`,
    line2: rng.chance(0.6) ? `Suite ${rng.int(2, 30)}00` : "",
    line3: "",
    line4: "",
    city,
    region: state,
    postalCode: zip,
    countryName: "United States"
  }
}

const europe = (rng: Prng, country: "DE" | "FR"): Address => {
  const [city, postalCode] = rng.pick(country === "DE" ? Pool.DE_CITIES : Pool.FR_CITIES)
  const street = rng.pick(country === "DE" ? Pool.DE_STREETS : Pool.FR_STREETS)
  return {
    line1: country === "DE" ? `${street} ${rng.int(1, 140)}` : `${rng.int(1, 140)} ${street}`,
    line2: "",
    line3: "",
    line4: "",
    city,
    region: "",
    postalCode,
    countryName: country === "DE" ? "Germany" : "France"
  }
}

/** A postal address in the country. */
export const draw = (rng: Prng, country: Country): Address =>
  country === "SG" ? singapore(rng) : country === "US" ? unitedStates(rng) : europe(rng, country)

/** An office phone number in international format. */
export const phone = (rng: Prng, country: Country): string => {
  switch (country) {
    case "SG":
      return `+65 6${digits(rng, 3)} ${digits(rng, 4)}`
    case "US":
      return `+1 ${rng.int(201, 989)} 555 ${digits(rng, 4)}`
    case "DE":
      return `+49 ${rng.pick(["30", "89", "40"])} ${digits(rng, 7)}`
    case "FR":
      return `+33 1 ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)}`
  }
}

/** A GST/VAT registration number (the UEN in Singapore, none in the US). */
export const taxNumber = (rng: Prng, country: Country, uen: string): string => {
  switch (country) {
    case "SG":
      return rng.chance(0.8) ? uen : ""
    case "US":
      return ""
    case "DE":
      return `DE${digits(rng, 9)}`
    case "FR":
      return `FR${digits(rng, 2)}${digits(rng, 9)}`
  }
}

/** A bank account number in the country's usual shape (leading zeros kept). */
export const bankAccount = (rng: Prng, country: Country): string => {
  switch (country) {
    case "SG":
      return `0${digits(rng, 2)}-${digits(rng, 6)}-${digits(rng, 1)}`
    case "US":
      return digits(rng, 10)
    case "DE":
      return `DE${digits(rng, 2)} ${digits(rng, 4)} ${digits(rng, 4)} ${digits(rng, 4)} ${digits(rng, 4)} ${digits(rng, 2)}`
    case "FR":
      return `FR76 ${digits(rng, 4)} ${digits(rng, 4)} ${digits(rng, 4)} ${digits(rng, 4)} ${digits(rng, 4)} ${digits(rng, 3)}`
  }
}
