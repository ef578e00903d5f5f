/**
 * Who the sample company is and how big it gets: Demo Trading Pte. Ltd., a Singapore office-furniture
 * trader reporting in SGD for the calendar year 2025, with every file's size derived from the invoice count.
 */
import * as CalendarDate from "./CalendarDate.js"

/** The Xero organisation name shown in report titles. */
export const ORGANISATION = "Demo Trading Pte. Ltd."

/** The base currency. */
export const BASE_CURRENCY = "SGD"

/** The financial year (1 January to 31 December). */
export const YEAR = 2025

/** The first day of the financial year. */
export const FIRST_DAY: CalendarDate.Day = CalendarDate.make(YEAR, 1, 1)

/** The last day of the financial year. */
export const LAST_DAY: CalendarDate.Day = CalendarDate.make(YEAR, 12, 31)

/** How many of each thing a company with `invoices` sales invoices has. */
export interface Size {
  readonly invoices: number
  readonly bills: number
  readonly journals: number
  readonly contacts: number
  readonly items: number
  readonly draftInvoices: number
  readonly voidedInvoices: number
  readonly draftBills: number
  /** Sales credit notes that are used or left open, and voided ones. */
  readonly creditNotes: number
  readonly voidedCreditNotes: number
  readonly billCreditNotes: number
  readonly overpayments: number
  readonly prepayments: number
  readonly billOverpayments: number
  readonly billPrepayments: number
  readonly spendMoney: number
  readonly receiveMoney: number
  readonly transfers: number
}

/**
 * The sizes for an invoice count: 150 invoices give 100 bills, 10 journals, 40 contacts and 15 items, 6 sales
 * credit notes (and a voided one), 4 bill credit notes, 3 of each kind of overpayment and prepayment, 13
 * Spend Money, 6 Receive Money and 5 bank transfers.
 */
export const sizeFor = (invoices: number): Size => {
  const bills = Math.round((invoices * 2) / 3)
  const scale = invoices / 150
  const special = Math.max(2, Math.round(invoices / 75))
  return {
    invoices,
    bills,
    journals: Math.max(10, Math.round(invoices / 15)),
    contacts: Math.max(20, Math.round(40 * Math.pow(scale, 0.35))),
    items: Math.max(8, Math.round(15 * Math.pow(scale, 0.25))),
    draftInvoices: Math.min(special, Math.floor(invoices / 4)),
    voidedInvoices: Math.min(special, Math.floor(invoices / 4)),
    draftBills: Math.min(Math.max(1, Math.round(bills / 100)), Math.floor(bills / 4)),
    creditNotes: Math.max(2, Math.round(invoices / 25)),
    voidedCreditNotes: Math.max(1, Math.round(invoices / 150)),
    billCreditNotes: Math.max(1, Math.round(bills / 25)),
    overpayments: Math.max(1, Math.round(invoices / 50)),
    prepayments: Math.max(1, Math.round(invoices / 50)),
    billOverpayments: Math.max(1, Math.round(bills / 33)),
    billPrepayments: Math.max(1, Math.round(bills / 33)),
    spendMoney: Math.max(4, Math.round(invoices / 12)),
    receiveMoney: Math.max(2, Math.round(invoices / 25)),
    transfers: Math.max(4, Math.round(invoices / 30))
  }
}
