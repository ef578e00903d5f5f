/** The name measures the matching's confidences rest on: Jaro–Winkler, the token measure and contact keys. */
import { assert, describe, it } from "@effect/vitest"
import {
  contactKey,
  jaro,
  jaroWinkler,
  normalise,
  similarity,
  tokenScore
} from "../../src/review/Similarity.js"

const near = (actual: number, expected: number) => assert.closeTo(actual, expected, 0.001)

describe("string similarity", () => {
  it("Jaro and Jaro–Winkler give the published values", () => {
    near(jaro("martha", "marhta"), 0.944)
    near(jaroWinkler("martha", "marhta"), 0.961)
    near(jaro("dwayne", "duane"), 0.822)
    near(jaroWinkler("dwayne", "duane"), 0.84)
    near(jaroWinkler("dixon", "dicksonx"), 0.813)
    assert.strictEqual(jaroWinkler("abc", "xyz"), 0)
    assert.strictEqual(jaroWinkler("same", "same"), 1)
    assert.strictEqual(jaro("", "x"), 0)
  })

  it("normalises case, accents, '&' and punctuation", () => {
    assert.strictEqual(normalise("  Consulting &  Accounting "), "consulting and accounting")
    assert.strictEqual(normalise("Café Nüsantara Pte. Ltd."), "cafe nusantara pte ltd")
    assert.strictEqual(normalise("Light, Power, Heating"), "light power heating")
  })

  it("the token measure ignores word order and charges extra words", () => {
    assert.strictEqual(tokenScore("wages and salaries", "salaries and wages"), 1)
    near(tokenScore("sales", "sales revenue"), 0.5)
    assert.strictEqual(similarity("Salaries & Wages", "Wages and Salaries"), 1)
    assert.strictEqual(similarity("Telephone & Internet", "telephone and internet"), 1)
    assert.isAbove(similarity("Sales", "Sales Revenue"), 0.85)
    assert.isBelow(similarity("Office Expenses", "General & Administrative"), 0.6)
  })

  it("a contact's key drops legal form, punctuation, case and spacing", () => {
    const key = contactKey("Acme Pte Ltd")
    assert.strictEqual(key, "acme")
    for (const variant of ["ACME Pte. Ltd.", "acme  pte ltd", "Acme Private Limited", "A.C.M.E. Pte Ltd"])
      assert.strictEqual(contactKey(variant), key, variant)
    assert.strictEqual(contactKey("Lim, Tan and Associates LLP"), "lim tan and associates")
    assert.strictEqual(contactKey("Wong & Sons Trading Co."), "wong and sons trading")
    assert.strictEqual(contactKey("Limited"), "limited", "a name of legal words only keeps them")
    assert.notStrictEqual(contactKey("Acme Trading Pte Ltd"), key)
  })
})
