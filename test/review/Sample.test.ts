/**
 * The bundled sample's suggestions: against the default organisation every one is confident (so npm start and
 * the README's example load without --accept-suggestions), against the renamed chart these are the counts per
 * confidence level, and the ones to confirm.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import * as Extract from "../../src/extract/Extract.js"
import * as Matching from "../../src/review/Matching.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { defaultOrganisation, renamedChart, snapshotOf } from "./Organisation.js"

const sampleDir = NodePath.resolve(import.meta.dirname, "../../samples/xero-demo")

const levels = (xs: ReadonlyArray<Matching.Suggestion>, sheet: Matching.Sheet) => {
  const rows = xs.filter((s) => s.sheet === sheet)
  return {
    rows: rows.length,
    certain: rows.filter((s) => s.confidence >= 1).length,
    confident: rows.filter((s) => s.confidence >= Matching.confirmBelow && s.confidence < 1).length,
    toConfirm: rows.filter((s) => s.confidence < Matching.confirmBelow).length,
    decisionNeeded: rows.filter((s) => s.choice.kind === "none").length
  }
}

describe("the sample's suggestions", () => {
  it.scoped("confident against the default organisation; counted per level against the renamed chart", () =>
    Effect.gen(function* () {
      yield* Extract.run({ source: "xero", inputDir: sampleDir })
      const books = yield* XeroSource.read
      const mappings = yield* Mappings.load("xero")

      const plain = Matching.suggest(books, snapshotOf(defaultOrganisation), mappings)
      assert.deepStrictEqual(
        plain.filter((s) => s.confidence < Matching.confirmBelow).map((s) => `${s.sheet}: ${s.label}`),
        []
      )

      const renamed = Matching.suggest(books, snapshotOf(renamedChart), mappings)
      assert.deepStrictEqual(levels(renamed, "Accounts"), {
        rows: 44,
        certain: 34,
        confident: 4,
        toConfirm: 6,
        decisionNeeded: 0
      })
      assert.deepStrictEqual(levels(renamed, "Tax codes"), {
        rows: 7,
        certain: 1,
        confident: 0,
        toConfirm: 6,
        decisionNeeded: 0
      })
      assert.deepStrictEqual(levels(renamed, "Contacts"), {
        rows: 40,
        certain: 38,
        confident: 2,
        toConfirm: 0,
        decisionNeeded: 0
      })
      assert.deepStrictEqual(levels(renamed, "Items"), {
        rows: 15,
        certain: 14,
        confident: 1,
        toConfirm: 0,
        decisionNeeded: 0
      })
      const accounts = renamed.filter((s) => s.sheet === "Accounts")
      const by = (reason: RegExp) => accounts.filter((s) => reason.test(s.reason)).length
      assert.deepStrictEqual(
        {
          role: by(/^role: /),
          sameName: by(/^same name$/),
          sameCode: by(/^same code/),
          normalised: by(/^same name once/),
          alike: by(/^name \d/),
          created: accounts.filter((s) => s.choice.kind === "create").length
        },
        { role: 7, sameName: 2, sameCode: 1, normalised: 2, alike: 4, created: 28 }
      )
      assert.deepStrictEqual(
        accounts
          .filter((s) => s.confidence < Matching.confirmBelow)
          .map((s) => `${s.label} → ${Matching.choiceText(s.choice)} ${s.confidence}`),
        [
          "Bank Fees → Bank Charges 0.87",
          "CPF Payable → create new 0.7",
          "Cost of Goods Sold → Cost of Sales 0.87",
          "Office Expenses → create new 0.7",
          "Other Revenue → create new 0.7",
          "Sales → Sales Revenue 0.88"
        ]
      )
    }).pipe(Effect.provide(StagingDb.layer(":memory:")), Effect.provide(NodeContext.layer))
  )
})
