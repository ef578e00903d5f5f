/**
 * The texts the books keep are strings of their own, not slices of what they were cut from: V8 makes a
 * substring of 13 characters or more a slice that keeps its whole parent alive. Measured as the heap that
 * what is kept holds alone (in use after a full collection with it, less in use after one without it), the
 * least of three measurements: in a test worker, about 7 MB that one full collection left in use is freed by
 * a later one, at no fixed point in the run. A measurement that spanned it read 7 MB too much (13.5 MB where
 * 6 MB of texts were held), in 1 of 12 runs with the code unchanged and 13 of 32 with probes in the test;
 * the least of three, in none of 20. What a slice keeps, it keeps in every measurement.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Memory from "../../src/Memory.js"
import { normalizeName } from "../../src/transform/Mappings.js"
import * as Money from "../../src/transform/Money.js"
import { transiently } from "../../src/Strings.js"
import { readCashEntries, readTransfers } from "../../src/transform/xero/XeroBank.js"
import { forgetShared, share } from "../../src/transform/xero/StagedCells.js"
import type { StagedRow } from "../../src/staging/SourceRows.js"

const MB = 1024 * 1024

/** The least of three measurements of what `measure` gives. */
const leastOf3 = (measure: () => number): number => Math.min(measure(), measure(), measure())

/** The heap that what `make` returns holds alone, once `make`'s own garbage is collected. */
const heldBy = (make: () => unknown): number =>
  leastOf3(() => {
    let kept: unknown = make()
    const withIt = Memory.collectNow()
    assert.isDefined(kept)
    kept = undefined
    return withIt - Memory.collectNow()
  })

/** What an Account Transactions row says besides its account and amounts. */
interface RowText {
  readonly file?: string
  readonly source: string
  readonly description: string
  readonly reference: string
}

/** An Account Transactions row of `account` at `line`, its debit or its credit the other one empty. */
const accountRow = (
  { file = "AccountTransactions.csv", source, description, reference }: RowText,
  line: number,
  account: string,
  debit: string,
  credit: string
): StagedRow => ({
  file,
  line,
  data: {
    Date: "05 Jan 2025",
    Source: source,
    Description: description,
    Reference: reference,
    Debit: debit,
    Credit: credit,
    Account: account
  }
})

/** `n` characters of one letter after a label that makes the text `i`'s own. */
const text = (label: string, i: number, n: number) => `${label} ${i} `.padEnd(n, "x")

describe("the texts the books keep", () => {
  /** A spend of 100.00 from DBS to Rent, its description `contact - note`: its bank row and its line's row. */
  const spend = (i: number, file: string, contact: string, note: string): Array<StagedRow> => {
    const says = { file, source: "Spend Money", description: `${contact} - ${note}`, reference: `PV-${i}` }
    return [accountRow(says, 2 * i, "DBS", "", "100.00"), accountRow(says, 2 * i + 1, "Rent", "100.00", "")]
  }

  /** The heap that the cash entries read from `entries` spends hold alone. */
  const heldByEntries = (entries: number, rows: (i: number) => Array<StagedRow>): number => {
    const issues: Array<never> = []
    const held = heldBy(() => {
      const all = Array.from({ length: entries }, (_, i) => rows(i))
      const read = readCashEntries(
        all.map((r) => r[0]!),
        all.map((r) => r[1]!),
        issues
      )
      // The shared contacts are the entries' alone once the memos let go of them: the shared texts', and the
      // names' that grouped the rows (`normalizeName`), whose keys they are.
      forgetShared()
      normalizeName.forget()
      return read
    })
    assert.deepStrictEqual(issues, [])
    return held
  }

  it("a cash entry's contact and text, cut from its description, hold no copy of the description, and its line's text is the entry's", () => {
    const entries = 1000
    const [contact, note] = [2000, 2000]
    const held = heldByEntries(entries, (i) =>
      spend(i, "AccountTransactions.csv", text("Contact", i, contact), text("Note", i, note))
    )
    // Kept: each entry's contact and its text, which its line's text is, one byte a character (4 MB in all).
    // A slice of each description instead kept two or three whole descriptions an entry (8-12 MB), and a
    // line's text of its own 2 MB more.
    const texts = entries * (contact + note)
    assert.isAbove(held, texts * 0.9, "the entries' texts are held")
    assert.isBelow(held, texts * 1.3, "and no more than their texts")
  })

  it("a cash entry's line's lineage is the text in the entry's", () => {
    const entries = 500
    const file = 10_000
    const held = heldByEntries(entries, (i) => spend(i, text("Export", i, file), `Contact ${i}`, `Note ${i}`))
    // Kept: the entry's lineage, its two rows' (5 MB in all), which is its line's too; a lineage of the
    // line's own was 2.5 MB more.
    const texts = entries * 2 * file
    assert.isAbove(held, texts * 0.9, "the entries' lineages are held")
    assert.isBelow(held, texts * 1.2, "once")
  })

  it("a cash entry's amount and its lines' are the amounts their rows parsed, not copies", () => {
    forgetShared()
    const row = (line: number, account: string, debit: string, credit: string) =>
      accountRow(
        line < 4
          ? { source: "Spend Money", description: "Acme - office", reference: "PV-1" }
          : { source: "Receive Money", description: "Acme - office", reference: "RV-1" },
        line,
        account,
        debit,
        credit
      )
    const issues: Array<never> = []
    const [spend, receive] = readCashEntries(
      [row(2, "DBS", "", "250.00"), row(4, "DBS", "250.00", "")],
      [row(3, "Rent", "250.00", ""), row(5, "Sales", "", "250.00")],
      issues
    )
    assert.deepStrictEqual(issues, [])
    const amounts = [spend!.amount, spend!.lines[0]!.amount, receive!.amount, receive!.lines[0]!.amount]
    assert.deepStrictEqual(
      amounts.map((a) => Money.toFixed(a)),
      ["250.00", "250.00", "250.00", "250.00"]
    )
    // Each was three new objects (a subtraction, a negation and a product by the entry's sign): at 100,000
    // invoices, that many more amounts held while the plan was built.
    assert.isTrue(
      amounts.every((a) => a === amounts[0]),
      "one object, the parsed 250.00"
    )
  })

  it("a transfer's amounts out and in are the amounts its rows parsed, not copies", () => {
    forgetShared()
    const says = {
      source: "Bank Transfer",
      description: "Bank Transfer from DBS to Savings",
      reference: "TR-1"
    }
    const issues: Array<never> = []
    const [transfer] = readTransfers(
      [accountRow(says, 2, "DBS", "", "250.00"), accountRow(says, 3, "Savings", "250.00", "")],
      issues
    )
    assert.deepStrictEqual(issues, [])
    assert.deepStrictEqual(
      [Money.toFixed(transfer!.amountOut), Money.toFixed(transfer!.amountIn)],
      ["250.00", "250.00"]
    )
    // The amount out was its row's money in, negated twice over: two new objects for the parsed 250.00.
    assert.isTrue(transfer!.amountOut === transfer!.amountIn, "one object, the parsed 250.00")
  })

  it("a text shared while a read keeps nothing holds no copy of the row it was cut from", () => {
    forgetShared()
    const rows = 200
    const row = 50_000
    const cut = (i: number) => text("Row", i, row).slice(0, 40)
    const held = leastOf3(() => {
      // The texts are shared and dropped, as the documents written to the spill drop theirs: only the memo
      // holds them once the rows they were cut from are garbage.
      transiently(() => {
        for (let i = 0; i < rows; i++) share(cut(i))
      })
      assert.strictEqual(share(cut(7)), cut(7), "the text it was given")
      const withMemo = Memory.collectNow()
      forgetShared()
      return withMemo - Memory.collectNow()
    })
    // The memo's 200 texts of 40 characters, and its map: a slice kept its row of 50,000 (10 MB).
    assert.isBelow(held, MB, "the memo held its texts alone")
  })
})
