/**
 * The purchase side of the QuickBooks sample: bills (monthly utilities, quarterly insurance, supplies and
 * services), bill payments by check or by credit card (some paying several bills, some taking a vendor credit),
 * vendor credits (one left open), and the bills still open or part-paid at the year end.
 */
import * as CalendarDate from "../CalendarDate.js"
import type { Prng } from "../Prng.js"
import { ACC } from "./Chart.js"
import { FIRST_DAY, LAST_DAY } from "./Company.js"
import { BILL_VENDORS, type Vendor } from "./Contacts.js"
import { cr, dr, type JournalLine, type OpenItem, type Settlement, type Txn } from "./Ledger.js"

interface BillSpec {
  readonly key: string
  readonly day: CalendarDate.Day
  readonly vendor: Vendor
  readonly num: string
  readonly lines: ReadonlyArray<JournalLine>
  readonly total: bigint
  fate: "paid" | "partial" | "open"
  readonly payDay: CalendarDate.Day
}

interface VendorCreditSpec {
  readonly key: string
  readonly day: CalendarDate.Day
  readonly vendor: Vendor
  readonly account: string
  readonly cents: bigint
  readonly appliesTo: BillSpec | undefined
}

const vendor = (name: string): Vendor => BILL_VENDORS.find((x) => x.name === name)!

/** Dollars and cents between two whole-dollar bounds. */
const amount = (rng: Prng, lo: number, hi: number): bigint => BigInt(rng.int(lo * 100, hi * 100))

/** Every bill, bill payment and vendor credit of the year, in no particular order. */
export const purchaseTxns = (rng: Prng, invoiceCount: number): Array<Txn> => {
  const planned: Array<[CalendarDate.Day, Vendor]> = []
  for (let month = 1; month <= 12; month++) {
    planned.push([CalendarDate.make(2025, month, 5), vendor("Austin Energy")])
    planned.push([CalendarDate.make(2025, month, 8), vendor("AT&T Business")])
    if (month % 3 === 1)
      planned.push([CalendarDate.make(2025, month, 2), vendor("Capital City Insurance Agency")])
  }
  const others = BILL_VENDORS.filter((x) => !planned.some(([, p]) => p === x))
  const extra = Math.max(8, Math.round(invoiceCount * 0.35))
  for (let i = 0; i < extra; i++)
    planned.push([
      FIRST_DAY + rng.int(3, 362),
      rng.weighted(others.map((o, j) => [o, j < 2 ? 4 : 1] as const))
    ])
  planned.sort((a, b) => a[0] - b[0] || a[1].name.localeCompare(b[1].name))

  const bills: Array<BillSpec> = planned.map(([day, v], i) => {
    const lines = v.lines.filter((_, j) => j === 0 || rng.chance(0.4))
    const amounts = lines.map(([, , lo, hi]) => amount(rng, lo, hi))
    const total = amounts.reduce((s, x) => s + x, 0n)
    const late = day > CalendarDate.make(2025, 12, 5)
    const payDay = day + v.termsDays + rng.int(-5, 7)
    let fate = late
      ? rng.weighted<BillSpec["fate"]>([
          ["open", 60],
          ["partial", 15],
          ["paid", 25]
        ])
      : rng.weighted<BillSpec["fate"]>([
          ["paid", 93],
          ["partial", 4],
          ["open", 3]
        ])
    if (payDay > LAST_DAY) fate = "open"
    const num =
      v.accountNo !== "" || rng.chance(0.5)
        ? `${v.name.slice(0, 2).toUpperCase()}-${rng.int(10000, 99999)}`
        : ""
    return {
      key: `BILL${i}`,
      day,
      vendor: v,
      num,
      total,
      fate,
      payDay: Math.max(payDay, day + 1),
      lines: lines.map(([account, description], j) => dr(account, amounts[j]!, v.name, description))
    }
  })
  if (!bills.some((b) => b.fate === "partial")) bills.find((b) => b.fate === "paid")!.fate = "partial"

  // vendor credits: all but the last taken in the payment of the bill they relate to
  const credits: Array<VendorCreditSpec> = []
  const count = Math.max(3, Math.round(invoiceCount / 25))
  const candidates = bills.filter((b) => b.fate === "paid" && b.payDay - b.day >= 5 && b.lines.length > 0)
  for (let i = 0; i < count - 1 && candidates.length > 0; i++) {
    const bill = candidates.splice(rng.int(0, candidates.length - 1), 1)[0]!
    const line = bill.lines[0]!
    const cents = ((line.debit * BigInt(rng.int(10, 25))) / 100n / 100n) * 100n + BigInt(rng.int(0, 99))
    credits.push({
      key: `VC${i}`,
      day: bill.day + rng.int(1, 3),
      vendor: bill.vendor,
      account: line.account,
      cents,
      appliesTo: bill
    })
  }
  credits.push({
    key: `VC${credits.length}`,
    day: CalendarDate.make(2025, 12, rng.int(8, 19)),
    vendor: vendor("Hill Country Nursery"),
    account: ACC.plants,
    cents: amount(rng, 60, 240),
    appliesTo: undefined
  })

  const txns: Array<Txn> = []
  const item = (
    key: string,
    type: OpenItem["type"],
    v: Vendor,
    num: string,
    day: number,
    due: number,
    cents: bigint
  ): OpenItem => ({
    side: "AP",
    key,
    type,
    num,
    name: v.name,
    day,
    dueDay: due,
    cents
  })
  for (const b of bills)
    txns.push({
      day: b.day,
      type: "Bill",
      num: b.num,
      name: b.vendor.name,
      lines: [cr(ACC.ap, b.total, b.vendor.name), ...b.lines],
      raises: item(b.key, "Bill", b.vendor, b.num, b.day, b.day + b.vendor.termsDays, b.total)
    })
  for (const c of credits) {
    const num = c.appliesTo !== undefined && c.appliesTo.num !== "" ? `CR-${c.appliesTo.num.slice(3)}` : ""
    const description = c.appliesTo === undefined ? "Returned damaged stock" : "Credit for short delivery"
    txns.push({
      day: c.day,
      type: "Vendor Credit",
      num,
      name: c.vendor.name,
      lines: [dr(ACC.ap, c.cents, c.vendor.name), cr(c.account, c.cents, c.vendor.name, description)],
      raises: item(c.key, "Vendor Credit", c.vendor, num, c.day, c.day, -c.cents)
    })
  }

  const pay = (v: Vendor, day: CalendarDate.Day, cents: bigint, settles: Array<Settlement>) => {
    const bank = v.paidByCard ? ACC.card : ACC.checking
    txns.push({
      day,
      type: v.paidByCard ? "Bill Payment (Credit Card)" : "Bill Payment (Check)",
      num: "",
      name: v.name,
      lines: [dr(ACC.ap, cents, v.name), cr(bank, cents, v.name)],
      settles
    })
  }
  let grouped = 0
  for (const v of BILL_VENDORS) {
    const paid = bills.filter((b) => b.vendor === v && b.fate === "paid").sort((a, b) => a.payDay - b.payDay)
    let group: Array<BillSpec> = []
    const flush = () => {
      if (group.length === 0) return
      const taken = credits.filter((c) => c.appliesTo !== undefined && group.includes(c.appliesTo))
      const day = Math.max(...group.map((b) => b.payDay))
      const settles: Array<Settlement> = [
        ...group.map((b) => ({ key: b.key, cents: -b.total })),
        ...taken.map((c) => ({ key: c.key, cents: c.cents }))
      ]
      const cents = group.reduce((s, b) => s + b.total, 0n) - taken.reduce((s, c) => s + c.cents, 0n)
      if (group.length > 1) grouped++
      pay(v, day, cents, settles)
      group = []
    }
    for (const b of paid) {
      const joins =
        group.length > 0 &&
        group.length < 3 &&
        (grouped === 0
          ? b.payDay - group[0]!.payDay <= 45
          : b.payDay - group[0]!.payDay <= 20 && rng.chance(0.5))
      if (!joins) flush()
      group.push(b)
    }
    flush()
  }
  if (grouped === 0) throw new Error("the sample has no payment of several bills: use more invoices")
  for (const b of bills.filter((x) => x.fate === "partial")) {
    const cents = ((b.total * BigInt(rng.int(30, 70))) / 10000n) * 100n
    pay(b.vendor, Math.min(b.payDay, LAST_DAY), cents, [{ key: b.key, cents: -cents }])
  }
  return txns
}
