/**
 * The manual journals of the year (owner funds, depreciation, a prepayment and its release, accruals and
 * their reversal, payroll accruals, reclassifications), each balancing to zero, written as Xero's manual
 * journal layout (`ManualJournals.csv`: positive = debit, negative = credit). The expense lines of
 * depreciation, accruals and their reversals are tracked to the head-office region.
 */
import type * as BigDecimal from "effect/BigDecimal"
import * as BigDecimalOps from "effect/BigDecimal"
import type { BankLedger } from "./BankLedger.js"
import * as CalendarDate from "./CalendarDate.js"
import { BANKS, CODES } from "./Chart.js"
import { YEAR } from "./Company.js"
import { CsvFile } from "./CsvFile.js"
import * as Money from "./Money.js"
import type { Prng } from "./Prng.js"
import * as TaxRates from "./TaxRates.js"
import * as Tracking from "./Tracking.js"

/** One journal line. */
export interface JournalLine {
  readonly description: string
  readonly accountCode: string
  readonly amount: BigDecimal.BigDecimal
  readonly tracking: ReadonlyArray<Tracking.Tracking>
}

/** One manual journal; its lines sum to zero. */
export interface Journal {
  readonly narration: string
  readonly day: CalendarDate.Day
  readonly lines: ReadonlyArray<JournalLine>
}

type Template =
  "owner" | "depreciation" | "prepayment" | "release" | "accrual" | "reversal" | "payroll" | "reclass"

const dollars = (rng: Prng, lo: number, hi: number): BigDecimal.BigDecimal =>
  Money.cents(rng.int(lo, hi) * 100)
const anyCents = (rng: Prng, lo: number, hi: number): BigDecimal.BigDecimal =>
  Money.cents(rng.int(lo * 100, hi * 100))
const jl = (
  description: string,
  accountCode: string,
  amount: BigDecimal.BigDecimal,
  tracking: ReadonlyArray<Tracking.Tracking> = Tracking.NONE
): JournalLine => ({ description, accountCode, amount, tracking })
const HEAD_OFFICE = Tracking.region("Central")
const negate = BigDecimalOps.negate
const plus = BigDecimalOps.sum

const monthLabel = (day: CalendarDate.Day): string => {
  const { month, year } = CalendarDate.parts(day)
  return `${CalendarDate.monthName(month)} ${year}`
}

const draw = (rng: Prng, template: Template, day: CalendarDate.Day): Journal => {
  const period = monthLabel(day)
  switch (template) {
    case "owner": {
      const x = dollars(rng, 20_000, 80_000)
      return {
        narration: "Owner funds introduced into DBS Business Account",
        day,
        lines: [
          jl("Capital injection by director", CODES.dbs, x),
          jl("Owner A", CODES.fundsIntroduced, negate(x))
        ]
      }
    }
    case "depreciation": {
      const office = anyCents(rng, 150, 900)
      const computers = anyCents(rng, 200, 1200)
      return {
        narration: `Depreciation - ${period}`,
        day,
        lines: [
          jl("Depreciation charge", CODES.depreciation, plus(office, computers), HEAD_OFFICE),
          jl("Office equipment", CODES.officeEquipmentDepreciation, negate(office)),
          jl("Computer equipment", CODES.computerEquipmentDepreciation, negate(computers))
        ]
      }
    }
    case "prepayment":
    case "release": {
      const x = template === "prepayment" ? dollars(rng, 2_400, 9_600) : anyCents(rng, 200, 800)
      const [debit, credit] =
        template === "prepayment"
          ? [CODES.prepayments, CODES.insurance]
          : [CODES.insurance, CODES.prepayments]
      return {
        narration:
          template === "prepayment"
            ? "Reclassify annual insurance premium to prepayments"
            : `Release of prepaid insurance - ${period}`,
        day,
        lines: [jl("Insurance premium", debit, x), jl("Insurance premium", credit, negate(x))]
      }
    }
    case "accrual":
    case "reversal": {
      const [a, b, c] = [anyCents(rng, 500, 3_000), anyCents(rng, 300, 1_200), anyCents(rng, 100, 600)]
      const sign = template === "accrual" ? (x: BigDecimal.BigDecimal) => x : negate
      return {
        narration:
          template === "accrual"
            ? `Accrued expenses - ${period}`
            : `Reversal of accrued expenses - ${period}`,
        day,
        lines: [
          jl("Audit and tax fees", CODES.consulting, sign(a), HEAD_OFFICE),
          jl("Electricity", CODES.utilities, sign(b), HEAD_OFFICE),
          jl("Broadband", CODES.telephone, sign(c), HEAD_OFFICE),
          jl("Accrued expenses", CODES.accruals, sign(negate(plus(plus(a, b), c))))
        ]
      }
    }
    case "payroll": {
      const gross = anyCents(rng, 18_000, 36_000)
      const cpf = Money.round2(BigDecimalOps.multiply(gross, Money.units(17, 2)))
      return {
        narration: `Payroll accrual - ${period}`,
        day,
        lines: [
          jl("Salaries and employer CPF", CODES.wages, plus(gross, cpf)),
          jl("CPF contributions payable", CODES.cpfPayable, negate(cpf)),
          jl("Net salaries payable", CODES.accruals, negate(gross))
        ]
      }
    }
    case "reclass": {
      const x = anyCents(rng, 80, 1_500)
      return {
        narration: "Reclassify software subscriptions from office expenses",
        day,
        lines: [
          jl("Software subscriptions", CODES.subscriptions, x),
          jl("Coded in error", CODES.officeExpenses, negate(x))
        ]
      }
    }
  }
}

const day = CalendarDate.make

/** The ten journals every company has. */
const BASE: ReadonlyArray<readonly [Template, CalendarDate.Day]> = [
  ["owner", day(YEAR, 1, 6)],
  ["prepayment", day(YEAR, 1, 31)],
  ["depreciation", day(YEAR, 3, 31)],
  ["accrual", day(YEAR, 6, 30)],
  ["depreciation", day(YEAR, 6, 30)],
  ["reversal", day(YEAR, 7, 1)],
  ["depreciation", day(YEAR, 9, 30)],
  ["reclass", day(YEAR, 9, 30)],
  ["depreciation", day(YEAR, 12, 31)],
  ["payroll", day(YEAR, 12, 31)]
]

const EXTRA: ReadonlyArray<readonly [Template, number]> = [
  ["depreciation", 3],
  ["accrual", 2],
  ["reversal", 1],
  ["release", 2],
  ["payroll", 3],
  ["reclass", 2],
  ["owner", 1]
]

/** `count` journals (at least the ten base ones) in date order; narrations are unique per date. */
export const generate = (rng: Prng, count: number): Array<Journal> => {
  const plan: Array<readonly [Template, CalendarDate.Day]> = [...BASE]
  while (plan.length < count) {
    const template = rng.weighted(EXTRA)
    const month = rng.int(1, 12)
    const date = template === "reversal" ? day(YEAR, month, 1) : CalendarDate.endOfMonth(YEAR, month)
    plan.push([template, rng.chance(0.7) ? date : day(YEAR, month, rng.int(1, 28))])
  }
  const seen = new Set<string>()
  const journals = plan.map(([template, on]) => {
    const journal = draw(rng, template, on)
    let narration = journal.narration
    for (let n = 2; seen.has(`${on}|${narration}`); n++) narration = `${journal.narration} (${n})`
    seen.add(`${on}|${narration}`)
    return { ...journal, narration }
  })
  return journals
    .map((j, i) => [j, i] as const)
    .sort(([a, i], [b, k]) => a.day - b.day || i - k)
    .map(([j]) => j)
}

/** The header of Xero's manual journal layout. */
export const HEADER = [
  "*Narration",
  "*Date",
  "Description",
  "*AccountCode",
  "*TaxRate",
  "*Amount",
  "TrackingName1",
  "TrackingOption1",
  "TrackingName2",
  "TrackingOption2"
] as const

/** Writes `ManualJournals.csv`; returns the number of line rows. */
export const write = (path: string, journals: ReadonlyArray<Journal>): number => {
  const file = new CsvFile(path)
  file.row(HEADER)
  for (const j of journals) {
    for (const l of j.lines) {
      file.row([
        j.narration,
        CalendarDate.format(j.day),
        l.description,
        l.accountCode,
        TaxRates.NO_GST,
        Money.format2(l.amount),
        ...Tracking.cells(l.tracking)
      ])
    }
  }
  return file.close() - 1
}

/** Records the journal's lines on bank accounts in the bank report (`Manual Journal` rows). */
export const recordBankLines = (ledger: BankLedger, j: Journal): void => {
  for (const l of j.lines) {
    const bank = BANKS.findIndex((b) => b.code === l.accountCode)
    if (bank < 0) continue
    const debit = !BigDecimalOps.isNegative(l.amount)
    ledger.add(bank, j.day, {
      source: "Manual Journal",
      description: j.narration,
      reference: "",
      debit,
      amount: debit ? l.amount : negate(l.amount)
    })
  }
}
