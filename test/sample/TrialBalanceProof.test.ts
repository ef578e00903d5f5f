/**
 * The proof that the sample's own Trial Balance is right, and that a migration of it is: the sample is
 * generated afresh, extracted, planned and loaded into a sandbox through the real pipeline, and the
 * sandbox's trial balance (computed by its own double-entry ledger) is compared with the generated
 * `TrialBalance.csv` (computed by the generator's ledger) account by account, to the cent. The generated
 * aged reports are checked against the same Trial Balance's control accounts and the sandbox's AR/AP.
 */
import { assert, describe, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import { generateCompany } from "../../src/sample/Generator.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as Money from "../../src/transform/Money.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { call, inProcessIn, sandbox, searchAll, tempDir } from "../support/Harness.js"
import * as Files from "./SampleFiles.js"

/** Cents of a report amount (`1,234.50`, blank = 0). */
const cents = (text: string | undefined): bigint => {
  const t = (text ?? "").replace(/,/g, "").trim()
  if (t === "") return 0n
  assert.match(t, /^-?\d+\.\d{2}$/, `a report amount: ${text}`)
  return BigDecimal.scale(BigDecimal.unsafeFromString(t), 2).value
}
const show = (c: bigint) =>
  `${c < 0n ? "-" : ""}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, "0")}`

/** One account of the generated Trial Balance: name, code, section and YTD balance (debit positive). */
interface TbRow {
  readonly name: string
  readonly code: string
  readonly section: string
  readonly balance: bigint
}

const readTrialBalance = (dir: string) => {
  const report = Files.trialBalance(dir)
  assert.deepStrictEqual(report.titles, [
    "Trial Balance",
    "Demo Trading Pte. Ltd.",
    "As at 31 December 2025",
    ""
  ])
  const rows = report.rows.map((r): TbRow => {
    const m = /^(.*) \((\w+)\)$/.exec(r.label)
    return {
      name: m?.[1] ?? r.label,
      code: m?.[2] ?? "",
      section: r.section,
      balance: cents(r.amounts[2]) - cents(r.amounts[3])
    }
  })
  return { rows, total: report.total.map(cents) }
}

/** The outstanding amount per contact in an Aged Detail report (its `Total <contact>` rows), and the grand total. */
const readAged = (dir: string, name: string) => {
  const report = Files.aged(dir, name)
  return {
    byContact: new Map([...report.contactTotals].map(([contact, row]) => [contact, cents(row.Total)])),
    grand: cents(report.total.Total)
  }
}

describe("the sample's own Trial Balance against the sandbox after a migration", () => {
  it.scopedLive(
    "agrees account by account to the cent, and the aged reports agree with AR and AP",
    () =>
      Effect.gen(function* () {
        const exports = tempDir("tb-proof-exports")
        const workspace = tempDir("tb-proof")
        const summary = generateCompany({ invoices: 150, seed: 42, out: exports })
        const s = yield* sandbox()
        const { mappings, books } = yield* Effect.gen(function* () {
          const files = yield* Extract.run({ source: "xero", inputDir: exports })
          for (const f of files) assert.strictEqual(f.rejected, 0, `${f.file} has no rejects`)
          const books = yield* XeroSource.read
          const snapshot = yield* ReadSnapshot.read
          const mappings = yield* Mappings.load("xero")
          const plan = PlanBuilder.build(books, snapshot, mappings)
          assert.deepStrictEqual(
            plan.issues.filter((i) => i.severity === "reject"),
            []
          )
          yield* PlanStore.save(plan, snapshot.baseCurrency)
          const loaded = yield* Executor.load({ concurrency: 8 })
          assert.isTrue(loaded.complete)
          return { mappings, books }
        }).pipe(inProcessIn(s, workspace))

        const generated = readTrialBalance(exports)
        assert.strictEqual(generated.rows.length, summary.trialBalance.accounts)
        const sumOf = (f: (r: TbRow) => bigint) => generated.rows.reduce((t, r) => t + f(r), 0n)
        assert.deepStrictEqual(
          [
            show(sumOf((r) => (r.balance > 0n ? r.balance : 0n))),
            show(sumOf((r) => (r.balance < 0n ? -r.balance : 0n)))
          ],
          [show(generated.total[2] ?? 0n), show(generated.total[3] ?? 0n)],
          "the generated TB's grand total is the sum of its rows"
        )

        const [book] = books.trialBalances
        assert.deepStrictEqual(
          book?.lines.map((l) => [
            l.accountName,
            l.accountCode,
            l.section,
            show(cents(Money.toFixed(l.debit)) - cents(Money.toFixed(l.credit)))
          ]),
          generated.rows.map((r) => [r.name, r.code, r.section, show(r.balance)]),
          "the source books read the generated Trial Balance as written"
        )
        assert.deepStrictEqual(
          [
            book?.asAt,
            books.trialBalances.length,
            books.agedReports.map((r) => [r.side, r.asAt, r.items.length])
          ],
          [
            "2025-12-31",
            1,
            [
              ["AR", "2025-12-31", summary.receivables.documents],
              ["AP", "2025-12-31", summary.payables.documents]
            ]
          ]
        )

        const { status, body } = yield* Effect.promise(() =>
          call(s, "POST", "/generate-reports/trial-balance", { endDate: "2025-12-31" })
        )
        assert.strictEqual(status, 200)
        const targetRows: ReadonlyArray<{
          accountCode: string | null
          accountName: string
          debitAmount: number
          creditAmount: number
        }> = body.data.rows
        const chart: ReadonlyArray<{ name: string; code: string | null }> = yield* Effect.promise(() =>
          searchAll(s, "chart-of-accounts", "name")
        )
        /** The target account a source account became: by code, else through the map or by name. */
        const pair = (row: TbRow): string => {
          const byCode = row.code === "" ? undefined : chart.find((a) => a.code === row.code)
          if (byCode !== undefined) return byCode.name
          const wanted = Mappings.normalizeName(mappings.accounts.get(row.name) ?? row.name)
          const byName = chart.find((a) => Mappings.normalizeName(a.name) === wanted)
          assert.isDefined(byName, `a target account for ${row.name} (${row.code})`)
          return byName!.name
        }
        const expected = new Map<string, bigint>()
        for (const row of generated.rows) {
          const target = pair(row)
          expected.set(target, (expected.get(target) ?? 0n) + row.balance)
        }
        const actual = new Map<string, bigint>()
        for (const r of targetRows)
          actual.set(r.accountName, cents(r.debitAmount.toFixed(2)) - cents(r.creditAmount.toFixed(2)))
        const differences = [...new Set([...expected.keys(), ...actual.keys()])]
          .sort()
          .map((name) => [name, show(expected.get(name) ?? 0n), show(actual.get(name) ?? 0n)] as const)
          .filter(([, e, a]) => e !== a)
        assert.deepStrictEqual(differences, [], "account: generated TB ≠ sandbox TB")
        assert.deepStrictEqual(
          [
            show(cents(body.data.totals.debitAmount.toFixed(2))),
            show(cents(body.data.totals.creditAmount.toFixed(2)))
          ],
          [summary.trialBalance.debit, summary.trialBalance.credit]
        )

        for (const [file, control, report] of [
          ["AgedReceivablesDetail.csv", "Accounts Receivable", "ar-report"],
          ["AgedPayablesDetail.csv", "Accounts Payable", "ap-report"]
        ] as const) {
          const aged = readAged(exports, file)
          const tbControl = generated.rows.find((r) => r.name === control)?.balance ?? 0n
          assert.strictEqual(
            show(aged.grand),
            show(control === "Accounts Receivable" ? tbControl : -tbControl),
            `${file} totals the TB's ${control}`
          )
          const res = yield* Effect.promise(() =>
            call(s, "POST", `/generate-reports/${report}`, { endDate: "2025-12-31" })
          )
          assert.strictEqual(res.status, 200)
          const target = new Map<string, bigint>()
          for (const row of res.body.data.rows as ReadonlyArray<{
            contactName: string
            outstandingBaseAmount: number
          }>)
            target.set(
              row.contactName,
              (target.get(row.contactName) ?? 0n) + cents(row.outstandingBaseAmount.toFixed(2))
            )
          const contacts = [...new Set([...aged.byContact.keys(), ...target.keys()])].sort()
          assert.deepStrictEqual(
            contacts
              .map((c) => [c, show(aged.byContact.get(c) ?? 0n), show(target.get(c) ?? 0n)] as const)
              .filter(([, a, t]) => a !== t),
            [],
            `${file}: contact, generated, sandbox`
          )
        }
      }),
    180_000
  )
})
