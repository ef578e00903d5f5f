/**
 * The QuickBooks sample's customers and vendors as its contact lists show them (the display name is the only
 * key), with the payment terms, sales tax rate and bill lines the generator draws on.
 */
import { ACC } from "./Chart.js"
import { AUSTIN, STATE, type TaxRate, AGENCY } from "./Company.js"

/** A customer: display name (the only key QuickBooks exports), contact details, terms and tax rate. */
export interface Customer {
  readonly name: string
  readonly phone: string
  readonly email: string
  readonly person: string
  readonly address: string
  readonly accountNo: string
  readonly termsDays: number
  readonly tax: TaxRate
}

const c = (
  name: string,
  person: string,
  street: string,
  city: string,
  termsDays: number,
  phone: string,
  email: string,
  accountNo = ""
): Customer => ({
  name,
  phone,
  email,
  person,
  address: street === "" ? city : `${street}\n${city}`,
  accountNo,
  termsDays,
  tax: /^Austin,/.test(city) ? AUSTIN : STATE
})

/** The customers; the last one is the walk-in customer of sales receipts. */
export const CUSTOMERS: ReadonlyArray<Customer> = [
  c(
    "Amaya Residence",
    "Lucia Amaya",
    "2207 Bluebonnet Ln",
    "Austin, TX 78704",
    30,
    "(512) 555-0134",
    "lucia.amaya@example.com"
  ),
  c(
    "Barton Creek HOA",
    "Dale Whitfield",
    "4100 Barton Creek Blvd",
    "Austin, TX 78735",
    30,
    "(512) 555-0190",
    "board@bartoncreekhoa.example.org",
    "HOA-01"
  ),
  c(
    "Cedar Park Dental, PLLC",
    "Dr. Nina Patel",
    "1890 Ranch Rd 1431",
    "Cedar Park, TX 78613",
    30,
    "(512) 555-0177",
    "office@cpdental.example.com"
  ),
  c(
    "Dripping Springs Winery",
    "Marcus Hale",
    "601 Mercer St",
    "Dripping Springs, TX 78620",
    15,
    "(512) 555-0121",
    "events@dswinery.example.com"
  ),
  c(
    "East Side Café",
    "Rosa Delgado",
    "1100 E 6th St",
    "Austin, TX 78702",
    15,
    "(512) 555-0148",
    "rosa@eastsidecafe.example.com"
  ),
  c(
    "Franklin & Sons Builders",
    "Tom Franklin",
    "8800 N Lamar Blvd",
    "Austin, TX 78753",
    30,
    "(512) 555-0165",
    "ap@franklinsons.example.com",
    "FSB-7"
  ),
  c(
    "Greenway Property Management",
    "Alicia Greene",
    "300 W 15th St Ste 210",
    "Austin, TX 78701",
    30,
    "(512) 555-0112",
    "payables@greenwaypm.example.com"
  ),
  c(
    "Hyde Park Montessori",
    "Claire O'Neil",
    "4500 Speedway",
    "Austin, TX 78751",
    30,
    "(512) 555-0156",
    "admin@hpmontessori.example.org"
  ),
  c(
    "Johnson, Kim",
    "Kim Johnson",
    "12 Lakeway Dr",
    "Lakeway, TX 78734",
    0,
    "(512) 555-0183",
    "kim.johnson@example.net"
  ),
  c(
    "Lakeline Medical Plaza",
    "Victor Ruiz",
    "11111 Lakeline Blvd",
    "Austin, TX 78717",
    30,
    "(512) 555-0139",
    "facilities@lakelinemed.example.com"
  ),
  c(
    "Mueller Townhomes",
    "Priya Shah",
    "1900 Aldrich St",
    "Austin, TX 78723",
    30,
    "(512) 555-0102",
    "manager@muellerth.example.com"
  ),
  c(
    "Pflugerville ISD",
    "Grounds Department",
    "1401 W Pecan St",
    "Pflugerville, TX 78660",
    30,
    "(512) 555-0170",
    "grounds@pfisd.example.org",
    "PISD-22"
  ),
  c(
    "D'Amato Residence",
    "Daniel D'Amato",
    "715 Oltorf St",
    "Austin, TX 78704",
    0,
    "(512) 555-0125",
    "ddamato@example.com"
  ),
  c(
    "South Congress Boutique Hotel",
    "Evan Brooks",
    "1603 S Congress Ave",
    "Austin, TX 78704",
    15,
    "(512) 555-0199",
    "engineering@socohotel.example.com"
  ),
  c("Walk-in Customer", "", "", "Austin, TX 78744", 0, "", "")
]

/** The customer of sales receipts and refund receipts with no account. */
export const WALK_IN: Customer = CUSTOMERS[CUSTOMERS.length - 1]!

/** A vendor: contact details, terms, and what its bills are for (accounts with a range of amounts in dollars). */
export interface Vendor {
  readonly name: string
  readonly phone: string
  readonly email: string
  readonly person: string
  readonly address: string
  readonly accountNo: string
  readonly termsDays: number
  /** Bill lines: account, description, lowest and highest dollars. */
  readonly lines: ReadonlyArray<readonly [string, string, number, number]>
  /** Whether its bills are paid with the credit card rather than a check. */
  readonly paidByCard: boolean
}

const v = (
  name: string,
  person: string,
  address: string,
  termsDays: number,
  paidByCard: boolean,
  lines: Vendor["lines"],
  phone = "",
  email = "",
  accountNo = ""
): Vendor => ({ name, person, address, termsDays, paidByCard, lines, phone, email, accountNo })

/** The vendors whose bills the generator writes. */
export const BILL_VENDORS: ReadonlyArray<Vendor> = [
  v(
    "Hill Country Nursery",
    "Sam Ortiz",
    "9100 FM 1826\nAustin, TX 78737",
    30,
    false,
    [
      [ACC.plants, "Shrubs, perennials and annuals", 250, 2400],
      [ACC.plants, "Bulk mulch and compost", 120, 900]
    ],
    "(512) 555-0211",
    "orders@hcnursery.example.com",
    "BLG-4410"
  ),
  v(
    "Texas Stone & Supply",
    "Ray Dunn",
    "2500 E Ben White Blvd\nAustin, TX 78741",
    30,
    false,
    [
      [ACC.stone, "Flagstone and river rock", 400, 3200],
      [ACC.stone, "Pavers and edging", 180, 1400]
    ],
    "(512) 555-0222",
    "sales@txstone.example.com"
  ),
  v(
    "Lone Star Irrigation Parts",
    "",
    "700 Industrial Blvd\nPflugerville, TX 78660",
    15,
    true,
    [[ACC.stone, "Irrigation valves and heads", 90, 750]],
    "(512) 555-0233"
  ),
  v(
    "Austin Energy",
    "",
    "P.O. Box 2267\nAustin, TX 78783",
    15,
    false,
    [[ACC.electric, "Electric service, yard and office", 180, 420]],
    "(512) 494-9400",
    "",
    "40021-77318"
  ),
  v(
    "AT&T Business",
    "",
    "P.O. Box 5001\nCarol Stream, IL 60197",
    15,
    true,
    [[ACC.phone, "Phones and internet", 140, 230]],
    "(800) 321-2000",
    "",
    "512-555-0100-441"
  ),
  v(
    "Capital City Insurance Agency",
    "Megan Cole",
    "500 W 5th St Ste 900\nAustin, TX 78701",
    30,
    false,
    [[ACC.insurance, "Quarterly liability and auto premium", 1100, 1600]],
    "(512) 555-0244",
    "service@ccia.example.com",
    "POL-88213"
  ),
  v(
    "Martinez CPA Group",
    "Ana Martinez",
    "1301 S Mopac Expy Ste 300\nAustin, TX 78746",
    30,
    false,
    [[ACC.legal, "Bookkeeping review and tax advice", 350, 1800]],
    "(512) 555-0255",
    "ana@martinezcpa.example.com"
  ),
  v(
    "Cen-Tex Equipment Repair",
    "Bobby Lee",
    "4410 Manchaca Rd\nAustin, TX 78745",
    15,
    false,
    [[ACC.repairs, "Mower and trimmer service", 120, 950]],
    "(512) 555-0266"
  ),
  v(
    "Austin Chronicle Advertising",
    "",
    "4000 N IH-35\nAustin, TX 78751",
    30,
    true,
    [[ACC.advertising, "Print and online advertising", 200, 900]],
    "(512) 555-0277",
    "ads@chronicle.example.com"
  )
]

/** Vendors of checks, expenses and credit card charges (no bills). */
export const LANDLORD = "Burleson Road Properties LLC"
export const LENDER = "Frost Bank"
export const FUEL_VENDOR = "Shell"
export const OFFICE_VENDOR = "Office Depot"
export const HARDWARE_VENDOR = "The Home Depot"

/** Every vendor of the Vendor list: the bill vendors and those paid by check, expense or card. */
export const VENDORS: ReadonlyArray<Vendor> = [
  ...BILL_VENDORS,
  v(
    LANDLORD,
    "Gil Moreno",
    "2800 Burleson Rd\nAustin, TX 78741",
    0,
    false,
    [],
    "(512) 555-0288",
    "gil@burlesonprops.example.com"
  ),
  v(LENDER, "", "P.O. Box 1600\nSan Antonio, TX 78296", 0, false, [], "(800) 513-7678", "", "LN-0072231"),
  v(FUEL_VENDOR, "", "", 0, true, []),
  v(OFFICE_VENDOR, "", "", 0, true, []),
  v(HARDWARE_VENDOR, "", "", 0, true, []),
  v(AGENCY, "", "P.O. Box 13528\nAustin, TX 78711", 0, false, [], "(800) 252-5555", "", "3-20145-6789-0")
].sort((x, y) => x.name.localeCompare(y.name))
