/**
 * The documents and payments a plan keeps out of the heap (`BooksSpill`): each comes back as it went in, money
 * exactly; a document's head as the kept books write it; the payments grouped by document in the order
 * JavaScript gives their keys (UTF-16 code units, not SQLite's UTF-8 bytes), each group with its migrating
 * documents; the documents sharing a number, those of a kind by number, the open ones nothing pays. What the
 * survey gathers as they go in is what it gathers of the same books held whole, and a spill's file is
 * removed when it is closed.
 */
import { assert, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { encodeItem } from "../../src/transform/BooksCodec.js"
import { BooksSpill, documentKey } from "../../src/transform/BooksSpill.js"
import { DocumentSurvey, surveyOf } from "../../src/transform/DocumentSurvey.js"
import type { SourceDocument, SourcePayment } from "../../src/transform/SourceModel.js"
import { invoice, line, m, payment } from "./Books.js"

/** Every field, money with its value and scale (which `deepStrictEqual` of `BigDecimal`s would not tell). */
const exactly = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_, v: unknown) =>
      BigDecimal.isBigDecimal(v) ? `${v.value}e-${v.scale}` : (v as unknown)
    )
  )

/** Documents unlike each other in every way a document can be. */
const documents: ReadonlyArray<SourceDocument> = [
  invoice("INV-1", "2025-02-01", { dueDate: undefined }),
  invoice("INV-2", "2025-02-03", {
    currency: "USD",
    exchangeRate: m("0.74321"),
    contactName: "Café Zürich",
    lines: [
      line({ lineage: "SalesInvoices.csv:5", description: "Whiteboard 120 × 90 cm", discount: m("12.5") }),
      line({
        lineage: "SalesInvoices.csv:6",
        tracking: [{ category: "Region", option: "North" }],
        quantity: m("2.500")
      })
    ],
    lineage: ["SalesInvoices.csv:5", "SalesInvoices.csv:6"]
  }),
  invoice("INV-1", "2025-02-04", { contactName: "Beta" }),
  { ...invoice("B-7", "2025-03-01"), kind: "bill", state: "voided", status: "Voided" },
  invoice("INV-3", "2025-03-02", {
    state: "draft",
    lineage: ["SalesInvoices.csv:20", "SalesInvoices.csv:21"],
    lines: [line({ lineage: "SalesInvoices.csv:21" })]
  })
]

const payments: ReadonlyArray<SourcePayment> = [
  payment("INV-2", "2025-02-10", "50.00", 7),
  payment("INV-1", "2025-02-11", "10", 8),
  // Above U+FFFF (its UTF-16 code units sort below U+FF00's, its UTF-8 bytes above): JavaScript's order.
  payment("INV-\u{1F600}", "2025-02-12", "1", 9),
  payment("INV-\uFF10", "2025-02-13", "1", 10),
  payment("INV-2", "2025-02-09", "5.5", 11)
]

const spilled = () => BooksSpill.of({ documents, payments })

describe("the books' spill", () => {
  it("gives each document and payment back as it went in, money exactly, in order and by place", () => {
    const spill = spilled()
    try {
      assert.deepStrictEqual(exactly([...spill.documents]), exactly(documents))
      assert.deepStrictEqual(exactly(spill.documents.at(1)), exactly(documents[1]))
      assert.isUndefined(spill.documents.at(documents.length))
      assert.deepStrictEqual(exactly([...spill.payments]), exactly(payments))
      assert.deepStrictEqual(exactly(spill.payments.at(4)), exactly(payments[4]))
      assert.strictEqual(spill.documents.length, documents.length)
      assert.strictEqual(spill.payments.length, payments.length)
      assert.deepStrictEqual(
        exactly([...spill.documentsAt([4, 0, 1, 2])]),
        exactly([4, 0, 1, 2].map((i) => documents[i]))
      )
    } finally {
      spill.close()
    }
  })

  it("gives each payment's kind and date as the kept books write them, in order, page after page", () => {
    // More than a page (256), bills among them.
    const many = Array.from({ length: 600 }, (_, i): SourcePayment => ({
      ...payment(
        `D-${i}`,
        `2025-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
        "1",
        i
      ),
      documentKind: i % 3 === 0 ? "bill" : "invoice"
    }))
    const spill = BooksSpill.of({ documents, payments: [...payments, ...many] })
    try {
      assert.deepStrictEqual(
        [...spill.paymentDateTexts()],
        [...payments, ...many].map((p) => encodeItem([p.documentKind, p.date]))
      )
    } finally {
      spill.close()
    }
  })

  it("reads the records at given places a stretch at a time, and no record it was not asked for", () => {
    const spill = spilled()
    try {
      const places = [4, 0, 1, 3]
      assert.deepStrictEqual(
        exactly([...spill.documentsAt(places)]),
        exactly(places.map((i) => documents[i]))
      )
      // Three stretches (4; 0-1; 3): four rows, not a page from the start of each.
      assert.strictEqual(spill.rowsRead, 4)
      assert.deepStrictEqual(
        [...spill.headTextsAt([2, 3])],
        [2, 3].map((i) => encodeItem({ ...documents[i]!, lines: [] }))
      )
      assert.strictEqual(spill.rowsRead, 6)
      assert.throws(() => [...spill.documentsAt([0, 9])], /no record at 9 of documents/)
    } finally {
      spill.close()
    }
  })

  it("keeps a document's head as the kept books write it", () => {
    const spill = spilled()
    try {
      assert.deepStrictEqual(
        [...spill.headTextsAt([1, 3])],
        [1, 3].map((i) => encodeItem({ ...documents[i]!, lines: [] }))
      )
      assert.deepStrictEqual(exactly(spill.headAt(1)), exactly({ ...documents[1]!, lines: [] }))
    } finally {
      spill.close()
    }
  })

  it("groups the payments by document in JavaScript's order of their keys, each with its migrating documents", () => {
    const spill = spilled()
    try {
      const groups = [...spill.paymentGroups()].map((g) => ({
        key: g.key,
        payments: g.payments.map((p) => p.lineage),
        documents: g.documents.map((d) => [d.place, d.contactName, BigDecimal.format(d.amountDue)])
      }))
      const keys = [...new Set(payments.map((p) => documentKey(p.documentKind, p.documentNumber)))].sort()
      assert.deepStrictEqual(
        groups.map((g) => g.key),
        keys
      )
      assert.deepStrictEqual(
        groups.find((g) => g.key === "invoice:INV-2"),
        {
          key: "invoice:INV-2",
          payments: ["AccountTransactions.csv:7", "AccountTransactions.csv:11"],
          documents: [[1, "Café Zürich", "109"]]
        }
      )
      // The two documents numbered INV-1, in order; none for a number no document has.
      assert.deepStrictEqual(
        groups.find((g) => g.key === "invoice:INV-1")?.documents.map(([place]) => place),
        [0, 2]
      )
      assert.deepStrictEqual(groups.find((g) => g.key === "invoice:INV-\uFF10")?.documents, [])
    } finally {
      spill.close()
    }
  })

  it("finds the documents sharing a number, a kind's by number, and the open ones nothing pays", () => {
    const spill = spilled()
    try {
      assert.deepStrictEqual(spill.sharedNumbers(), [[0, 2]])
      assert.deepStrictEqual(
        spill.documentsOf("invoice", "INV-1").map((d) => d.place),
        [0, 2]
      )
      // A voided document is not found by its number.
      assert.deepStrictEqual(spill.documentsOf("bill", "B-7"), [])
      const each = spill.documentsOfEach("invoice", ["INV-3", "INV-1", "none"])
      assert.deepStrictEqual(
        [...each].map(([n, ds]) => [n, ds.map((d) => d.place)]),
        [
          ["INV-1", [0, 2]],
          ["INV-3", [4]]
        ]
      )
      // INV-3 is a draft; INV-1 and INV-2 are paid.
      assert.deepStrictEqual(
        [...spill.unpaidOpen()].map((d) => d.place),
        []
      )
      assert.deepStrictEqual([...spill.migratingPlaces()], [0, 1, 2, 4])
      assert.deepStrictEqual(
        spill.datesOf("invoice").map((d) => [d.place, d.number, d.date]),
        [
          [0, "INV-1", "2025-02-01"],
          [1, "INV-2", "2025-02-03"],
          [2, "INV-1", "2025-02-04"],
          [4, "INV-3", "2025-03-02"]
        ]
      )
      // A document's rows, read the first time they are asked for.
      assert.deepStrictEqual(spill.documentsOf("invoice", "INV-1")[0]?.lineage, documents[0]!.lineage)
    } finally {
      spill.close()
    }
  })

  it("gives the open documents nothing pays in key order, page after page", () => {
    // More than two pages (256) of open documents, every third paid, every fifth a draft, in no key order.
    const open = Array.from({ length: 1200 }, (_, i): SourceDocument => {
      const number = `O-${(i * 7919) % 1201}`
      return i % 5 === 0
        ? { ...invoice(number, "2025-04-01"), state: "draft" }
        : invoice(number, "2025-04-01")
    })
    const paid = open.filter((_, i) => i % 3 === 0).map((d, i) => payment(d.number, "2025-04-02", "1", i))
    const spill = BooksSpill.of({ documents: open, payments: paid })
    try {
      const unpaid = open
        .map((d, place) => ({ place, key: documentKey(d.kind, d.number), d }))
        .filter(({ d }, i) => d.state === "open" && i % 3 !== 0)
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.place - b.place))
      assert.isAbove(unpaid.length, 2 * 256)
      // A page at a time: read at once, they took the heap in use from 95 to 126 MB at 100,000 invoices.
      const each = spill.unpaidOpen()
      const first = each.next()
      assert.strictEqual(spill.rowsRead, 256, "one page read for the first")
      assert.deepStrictEqual(
        [first.done ? undefined : first.value, ...each].map((d) => d?.place),
        unpaid.map((u) => u.place)
      )
      assert.strictEqual(spill.rowsRead, unpaid.length, "each read once")
    } finally {
      spill.close()
    }
  })

  it("surveys the documents and payments as they go in as it surveys the same books held whole", () => {
    const spill = spilled()
    try {
      assert.deepStrictEqual(spill.survey, surveyOf({ documents, payments }))
    } finally {
      spill.close()
    }
  })

  it("takes a document's later lines as if they had come with it: the same document and survey", () => {
    const whole = documents[1]!
    const first: SourceDocument = {
      ...whole,
      lines: whole.lines.slice(0, 1),
      lineage: whole.lineage.slice(0, 1)
    }
    const spill = BooksSpill.inMemory()
    try {
      spill.addDocument(documents[0]!)
      spill.addDocument(first)
      spill.addDocument(documents[2]!)
      spill.addLines(1, whole.lines.slice(1))
      spill.seal()
      assert.deepStrictEqual(exactly(spill.documentAt(1)), exactly(whole))
      const held = new DocumentSurvey()
      documents.slice(0, 3).forEach((d, i) => held.document(d, i))
      assert.deepStrictEqual(spill.survey, held)
    } finally {
      spill.close()
    }
  })

  it("keeps a tax code's first spelling in the documents' order when a later line spells it first", () => {
    const spill = BooksSpill.inMemory()
    try {
      const spelled = (d: SourceDocument, taxType: string) => ({
        ...d,
        lines: d.lines.map((l) => ({ ...l, taxType }))
      })
      const a = spelled(documents[0]!, "standard-rated supplies")
      spill.addDocument({ ...a, lines: [], lineage: [] })
      spill.addDocument(spelled(documents[2]!, "Standard-Rated Supplies"))
      spill.addLines(0, a.lines)
      spill.seal()
      assert.strictEqual(spill.survey.taxUses.get("standard-rated supplies")?.code, "standard-rated supplies")
    } finally {
      spill.close()
    }
  })

  it("is a file of its own in the temporary directory, removed when it is closed", () => {
    const spill = BooksSpill.open()
    const file = spill.file!
    try {
      spill.addDocument(documents[0]!)
      spill.seal()
      assert.isTrue(file.startsWith(NodeOs.tmpdir()))
      assert.isTrue(NodeFs.existsSync(file))
      assert.strictEqual(spill.documents.at(0)?.number, "INV-1")
    } finally {
      spill.close()
    }
    assert.isFalse(NodeFs.existsSync(NodePath.dirname(file)))
    assert.throws(() => spill.documents.at(0), /after it was closed/)
  })
})
