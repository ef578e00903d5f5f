/**
 * A remembered function computes each answer once, undefined answers included, for string and number keys;
 * `forget` and the limit let go of what it holds. A function remembered per object computes once for each object,
 * and the references the reconciliation's checks share (documents', credits') are such functions.
 */
import { assert, describe, it } from "@effect/vitest"
import { remembered, rememberedFor } from "../src/Remembered.js"
import { copied } from "../src/Strings.js"
import { documentReferences } from "../src/transform/RecordIdentity.js"
import { creditReferences } from "../src/transform/TransactionIdentity.js"
import { credit, invoice } from "./transform/Books.js"

/** `f` wrapped so that its calls are counted. */
const counted = <A, K extends string | number>(f: (k: K) => A) => {
  const calls: Array<K> = []
  return { calls, f: (k: K) => (calls.push(k), f(k)) }
}

describe("remembered", () => {
  it("computes each answer once and answers again from memory", () => {
    const c = counted((s: string) => s.toUpperCase())
    const g = remembered(c.f)
    assert.deepStrictEqual(
      ["a", "b", "a", "a", "b"].map((s) => g(s)),
      ["A", "B", "A", "A", "B"]
    )
    assert.deepStrictEqual(c.calls, ["a", "b"])
  })

  it("remembers an undefined answer and a falsy one, and takes numbers as keys", () => {
    const c = counted((n: number) => (n < 0 ? undefined : n === 0 ? 0 : String(n)))
    const g = remembered<string | number | undefined, number>(c.f)
    assert.deepStrictEqual(
      [-1, 0, 7, -1, 0, 7].map((n) => g(n)),
      [undefined, 0, "7", undefined, 0, "7"]
    )
    assert.deepStrictEqual(c.calls, [-1, 0, 7], "each computed once, undefined included")
  })

  it("lets go of its answers when told, and when it holds its limit", () => {
    const c = counted((s: string) => s.length)
    const g = remembered(c.f, 2)
    g("a")
    g("bb")
    g("ccc") // the limit: emptied before this answer is held
    g("a")
    g("ccc")
    assert.deepStrictEqual(c.calls, ["a", "bb", "ccc", "a"])
    g.forget()
    g("ccc")
    assert.deepStrictEqual(c.calls, ["a", "bb", "ccc", "a", "ccc"])
  })

  it("makes what it holds as a key with `keep` (a copy of it) once for each key, and asks about that", () => {
    const kept: Array<string> = []
    const c = counted((s: string) => s.length)
    const g = remembered(c.f, undefined, (s: string) => (kept.push(s), copied(s)))
    assert.deepStrictEqual(
      ["ab", "ab", "c", "ab"].map((s) => g(s)),
      [2, 2, 1, 2]
    )
    assert.deepStrictEqual(kept, ["ab", "c"], "made once for each key, when its answer is made")
    assert.deepStrictEqual(c.calls, ["ab", "c"])
  })
})

describe("rememberedFor", () => {
  it("computes once for each object, undefined answers included, and separately for equal objects", () => {
    const calls: Array<object> = []
    const g = rememberedFor((o: { readonly n: number }) => (calls.push(o), o.n > 0 ? o.n * 2 : undefined))
    const a = { n: 1 }
    const b = { n: 1 }
    const z = { n: 0 }
    assert.deepStrictEqual([g(a), g(a), g(b), g(z), g(z)], [2, 2, 2, undefined, undefined])
    assert.deepStrictEqual(calls, [a, b, z])
  })

  it("gives the documents' references in the order their numbers are first met, each kind's numbers apart", () => {
    const bill = (number: string, date: string) => invoice(number, date, { kind: "bill" })
    const docs = [
      invoice("A", "2025-03-01", { lineage: ["SalesInvoices.csv:2"] }),
      bill("A", "2025-01-01"),
      invoice("B", "2025-01-01"),
      invoice("A", "2025-02-01", { lineage: ["SalesInvoices.csv:9"] }),
      invoice("C", "2025-01-01", { state: "voided" }),
      invoice("A", "2025-02-01", { contactName: "Zeta", lineage: ["SalesInvoices.csv:1"] }),
      invoice("C", "2025-01-05")
    ]
    const refs = documentReferences(docs)
    assert.deepStrictEqual(
      [...refs].map(([d, reference]) => `${d.kind} ${d.date} ${d.contactName}: ${reference}`),
      [
        "invoice 2025-02-01 Acme: A",
        "invoice 2025-02-01 Zeta: A-2",
        "invoice 2025-03-01 Acme: A-3",
        "bill 2025-01-01 Acme: A",
        "invoice 2025-01-01 Acme: B",
        "invoice 2025-01-05 Acme: C"
      ]
    )
    assert.deepStrictEqual(
      refs.renamed.map((r) => [r.reference, r.uses]),
      [
        ["A-2", 3],
        ["A-3", 3]
      ]
    )
  })

  it("gives the documents' and credits' references once per collection, and for a new one anew", () => {
    const docs = [invoice("INV-1", "2025-01-01"), invoice("INV-1", "2025-02-01")]
    const refs = documentReferences(docs)
    assert.strictEqual(documentReferences(docs), refs, "the same collection: the same references")
    assert.deepStrictEqual([...refs.values()], ["INV-1", "INV-1-2"])
    const other = documentReferences([...docs])
    assert.notStrictEqual(other, refs)
    assert.deepStrictEqual([...other.values()], ["INV-1", "INV-1-2"])
    const credits = [credit("CN-1", "2025-02-01", "0.00")]
    assert.strictEqual(creditReferences(credits), creditReferences(credits))
    const heard: Array<string> = []
    const twice = [credit("CN-1", "2025-02-01", "0.00"), credit("CN-1", "2025-03-01", "0.00")]
    creditReferences(twice, (_, reference) => heard.push(reference))
    creditReferences(twice, (_, reference) => heard.push(reference))
    assert.deepStrictEqual(
      heard,
      ["CN-1-2", "CN-1-2"],
      "told of duplicates each time it is asked with a listener"
    )
  })
})
