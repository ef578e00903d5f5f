/**
 * Receivables per contact and per open document against a synthetic aged report: agreement, a payment the
 * target lacks, a document only the target holds open, per-currency reports, conversion rounding, and open
 * credits (a credit note by its number, an overpayment by its contact and date) as negative items.
 */
import { assert, describe, it } from "@effect/vitest"
import * as AgedCheck from "../../src/reconcile/AgedCheck.js"
import type { TargetAgedRow } from "../../src/reconcile/TargetBooks.js"
import * as Money from "../../src/transform/Money.js"
import { headingOf } from "../../src/transform/ComparedDocuments.js"
import { reportMatches } from "../../src/transform/OpenItems.js"
import type { SourceAgedItem, SourceAgedReport, SourceCredit } from "../../src/transform/SourceModel.js"
import { creditReferences } from "../../src/transform/TransactionIdentity.js"
import { books, invoice, m, targetDoc } from "./Synthetic.js"

const item = (over: Partial<SourceAgedItem> = {}): SourceAgedItem => ({
  contactName: "Café Nüsantara Pte. Ltd.",
  number: "INV-1",
  reference: "",
  date: "2025-03-10",
  dueDate: "2025-04-09",
  outstanding: m("218.00"),
  currency: undefined,
  lineage: "AgedReceivablesDetail.csv:6",
  ...over
})
const report = (items: ReadonlyArray<SourceAgedItem>): SourceAgedReport => ({
  side: "AR",
  asAt: "2025-12-31",
  items,
  file: "AgedReceivablesDetail.csv"
})
const row = (contact: string, outstanding: string, currency = "SGD", base = outstanding): TargetAgedRow => ({
  contact,
  currency,
  outstanding: m(outstanding),
  outstandingBase: m(base)
})

const source = books({
  documents: [
    invoice(),
    invoice({
      number: "INV-2",
      date: "2025-04-01",
      amountPaid: m("218.00"),
      amountDue: Money.zero,
      lineage: ["SalesInvoices.csv:3"]
    })
  ]
})

describe("aged receivables comparison", () => {
  it("agrees per contact and per document, names as the source spells them", () => {
    const { comparison, differences } = AgedCheck.compareAged(
      report([item()]),
      [row("Café Nüsantara Pte. Ltd.", "218.00")],
      [
        targetDoc(),
        targetDoc({
          reference: "INV-2",
          date: "2025-04-01",
          payments: [{ reference: "INV-2-PMT1", date: "2025-04-10", amount: m("218.00") }]
        })
      ],
      source,
      "SGD"
    )
    assert.deepStrictEqual(differences, [])
    assert.strictEqual(comparison.contacts.length, 1)
    assert.strictEqual(comparison.contacts[0]!.contact, "Café Nüsantara Pte. Ltd.")
    assert.deepStrictEqual(comparison.totals, { source: "218.00", target: "218.00", difference: "0.00" })
    assert.isFalse(comparison.perCurrency)
  })

  it("names the document a deleted payment reopened, as open in the target only", () => {
    const { differences } = AgedCheck.compareAged(
      report([item()]),
      [row("Café Nüsantara Pte. Ltd.", "436.00")],
      [targetDoc(), targetDoc({ reference: "INV-2", date: "2025-04-01" })],
      source,
      "SGD"
    )
    assert.strictEqual(differences.length, 1)
    const d = differences[0]!
    assert.strictEqual(d.class, "contact-balance")
    assert.strictEqual(d.subject, "Café Nüsantara Pte. Ltd.")
    assert.strictEqual(d.difference, "218.00")
    assert.deepStrictEqual(
      d.candidates.map((c) => [c.kind, c.reference, c.source, c.target]),
      [["extra", "INV-2", "0.00", "218.00"]]
    )
    assert.match(
      d.fix,
      /INV-2 open in the target but not in the source's report: a payment missing in the target/
    )
  })

  it("gives the same comparison whatever windows the target's documents come in, and in what order", () => {
    // INV-1 open on both sides, INV-2 paid, INV-2 again (a copy) open in the target only, INV-3 dated after the
    // report, and a credit note of another contact: each window alone, last first, against all at once.
    const docs = [
      targetDoc(),
      targetDoc({
        reference: "INV-2",
        date: "2025-04-01",
        payments: [{ reference: "INV-2-PMT1", date: "2025-04-10", amount: m("218.00") }]
      }),
      targetDoc({ reference: "INV-2", date: "2025-05-01" }),
      targetDoc({ reference: "INV-3", date: "2026-01-02" }),
      targetDoc({
        kind: "customer-credit-note",
        reference: "CN-9",
        contact: "Atlas Components Ltd.",
        total: m("40.00")
      })
    ]
    const rows = [row("Café Nüsantara Pte. Ltd.", "436.00"), row("Atlas Components Ltd.", "-40.00")]
    const whole = AgedCheck.compareAged(report([item()]), rows, docs, source, "SGD")
    assert.deepStrictEqual(
      whole.differences.map((d) => [d.subject, d.difference]),
      [
        ["Atlas Components Ltd.", "-40.00"],
        ["Café Nüsantara Pte. Ltd.", "218.00"]
      ]
    )
    const own = report([item()])
    const tally = AgedCheck.agedTally(headingOf(own), "SGD")
    const matches = reportMatches(source, own)
    Array.from(own.items).forEach((item, at) => tally.source(item, matches[at] ?? null))
    tally.target(rows)
    for (const doc of [...docs].reverse()) tally.add([doc])
    assert.deepStrictEqual(tally.finish(), whole)
  })

  it("counts payments only up to the report's date", () => {
    const { differences } = AgedCheck.compareAged(
      report([item()]),
      [row("Café Nüsantara Pte. Ltd.", "218.00")],
      [targetDoc({ payments: [{ reference: "INV-1-PMT1", date: "2026-01-05", amount: m("218.00") }] })],
      source,
      "SGD"
    )
    assert.deepStrictEqual(differences, [])
  })

  it("compares per currency when the report gives currencies, and calls cents on foreign documents rounding", () => {
    const usd = books({
      documents: [invoice({ currency: "USD", total: m("100.00"), amountDue: m("100.00") })]
    })
    const perCurrency = AgedCheck.compareAged(
      report([item({ currency: "USD", outstanding: m("100.00") })]),
      [row("Café Nüsantara Pte. Ltd.", "100.00", "USD", "134.12")],
      [targetDoc({ currency: "USD", total: m("100.00"), exchangeRate: m("0.7456") })],
      usd,
      "SGD"
    )
    assert.isTrue(perCurrency.comparison.perCurrency)
    assert.deepStrictEqual(perCurrency.differences, [])
    assert.strictEqual(perCurrency.comparison.contacts[0]!.currency, "USD")

    const inBase = AgedCheck.compareAged(
      report([item({ outstanding: m("134.13") })]),
      [row("Café Nüsantara Pte. Ltd.", "100.00", "USD", "134.12")],
      [targetDoc({ currency: "USD", total: m("100.00"), exchangeRate: m("0.7456") })],
      usd,
      "SGD"
    )
    assert.deepStrictEqual(
      inBase.differences.map((d) => [d.class, d.difference]),
      [["rounding", "-0.01"]]
    )
  })

  describe("open credits", () => {
    const credit = (over: Partial<SourceCredit> = {}): SourceCredit => ({
      side: "sale",
      origin: "credit-note",
      number: "CN-1",
      reference: "INV-1",
      contactName: "Café Nüsantara Pte. Ltd.",
      date: "2025-05-02",
      currency: "",
      state: "open",
      status: "Authorised",
      total: m("50.00"),
      taxTotal: Money.zero,
      used: m("20.00"),
      remaining: m("30.00"),
      lines: [],
      lineage: ["SalesInvoices.csv:9"],
      ...over
    })
    const overpayment = credit({
      origin: "overpayment",
      number: "",
      reference: "",
      date: "2025-06-01",
      total: m("80.00"),
      used: Money.zero,
      remaining: m("80.00"),
      lineage: ["SalesInvoices.csv:12"]
    })
    const withCredits = books({ documents: [invoice()], credits: [credit(), overpayment] })
    const overpaymentRef = creditReferences([overpayment]).get(overpayment)!
    const items = [
      item(),
      item({
        number: "CN-1",
        reference: "INV-1",
        date: "2025-05-02",
        dueDate: undefined,
        outstanding: m("-30.00")
      }),
      item({
        number: "",
        reference: "Overpayment",
        date: "2025-06-01",
        dueDate: undefined,
        outstanding: m("-80.00")
      })
    ]
    const note = (over: Partial<Parameters<typeof targetDoc>[0]> = {}) =>
      targetDoc({
        kind: "customer-credit-note",
        reference: "CN-1",
        date: "2025-05-02",
        dueDate: "",
        status: "UNAPPLIED",
        total: m("50.00"),
        credits: [{ reference: "", date: "2025-05-10", amount: m("20.00") }],
        ...over
      })
    const held = targetDoc({
      kind: "customer-credit-note",
      reference: overpaymentRef,
      date: "2025-06-01",
      dueDate: "",
      status: "UNAPPLIED",
      total: m("80.00")
    })

    it("match the target's credit notes: a credit note by number, an overpayment by contact, date and kind", () => {
      const { comparison, differences } = AgedCheck.compareAged(
        report(items),
        [row("Café Nüsantara Pte. Ltd.", "108.00")],
        [targetDoc(), note(), held],
        withCredits,
        "SGD"
      )
      assert.deepStrictEqual(differences, [])
      assert.deepStrictEqual(
        comparison.contacts[0]!.documents.map((d) => [d.reference, d.source, d.target]),
        [
          ["INV-1", "218.00", "218.00"],
          ["CN-1", "-30.00", "-30.00"],
          [overpaymentRef, "-80.00", "-80.00"]
        ]
      )
    })

    it("name a credit application the target lacks: the credit note holds more credit than the source", () => {
      const { differences } = AgedCheck.compareAged(
        report(items),
        [row("Café Nüsantara Pte. Ltd.", "88.00")],
        [targetDoc(), note({ credits: [] }), held],
        withCredits,
        "SGD"
      )
      assert.strictEqual(differences.length, 1)
      assert.deepStrictEqual(
        differences[0]!.candidates.map((c) => [c.kind, c.entity, c.reference, c.source, c.target]),
        [["changed", "customer-credit-note", "CN-1", "-30.00", "-50.00"]]
      )
    })
  })
})
