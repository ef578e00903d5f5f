/**
 * The sign-off page in a real browser (headless Chromium): it lays out into a page that is not blank (the
 * screenshot is not mostly one colour), and the DOM after loading holds the verdict, the header and the
 * trial-balance rows. Without Chromium the tests are skipped, and the run says so loudly.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as ReportWriter from "../../src/reconcile/ReportWriter.js"
import { chromium, dumpDom, screenshot, warnWithoutChromium } from "../support/Browser.js"
import { tempDir } from "../support/Harness.js"
import { colourProfile, decode } from "../support/Png.js"
import { reconciliation } from "./Synthetic.js"

warnWithoutChromium("report.html")

const ctx = {
  runId: "reconcile-20260101-000000-abcd",
  baseUrl: "http://127.0.0.1:1/api/v1",
  sourceSystem: "Xero",
  generatedAt: "2026-01-01 00:00 UTC"
}

/** Writes the synthetic pack; `KEEP_SCREENSHOT=<dir>` keeps a copy of the screenshot there to look at. */
const page = async (proven: boolean) => {
  const dir = tempDir("browser")
  const paths = await ReportWriter.write(dir, reconciliation({ proven }), ctx)
  return { dir, html: paths.html }
}

describe.skipIf(chromium === undefined)(
  `report.html in headless Chromium (${chromium ?? "not found"})`,
  () => {
    it("renders a page that is not blank", async () => {
      const { dir, html } = await page(true)
      const png = await screenshot(html, NodePath.join(dir, "page.png"))
      const keep = process.env["KEEP_SCREENSHOT"]
      if (keep) NodeFs.copyFileSync(NodePath.join(dir, "page.png"), NodePath.join(keep, "report-page.png"))
      const image = decode(png)
      assert.deepStrictEqual([image.width, image.height], [1280, 2000])
      const { dominant, colours } = colourProfile(image)
      assert.isBelow(dominant, 0.9, `the commonest colour covers ${(dominant * 100).toFixed(1)}% of the page`)
      assert.isAbove(colours, 50, "text, rules and highlighted rows give many colours")
    }, 120_000)

    it("lays out the verdict, the header and the trial-balance rows", async () => {
      const { html } = await page(true)
      const dom = await dumpDom(html)
      assert.match(dom, /<div class="verdict bad" id="verdict">\s*<strong>DIFFERENCES<\/strong>/)
      assert.include(dom, "<h1>Demo Trading Pte. Ltd.</h1>")
      assert.include(dom, "Trial balance as at 2025-12-31")
      for (const account of ["Sales", "Rent", "DBS Business Account", "Accounts Receivable", "GST"])
        assert.match(dom, new RegExp(`<tr[^>]*data-account="${account}"`), `a row for ${account}`)
      assert.match(dom, /data-account="Sales"[^]*?<td class="num bad">-50\.00<\/td>/, "Sales' difference")
    }, 120_000)

    it("says NOT PROVEN and what to export when the source's reports are missing", async () => {
      const { html } = await page(false)
      const dom = await dumpDom(html)
      assert.match(dom, /<strong>NOT PROVEN<\/strong>/)
      assert.include(dom, "The independent comparison could not be made for")
    }, 120_000)
  }
)
