/**
 * The independent proof against tampering, end to end: the bundled sample is loaded cleanly into a sandbox
 * and reconciles (the CLI exits 0); then the target is changed through its own API — an extra journal, a
 * deleted payment, a changed invoice line, a renamed account and a journal on a new account — and each time
 * the reconciliation no longer matches, naming the account, contact or document with the right class of
 * difference (the CLI exits 1 and its report says so).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import ExcelJS from "exceljs"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import type { Difference } from "../../src/reconcile/Model.js"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import type { RunningSandbox } from "../../src/sandbox/Sandbox.js"
import * as Money from "../../src/transform/Money.js"
import type { SourceBooks } from "../../src/transform/SourceModel.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import { apiKey, call, inProcessIn, runCli, sandbox, searchAll, tempDir } from "../support/Harness.js"
import { migrate } from "./Migrate.js"

const reconcile = (s: RunningSandbox, workspace: string, books?: SourceBooks) =>
  Effect.gen(function* () {
    return yield* Reconcile.reconcile(books ?? (yield* XeroSource.read), "SGD", "2025-12-31")
  }).pipe(inProcessIn(s, workspace))

const ok = async (s: RunningSandbox, method: string, path: string, body?: unknown) => {
  const res = await call(s, method, path, body)
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}
const createdId = (body: any): string => body?.resourceId ?? body?.data?.resourceId
const accountId = async (s: RunningSandbox, name: string) =>
  (await searchAll(s, "chart-of-accounts", "name")).find((a) => a.name === name)!.resourceId as string
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

const only = (differences: ReadonlyArray<Difference>, subject: string, area?: string) => {
  const found = differences.filter((d) => d.subject === subject && (area === undefined || d.area === area))
  assert.strictEqual(
    found.length,
    1,
    `one difference for ${subject}: ${JSON.stringify(differences.map((d) => [d.area, d.subject]))}`
  )
  return found[0]!
}

describe("the reconciliation catches tampering in the target", () => {
  it.scopedLive(
    "a clean load matches (exit 0); an extra journal on Rent is named, class transaction (exit 1)",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const dir = tempDir("tamper-journal")
        const ws = NodePath.join(dir, "ws")
        yield* migrate(s, ws)
        const keyFile = NodePath.join(dir, "key.txt")
        NodeFs.writeFileSync(keyFile, apiKey)
        const runs = NodePath.join(dir, "runs")
        const cli = () =>
          Effect.promise(() =>
            runCli([
              "reconcile",
              "--workspace",
              ws,
              "--base-url",
              s.url,
              "--api-key-file",
              keyFile,
              "--runs-dir",
              runs
            ])
          )
        const clean = yield* cli()
        assert.strictEqual(clean.status, 0, clean.stdout + clean.stderr)
        assert.include(clean.stdout, "Reconciliation: MATCHES")

        yield* Effect.promise(async () =>
          ok(s, "POST", "/journals", {
            reference: "ADJ-TAMPER-1",
            valueDate: "2025-06-30",
            saveAsDraft: false,
            journalEntries: [
              {
                accountResourceId: await accountId(s, "Rent"),
                type: "DEBIT",
                amount: 123.45,
                description: "tamper"
              },
              {
                accountResourceId: await accountId(s, "DBS Business Account"),
                type: "CREDIT",
                amount: 123.45,
                description: "tamper"
              }
            ]
          })
        )
        const tampered = yield* cli()
        assert.strictEqual(tampered.status, 1, tampered.stdout + tampered.stderr)
        assert.include(tampered.stdout, "Reconciliation: DIFFERENCES")
        assert.include(tampered.stdout, "ADJ-TAMPER-1")

        const dirs = NodeFs.readdirSync(runs)
          .filter((d) => d.startsWith("reconcile-"))
          .sort()
        const last = NodePath.join(runs, dirs.at(-1)!)
        const report = JSON.parse(NodeFs.readFileSync(NodePath.join(last, "report.json"), "utf8"))
        assert.strictEqual(report.matches, false)
        const rent = only(report.differences, "Rent")
        assert.strictEqual(rent.class, "transaction")
        assert.strictEqual(rent.difference, "123.45")
        assert.deepStrictEqual(
          [rent.candidates[0]!.kind, rent.candidates[0]!.reference],
          ["extra", "ADJ-TAMPER-1"]
        )
        assert.match(rent.lineage[0]!, /^TrialBalance\.csv:\d+$/, "the source row of Rent")
        const bank = only(report.differences, "DBS Business Account")
        assert.deepStrictEqual(
          [bank.class, bank.difference, bank.candidates[0]!.reference],
          ["transaction", "-123.45", "ADJ-TAMPER-1"]
        )
        assert.strictEqual(report.differences.length, 2, "nothing else differs")

        const wb = new ExcelJS.Workbook()
        yield* Effect.promise(() => wb.xlsx.readFile(NodePath.join(last, "report.xlsx")))
        const sheet = wb.getWorksheet("Differences")!
        assert.strictEqual(sheet.rowCount, 3)
        assert.include(String(sheet.getCell("J2").value), "ADJ-TAMPER-1")
      }),
    240_000
  )

  it.scopedLive(
    "a deleted payment: the bank and receivables accounts name the payment, the contact names its invoice",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const ws = tempDir("tamper-payment")
        const books = yield* migrate(s, ws)
        const paid = books.documents.find(
          (d) =>
            d.kind === "invoice" &&
            d.state === "open" &&
            d.currency === "SGD" &&
            Money.isZero(d.amountDue) &&
            books.payments.filter((p) => p.documentNumber === d.number).length === 1
        )!
        const payment = books.payments.find((p) => p.documentNumber === paid.number)!
        yield* Effect.promise(async () => {
          const [row] = await searchAll(s, "invoices", "reference", { reference: { eq: paid.number } })
          const invoice = await ok(s, "GET", `/invoices/${row.resourceId}`)
          await ok(s, "DELETE", `/payments/${(invoice.data ?? invoice).paymentRecords[0].resourceId}`)
        })
        const r = yield* reconcile(s, ws)
        assert.isFalse(r.matches)
        const bank = only(r.differences, payment.bankAccountName)
        assert.strictEqual(bank.class, "transaction")
        assert.deepStrictEqual(
          [bank.candidates[0]!.kind, bank.candidates[0]!.reference, bank.candidates[0]!.lineage],
          ["missing", `${paid.number}-PMT1`, [payment.lineage]]
        )
        const ar = only(r.differences, "Accounts Receivable")
        assert.deepStrictEqual(
          [ar.class, ar.candidates[0]!.reference],
          ["transaction", `${paid.number}-PMT1`]
        )
        const contact = only(r.differences, paid.contactName, "AR")
        assert.strictEqual(contact.class, "contact-balance")
        assert.deepStrictEqual(
          contact.candidates.map((c) => [c.kind, c.reference, c.target]),
          [["extra", paid.number, Money.toFixed(paid.total)]],
          "open in the target, not in the source's aged report"
        )
        assert.strictEqual(contact.difference, Money.toFixed(paid.total))
        assert.strictEqual(bank.difference, Money.toFixed(Money.negate(payment.amount)))
        assert.isTrue(
          r.differences.some((d) => d.class === "document" && d.subject === `invoice ${paid.number}`)
        )
      }),
    240_000
  )

  it.scopedLive(
    "a changed invoice line: its revenue account, GST and receivables name the invoice as changed, so do the contact and the documents",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const ws = tempDir("tamper-line")
        const books = yield* migrate(s, ws)
        const doc = books.documents.find(
          (d) =>
            d.kind === "invoice" &&
            d.state === "open" &&
            d.currency === "SGD" &&
            Money.isZero(d.amountPaid) &&
            !Money.isZero(d.taxTotal)
        )!
        yield* Effect.promise(async () => {
          const [row] = await searchAll(s, "invoices", "reference", { reference: { eq: doc.number } })
          const got = await ok(s, "GET", `/invoices/${row.resourceId}`)
          const inv = got.data ?? got
          await ok(s, "PUT", `/invoices/${inv.resourceId}`, {
            resourceId: inv.resourceId,
            reference: inv.reference,
            valueDate: day(inv.valueDate),
            dueDate: day(inv.dueDate),
            contactResourceId: inv.contactResourceId,
            taxInclusion: inv.taxInclusion,
            saveAsDraft: false,
            lineItems: inv.lineItems.map((l: any, i: number) => ({
              name: l.name,
              quantity: l.quantity,
              unitPrice: i === 0 ? l.unitPrice + 100 : l.unitPrice,
              accountResourceId: l.organizationAccountResourceId,
              ...(l.taxProfile ? { taxProfileResourceId: l.taxProfile.resourceId } : {}),
              ...(l.itemResourceId ? { itemResourceId: l.itemResourceId } : {})
            }))
          })
        })
        const r = yield* reconcile(s, ws)
        assert.isFalse(r.matches)
        const revenue = books.accounts.find((a) => a.code === doc.lines[0]!.accountCode)!
        for (const subject of [revenue.name, "GST", "Accounts Receivable"]) {
          const d = only(r.differences, subject, "Trial balance")
          assert.strictEqual(d.class, "transaction", subject)
          assert.deepStrictEqual(
            [d.candidates[0]!.kind, d.candidates[0]!.reference],
            ["changed", doc.number],
            subject
          )
        }
        const contact = only(r.differences, doc.contactName, "AR")
        assert.deepStrictEqual(
          [contact.class, contact.candidates.map((c) => [c.kind, c.reference])],
          ["contact-balance", [["changed", doc.number]]]
        )
        assert.isTrue(
          r.differences.some((d) => d.class === "document" && d.subject === `invoice ${doc.number}`)
        )
      }),
    240_000
  )

  it.scopedLive(
    "a renamed account is missing with its rename named; a journal on a new account is an extra account with the journal named",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const ws = tempDir("tamper-accounts")
        yield* migrate(s, ws)
        yield* Effect.promise(async () => {
          const insurance = (await searchAll(s, "chart-of-accounts", "name")).find(
            (a) => a.name === "Insurance"
          )!
          await ok(s, "PUT", `/chart-of-accounts/${insurance.resourceId}`, {
            resourceId: insurance.resourceId,
            name: "Insurance (renamed)",
            classificationType: insurance.classificationType
          })
          const suspense = createdId(
            await ok(s, "POST", "/chart-of-accounts", {
              name: "Tamper Suspense",
              classificationType: "Current Liability"
            })
          )
          await ok(s, "POST", "/journals", {
            reference: "ADJ-TAMPER-2",
            valueDate: "2025-09-30",
            saveAsDraft: false,
            journalEntries: [
              {
                accountResourceId: await accountId(s, "Office Expenses"),
                type: "DEBIT",
                amount: 75,
                description: "tamper"
              },
              { accountResourceId: suspense, type: "CREDIT", amount: 75, description: "tamper" }
            ]
          })
        })
        const r = yield* reconcile(s, ws)
        assert.isFalse(r.matches)
        const missing = only(r.differences, "Insurance")
        assert.strictEqual(missing.class, "missing-account")
        assert.match(missing.fix, /"Insurance \(renamed\)" holds exactly this balance/)
        assert.strictEqual(only(r.differences, "Insurance (renamed)").class, "extra-account")
        const extra = only(r.differences, "Tamper Suspense")
        assert.deepStrictEqual(
          [extra.class, extra.target, extra.candidates[0]!.kind, extra.candidates[0]!.reference],
          ["extra-account", "-75.00", "extra", "ADJ-TAMPER-2"]
        )
        const office = only(r.differences, "Office Expenses")
        assert.deepStrictEqual(
          [office.class, office.candidates[0]!.reference],
          ["transaction", "ADJ-TAMPER-2"]
        )
        const tb = r.trialBalances[0]!.sections.flatMap((x) => x.rows)
        assert.deepStrictEqual(
          tb
            .filter((x) => x.status !== "ok")
            .map((x) => [x.sourceAccounts.map((a) => a.name).join("+"), x.targetAccount ?? "", x.status])
            .sort(),
          [
            ["", "Insurance (renamed)", "extra-account"],
            ["", "Tamper Suspense", "extra-account"],
            ["Insurance", "", "missing-account"],
            ["Office Expenses", "Office Expenses", "transaction"]
          ]
        )
      }),
    240_000
  )
})
