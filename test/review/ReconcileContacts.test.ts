/**
 * A contact the review adopted under the target's own spelling ("CAFE NUSANTARA PTE LTD" for the source's
 * "Café Nüsantara Pte. Ltd.") is one contact to the reconciliation of receivables, not a difference.
 */
import { assert, describe, it } from "@effect/vitest"
import * as AgedCheck from "../../src/reconcile/AgedCheck.js"
import * as DocumentCheck from "../../src/reconcile/DocumentCheck.js"
import { books, invoice, m, targetDoc } from "../reconcile/Synthetic.js"

describe("reconciliation of a contact adopted under another spelling", () => {
  const spelled = "CAFE NUSANTARA PTE LTD"
  const source = books({ documents: [invoice()] })

  it("agrees per contact in the aged comparison", () => {
    const { comparison, differences } = AgedCheck.compareAged(
      {
        side: "AR",
        asAt: "2025-12-31",
        file: "AgedReceivablesDetail.csv",
        items: [
          {
            contactName: "Café Nüsantara Pte. Ltd.",
            number: "INV-1",
            reference: "",
            date: "2025-03-10",
            dueDate: "2025-04-09",
            outstanding: m("218.00"),
            currency: undefined,
            lineage: "AgedReceivablesDetail.csv:6"
          }
        ]
      },
      [{ contact: spelled, currency: "SGD", outstanding: m("218.00"), outstandingBase: m("218.00") }],
      [targetDoc({ contact: spelled })],
      source,
      "SGD"
    )
    assert.deepStrictEqual(differences, [])
    assert.deepStrictEqual(
      comparison.contacts.map((c) => c.contact),
      ["Café Nüsantara Pte. Ltd."]
    )
  })

  it("agrees per contact in the documents' outstanding", () => {
    const result = DocumentCheck.compareDocuments(
      source,
      {
        invoices: [targetDoc({ contact: spelled })],
        bills: [],
        customerCredits: [],
        journals: [],
        AR: [{ contact: spelled, currency: "SGD", outstanding: m("218.00"), outstandingBase: m("218.00") }],
        AP: []
      },
      "SGD",
      "2025-12-31"
    )
    assert.deepStrictEqual(result.mismatches, [])
    assert.deepStrictEqual(
      result.outstanding.map((o) => [o.contact, o.source, o.target, o.report]),
      [["Café Nüsantara Pte. Ltd.", "218.00", "218.00", "218.00"]]
    )
  })
})
