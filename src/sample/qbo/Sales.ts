/**
 * The sales side of the QuickBooks sample: invoices (one voided), customer payments (some paying several
 * invoices, into Undeposited Funds or straight to Checking), sales receipts, credit memos (applied to an
 * invoice when raised, one left open), refund receipts and the deposits that move Undeposited Funds to
 * Checking (one with an extra income line). Invoices, sales receipts, credit memos and refund receipts share
 * one number sequence from 1001 in date order, as QuickBooks numbers its sales forms.
 */
import * as CalendarDate from "../CalendarDate.js"
import type { Prng } from "../Prng.js"
import { ACC } from "./Chart.js"
import { FIRST_DAY, LAST_DAY, type TaxRate } from "./Company.js"
import { type Customer, CUSTOMERS, WALK_IN } from "./Contacts.js"
import { type Product, PRODUCTS } from "./Products.js"
import { cr, dr, type JournalLine, type OpenItem, type Settlement, type Txn } from "./Ledger.js"
import { deposits, type Undeposited } from "./Deposits.js"

/** A line of a sales form. */
interface SaleLine {
  readonly product: Product
  readonly qty: number
  readonly cents: bigint
}

/** A sales form's lines with its taxable base, tax and total. */
interface Sale {
  readonly lines: ReadonlyArray<SaleLine>
  readonly tax: bigint
  readonly total: bigint
  readonly rate: TaxRate
}

/** Tax on a taxable base at a rate in basis points of a percent, rounded half up to the cent. */
export const taxOn = (base: bigint, basisPoints: number): bigint =>
  (base * BigInt(basisPoints) + 5000n) / 10000n

const sale = (lines: ReadonlyArray<SaleLine>, rate: TaxRate): Sale => {
  const net = lines.reduce((s, l) => s + l.cents, 0n)
  const taxable = lines.filter((l) => l.product.taxable).reduce((s, l) => s + l.cents, 0n)
  const tax = taxOn(taxable, rate.basisPoints)
  return { lines, tax, total: net + tax, rate }
}

const saleLine = (product: Product, qty: number): SaleLine => ({
  product,
  qty,
  cents: BigInt(product.priceCents) * BigInt(qty)
})

const randomLines = (rng: Prng, products: ReadonlyArray<Product>, most: number): Array<SaleLine> => {
  const count = rng.int(1, Math.min(most, products.length))
  const chosen = new Set<Product>()
  while (chosen.size < count) chosen.add(rng.pick(products))
  return PRODUCTS.filter((p) => chosen.has(p)).map((p) => saleLine(p, rng.int(p.qty[0], p.qty[1])))
}

/** The income lines (credits on an invoice or sales receipt) and the Sales Tax Payable line of a sale. */
const incomeLines = (s: Sale, name: string, side: typeof cr): Array<JournalLine> => [
  ...s.lines.map((l) => side(l.product.income, l.cents, name, l.product.description)),
  ...(s.tax > 0n ? [side(ACC.salesTax, s.tax, name, s.rate.name)] : [])
]

type Fate = "paid" | "partial" | "open" | "voided"

interface InvoiceSpec {
  readonly key: string
  readonly day: CalendarDate.Day
  readonly customer: Customer
  readonly sale: Sale
  fate: Fate
  payDay: CalendarDate.Day
  num: string
  /** Credit memos applied to it, in cents. */
  credited: bigint
}

interface CreditSpec {
  readonly key: string
  readonly day: CalendarDate.Day
  readonly customer: Customer
  readonly sale: Sale
  readonly appliesTo: InvoiceSpec | undefined
  num: string
}

interface ReceiptSpec {
  readonly kind: "Sales Receipt" | "Refund Receipt"
  readonly day: CalendarDate.Day
  readonly customer: Customer
  readonly sale: Sale
  readonly toUndeposited: boolean
  num: string
}

/** How many of each sales form a company with `invoices` invoices has. */
export const salesSize = (invoices: number) => ({
  invoices,
  salesReceipts: Math.max(4, Math.round(invoices / 8)),
  creditMemos: Math.max(4, Math.round(invoices / 20)),
  refundReceipts: Math.max(2, Math.round(invoices / 30))
})

const customersOnAccount = CUSTOMERS.filter((c) => c !== WALK_IN)
const materials = PRODUCTS.filter((p) => p.type === "Non-inventory")

const dueDay = (day: CalendarDate.Day, c: Customer) => day + c.termsDays

/** Every sales transaction of the year, in no particular order. */
export const salesTxns = (rng: Prng, invoiceCount: number): Array<Txn> => {
  const size = salesSize(invoiceCount)
  const days = Array.from({ length: size.invoices }, () => FIRST_DAY + rng.int(1, 363)).sort((a, b) => a - b)
  const voidedAt = Math.floor(size.invoices / 7)
  const invoices: Array<InvoiceSpec> = days.map((day, i) => {
    const customer = rng.pick(customersOnAccount)
    const s = sale(randomLines(rng, PRODUCTS, 3), customer.tax)
    const late = day > CalendarDate.make(2025, 12, 1)
    let fate: Fate =
      i === voidedAt
        ? "voided"
        : late
          ? rng.weighted<Fate>([
              ["open", 65],
              ["partial", 15],
              ["paid", 20]
            ])
          : rng.weighted<Fate>([
              ["paid", 88],
              ["partial", 5],
              ["open", 7]
            ])
    const payDay = Math.max(day + 1, dueDay(day, customer) + rng.int(-6, 14))
    if (payDay > LAST_DAY && fate !== "voided") fate = "open"
    return { key: `INV${i}`, day, customer, sale: s, fate, payDay, num: "", credited: 0n }
  })
  // at least one invoice is partly paid and one is open, whatever the seed
  const notVoided = invoices.filter((x) => x.fate !== "voided")
  if (!invoices.some((x) => x.fate === "partial")) notVoided.find((x) => x.fate === "paid")!.fate = "partial"
  if (!invoices.some((x) => x.fate === "open")) notVoided.find((x) => x.fate === "paid")!.fate = "open"

  // credit memos: all but the last applied to an invoice when raised, before that invoice is paid
  const credits: Array<CreditSpec> = []
  const candidates = invoices.filter(
    (x) => x.fate !== "voided" && x.sale.lines.some((l) => l.qty >= 2) && x.payDay - x.day >= 4
  )
  for (let i = 0; i < size.creditMemos - 1 && candidates.length > 0; i++) {
    const inv = candidates.splice(rng.int(0, candidates.length - 1), 1)[0]!
    const line = inv.sale.lines.find((l) => l.qty >= 2)!
    const s = sale([saleLine(line.product, rng.int(1, Math.max(1, Math.floor(line.qty / 3))))], inv.sale.rate)
    const day = Math.min(inv.day + rng.int(1, 3), LAST_DAY)
    credits.push({ key: `CM${i}`, day, customer: inv.customer, sale: s, appliesTo: inv, num: "" })
    inv.credited += s.total
  }
  const unappliedTo = rng.pick(customersOnAccount)
  credits.push({
    key: `CM${credits.length}`,
    day: CalendarDate.make(2025, 11, rng.int(3, 20)),
    customer: unappliedTo,
    sale: sale([saleLine(rng.pick(materials), rng.int(1, 4))], unappliedTo.tax),
    appliesTo: undefined,
    num: ""
  })

  const receipts: Array<ReceiptSpec> = [
    ...Array.from({ length: size.salesReceipts }, (): ReceiptSpec => {
      const customer = rng.chance(0.6) ? WALK_IN : rng.pick(customersOnAccount)
      return {
        kind: "Sales Receipt",
        day: FIRST_DAY + rng.int(1, 363),
        customer,
        sale: sale(randomLines(rng, materials, 2), customer.tax),
        toUndeposited: rng.chance(0.7),
        num: ""
      }
    }),
    ...Array.from({ length: size.refundReceipts }, (): ReceiptSpec => {
      const customer = rng.chance(0.5) ? WALK_IN : rng.pick(customersOnAccount)
      return {
        kind: "Refund Receipt",
        day: FIRST_DAY + rng.int(20, 355),
        customer,
        sale: sale([saleLine(rng.pick(materials), rng.int(1, 3))], customer.tax),
        toUndeposited: false,
        num: ""
      }
    })
  ]

  // one number sequence for every sales form, in date order
  const forms: Array<{ day: number; order: number; spec: { num: string } }> = [
    ...invoices.map((spec, i) => ({ day: spec.day, order: i, spec })),
    ...credits.map((spec, i) => ({ day: spec.day, order: 10_000 + i, spec })),
    ...receipts.map((spec, i) => ({ day: spec.day, order: 20_000 + i, spec }))
  ].sort((a, b) => a.day - b.day || a.order - b.order)
  forms.forEach((f, i) => (f.spec.num = String(1001 + i)))

  const txns: Array<Txn> = []
  const item = (spec: InvoiceSpec | CreditSpec, type: OpenItem["type"], cents: bigint): OpenItem => ({
    side: "AR",
    key: spec.key,
    type,
    num: spec.num,
    name: spec.customer.name,
    day: spec.day,
    dueDay: type === "Invoice" ? dueDay(spec.day, spec.customer) : spec.day,
    cents
  })
  for (const inv of invoices) {
    const name = inv.customer.name
    if (inv.fate === "voided") {
      txns.push({
        day: inv.day,
        type: "Invoice",
        num: inv.num,
        name,
        voided: true,
        lines: [
          { ...dr(ACC.ar, 0n, name, "Voided"), zeroSide: "debit" },
          ...inv.sale.lines.map((l) => ({
            ...cr(l.product.income, 0n, name, l.product.description),
            zeroSide: "credit" as const
          }))
        ]
      })
      continue
    }
    txns.push({
      day: inv.day,
      type: "Invoice",
      num: inv.num,
      name,
      lines: [dr(ACC.ar, inv.sale.total, name), ...incomeLines(inv.sale, name, cr)],
      raises: item(inv, "Invoice", inv.sale.total)
    })
  }
  for (const cm of credits) {
    const name = cm.customer.name
    const applied: Array<Settlement> =
      cm.appliesTo === undefined
        ? []
        : [
            { key: cm.appliesTo.key, cents: -cm.sale.total },
            { key: cm.key, cents: cm.sale.total }
          ]
    txns.push({
      day: cm.day,
      type: "Credit Memo",
      num: cm.num,
      name,
      lines: [cr(ACC.ar, cm.sale.total, name), ...incomeLines(cm.sale, name, dr)],
      raises: item(cm, "Credit Memo", -cm.sale.total),
      settles: applied
    })
  }

  const undeposited: Array<Undeposited> = []
  const receive = (day: CalendarDate.Day, customer: Customer, cents: bigint, settles: Array<Settlement>) => {
    const toUndeposited = rng.chance(0.75)
    const reference = rng.chance(0.5) ? String(rng.int(1000, 9999)) : ""
    txns.push({
      day,
      type: "Payment",
      num: reference,
      name: customer.name,
      lines: [
        dr(toUndeposited ? ACC.undeposited : ACC.checking, cents, customer.name),
        cr(ACC.ar, cents, customer.name)
      ],
      settles
    })
    if (toUndeposited) undeposited.push({ day, name: customer.name, cents })
  }
  // payments: a customer's invoices paid in full within three weeks of each other may share one payment
  let groupedPayments = 0
  for (const customer of customersOnAccount) {
    const paid = invoices
      .filter((x) => x.customer === customer && x.fate === "paid")
      .sort((a, b) => a.payDay - b.payDay)
    let group: Array<InvoiceSpec> = []
    const flush = () => {
      if (group.length === 0) return
      const day = Math.max(...group.map((x) => x.payDay))
      const cents = group.reduce((s, x) => s + x.sale.total - x.credited, 0n)
      if (group.length > 1) groupedPayments++
      receive(
        day,
        customer,
        cents,
        group.map((x) => ({ key: x.key, cents: -(x.sale.total - x.credited) }))
      )
      group = []
    }
    for (const inv of paid) {
      const joins =
        group.length > 0 &&
        group.length < 3 &&
        (groupedPayments === 0
          ? inv.payDay - group[0]!.payDay <= 45
          : inv.payDay - group[0]!.payDay <= 21 && rng.chance(0.5))
      if (!joins) flush()
      group.push(inv)
    }
    flush()
  }
  if (groupedPayments === 0)
    throw new Error("the sample has no payment of several invoices: use more invoices")
  for (const inv of invoices.filter((x) => x.fate === "partial")) {
    const open = inv.sale.total - inv.credited
    const cents = ((open * BigInt(rng.int(30, 70))) / 10000n) * 100n
    receive(Math.min(inv.payDay, LAST_DAY), inv.customer, cents, [{ key: inv.key, cents: -cents }])
  }

  for (const r of receipts) {
    const name = r.customer.name
    if (r.kind === "Sales Receipt") {
      txns.push({
        day: r.day,
        type: "Sales Receipt",
        num: r.num,
        name,
        lines: [
          dr(r.toUndeposited ? ACC.undeposited : ACC.checking, r.sale.total, name),
          ...incomeLines(r.sale, name, cr)
        ]
      })
      if (r.toUndeposited) undeposited.push({ day: r.day, name, cents: r.sale.total })
    } else {
      txns.push({
        day: r.day,
        type: "Refund Receipt",
        num: r.num,
        name,
        lines: [cr(ACC.checking, r.sale.total, name), ...incomeLines(r.sale, name, dr)]
      })
    }
  }
  txns.push(...deposits(undeposited))
  return txns
}
