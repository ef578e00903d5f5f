import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { TAX_RATES } from "../../../src/sample/qbo/Company.js"
import { loadFixture } from "../../../src/sandbox/Fixture.js"

const ROOT = NodePath.join(import.meta.dirname, "..", "..", "..")
const FILE = NodePath.join(ROOT, "src", "sandbox", "fixtures", "us-organization.json")

describe("the US sandbox organisation for the QuickBooks sample", () => {
  it("is a valid organisation file: USD, with a sales tax profile of each of the sample's rates", () => {
    const org = loadFixture(FILE)
    assert.strictEqual(org.baseCurrency, "USD")
    for (const rate of TAX_RATES) {
      const profile = org.taxProfiles.find((t) => t.name === rate.name)
      assert.isDefined(profile, rate.name)
      assert.strictEqual(profile!.vatValue * 100, rate.basisPoints, rate.name)
      assert.isTrue(profile!.appliesToSale, rate.name)
    }
    const rates = org.taxProfiles.filter((t) => t.appliesToSale).map((t) => t.vatValue)
    assert.strictEqual(new Set(rates).size, rates.length, "one sales profile per rate")
  })

  it("has every system account the shipped QuickBooks mappings name", () => {
    const org = loadFixture(FILE)
    const mapped = JSON.parse(
      NodeFs.readFileSync(NodePath.join(ROOT, "mappings", "qbo", "accounts.json"), "utf8")
    ) as Record<string, string>
    const names = new Set(org.accounts.map((a) => a.name))
    for (const [from, to] of Object.entries(mapped))
      if (!from.startsWith("$")) assert.isTrue(names.has(to), `${from} → ${to}`)
    assert.deepStrictEqual(
      org.accounts.filter((a) => a.role === "AR" || a.role === "AP").map((a) => [a.name, a.controlFlag]),
      [
        ["Accounts Receivable", true],
        ["Accounts Payable", true]
      ]
    )
  })
})
