/**
 * The QuickBooks sample's banking and general journal: the opening balances journal entry, rent and truck
 * loan checks, quarterly sales tax checks to the Texas Comptroller (what the previous quarter's sales forms
 * collected), expenses paid from Checking or the Visa card, credit card credits, transfers to Savings and
 * the monthly card pay-off (the card's balance at the end of the previous month), and the quarterly
 * depreciation and a reclassification journal entries.
 */
import * as CalendarDate from "../CalendarDate.js"
import type { Prng } from "../Prng.js"
import { ACC } from "./Chart.js"
import { AGENCY } from "./Company.js"
import { FUEL_VENDOR, HARDWARE_VENDOR, LANDLORD, LENDER, OFFICE_VENDOR } from "./Contacts.js"
import { cr, dr, type Txn } from "./Ledger.js"

const d = (month: number, day: number) => CalendarDate.make(2025, month, day)

/** The opening balances on 1 January 2025 other than Checking's, in cents. */
export const OPENING: ReadonlyArray<readonly [string, bigint]> = [
  [ACC.savings, 1_000_000n],
  [ACC.truckCost, 4_200_000n],
  [ACC.truckDepreciation, -840_000n],
  [ACC.equipment, 1_250_000n],
  [ACC.loan, -2_800_000n]
]

/** Checking's opening balance when the year's receipts always cover its payments. */
export const OPENING_CHECKING = 1_850_000n

/**
 * The opening balances journal entry on 1 January 2025, against Opening Balance Equity; Checking opens with
 * `checking` cents (more than `OPENING_CHECKING` when a small sample's fixed costs would overdraw it).
 */
export const openingEntry = (checking: bigint): Txn => {
  const lines: ReadonlyArray<readonly [string, bigint]> = [[ACC.checking, checking], ...OPENING]
  const equity = lines.reduce((s, [, c]) => s + c, 0n)
  return {
    day: d(1, 1),
    type: "Journal Entry",
    num: "",
    name: "",
    lines: [
      ...lines.map(([account, c]) =>
        c > 0n ? dr(account, c, "", "Opening balance") : cr(account, -c, "", "Opening balance")
      ),
      cr(ACC.openingEquity, equity, "", "Opening balance")
    ]
  }
}

const LOAN_PAYMENT = 85_000n
/** Monthly interest on the loan: 7.2% a year. */
const interestOn = (balance: bigint) => (balance * 6n + 500n) / 1000n

/** The non-sales, non-purchase transactions but the opening entry; sales tax and card pay-offs are read from `others`. */
export const bankingTxns = (rng: Prng, others: ReadonlyArray<Txn>): Array<Txn> => {
  const txns: Array<Txn> = []
  let loan = 2_800_000n
  for (let month = 1; month <= 12; month++) {
    txns.push({
      day: d(month, 1),
      type: "Check",
      num: "",
      name: LANDLORD,
      lines: [cr(ACC.checking, 240_000n, LANDLORD), dr(ACC.rent, 240_000n, LANDLORD, "Yard and office rent")]
    })
    const interest = interestOn(loan)
    loan -= LOAN_PAYMENT - interest
    txns.push({
      day: d(month, 15),
      type: "Check",
      num: "",
      name: LENDER,
      lines: [
        cr(ACC.checking, LOAN_PAYMENT, LENDER),
        dr(ACC.loan, LOAN_PAYMENT - interest, LENDER, "Truck loan principal"),
        dr(ACC.interest, interest, LENDER, "Truck loan interest")
      ]
    })
    txns.push({
      day: CalendarDate.endOfMonth(2025, month),
      type: "Expense",
      num: "",
      name: LENDER,
      lines: [
        cr(ACC.checking, month % 4 === 0 ? 2_750n : 1_500n, LENDER),
        dr(ACC.bankCharges, month % 4 === 0 ? 2_750n : 1_500n, LENDER, "Monthly service fee")
      ]
    })
    for (const day of [rng.int(2, 13), rng.int(15, 27)]) {
      const c = BigInt(rng.int(4_500, 12_000))
      txns.push({
        day: d(month, day),
        type: "Expense",
        num: "",
        name: FUEL_VENDOR,
        lines: [cr(ACC.card, c, FUEL_VENDOR), dr(ACC.fuel, c, FUEL_VENDOR, "Truck fuel")]
      })
    }
    if (month % 2 === 0) {
      const c = BigInt(rng.int(3_000, 28_000))
      txns.push({
        day: d(month, rng.int(3, 26)),
        type: "Expense",
        num: "",
        name: OFFICE_VENDOR,
        lines: [cr(ACC.card, c, OFFICE_VENDOR), dr(ACC.office, c, OFFICE_VENDOR, "Office supplies")]
      })
    }
    if (month % 2 === 1) {
      const c = BigInt(rng.int(2_500, 40_000))
      txns.push({
        day: d(month, rng.int(3, 26)),
        type: "Expense",
        num: "",
        name: HARDWARE_VENDOR,
        lines: [
          cr(ACC.card, c, HARDWARE_VENDOR),
          dr(ACC.repairs, c, HARDWARE_VENDOR, "Hardware and small tools")
        ]
      })
    }
  }
  for (const day of [d(3, 12), d(8, 22)]) {
    const c = BigInt(rng.int(1_500, 9_000))
    txns.push({
      day,
      type: "Credit Card Credit",
      num: "",
      name: HARDWARE_VENDOR,
      lines: [dr(ACC.card, c, HARDWARE_VENDOR), cr(ACC.repairs, c, HARDWARE_VENDOR, "Returned tools")]
    })
  }
  for (const [quarterEnd, day] of [
    [d(3, 31), d(4, 18)],
    [d(6, 30), d(7, 18)],
    [d(9, 30), d(10, 20)]
  ] as const) {
    const { month } = CalendarDate.parts(quarterEnd)
    const collected = others
      .filter((t) => t.day <= quarterEnd && t.day >= d(month - 2, 1))
      .flatMap((t) => t.lines.filter((l) => l.account === ACC.salesTax))
      .reduce((s, l) => s + l.credit - l.debit, 0n)
    const period = `${CalendarDate.monthName(month - 2)}–${CalendarDate.monthName(month)} 2025`
    txns.push({
      day,
      type: "Check",
      num: "",
      name: AGENCY,
      lines: [cr(ACC.checking, collected, AGENCY), dr(ACC.salesTax, collected, AGENCY, `Sales tax ${period}`)]
    })
  }
  for (const [day, c] of [
    [d(3, 31), 500_000n],
    [d(6, 30), 500_000n],
    [d(9, 30), 300_000n],
    [d(12, 15), 300_000n]
  ] as const)
    txns.push({
      day,
      type: "Transfer",
      num: "",
      name: "",
      lines: [cr(ACC.checking, c, "", "Transfer to savings"), dr(ACC.savings, c, "", "Transfer to savings")]
    })
  for (const quarterEnd of [d(3, 31), d(6, 30), d(9, 30), d(12, 31)])
    txns.push({
      day: quarterEnd,
      type: "Journal Entry",
      num: "",
      name: "",
      lines: [
        dr(ACC.depreciation, 210_000n, "", "Quarterly truck depreciation"),
        cr(ACC.truckDepreciation, 210_000n, "", "Quarterly truck depreciation")
      ]
    })
  txns.push({
    day: d(12, 31),
    type: "Journal Entry",
    num: "",
    name: "",
    lines: [
      dr(ACC.repairs, 24_000n, "", "Stone edging used at the yard"),
      cr(ACC.stone, 24_000n, "", "Stone edging used at the yard")
    ]
  })

  // pay the card's balance at the end of each month on the 20th of the next
  const card = [...others, ...txns]
  for (let month = 2; month <= 12; month++) {
    const monthEnd = CalendarDate.endOfMonth(2025, month - 1)
    const owed = card
      .filter((t) => t.day <= monthEnd)
      .flatMap((t) => t.lines.filter((l) => l.account === ACC.card))
      .reduce((s, l) => s + l.credit - l.debit, 0n)
    if (owed <= 0n) continue
    const payoff: Txn = {
      day: d(month, 20),
      type: "Transfer",
      num: "",
      name: "",
      lines: [cr(ACC.checking, owed, "", "Visa payment"), dr(ACC.card, owed, "", "Visa payment")]
    }
    txns.push(payoff)
    card.push(payoff)
  }
  return txns
}
