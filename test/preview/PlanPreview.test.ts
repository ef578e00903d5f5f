/**
 * The dry-run preview of the bundled sample's plan: `plan` writes WS/plan.html and WS/plan.xlsx and says where;
 * the projected trial balance (the plan run in a scratch copy of the target) equals the source's own Trial
 * Balance at 2025-12-31 account by account, and equals the trial balance the sandbox reports after the real
 * load; the real target receives no write while the preview is made; the plan hash does not depend on it; the
 * workbook reads back with its sheets, headers and a known document row.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import ExcelJS from "exceljs"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { scratchSandbox } from "../../src/cli/commands/plan.js"
import * as Pipeline from "../../src/cli/Pipeline.js"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as Memory from "../../src/Memory.js"
import * as PlanPreview from "../../src/preview/PlanPreview.js"
import * as Preview from "../../src/preview/Preview.js"
import * as TargetBooks from "../../src/reconcile/TargetBooks.js"
import { accountingFormat } from "../../src/reconcile/XlsxReport.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Money from "../../src/transform/Money.js"
import { scratchedOps } from "../../src/transform/PlanScratch.js"
import * as Sources from "../../src/transform/Sources.js"
import { apiKey, inProcessIn, runCli, sampleDir, sandbox, searchAll, tempDir } from "../support/Harness.js"
import { migration } from "../support/Migration.js"

const cells = (row: ExcelJS.Row) =>
  (row.values as Array<unknown>).slice(1).map((v) => (v === undefined || v === null ? "" : String(v)))

describe("the plan's dry-run preview of the bundled sample", () => {
  it.scopedLive(
    "projects the source's trial balance and the loaded sandbox's, writes plan.html and plan.xlsx, and changes no hash",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("preview")
        const read: Array<string> = []
        const s = yield* sandbox({ onRead: (_, path) => void read.push(path) })
        const { workspace, common } = migration(dir, s.url)
        const inProcess = inProcessIn(s, workspace)
        yield* inProcess(Extract.run({ source: "xero", inputDir: sampleDir }))

        const plan = yield* Effect.promise(() => runCli(["plan", ...common], { JK_API_KEY: apiKey }))
        assert.strictEqual(plan.status, 0, plan.stdout + plan.stderr)
        const html = NodePath.join(workspace, "plan.html")
        const xlsx = NodePath.join(workspace, "plan.xlsx")
        assert.include(plan.stdout, `Preview: ${html} (the workbook: ${xlsx})`)
        assert.isTrue(NodeFs.existsSync(html) && NodeFs.existsSync(xlsx))
        const printed = /Plan hash: (\w+)/.exec(plan.stdout)?.[1]

        // The preview is made in a copy: the real target has none of the plan's documents yet.
        assert.deepStrictEqual(
          (yield* Effect.promise(() => searchAll(s, "invoices", "reference"))).length,
          0,
          "no invoice reached the target while the preview was made"
        )
        // The same plan without a preview has the same hash, and building a preview leaves it as it is.
        const scratchedBefore = scratchedOps()
        const bare = yield* inProcess(Pipeline.plan(undefined, undefined))
        assert.strictEqual(bare.hash, printed)
        // Its operations waited in a scratch database, not in memory: every one of them.
        const stored = yield* inProcess(PlanStore.ops)
        assert.strictEqual(scratchedOps() - scratchedBefore, stored.length, "plan builds through a scratch")
        // With a preview, the plan is stored from a thread of its own while the preview is written from the
        // scratch: the same plan, the same preview's files in place, no partial file left.
        const besideBefore = PlanStore.besideStores()
        const previewed = yield* inProcess(
          Pipeline.plan(undefined, undefined, { preview: { dir: workspace, scratch: scratchSandbox } })
        )
        assert.strictEqual(PlanStore.besideStores() - besideBefore, 1, "stored beside the preview")
        assert.strictEqual(previewed.hash, printed)
        assert.deepStrictEqual(yield* inProcess(PlanStore.ops), stored)
        assert.deepStrictEqual(previewed.preview, { html, xlsx })
        assert.deepStrictEqual(
          NodeFs.readdirSync(workspace).filter((f) => f.endsWith(".partial")),
          [],
          "no partial preview file is left"
        )
        const books = yield* inProcess(Effect.flatMap(Sources.staged, (from) => from.read))
        const preview = yield* inProcess(
          PlanPreview.build(books, "Xero", "2026-01-01 00:00 UTC", scratchSandbox)
        )
        assert.strictEqual((yield* inProcess(PlanStore.meta))?.planHash, printed)
        assert.strictEqual(preview.header.planHash, printed)
        // The preview collects its garbage against a ceiling that counts the buffers outside the heap (its
        // workbook's XML and zip chunks), after each page it writes: with 80 MB of buffers held (far above its
        // 64 MB floor, invisible to the stages' ceiling on the heap alone), a full collection after each page.
        const held = Array.from({ length: 80 * 16 }, () => Buffer.alloc(64 * 1024, 1))
        const collections = Memory.collectionCount()
        yield* inProcess(PlanPreview.writeFor(dir, PlanStore.stored, books, "Xero", scratchSandbox))
        const pages = new Set(stored.map((o) => o.phase)).size
        assert.isAtLeast(Memory.collectionCount() - collections, pages, "a full collection after each page")
        // The buffers were held outside the heap throughout (referenced here, so not collected).
        assert.isAtLeast(process.memoryUsage().arrayBuffers, held.length * 64 * 1024)
        // A source that keeps each operation's listing (a plan's scratch) is listed from those, its bodies
        // never read back: the same workbook of operations as from the stored bodies.
        const listedDir = NodePath.join(dir, "listed")
        const listing: PlanStore.PlanSource<unknown> = {
          ...PlanStore.stored,
          previewPage: () => Effect.dieMessage("the bodies were read back for the preview"),
          listedPage: (phase, afterSeq, limit) =>
            Effect.map(PlanStore.previewPage(phase, afterSeq, limit), (ops) => ops.map(Preview.listedOf))
        }
        yield* inProcess(PlanPreview.writeFor(listedDir, listing, books, "Xero", scratchSandbox))
        const operationsOf = (file: string) =>
          Effect.promise(async () => {
            const wb = new ExcelJS.Workbook()
            await wb.xlsx.readFile(file)
            const rows: Array<Array<string>> = []
            wb.getWorksheet("Operations")!.eachRow((r) => void rows.push(cells(r)))
            return rows
          })
        const fromBodies = yield* operationsOf(NodePath.join(dir, "plan.xlsx"))
        assert.strictEqual(fromBodies.length, stored.length + 1, "a row per operation and the header")
        assert.deepStrictEqual(yield* operationsOf(NodePath.join(listedDir, "plan.xlsx")), fromBodies)
        // Above the limit the plan is not run in a copy: the preview says to rehearse instead.
        const large = yield* inProcess(
          PlanPreview.build(books, "Xero", "2026-01-01 00:00 UTC", scratchSandbox, 700)
        )
        assert.isUndefined(large.projected)
        assert.include(large.unavailable ?? "", "the plan has 701 operations, more than the 700")
        assert.include(large.unavailable ?? "", "run rehearse")

        // Every operation completes in the copy, and the projection equals the source's TB account by account.
        assert.deepStrictEqual(
          preview.kinds.filter((k) => k.created + k.adopted !== k.planned),
          [],
          "every operation completes in the copy"
        )
        assert.strictEqual(preview.header.operations, 701)
        const sum = (kinds: typeof preview.kinds, f: (k: (typeof preview.kinds)[number]) => number) =>
          kinds.reduce((n, k) => n + f(k), 0)
        assert.strictEqual(
          sum(preview.kinds, (k) => k.planned),
          701,
          "every operation is counted once"
        )
        assert.strictEqual(
          sum(preview.kinds, (k) => k.created + k.adopted),
          701
        )
        const firstOfEach = new Map<string, [string, string, number]>()
        for (const o of stored) {
          const k = firstOfEach.get(`${o.phase} ${o.kind}`) ?? [o.phase, o.kind, 0]
          k[2]++
          firstOfEach.set(`${o.phase} ${o.kind}`, k)
        }
        assert.deepStrictEqual(
          preview.kinds.map((k) => [k.phase, k.kind, k.planned]),
          [...firstOfEach.values()],
          "each kind once, in the order of its first operation"
        )
        // Without a projection the kinds are counted all the same, with no outcome.
        assert.deepStrictEqual(
          large.kinds.map((k) => [k.phase, k.kind, k.planned, k.created + k.adopted + k.refused + k.skipped]),
          preview.kinds.map((k) => [k.phase, k.kind, k.planned, 0])
        )
        // The preview holds the first operations of each phase, not the plan: the workbook pages through it.
        assert.strictEqual(preview.phaseCounts?.settlements, 263)
        assert.strictEqual(preview.documents.filter((d) => d.phase === "settlements").length, 200)
        assert.include(
          NodeFs.readFileSync(html, "utf8"),
          "The first 200 of 263; every operation is in plan.xlsx"
        )
        assert.deepStrictEqual(preview.unknowns, [])
        const [tb] = preview.comparisons
        assert.strictEqual(tb?.asAt, "2025-12-31")
        const rows = tb!.sections.flatMap((x) => x.rows)
        assert.strictEqual(rows.length, books.trialBalances[0]!.lines.length, "one row per source TB account")
        assert.deepStrictEqual(
          rows.filter((r) => r.status !== "ok").map((r) => [r.sourceAccounts[0]?.name, r.difference]),
          [],
          "no account differs"
        )
        for (const r of rows) {
          assert.strictEqual(r.targetDebit, r.sourceDebit, `${r.targetAccount} debit`)
          assert.strictEqual(r.targetCredit, r.sourceCredit, `${r.targetAccount} credit`)
        }
        assert.strictEqual(tb!.totals.difference, "0.00")
        assert.strictEqual(tb!.totals.targetDebit, "871652.67")

        // The real load: the sandbox's own trial balance is the projection, account by account.
        const loaded = yield* inProcess(Executor.load({ concurrency: 8 }))
        assert.isTrue(loaded.complete)
        const target = yield* inProcess(TargetBooks.trialBalance("2025-01-01", "2025-12-31"))
        const projected = new Map(
          preview.projected!.sections.flatMap((x) =>
            x.rows.map((r) => [
              r.account,
              Money.toFixed(Money.sub(Money.fromNumber(Number(r.debit)), Money.fromNumber(Number(r.credit))))
            ])
          )
        )
        assert.deepStrictEqual(
          new Map(target.rows.map((r) => [r.accountName, Money.toFixed(r.balance)])),
          projected,
          "the sandbox's trial balance after the load equals the projection"
        )
        assert.strictEqual(preview.projected!.debit, Money.toFixed(target.debit))
        assert.strictEqual(preview.projected!.credit, Money.toFixed(target.credit))

        // Planned again against the loaded target: a preview that runs the plan in a copy reads the whole
        // target; one above the limit reads its organisation and chart alone, and shows the same of them.
        const documentReads = () =>
          read.filter((p) =>
            /\/(invoices|bills|customer-credit-notes|supplier-credit-notes|journals|cashflow-transactions)\//.test(
              p
            )
          )
        read.length = 0
        const again = yield* inProcess(
          PlanPreview.build(books, "Xero", "2026-01-01 00:00 UTC", scratchSandbox)
        )
        assert.isAbove(documentReads().length, 0, "the projection mirrors the target's documents")
        read.length = 0
        const outlined = yield* inProcess(
          PlanPreview.build(books, "Xero", "2026-01-01 00:00 UTC", scratchSandbox, 700)
        )
        assert.deepStrictEqual(documentReads(), [], "without a projection no document is read")
        assert.deepStrictEqual(
          read.filter((p) => p.endsWith("/organization")),
          ["/api/v1/organization"],
          "the organisation is read once, for its name and its base currency"
        )
        assert.isUndefined(outlined.projected)
        assert.strictEqual(outlined.header.company, again.header.company)
        const accounts = (p: typeof again) => p.matched.find((m) => m.entity === "account")?.count
        assert.isAbove(accounts(again) ?? 0, 0)
        assert.strictEqual(
          accounts(outlined),
          accounts(again),
          "the accounts the plan pairs with the target's"
        )

        // The workbook: its sheets, frozen headers and a known invoice with the total the target computed.
        const wb = new ExcelJS.Workbook()
        yield* Effect.promise(() => wb.xlsx.readFile(xlsx))
        assert.deepStrictEqual(
          wb.worksheets.map((w) => w.name),
          ["Summary", "Projected TB", "TB vs source 2025-12-31", "Issues", "Operations"]
        )
        const ops = wb.getWorksheet("Operations")!
        assert.deepStrictEqual(cells(ops.getRow(1)), [
          "#",
          "Phase",
          "Kind",
          "Reference",
          "Date",
          "Contact / applies to",
          "Currency",
          "Amount",
          "In the target",
          "Message",
          "Source rows"
        ])
        assert.strictEqual(ops.views[0]?.state, "frozen")
        assert.strictEqual(ops.rowCount, 1 + 701, "every operation, not only the first of each phase")
        const invoices = yield* Effect.promise(() =>
          searchAll(s, "invoices", "reference", { reference: { in: ["INV-0150"] } })
        )
        let found: Array<string> | undefined
        ops.eachRow((row) => {
          const c = cells(row)
          if (c[2] === "invoice" && c[3] === "INV-0150") found = c
        })
        assert.deepStrictEqual(found?.slice(1, 9), [
          "transactions",
          "invoice",
          "INV-0150",
          "2025-12-30",
          "Pacific Rim Logistics Inc.",
          "USD",
          String(invoices[0]?.totalAmount),
          "created"
        ])
        assert.match(found?.[10] ?? "", /^SalesInvoices\.csv:\d+/)
        const tbSheet = wb.getWorksheet("TB vs source 2025-12-31")!
        assert.deepStrictEqual(cells(tbSheet.getRow(1)).slice(4, 9), [
          "Source debit",
          "Source credit",
          "Projected debit",
          "Projected credit",
          "Difference"
        ])
        assert.strictEqual(
          tbSheet.getRow(2).getCell(5).numFmt,
          accountingFormat,
          "amounts are numbers, formatted"
        )
        let sales: Array<string> | undefined
        tbSheet.eachRow((row) => {
          const c = cells(row)
          if (c[2] === "Sales") sales = c
        })
        assert.deepStrictEqual(sales?.slice(0, 9), [
          "Revenue",
          "200",
          "Sales",
          "Sales",
          "0",
          "275365.29",
          "0",
          "275365.29",
          "0"
        ])
      }),
    240_000
  )
})
