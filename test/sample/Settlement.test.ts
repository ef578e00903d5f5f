/**
 * How every document and credit of the exports is settled, recomputed from the files alone: an invoice's
 * or bill's InvoiceAmountPaid is its payments in the bank report (foreign ones converted back at the
 * month's rate) plus the credit notes `Allocations.csv` allocates to it plus what its contact's overpayments
 * and prepayments settled of it (those have no number, so `Allocations.csv` cannot name them: what they
 * settled is checked per contact); a credit's InvoiceAmountPaid is what it allocated plus what was refunded.
 */
import { assert, beforeAll, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { generateCompany, type Summary } from "../../src/sample/Generator.js"
import { dayOf, money, same, settled, total } from "./Decimals.js"
import * as Files from "./SampleFiles.js"
import type { Row } from "./SampleFiles.js"

const ZERO = BigDecimal.fromBigInt(0n)

/** Adds `x` to the sum kept under `key`. */
const add = (sums: Map<string, BigDecimal.BigDecimal>, key: string, x: BigDecimal.BigDecimal) =>
  sums.set(key, BigDecimal.sum(sums.get(key) ?? ZERO, x))

describe.each([
  { invoices: 150, seed: 42 },
  { invoices: 900, seed: 7 },
  { invoices: 12, seed: 3 }
])(
  "the settlement of the documents of a company with $invoices invoices (seed $seed)",
  ({ invoices, seed }) => {
    let dir = ""
    let summary: Summary
    let docs: ReturnType<typeof Files.allDocuments>
    beforeAll(() => {
      dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "xero-settlement-"))
      summary = generateCompany({ invoices, seed, out: dir })
      docs = Files.allDocuments(dir)
      return () => NodeFs.rmSync(dir, { recursive: true, force: true })
    })

    /** What the bank report and `Allocations.csv` say each document and credit received, paid or used. */
    const moneyOf = () => {
      /** Document or credit note key → what the bank report moved for it, in its currency. */
      const fromBank = new Map<string, BigDecimal.BigDecimal>()
      /** `Type|contact` of an overpayment or prepayment → what the bank report refunded of the contact's. */
      const advanceRefunds = new Map<string, BigDecimal.BigDecimal>()
      /** Document key, and credit note key → what `Allocations.csv` allocates to it, or of it. */
      const allocated = new Map<string, BigDecimal.BigDecimal>()
      const banks = Files.bankCurrencies(dir)
      const rateOf = Files.rates(dir)
      for (const section of Files.report(dir).sections.filter((s) => banks.has(s.name)))
        for (const row of section.rows) {
          const kind = Files.documentMoney(row.source)
          if (kind === undefined) continue
          const amount = money(row.debit || row.credit)
          const kinds = Files.KINDS[kind.file]
          if (kind.what === "Payment" || kind.what === "Credit Note Refund") {
            const key = Files.keyOf(
              kind.what === "Payment" ? kinds.document : kinds.creditNote,
              row.reference
            )
            const doc = docs.get(key)?.lines[0]
            assert.isDefined(doc, `${row.source} on ${row.date} for ${key}`)
            const currency = doc?.Currency ?? ""
            const what = `${row.source} on ${row.date} for ${key}`
            add(
              fromBank,
              key,
              settled(amount, banks.get(section.name) ?? "", currency, rateOf(currency, row.date), what)
            )
          } else if (kind.what.endsWith("Refund")) {
            const origin = kind.what.startsWith("Overpayment") ? "overpayment" : "prepayment"
            const contact = row.description.replace(/ - (Overpayment|Prepayment) refund$/, "")
            add(advanceRefunds, `${kinds[origin]}|${contact}`, amount)
          }
        }
      for (const a of Files.rows(dir, "Allocations.csv")) {
        const sales = docs.has(Files.keyOf("Sales credit note", a["Credit Note Number"] ?? ""))
        const kinds = Files.KINDS[sales ? "SalesInvoices.csv" : "Bills.csv"]
        add(allocated, Files.keyOf(kinds.document, a["Document Number"] ?? ""), money(a.Amount ?? ""))
        add(allocated, Files.keyOf(kinds.creditNote, a["Credit Note Number"] ?? ""), money(a.Amount ?? ""))
      }
      return { fromBank, advanceRefunds, allocated }
    }

    /** The first row of each document or credit of one kind, with its key and file. */
    const ofKind = (kind: keyof (typeof Files.KINDS)["Bills.csv"]) =>
      [...docs].flatMap(([key, { file, lines }]) =>
        lines[0]?.Type === Files.KINDS[file][kind] ? [{ key, file, head: lines[0] as Row }] : []
      )

    it("allocates credit notes only to approved documents of the same contact and currency, after them", () => {
      assert.deepStrictEqual(Files.header(dir, "Allocations.csv"), [
        "Credit Note Number",
        "Document Number",
        "Amount"
      ])
      const rows = Files.rows(dir, "Allocations.csv")
      assert.strictEqual(rows.length, summary.files["Allocations.csv"])
      const pairs = new Set<string>()
      for (const a of rows) {
        const [number = "", document = ""] = [a["Credit Note Number"], a["Document Number"]]
        const file = Files.DOCUMENT_FILES.find((f) =>
          docs.has(Files.keyOf(Files.KINDS[f].creditNote, number))
        )
        assert.isDefined(file, `${number} is a credit note`)
        const kinds = Files.KINDS[file ?? "Bills.csv"]
        const note = docs.get(Files.keyOf(kinds.creditNote, number))?.lines[0]
        const doc = docs.get(Files.keyOf(kinds.document, document))?.lines[0]
        assert.isDefined(doc, `${number} is allocated to ${kinds.document} ${document}`)
        assert.isFalse(pairs.has(`${number}|${document}`), `${number} to ${document} once`)
        pairs.add(`${number}|${document}`)
        assert.isTrue(BigDecimal.isPositive(money(a.Amount ?? "")), `${number} allocates something`)
        assert.notStrictEqual(note?.Status, "Voided", `${number}: a voided credit note allocates nothing`)
        assert.notInclude(["Draft", "Voided"], doc?.Status, `${document} is approved`)
        assert.deepStrictEqual([note?.ContactName, note?.Currency], [doc?.ContactName, doc?.Currency], number)
        assert.isAtLeast(
          dayOf(note?.InvoiceDate ?? ""),
          dayOf(doc?.InvoiceDate ?? ""),
          `${number} after ${document}`
        )
      }
    })

    it("pays every document exactly through the bank report and the credits allocated to it, converting foreign payments back", () => {
      const { fromBank, advanceRefunds, allocated } = moneyOf()
      /** `file|contact` → what the contact's advances settled of its documents, as the documents say. */
      const settledByAdvances = new Map<string, BigDecimal.BigDecimal>()
      const advanced: Record<Files.DocumentsFile, number> = { "SalesInvoices.csv": 0, "Bills.csv": 0 }
      for (const { key, file, head } of ofKind("document")) {
        const paid = money(head.InvoiceAmountPaid ?? "")
        const known = BigDecimal.sum(fromBank.get(key) ?? ZERO, allocated.get(key) ?? ZERO)
        const rest = BigDecimal.subtract(paid, known)
        assert.isFalse(
          BigDecimal.isNegative(rest),
          `${key}: paid ${BigDecimal.format(paid)}, bank and credit notes ${BigDecimal.format(known)}`
        )
        if (BigDecimal.isZero(rest)) continue
        advanced[file]++
        assert.strictEqual(head.Currency, "SGD", `${key}: only SGD documents take advances`)
        const kinds = Files.KINDS[file]
        assert.isTrue(
          ofKind("overpayment")
            .concat(ofKind("prepayment"))
            .some(
              (a) =>
                a.file === file &&
                a.head.ContactName === head.ContactName &&
                dayOf(a.head.InvoiceDate ?? "") <= dayOf(head.InvoiceDate ?? "")
            ),
          `${key}: the rest of ${BigDecimal.format(rest)} is settled by an earlier ${kinds.overpayment} or ${kinds.prepayment}`
        )
        add(settledByAdvances, `${file}|${head.ContactName}`, rest)
      }
      /** `file|contact` → what the contact's advances paid less what was refunded: what they allocated. */
      const allocatedByAdvances = new Map<string, BigDecimal.BigDecimal>()
      for (const { file, head } of ofKind("overpayment").concat(ofKind("prepayment")))
        add(allocatedByAdvances, `${file}|${head.ContactName}`, money(head.InvoiceAmountPaid ?? ""))
      for (const [key, refunded] of advanceRefunds) {
        const type = key.slice(0, key.indexOf("|"))
        const file = Files.DOCUMENT_FILES.find((f) => Object.values(Files.KINDS[f]).some((t) => t === type))
        add(allocatedByAdvances, `${file}|${key.slice(type.length + 1)}`, BigDecimal.negate(refunded))
      }
      const contacts = [...new Set([...settledByAdvances.keys(), ...allocatedByAdvances.keys()])]
      for (const c of contacts)
        same(
          settledByAdvances.get(c) ?? ZERO,
          allocatedByAdvances.get(c) ?? ZERO,
          `${c}: what advances settled`
        )
      for (const [file, credits] of [
        ["SalesInvoices.csv", summary.salesCredits],
        ["Bills.csv", summary.billCredits]
      ] as const) {
        const notes = Files.rows(dir, "Allocations.csv").filter((a) =>
          docs.has(Files.keyOf(Files.KINDS[file].creditNote, a["Credit Note Number"] ?? ""))
        )
        assert.strictEqual(credits.allocated, notes.length + advanced[file], `${file}: credits allocated`)
      }
    })

    it("uses no credit beyond its total: what it allocated and refunded is what it paid, the rest is what it holds", () => {
      const { fromBank, advanceRefunds, allocated } = moneyOf()
      for (const { key, head } of ofKind("creditNote")) {
        const used = BigDecimal.negate(money(head.InvoiceAmountPaid ?? ""))
        const parts = [allocated.get(key) ?? ZERO, fromBank.get(key) ?? ZERO]
        if (head.Status === "Voided")
          assert.isTrue(parts.every(BigDecimal.isZero), `${key}: voided, neither allocated nor refunded`)
        same(total(parts), used, `${key}: allocations and refunds`)
        const left = BigDecimal.subtract(BigDecimal.negate(money(head.Total ?? "")), used)
        assert.isFalse(BigDecimal.isNegative(left), `${key}: used at most its total`)
        same(BigDecimal.negate(left), money(head.InvoiceAmountDue ?? ""), `${key}: holds the rest`)
      }
      /** `Type|contact` → what the contact's advances of the Type paid (allocated and refunded). */
      const used = new Map<string, BigDecimal.BigDecimal>()
      for (const { head } of ofKind("overpayment").concat(ofKind("prepayment")))
        add(used, `${head.Type}|${head.ContactName}`, money(head.InvoiceAmountPaid ?? ""))
      for (const [key, refunded] of advanceRefunds) {
        assert.isTrue(used.has(key), `${key}: refunds only what was advanced`)
        assert.isTrue(
          BigDecimal.lessThanOrEqualTo(refunded, used.get(key) ?? ZERO),
          `${key}: refunds what it used`
        )
      }
    })
  }
)
