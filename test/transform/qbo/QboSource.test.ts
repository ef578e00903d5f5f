/**
 * QuickBooks Online's exports through the extract into source books: the Journal grouped into transactions
 * (an unbalanced one rejected with its rows, a voided one skipped with a warning), an account the Account List
 * lacks created as Unmapped with a warning, a sale's tax rate and taxable lines inferred, payments linked to
 * invoices from the A/R Aging Detail (an ambiguous one reported) or as a links file states, and a Deposit as a
 * transfer out of Undeposited Funds.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Money from "../../../src/transform/Money.js"
import type { Issue } from "../../../src/transform/SourceModel.js"
import { booksOf, DESIGN, FILES, LAWN, UNAPPLIED_PAYMENT } from "./QboFiles.js"

const fixed = (m: Money.Money) => Money.toFixed(m)

describe("QuickBooks Online source books", () => {
  it.scoped(
    "groups the Journal: unbalanced rejected with every row, voided skipped, unmapped account warned",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf(FILES)
        const rejects = books.issues.filter((i) => i.severity === "reject")
        assert.deepStrictEqual(
          rejects.map((i) => [i.what, i.lineage]),
          [["the Sales Receipt transaction 1010 at Journal.csv:44", ["Journal.csv:44", "Journal.csv:45"]]]
        )
        assert.match(rejects[0]!.why, /debits \(50\.00\) and credits \(45\.00\) differ/)
        const warnings = books.issues.filter((i) => i.severity === "warning")
        const voided = warnings.filter((w) => /^voided /.test(w.what))
        assert.deepStrictEqual(
          voided.map((w) => [w.what, w.lineage]),
          [
            [
              "voided Invoice 1005 of 2025-03-06 (Amaya Residence) at Journal.csv:48",
              ["Journal.csv:48", "Journal.csv:49"]
            ]
          ]
        )
        assert.deepStrictEqual(
          books.documents.map((d) => d.number),
          ["1001", "1002", "1003", "1004"],
          "the voided and the unbalanced transactions are not documents"
        )
        const fuel = books.accounts.find((a) => a.name === "Automobile:Fuel")
        assert.deepStrictEqual([fuel?.type, fuel?.lineage], ["Unmapped", "Journal.csv:53"])
        assert.isTrue(
          warnings.some(
            (w) => w.what === 'account "Automobile:Fuel"' && /Account List does not have it/.test(w.why)
          )
        )
        assert.deepStrictEqual(
          books.cashEntries?.map((c) => [
            c.direction,
            c.bankAccountName,
            fixed(c.amount),
            c.lines.map((l) => l.accountName)
          ]),
          [["out", "Checking", "40.00", ["Automobile:Fuel"]]]
        )
        assert.deepStrictEqual(
          books.transfers?.map((t) => [t.fromAccountName, t.toAccountName, fixed(t.amountOut), t.date]),
          [["Undeposited Funds", "Checking", "816.50", "2025-03-02"]]
        )
      })
  )

  it.scoped(
    "infers the sales tax rate and taxable lines, splitting a line where per-line rounding is a cent off",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf(FILES)
        const inv = books.documents.find((d) => d.number === "1001")!
        assert.deepStrictEqual([fixed(inv.total), fixed(inv.taxTotal)], ["97.29", "0.17"])
        assert.deepStrictEqual(
          inv.lines.map((l) => [
            l.accountCode,
            fixed(l.lineAmount),
            l.taxType,
            fixed(l.taxAmount),
            l.lineage
          ]),
          [
            [LAWN, "0.53", "Austin TX 8.25%", "0.04", "Journal.csv:7"],
            [LAWN, "0.53", "Austin TX 8.25%", "0.04", "Journal.csv:7"],
            [LAWN, "1.06", "Austin TX 8.25%", "0.09", "Journal.csv:8"],
            [DESIGN, "95.00", "", "0.00", "Journal.csv:9"]
          ]
        )
        // No rate named on the tax line: the fewest decimals that reproduce it.
        const second = books.documents.find((d) => d.number === "1002")!
        assert.deepStrictEqual(
          second.lines.map((l) => [l.taxType, fixed(l.taxAmount)]),
          [["8.25%", "16.50"]]
        )
      })
  )

  it.scoped("links payments from the aging's open balances, reporting the ambiguous one", () =>
    Effect.gen(function* () {
      const books = yield* booksOf(FILES)
      assert.deepStrictEqual(
        books.documents.map((d) => [d.number, fixed(d.amountPaid), fixed(d.amountDue), d.dueDate]),
        [
          ["1001", "0.00", "97.29", "2025-02-09"],
          ["1002", "216.50", "0.00", undefined],
          ["1003", "300.00", "0.00", undefined],
          ["1004", "300.00", "0.00", undefined]
        ]
      )
      assert.deepStrictEqual(
        books.payments.map((p) => [p.documentNumber, p.date, fixed(p.amount), p.bankAccountName, p.lineage]),
        [
          ["1002", "2025-02-15", "216.50", "Undeposited Funds", "Journal.csv:26"],
          ["1003", "2025-02-20", "300.00", "Undeposited Funds", "Journal.csv:30"],
          ["1004", "2025-03-01", "300.00", "Undeposited Funds", "Journal.csv:34"]
        ]
      )
      const ambiguous = books.issues.filter((i) => i.severity === "warning" && /^payment /.test(i.what))
      assert.deepStrictEqual(
        ambiguous.map((i) => [i.what, i.lineage]),
        [
          [
            "payment 2025-02-20 Barton Creek HOA 300.00 of 2025-02-20 (Barton Creek HOA, 300.00)",
            ["Journal.csv:30", "Journal.csv:31"]
          ]
        ]
      )
      assert.match(
        ambiguous[0]!.why,
        /candidates 1003 of 2025-01-20 \(300\.00 unexplained\), 1004 of 2025-02-01 \(300\.00 unexplained\)/
      )
      assert.deepStrictEqual(
        books.agedReports.map((a) => [
          a.side,
          a.asAt,
          Array.from(a.items, (i) => [i.number, fixed(i.outstanding)])
        ]),
        [["AR", "2025-12-31", [["1001", "97.29"]]]]
      )
    })
  )

  it.scoped("a links file overrides the inference for the payments it names", () =>
    Effect.gen(function* () {
      const books = yield* booksOf({
        ...FILES,
        "QuickBooksLinks.csv": [
          "Credit Note Number,Document Number,Amount",
          "P-77,1003,300.00",
          "1020,1001,10.00"
        ].join("\n")
      })
      assert.deepStrictEqual(
        books.payments.map((p) => [p.documentNumber, p.date, fixed(p.amount)]),
        [
          ["1003", "2025-03-01", "300.00"],
          ["1002", "2025-02-15", "216.50"],
          ["1004", "2025-02-20", "300.00"]
        ]
      )
      assert.deepStrictEqual(
        books.allocations?.map((a) => [a.creditNumber, a.documentNumber, fixed(a.amount), a.lineage]),
        [["1020", "1001", "10.00", "QuickBooksLinks.csv:3"]],
        "a payment's link is not a credit allocation; a credit memo's is"
      )
      assert.isFalse(
        books.issues.some((i) => /^payment /.test(i.what)),
        "nothing left ambiguous"
      )
    })
  )

  it.scoped(
    "a payment no invoice can take, which the aging lists as an unapplied payment, is an overpayment",
    () =>
      Effect.gen(function* () {
        const books = yield* booksOf(UNAPPLIED_PAYMENT)
        assert.deepStrictEqual(
          books.issues.filter((i) => i.severity === "reject").map((i) => i.what),
          ["the Sales Receipt transaction 1010 at Journal.csv:44"],
          "no reject for the payment or its aging row"
        )
        assert.deepStrictEqual(
          books.credits?.map((c) => [
            c.origin,
            c.side,
            c.reference,
            c.contactName,
            fixed(c.total),
            fixed(c.used),
            fixed(c.remaining)
          ]),
          [["overpayment", "sale", "5150", "Amaya Residence", "120.00", "0.00", "120.00"]]
        )
        assert.deepStrictEqual(
          books.creditFundings?.map((f) => [f.origin, f.bankAccountName, f.date, fixed(f.amount)]),
          [["overpayment", "Undeposited Funds", "2025-04-01", "120.00"]]
        )
        // Without the aging's row, the same payment is a reject naming the candidates.
        const unlisted = yield* booksOf({
          ...UNAPPLIED_PAYMENT,
          "ARAgingDetail.csv": FILES["ARAgingDetail.csv"]
        })
        assert.isTrue(
          unlisted.issues.some(
            (i) =>
              i.severity === "reject" &&
              i.what === "120.00 of payment 5150 of 2025-04-01 (Amaya Residence, 120.00)"
          )
        )
      })
  )

  it.scoped(
    "a General Ledger report is named, not read: a warning beside a Journal, a reject without one",
    () =>
      Effect.gen(function* () {
        const ledger = NodeFs.readFileSync(
          NodePath.resolve(import.meta.dirname, "../../fixtures/extract/qbo/GeneralLedger.csv"),
          "utf8"
        )
        const ledgerIssue = (books: { readonly issues: ReadonlyArray<Issue> }) =>
          books.issues.filter((i) => i.what.startsWith("the General Ledger / Transaction Detail by Account"))
        const beside = ledgerIssue(yield* booksOf({ ...FILES, "GeneralLedger.csv": ledger }))
        assert.deepStrictEqual(
          beside.map((i) => [i.severity, i.lineage]),
          [["warning", [beside[0]!.lineage[0]!]]]
        )
        assert.match(beside[0]!.lineage[0]!, /^GeneralLedger\.csv:\d+$/)
        const { "Journal.csv": _journal, ...withoutJournal } = FILES
        const alone = ledgerIssue(yield* booksOf({ ...withoutJournal, "GeneralLedger.csv": ledger }))
        assert.deepStrictEqual(
          alone.map((i) => i.severity),
          ["reject"]
        )
        assert.include(alone[0]!.fix, "export Reports → Journal")
      })
  )
})
