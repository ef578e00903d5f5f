/**
 * rehearsal.html in a real browser (headless Chromium), from synthetic facts with refusals: the page is not
 * blank (the screenshot is not mostly one colour), and the DOM after loading holds the verdict, a row per
 * phase, each refused operation with the platform's words and its source rows (escaped), and the projected
 * trial balance. rehearsal.json holds the facts under a `run` object that alone carries the run id and times.
 * Without Chromium the browser tests are skipped, and the run says so loudly.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import type { RehearsalFacts } from "../../src/cli/Rehearsal.js"
import * as RehearsalReport from "../../src/cli/RehearsalReport.js"
import { chromium, dumpDom, screenshot, warnWithoutChromium } from "../support/Browser.js"
import { tempDir } from "../support/Harness.js"
import { colourProfile, decode } from "../support/Png.js"

warnWithoutChromium("rehearsal.html")

const phase = (name: string, planned: number, created: number, rejected = 0, skipped = 0) => ({
  phase: name,
  planned,
  created,
  adopted: planned - created - rejected - skipped,
  rejected,
  skipped,
  in_doubt: 0,
  pending: 0
})

const facts: RehearsalFacts = {
  planHash: "a".repeat(64),
  snapshotHash: "b".repeat(64),
  baseCurrency: "SGD",
  clean: false,
  phases: [phase("accounts", 36, 30), phase("contacts", 40, 35), phase("transactions", 316, 300, 2, 1)],
  operations: [],
  refused: [
    {
      key: "invoice:INV-0007",
      phase: "transactions",
      kind: "invoice",
      outcome: "rejected",
      message: "POST /invoices: refused with HTTP 422: taxProfileResourceId: <id> does not apply to sales",
      lineage: ["SalesInvoices.csv:14", "SalesInvoices.csv:15"]
    },
    {
      key: "journal:MIG-JNL-2025-03-31-<b>",
      phase: "transactions",
      kind: "journal",
      outcome: "skipped",
      message: "dependency account:Suspense did not complete",
      lineage: ["ManualJournals.csv:40"]
    }
  ],
  trialBalance: {
    asAt: "2025-12-31",
    rows: [
      { account: "DBS Business Account", code: "090", debit: 120345.5, credit: 0 },
      { account: "Sales", code: "200", debit: 0, credit: 120345.5 }
    ],
    totals: { debit: 120345.5, credit: 120345.5 }
  },
  reconciliation: { verdict: "DIFFERENCES", matches: false, differences: 3 }
}

const run = {
  runId: "rehearse-20260101T000000Z-abcd",
  generatedAt: "2026-01-01T00:00:00.000Z",
  snapshotTakenAt: "2026-01-01T00:00:00.000Z",
  snapshotSource: "https://api.example.com"
}

const page = async () => {
  const dir = tempDir("rehearsal-page")
  const paths = await RehearsalReport.write(dir, facts, run, NodePath.join(dir, "report.html"))
  return { dir, ...paths }
}

describe("rehearsal.json", () => {
  it("holds the facts, with the run's id and times in `run` only", async () => {
    const { json } = await page()
    const { run: written, ...rest } = JSON.parse(NodeFs.readFileSync(json, "utf8"))
    assert.deepStrictEqual(written, run)
    assert.deepStrictEqual(rest, JSON.parse(JSON.stringify(facts)))
  })
})

describe.skipIf(chromium === undefined)(
  `rehearsal.html in headless Chromium (${chromium ?? "not found"})`,
  () => {
    it("renders a page that is not blank", async () => {
      const { dir, html } = await page()
      const image = decode(await screenshot(html, NodePath.join(dir, "page.png")))
      const { dominant, colours } = colourProfile(image)
      assert.isBelow(dominant, 0.9, `the commonest colour covers ${(dominant * 100).toFixed(1)}% of the page`)
      assert.isAbove(colours, 50, "text, rules and highlighted cells give many colours")
    }, 120_000)

    it("lays out the verdict, the phases, the refusals with their rows and the trial balance", async () => {
      const { html } = await page()
      const dom = await dumpDom(html)
      assert.match(dom, /<div class="verdict bad" id="verdict"><strong>NOT CLEAN<\/strong>/)
      assert.include(dom, "reconciliation against the mirror: <strong>DIFFERENCES</strong> (3 differences)")
      for (const p of ["accounts", "contacts", "transactions"])
        assert.match(dom, new RegExp(`<tr data-phase="${p}">`), `a row for ${p}`)
      assert.match(dom, /<tr data-phase="transactions">.*?<td class="num bad">2<\/td>/s, "2 refused")
      assert.match(dom, /<tr data-key="invoice:INV-0007">.*does not apply to sales.*SalesInvoices\.csv:14/s)
      assert.include(dom, "journal:MIG-JNL-2025-03-31-&lt;b&gt;", "a key is escaped, never markup")
      assert.match(dom, /<tr data-account="DBS Business Account">.*120,345\.50/s)
      assert.include(dom, "Projected trial balance as at 2025-12-31")
    }, 120_000)
  }
)
