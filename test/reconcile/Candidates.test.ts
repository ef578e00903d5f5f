/**
 * Which transactions explain an account's difference, on synthetic books and ledger lines: an extra posting
 * the source does not know, a missing payment, a changed line, and the platform's own postings left out.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Candidates from "../../src/reconcile/Candidates.js"
import type { LedgerAccount, LedgerLine } from "../../src/reconcile/TargetBooks.js"
import { normalizeName } from "../../src/transform/Mappings.js"
import * as Money from "../../src/transform/Money.js"
import { journalReference } from "../../src/transform/RecordIdentity.js"
import * as TrialBalanceCheck from "../../src/reconcile/TrialBalanceCheck.js"
import { books, invoice, m, pairing } from "./Synthetic.js"

const resolve = TrialBalanceCheck.pairingResolver(pairing)
const account = (code: string) => {
  const name = resolve(code)
  return name === undefined ? undefined : normalizeName(name)
}

const source = books({
  documents: [
    invoice(),
    invoice({
      number: "INV-2",
      amountPaid: m("218.00"),
      amountDue: Money.zero,
      lineage: ["SalesInvoices.csv:3"]
    })
  ],
  payments: [
    {
      documentKind: "invoice",
      documentNumber: "INV-2",
      bankAccountName: "DBS Business Account",
      date: "2025-03-20",
      amount: m("218.00"),
      lineage: "AccountTransactions.csv:8"
    }
  ],
  journals: [
    {
      narration: "Rent for March",
      date: "2025-03-31",
      lines: [
        { accountCode: "469", description: "", amount: m("300.00"), lineage: "ManualJournals.csv:2" },
        { accountCode: "090", description: "", amount: m("-300.00"), lineage: "ManualJournals.csv:3" }
      ],
      lineage: ["ManualJournals.csv:2", "ManualJournals.csv:3"]
    }
  ]
})
const postings = Candidates.sourcePostings(source, "SGD", account, {
  AR: "accounts receivable",
  AP: "accounts payable"
})

const l = (reference: string, amount: string, type = "INVOICE", date = "2025-03-10"): LedgerLine => ({
  reference,
  date,
  type,
  amount: m(amount),
  currency: "SGD",
  sourceAmount: m(amount)
})
const ledger = (name: string, lines: ReadonlyArray<LedgerLine>, opening = "0"): LedgerAccount => ({
  accountName: name,
  opening: m(opening),
  lines
})
const explain = (
  key: string,
  difference: string,
  at: LedgerAccount,
  changed: ReadonlySet<string> = new Set()
) => Candidates.explain(key, m(difference), at, postings, changed, "2025-01-01", "2025-12-31")

describe("candidates for an account's difference", () => {
  it("finds nothing when the ledger holds exactly what the source posts", () => {
    const sales = ledger("Sales", [l("INV-1", "-200.00"), l("INV-2", "-200.00")])
    assert.deepStrictEqual(explain("sales", "0", sales).candidates, [])
    const bank = ledger("DBS Business Account", [
      l("INV-2-PMT1", "218.00", "SALE_PAYMENT"),
      l(journalReference("2025-03-31", "Rent for March"), "-300.00", "JOURNAL")
    ])
    assert.deepStrictEqual(explain("dbs business account", "0", bank).candidates, [])
  })

  it("names a journal the source does not know as extra, first when its amount is the difference", () => {
    const rent = ledger("Rent", [
      l(journalReference("2025-03-31", "Rent for March"), "300.00", "JOURNAL"),
      l("ADJ-99", "45.00", "JOURNAL", "2025-06-30")
    ])
    const { candidates } = explain("rent", "45.00", rent)
    assert.deepStrictEqual(
      candidates.map((c) => [c.kind, c.reference, c.target]),
      [["extra", "ADJ-99", "45.00"]]
    )
  })

  it("names a deleted payment as missing on the bank account and on receivables, with its source row", () => {
    const bank = ledger("DBS Business Account", [
      l(journalReference("2025-03-31", "Rent for March"), "-300.00", "JOURNAL")
    ])
    const onBank = explain("dbs business account", "-218.00", bank).candidates
    assert.deepStrictEqual(
      onBank.map((c) => [c.kind, c.entity, c.reference, c.source]),
      [["missing", "invoice payment", "INV-2-PMT1", "218.00"]]
    )
    assert.deepStrictEqual(onBank[0]!.lineage, ["AccountTransactions.csv:8"])
    const ar = ledger("Accounts Receivable", [l("INV-1", "218.00"), l("INV-2", "218.00")])
    assert.deepStrictEqual(
      explain("accounts receivable", "218.00", ar).candidates.map((c) => [c.kind, c.reference]),
      [["missing", "INV-2-PMT1"]]
    )
  })

  it("names a changed line as changed with both amounts, and leaves the platform's own postings out", () => {
    const sales = ledger("Sales", [l("INV-1", "-250.00"), l("INV-2", "-200.00")])
    const { candidates } = explain("sales", "-50.00", sales)
    assert.deepStrictEqual(
      candidates.map((c) => [c.kind, c.reference, c.source, c.target]),
      [["changed", "INV-1", "-200.00", "-250.00"]]
    )
    const gst = ledger("GST Control", [l("INV-1", "-22.50"), l("INV-2", "-18.00")])
    assert.deepStrictEqual(
      explain("gst control", "-4.50", gst).candidates,
      [],
      "tax lines are the platform's: not candidates by themselves"
    )
    assert.deepStrictEqual(
      explain("gst control", "-4.50", gst, new Set(["INV-1"])).candidates.map((c) => [c.kind, c.reference]),
      [["changed", "INV-1"]],
      "unless the document comparison found the document changed"
    )
  })

  it("counts postings before the comparison's start as a candidate", () => {
    const rent = ledger(
      "Rent",
      [l(journalReference("2025-03-31", "Rent for March"), "300.00", "JOURNAL")],
      "12.00"
    )
    assert.deepStrictEqual(
      explain("rent", "12.00", rent).candidates.map((c) => [c.kind, c.reference, c.target]),
      [["extra", "before 2025-01-01", "12.00"]]
    )
  })
})
