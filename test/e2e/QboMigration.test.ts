/**
 * The QuickBooks Online sample end to end through the command line: extract --source qbo, plan, load into a
 * sandbox started with the US organisation, reconcile against QuickBooks' own Trial Balance and A/R and A/P
 * Aging Detail with no difference. Every QuickBooks transaction type of the sample is counted from the Journal
 * to the loaded records it became, so each type is covered from extract to a reconciled load.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import { rowsOfKind, where } from "../../src/staging/SourceRows.js"
import { apiKey, layers, runCli, sandbox, tempDir } from "../support/Harness.js"
import { migration } from "../support/Migration.js"

const cli = (args: ReadonlyArray<string>) => Effect.promise(() => runCli(args, { JK_API_KEY: apiKey }))
const root = NodePath.resolve(import.meta.dirname, "../..")

/**
 * QuickBooks type → the platform records the load made of its transactions, by operation kind. The sample has
 * 80 invoices (one voided), 61 payments (5 paying several invoices: 66 payment records), 46 bill payments (51
 * records), 3 of 4 credit memos and 2 of 3 vendor credits applied, 21 deposits (one with an Other Income line).
 */
const EXPECTED: Record<string, Record<string, number>> = {
  Invoice: { invoice: 79 },
  Payment: { "invoice-payment": 66 },
  "Sales Receipt": { "cash-in": 10 },
  "Credit Memo": { "customer-credit-note": 4, "invoice-credit": 3 },
  "Refund Receipt": { "cash-out": 3 },
  Deposit: { "cash-transfer": 21, "cash-in": 1 },
  Bill: { bill: 56 },
  "Bill Payment (Check)": { "bill-payment": 35 },
  "Bill Payment (Credit Card)": { "bill-payment": 16 },
  "Vendor Credit": { "supplier-credit-note": 3, "bill-credit": 2 },
  Expense: { "cash-out": 48 },
  Check: { "cash-out": 27 },
  "Credit Card Credit": { "cash-in": 2 },
  Transfer: { "cash-transfer": 15 },
  "Journal Entry": { journal: 6 }
}

describe("QuickBooks Online migration", () => {
  it.scopedLive(
    "extracts, plans, loads and reconciles the QuickBooks sample with no rejects and no differences",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("qbo")
        const s = yield* sandbox({
          fixture: NodePath.join(root, "src/sandbox/fixtures/us-organization.json")
        })
        const { workspace, common, extract } = migration(dir, s.url)
        const extracted = yield* cli(extract(NodePath.join(root, "samples/qbo-demo"), "qbo"))
        assert.strictEqual(extracted.status, 0, extracted.stdout + extracted.stderr)
        assert.match(
          extracted.stdout,
          /Journal\.csv\s+qbo\.journal\s+lines\s+1768 = staged 996 \+ skipped 772 \+ rejected 0/
        )

        const plan = yield* cli(["plan", ...common])
        assert.strictEqual(plan.status, 0, plan.stdout + plan.stderr)
        assert.match(plan.stdout, /Plan: 469 operations \(base currency USD\)/)
        assert.match(plan.stdout, / 0 rejected source items, 3 warnings/)

        const load = yield* cli(["load", ...common])
        assert.strictEqual(load.status, 0, load.stdout + load.stderr)

        const reconcile = yield* cli(["reconcile", ...common])
        assert.strictEqual(reconcile.status, 0, reconcile.stdout + reconcile.stderr)
        assert.match(reconcile.stdout, /Reconciliation: MATCHES/)
        assert.match(reconcile.stdout, /trial balance at 2025-12-31: 31 accounts, total difference 0\.00/)
        assert.match(reconcile.stdout, /AR at 2025-12-31: 11 contacts, difference 0\.00/)
        assert.match(reconcile.stdout, /AP at 2025-12-31: 4 contacts, difference 0\.00/)
        assert.match(reconcile.stdout, /invoices\s+source\s+79\s+target\s+79\s+matched\s+79/)
        assert.match(reconcile.stdout, /bills\s+source\s+56\s+target\s+56\s+matched\s+56/)

        // Each loaded record back to the QuickBooks transaction type of the Journal line it came from.
        const counted = yield* Effect.gen(function* () {
          const typeAt = new Map(
            (yield* rowsOfKind("qbo.journal")).map((r) => [where(r), r.data["Transaction type"]!])
          )
          const sql = yield* SqlClient.SqlClient
          const ops = yield* sql<{ kind: string; lineage: string; status: string | null }>`
            SELECT p.kind, p.lineage, c.status FROM plan_ops p LEFT JOIN checkpoints c ON c.key = p.key`
          const out: Record<string, Record<string, number>> = {}
          for (const op of ops) {
            const type = (JSON.parse(op.lineage) as Array<string>).map((l) => typeAt.get(l)).find((t) => t)
            if (type === undefined) continue
            assert.strictEqual(op.status, "done", `${op.kind} of a ${type} is loaded`)
            const byKind = (out[type] ??= {})
            byKind[op.kind] = (byKind[op.kind] ?? 0) + 1
          }
          return out
        }).pipe(Effect.provide(layers(s, workspace)))
        assert.deepStrictEqual(counted, EXPECTED)
      }),
    240_000
  )
})
