/**
 * The comparison with our own reading of the source, for what credits change: a document's settled amount
 * counts the credits applied to it, as the source's amount paid does; each credit note, overpayment and
 * prepayment exists once with its total, used and remaining credit; refunds are counted; an open credit
 * lowers the contact's outstanding balance on both sides.
 */
import { assert, describe, it } from "@effect/vitest"
import * as DocumentCheck from "../../src/reconcile/DocumentCheck.js"
import type { TargetAgedRow } from "../../src/reconcile/TargetBooks.js"
import { factsOf, inDateOrder } from "../../src/transform/ComparedDocuments.js"
import * as Money from "../../src/transform/Money.js"
import type { SourceCredit, SourceRefund } from "../../src/transform/SourceModel.js"
import { creditReferences, heldApplicationReference } from "../../src/transform/TransactionIdentity.js"
import { books, invoice, m, targetDoc } from "./Synthetic.js"

const CONTACT = "Café Nüsantara Pte. Ltd."

const credit: SourceCredit = {
  side: "sale",
  origin: "credit-note",
  number: "CN-1",
  reference: "INV-1",
  contactName: CONTACT,
  date: "2025-05-02",
  currency: "SGD",
  state: "open",
  status: "Authorised",
  total: m("100.00"),
  taxTotal: Money.zero,
  used: m("80.00"),
  remaining: m("20.00"),
  lines: [],
  lineage: ["SalesInvoices.csv:9"]
}
const refund: SourceRefund = {
  side: "sale",
  creditNumber: "CN-1",
  contactName: CONTACT,
  bankAccountName: "DBS Business Account",
  date: "2025-06-01",
  amount: m("30.00"),
  lineage: "AccountTransactions.csv:40"
}
/** INV-1 (218.00) settled by 168.00 of cash and 50.00 of CN-1; CN-1 also refunded 30.00, 20.00 left. */
const source = books({
  documents: [invoice({ state: "open", status: "Paid", amountPaid: m("218.00"), amountDue: Money.zero })],
  payments: [
    {
      documentKind: "invoice",
      documentNumber: "INV-1",
      bankAccountName: "DBS Business Account",
      date: "2025-04-01",
      amount: m("168.00"),
      lineage: "AccountTransactions.csv:12"
    }
  ],
  credits: [credit],
  refunds: [refund]
})
const paidInvoice = targetDoc({
  status: "PAID",
  payments: [{ reference: "INV-1-PMT1", date: "2025-04-01", amount: m("168.00") }],
  credits: [{ reference: "", date: "2025-05-02", amount: m("50.00") }]
})
const creditNote = (over: Parameters<typeof targetDoc>[0] = {}) =>
  targetDoc({
    kind: "customer-credit-note",
    reference: "CN-1",
    date: "2025-05-02",
    dueDate: "",
    status: "UNAPPLIED",
    total: m("100.00"),
    payments: [{ reference: "CN-1-RFD1", date: "2025-06-01", amount: m("30.00") }],
    credits: [{ reference: "", date: "2025-05-02", amount: m("50.00") }],
    ...over
  })
const report: ReadonlyArray<TargetAgedRow> = [
  { contact: CONTACT, currency: "SGD", outstanding: m("-20.00"), outstandingBase: m("-20.00") }
]
const compare = (notes: ReadonlyArray<ReturnType<typeof targetDoc>>, AR = report) =>
  DocumentCheck.compareDocuments(
    source,
    { invoices: [paidInvoice], bills: [], customerCredits: notes, journals: [], AR, AP: [] },
    "SGD",
    "2025-12-31"
  )

describe("document comparison with credits", () => {
  it("agrees when payments and credits settle the invoice and the credit note's use and remainder match", () => {
    const result = compare([creditNote()])
    assert.deepStrictEqual(result.mismatches, [])
    assert.deepStrictEqual(
      result.counts
        .filter((c) => c.entity.startsWith("customer"))
        .map((c) => [c.entity, c.target, c.matched]),
      [
        ["customer credit notes", 1, 1],
        ["customer credit note refunds", 1, 1]
      ]
    )
    assert.deepStrictEqual(
      result.outstanding.map((o) => [o.contact, o.source, o.target, o.report]),
      [[CONTACT, "-20.00", "-20.00", "-20.00"]]
    )
  })

  it("names a refund missing in the target: the credit note's use, its remaining credit and the refund count", () => {
    const result = compare(
      [creditNote({ payments: [] })],
      [{ contact: CONTACT, currency: "SGD", outstanding: m("-50.00"), outstandingBase: m("-50.00") }]
    )
    assert.deepStrictEqual(
      result.mismatches.map((x) => [x.entity, x.key, x.field, x.source, x.target]),
      [
        ["customer credit note", "CN-1", "used", "80.00", "50.00"],
        ["customer credit note", "CN-1", "remaining credit", "20.00", "50.00"],
        ["customer credit note refunds", "all", "count", "1", "0"],
        ["AR outstanding", `${CONTACT} SGD`, "outstanding", "-20.00", "-50.00 (documents), -50.00 (report)"]
      ]
    )
  })

  it("names a credit note the target does not hold", () => {
    const result = compare([])
    assert.deepStrictEqual(
      result.mismatches
        .filter((x) => x.entity === "customer credit note")
        .map((x) => [x.key, x.field, x.target, x.lineage]),
      [["CN-1", "count", "0", ["SalesInvoices.csv:9"]]]
    )
  })

  describe("a prepayment held on its account", () => {
    /** 300.00 received from the customer onto Customer Deposits: 150.00 applied, 50.00 refunded, 100.00 left. */
    const prepayment: SourceCredit = {
      ...credit,
      origin: "prepayment",
      number: "",
      reference: "",
      total: m("300.00"),
      used: m("200.00"),
      remaining: m("100.00"),
      lines: [
        {
          description: "Deposit received on order",
          itemCode: "",
          quantity: m("1"),
          unitAmount: m("300.00"),
          discount: Money.zero,
          lineAmount: m("300.00"),
          accountCode: "835",
          taxType: "",
          taxAmount: Money.zero,
          lineage: "SalesInvoices.csv:20"
        }
      ],
      lineage: ["SalesInvoices.csv:20"]
    }
    const held = books({
      credits: [prepayment],
      refunds: [{ ...refund, creditNumber: "", amount: m("50.00") }]
    })
    const reference = [...creditReferences([prepayment]).values()][0]!
    const applied = (total: string, used: string) =>
      targetDoc({
        kind: "customer-credit-note",
        reference: heldApplicationReference(reference, 1),
        date: "2025-06-10",
        dueDate: "",
        status: "APPLIED",
        total: m(total),
        credits: [{ reference: "", date: "2025-06-10", amount: m(used) }]
      })
    const check = (notes: ReadonlyArray<ReturnType<typeof targetDoc>>) =>
      DocumentCheck.compareDocuments(
        held,
        { invoices: [], bills: [], customerCredits: notes, journals: [], AR: [], AP: [] },
        "SGD",
        "2025-12-31",
        { sale: 1, purchase: 0 }
      )

    it("agrees when each application is a credit note used in full; its remainder is on no contact", () => {
      const result = check([applied("150.00", "150.00")])
      assert.deepStrictEqual(result.mismatches, [])
      assert.deepStrictEqual(
        result.counts
          .filter((c) => c.entity.startsWith("customer"))
          .map((c) => [c.entity, c.source, c.matched]),
        [
          ["customer prepayments held on account", 1, 1],
          ["customer credit notes", 0, 0],
          ["customer credit note refunds", 0, 0]
        ]
      )
      assert.deepStrictEqual(result.outstanding, [], "the unapplied 100.00 stays on Customer Deposits")
    })

    it("names an application left partly unused, and applications beyond what the prepayment used", () => {
      assert.deepStrictEqual(
        check([applied("150.00", "130.00")]).mismatches.map((x) => [
          x.entity,
          x.key,
          x.field,
          x.source,
          x.target
        ]),
        [
          ["customer prepayment", reference, "remaining credit", "0.00", "20.00"],
          ["AR outstanding", `${CONTACT} SGD`, "outstanding", "0.00", "-20.00 (documents), 0.00 (report)"]
        ]
      )
      assert.deepStrictEqual(
        check([applied("250.00", "250.00")]).mismatches.map((x) => [x.field, x.source, x.target]),
        [["applied", "at most 200.00", "250.00"]]
      )
    })
  })
})

describe("invoices and bills compared a window at a time", () => {
  // Six source invoices and a bill; the target has INV-2 twice (in different windows), INV-3 changed, INV-4
  // missing, an extra INV-9, INV-5 under another spelling of its contact, open, and INV-1 and INV-6 dated
  // after and before the source's dates (so that either side's document waits for the other's).
  const docs = [1, 2, 3, 4, 5, 6].map((n) =>
    invoice({
      number: `INV-${n}`,
      date: `2025-0${n}-10`,
      contactName: n === 5 ? "Ubi Wellness Pte. Ltd." : CONTACT,
      lineage: [`SalesInvoices.csv:${n + 1}`]
    })
  )
  const bill = invoice({ kind: "bill", number: "BILL-1", contactName: "Newton Printing Pte. Ltd." })
  const own = books({ documents: [...docs, bill] })
  const target = [
    ...[1, 2, 3, 5, 6].map((n) =>
      targetDoc({
        reference: `INV-${n}`,
        date: n === 1 ? "2025-07-15" : n === 6 ? "2025-02-01" : `2025-0${n}-10`,
        contact: n === 5 ? "UBI WELLNESS PTE LTD" : CONTACT,
        total: n === 3 ? m("281.00") : m("218.00")
      })
    ),
    targetDoc({
      reference: "INV-2",
      date: "2025-08-01",
      payments: [{ reference: "x", date: "2025-08-02", amount: m("1") }]
    }),
    targetDoc({ reference: "INV-9", date: "2025-09-01", contact: "Atlas Components Ltd." })
  ]
  const bills = [targetDoc({ kind: "bill", reference: "BILL-1", contact: "Newton Printing Pte. Ltd." })]
  const rest = { customerCredits: [], supplierCredits: [], journals: [], AR: [], AP: [] }
  const whole = DocumentCheck.compareDocuments(own, { invoices: target, bills, ...rest }, "SGD", "2025-12-31")

  it("reports what the whole documents give, whatever the windows and their order", () => {
    assert.deepStrictEqual(
      whole.mismatches.filter((x) => x.entity === "invoice").map((x) => `${x.key} ${x.field} ${x.target}`),
      [
        "INV-1 valueDate 2025-07-15",
        "INV-2 count 2",
        "INV-3 totalAmount 281.00",
        "INV-3 balance 281.00",
        "INV-4 count 0",
        "INV-6 valueDate 2025-02-01"
      ]
    )
    assert.deepStrictEqual(whole.counts.slice(0, 4), [
      { entity: "invoices", source: 6, target: 7, matched: 1 },
      { entity: "invoice payments", source: 0, target: 1, matched: 0 },
      { entity: "bills", source: 1, target: 1, matched: 1 },
      { entity: "bill payments", source: 0, target: 0, matched: 0 }
    ])
    assert.include(
      whole.outstanding.map((o) => o.contact),
      "Ubi Wellness Pte. Ltd.",
      "a contact is shown as the source spells it"
    )
    const sources = inDateOrder(own, "invoice")
    const pieces = <A>(xs: ReadonlyArray<A>, n: number) =>
      Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n))
    const unclaimed = new Set<number>()
    for (const cut of [1, 2, 3])
      for (const sourceFirst of [true, false]) {
        const tally = DocumentCheck.documentTally(own, factsOf(own).contacts, "SGD")
        // The credit notes compared before the documents, as reconcile does, or after them.
        if (sourceFirst) tally.credits(rest)
        tally.source("bill", inDateOrder(own, "bill"))
        tally.add("bill", bills)
        const s = pieces(sources, cut)
        const t = pieces(target, cut).reverse()
        for (let i = 0; i < Math.max(s.length, t.length); i++) {
          if (sourceFirst && s[i]) tally.source("invoice", s[i]!)
          if (t[i]) tally.add("invoice", t[i]!)
          if (!sourceFirst && s[i]) tally.source("invoice", s[i]!)
        }
        // INV-9, and INV-2's later copy when it came after the other had met its source document.
        unclaimed.add(tally.unclaimed("invoice"))
        tally.claim("invoice", sources)
        if (!sourceFirst) tally.credits(rest)
        const windows = `windows of ${cut}, target's last first, ${sourceFirst ? "source" : "target"} first`
        assert.deepStrictEqual(tally.finish(rest, "2025-12-31"), whole, windows)
      }
    assert.isTrue(unclaimed.has(2), "a copy is found by claim in some order")
    assert.throws(
      () => DocumentCheck.documentTally(own, factsOf(own).contacts, "SGD").finish(rest, "2025-12-31"),
      /credit notes were not compared/,
      "finished without the credit notes, it would report the books' credits as missing"
    )
  })
})
