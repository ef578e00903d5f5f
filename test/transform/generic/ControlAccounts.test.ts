/**
 * A profiled ledger's debtors and creditors control accounts are ordinary accounts to its journals, but a
 * quick conversion must treat them as the receivables and payables control: their balances become the aged
 * open items, and they stand for the target's own control accounts (where the conversion documents post).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Money from "../../../src/transform/Money.js"
import * as QuickConversion from "../../../src/transform/QuickConversion.js"
import type { SourceAccount, SourceAgedReport, SourceBooks } from "../../../src/transform/SourceModel.js"
import { books, m, mappings, snapshot, tbLine } from "../Books.js"

const AS_AT = "2025-06-30"

const account = (code: string, name: string, type: string, control?: "AR" | "AP"): SourceAccount => ({
  code,
  name,
  type,
  taxCode: "",
  description: "",
  lineage: "GeneralJournal.txt:2",
  ...(control !== undefined ? { control } : {})
})

const aged = (side: "AR" | "AP", contact: string, amount: string): SourceAgedReport => ({
  side,
  asAt: AS_AT,
  items: [
    {
      contactName: contact,
      number: `${side}-1`,
      reference: "",
      date: "2025-06-01",
      dueDate: undefined,
      outstanding: m(amount),
      currency: undefined,
      lineage: `Aged${side}.txt:2`
    }
  ],
  file: `Aged${side}.txt`
})

const source = (control: boolean): SourceBooks =>
  books({
    accounts: [
      account("1-1110", "Cheque Account", "Bank"),
      account("1-1200", "Trade Debtors", "Current Asset", control ? "AR" : undefined),
      account("2-1200", "Trade Creditors", "Current Liability", control ? "AP" : undefined),
      account("3-1100", "Owner's Capital", "Current Liability")
    ],
    trialBalances: [
      {
        asAt: AS_AT,
        lines: [
          tbLine("1-1110", "Cheque Account", "1000.00", "0", 2),
          tbLine("1-1200", "Trade Debtors", "300.00", "0", 3),
          tbLine("2-1200", "Trade Creditors", "0", "120.00", 4),
          tbLine("3-1100", "Owner's Capital", "0", "1180.00", 5)
        ],
        totalDebit: m("1300.00"),
        totalCredit: m("1300.00"),
        file: "TrialBalance.txt"
      }
    ],
    agedReports: [aged("AR", "Harbour Cafe", "300.00"), aged("AP", "Sydney Wholesale", "120.00")]
  })

describe("a profiled ledger's control accounts in a quick conversion", () => {
  it("marked as control, they open as the aged items and stand for the target's control accounts", () => {
    const made = QuickConversion.books(source(true), AS_AT, snapshot, mappings)
    if (made instanceof QuickConversion.ConversionRefused) throw new Error(made.message)
    assert.deepStrictEqual(
      made.books.accounts.filter((a) => a.code.includes("-")).map((a) => [a.code, a.name]),
      [
        ["1-1110", "Cheque Account"],
        ["1-1200", "Accounts Receivable"],
        ["2-1200", "Accounts Payable"],
        ["3-1100", "Owner's Capital"]
      ]
    )
    assert.deepStrictEqual(
      made.books.journals[0]!.lines.map((l) => [l.accountCode, Money.toFixed(l.amount)]),
      [
        ["1-1110", "1000.00"],
        [QuickConversion.clearingAccounts.AR, "300.00"],
        [QuickConversion.clearingAccounts.AP, "-120.00"],
        ["3-1100", "-1180.00"]
      ]
    )
    assert.deepStrictEqual(
      made.books.documents.map((d) => [d.kind, d.contactName, Money.toFixed(d.total)]),
      [
        ["invoice", "Harbour Cafe", "300.00"],
        ["bill", "Sydney Wholesale", "120.00"]
      ]
    )
  })

  it("unmarked, the aged listings have no control balance to open against and are refused", () => {
    const made = QuickConversion.books(source(false), AS_AT, snapshot, mappings)
    assert.instanceOf(made, QuickConversion.ConversionRefused)
    assert.include(
      (made as QuickConversion.ConversionRefused).message,
      "its total 300.00 is not the receivables control balance 0.00"
    )
  })
})
