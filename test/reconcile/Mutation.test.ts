/**
 * Mutation tests of the proof's independence: our own transform is made to drop rows before planning (the
 * manual journals; one unpaid bill), so the target never receives them and the document comparison, which
 * reads the same mutated books, sees nothing wrong. The comparison with the source's own Trial Balance and
 * aged payables must catch it, on the accounts and the contact concerned.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import * as Money from "../../src/transform/Money.js"
import type { SourceBooks } from "../../src/transform/SourceModel.js"
import { layers, sandbox, tempDir } from "../support/Harness.js"
import { migrate } from "./Migrate.js"

const dropAndReconcile = (name: string, drop: (b: SourceBooks) => SourceBooks) =>
  Effect.gen(function* () {
    const s = yield* sandbox()
    const ws = tempDir(name)
    let full: SourceBooks | undefined
    const mutated = yield* migrate(s, ws, (b) => {
      full = b
      return drop(b)
    })
    const r = yield* Reconcile.reconcile(mutated, "SGD", "2025-12-31").pipe(
      Effect.provide(layers(s, ws)),
      Effect.provide(NodeContext.layer)
    )
    return { r, full: full!, mutated }
  })

describe("the independent comparison sees what the transform drops", () => {
  it.scopedLive(
    "manual journals dropped: the documents agree, the trial balance does not",
    () =>
      Effect.gen(function* () {
        const { r, full } = yield* dropAndReconcile("mutation-journals", (b) => ({ ...b, journals: [] }))
        assert.deepStrictEqual(r.documents.mismatches, [], "the document comparison cannot see it")
        assert.deepStrictEqual(
          r.documents.counts.find((c) => c.entity === "journals"),
          { entity: "journals", source: 0, target: 0, matched: 0 }
        )
        assert.isFalse(r.matches)
        assert.strictEqual(r.verdict, "DIFFERENCES")
        const owner = r.differences.find((d) => d.subject === "Owner A Funds Introduced")!
        const introduced = full.journals
          .flatMap((j) => j.lines)
          .filter((l) => l.accountCode === "881")
          .map((l) => l.amount)
        assert.strictEqual(owner.class, "transaction")
        assert.strictEqual(owner.difference, Money.toFixed(Money.negate(Money.sum(introduced))))
        assert.match(owner.lineage[0]!, /^TrialBalance\.csv:\d+$/)
        const touched = new Set(full.journals.flatMap((j) => j.lines.map((l) => l.accountCode)))
        const names = new Set(full.accounts.filter((a) => touched.has(a.code)).map((a) => a.name))
        for (const d of r.differences.filter((x) => x.area === "Trial balance"))
          assert.isTrue(names.has(d.subject), `${d.subject} is an account the journals post to`)
        assert.isAbove(r.differences.length, 3)
      }),
    240_000
  )

  it.scopedLive(
    "one unpaid bill dropped: its expense account, payables and the supplier's balance name it",
    () =>
      Effect.gen(function* () {
        let dropped: SourceBooks["documents"][number] | undefined
        const r = yield* dropAndReconcile("mutation-bill", (b) => {
          dropped = b.documents.find(
            (d) =>
              d.kind === "bill" && d.state === "open" && Money.isZero(d.amountPaid) && d.currency === "SGD"
          )!
          return { ...b, documents: b.documents.filter((d) => d !== dropped) }
        })
        const bill = dropped!
        assert.deepStrictEqual(r.r.documents.mismatches, [], "the document comparison cannot see it")
        assert.isFalse(r.r.matches)
        const expense = r.full.accounts.find((a) => a.code === bill.lines[0]!.accountCode)!.name
        assert.isTrue(
          r.r.differences.some(
            (d) => d.area === "Trial balance" && d.subject === expense && d.class === "transaction"
          ),
          `${expense}, the bill's first line's account, differs`
        )
        const ap = r.r.differences.find(
          (d) => d.area === "Trial balance" && d.subject === "Accounts Payable"
        )!
        assert.strictEqual(ap.difference, Money.toFixed(bill.total), "payables short by the bill's total")
        const supplier = r.r.differences.find((d) => d.area === "AP" && d.subject === bill.contactName)!
        assert.strictEqual(supplier.class, "contact-balance")
        assert.deepStrictEqual(
          supplier.candidates.map((c) => [c.kind, c.reference, c.source, c.target]),
          [["missing", bill.number, Money.toFixed(bill.amountDue), "0.00"]]
        )
        assert.match(supplier.candidates[0]!.lineage[0]!, /^AgedPayablesDetail\.csv:\d+$/)
        assert.match(supplier.fix, new RegExp(`${bill.number} open in the source but not in the target`))
      }),
    240_000
  )
})
