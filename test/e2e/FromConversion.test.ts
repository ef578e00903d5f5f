/**
 * A full conversion from a start date, through the command line into the sandbox, on the sample company
 * with its reports at mid-year: the opening position on the day before from those reports, then every
 * transaction from the start date on. The reconciliation proves the trial balance at both dates, AR and AP
 * per contact at both, and the clearing accounts at zero; a start date without reports the day before, and
 * --from beside --mode quick, are refused; the same options give the same plan; rollback empties the target.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { generateCompany } from "../../src/sample/Generator.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import { migration } from "../support/Migration.js"
import { apiKey, assertExactlyOnce, layers, runCli, sandbox, searchAll, tempDir } from "../support/Harness.js"

const cli = (args: ReadonlyArray<string>) => Effect.promise(() => runCli(args, { JK_API_KEY: apiKey }))

describe("full conversion from a start date", () => {
  it.scopedLive(
    "opens from the reports the day before, replays the period on the conversion records, reconciles at both dates and rolls back",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("from")
        const input = NodePath.join(dir, "in")
        generateCompany({ invoices: 150, seed: 42, out: input, alsoAt: ["2025-06-30"] })
        const s = yield* sandbox({})
        const before = (yield* Effect.promise(() => searchAll(s, "invoices", "reference"))).length
        const { workspace, common, extract: extractArgs } = migration(dir, s.url)
        const extract = yield* cli(extractArgs(input))
        assert.strictEqual(extract.status, 0, extract.stderr)

        const early = yield* cli(["plan", "--from", "2025-04-01", ...common])
        assert.strictEqual(early.status, 2, "no reports the day before")
        assert.match(
          early.stderr,
          /conversion from 2025-04-01 refused: no Trial Balance and no Aged Receivables Detail and no Aged Payables Detail as at 2025-03-31/
        )
        assert.match(early.stderr, /Trial Balance as at 2025-06-30 \(TrialBalance-2025-06-30\.csv\)/)
        const both = yield* cli([
          "plan",
          "--from",
          "2025-07-01",
          "--mode",
          "quick",
          "--as-at",
          "2025-06-30",
          ...common
        ])
        assert.strictEqual(both.status, 2)
        assert.match(both.stderr, /--from and --mode quick are two ways to migrate/)
        const bad = yield* cli(["plan", "--from", "2025-02-30", ...common])
        assert.strictEqual(bad.status, 2)
        assert.match(bad.stderr, /--from needs a date as YYYY-MM-DD \(given: 2025-02-30\)/)

        const plan = yield* cli(["plan", "--from", "2025-07-01", ...common])
        assert.strictEqual(plan.status, 0, plan.stdout + plan.stderr)
        assert.match(
          plan.stdout,
          /Conversion from 2025-07-01: the opening position as at 2025-06-30 \(54 open items as conversion documents, 1 prepayment still held on its account, a trial balance journal of 28 lines, from TrialBalance-2025-06-30\.csv, AgedReceivablesDetail-2025-06-30\.csv, AgedPayablesDetail-2025-06-30\.csv\), then 125 documents, 11 credits, 114 payments, 5 journals, 10 cash entries and 2 transfers dated 2025-07-01 or later/
        )
        assert.match(plan.stdout, / 0 rejected source items/)
        const again = yield* cli(["plan", "--from", "2025-07-01", ...common])
        const hash = (out: string) => /Plan hash: (\w+)/.exec(out)?.[1]
        assert.strictEqual(hash(again.stdout), hash(plan.stdout), "the same files and options, the same plan")
        const meta = yield* PlanStore.meta.pipe(Effect.provide(layers(s, workspace)))
        assert.deepStrictEqual(meta?.conversion, {
          mode: "from",
          asAt: "2025-06-30",
          from: "2025-07-01",
          files: [
            "TrialBalance-2025-06-30.csv",
            "AgedReceivablesDetail-2025-06-30.csv",
            "AgedPayablesDetail-2025-06-30.csv"
          ]
        })
        const ops = yield* PlanStore.ops.pipe(Effect.provide(layers(s, workspace)))
        const dated = (o: (typeof ops)[number]) => String((o.body as { valueDate?: string }).valueDate ?? "")
        const invoices = ops.filter((o) => o.kind === "invoice")
        assert.isTrue(
          invoices.some((o) => dated(o) < "2025-07-01") && invoices.some((o) => dated(o) >= "2025-07-01"),
          "conversion invoices of open items under their own dates, and the period's invoices"
        )
        assert.isTrue(
          ops
            .filter((o) => o.kind === "journal" || o.kind === "cash-in" || o.kind === "cash-out")
            .every((o) => dated(o) >= "2025-06-30"),
          "no journal or cash entry from before the opening position"
        )
        // A prepayment of 2025-06-20 was unapplied on 2025-06-30: the source holds it on Prepayments, so the
        // opening journal does; in the period it is applied to a bill and partly refunded, each off that account.
        const prepayment = ops
          .filter((o) => o.naturalKey.startsWith("MIG-PRE-20250620-"))
          .map((o) => [o.kind, o.naturalKey.replace(/^MIG-PRE-20250620-[0-9a-f]+/, ""), dated(o)])
        assert.deepStrictEqual(
          prepayment,
          [
            ["supplier-credit-note", "-A1", "2025-07-05"],
            ["cash-in", "-RFD1", "2025-07-20"]
          ],
          "no cash of its own (that is in the opening position), its application and its refund"
        )
        const applied = ops.find(
          (o) => o.naturalKey.endsWith("-A1") && o.naturalKey.startsWith("MIG-PRE-20250620-")
        )
        assert.strictEqual((applied?.body as any).lineItems[0].accountResourceId, "@account:Prepayments")

        const load = yield* cli(["load", ...common, "--concurrency", "4"])
        assert.strictEqual(load.status, 0, load.stdout + load.stderr)
        yield* Effect.promise(() => assertExactlyOnce(s, ops))

        const reconcile = yield* cli(["reconcile", ...common])
        assert.strictEqual(reconcile.status, 0, reconcile.stdout + reconcile.stderr)
        assert.match(reconcile.stdout, /Reconciliation: MATCHES/)
        for (const date of ["2025-06-30", "2025-12-31"]) {
          assert.match(
            reconcile.stdout,
            new RegExp(`trial balance at ${date}: \\d+ accounts, total difference 0\\.00`)
          )
          assert.match(reconcile.stdout, new RegExp(`AR at ${date}: \\d+ contacts, difference 0\\.00`))
          assert.match(reconcile.stdout, new RegExp(`AP at ${date}: \\d+ contacts, difference 0\\.00`))
        }
        const report = JSON.parse(
          NodeFs.readFileSync(/Report: (.*)report\.html/.exec(reconcile.stdout)![1] + "report.json", "utf8")
        )
        assert.strictEqual(report.matches, true)
        assert.deepStrictEqual(report.differences, [])
        const clearing = report.clearing as Array<{
          account: string
          balances: Array<{ asAt: string; balance: string }>
        }>
        for (const name of ["AR Conversion Clearing", "AP Conversion Clearing"]) {
          const c = clearing.find((x) => x.account === name)
          assert.deepStrictEqual(
            c?.balances,
            [
              { asAt: "2025-06-30", balance: "0.00" },
              { asAt: "2025-12-31", balance: "0.00" }
            ],
            name
          )
        }

        const rollback = yield* cli(["rollback", ...common])
        assert.strictEqual(rollback.status, 0, rollback.stdout + rollback.stderr)
        const after = (yield* Effect.promise(() => searchAll(s, "invoices", "reference"))).length
        assert.strictEqual(after, before, "rollback leaves the invoices as they were")
      }),
    240_000
  )

  it.scopedLive(
    "the same company's whole history reconciles at mid-year too, with a prepayment still open on its account",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("from-full")
        const input = NodePath.join(dir, "in")
        generateCompany({ invoices: 150, seed: 42, out: input, alsoAt: ["2025-06-30"] })
        const r = yield* cli(["demo", "--input", input, "--runs-dir", NodePath.join(dir, "runs")])
        assert.strictEqual(r.status, 0, r.stdout + r.stderr)
        for (const date of ["2025-06-30", "2025-12-31"]) {
          assert.match(
            r.stdout,
            new RegExp(`trial balance at ${date}: \\d+ accounts, total difference 0\\.00`)
          )
          assert.match(r.stdout, new RegExp(`AP at ${date}: \\d+ contacts, difference 0\\.00`))
        }
        assert.match(r.stdout, /supplier prepayments held on account +source +3 +target +\d+ +matched +3/)
        assert.match(r.stdout, /Reconciliation: MATCHES/)
      }),
    240_000
  )
})
