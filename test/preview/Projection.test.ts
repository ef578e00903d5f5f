/**
 * The projection of a small hand-made plan against a mirror of the default sandbox organisation: what it
 * posts per account (documents with tax, a payment, a foreign-currency document), as at a date; an operation
 * the target would refuse and the one that depends on it are named and kept out of the figures; a foreign
 * document no rate covers is said to be unknowable before the load. The preview made of it lays out in
 * headless Chromium (not blank; verdict, projected rows and the notice in the DOM) and stays bounded.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { scratchSandbox } from "../../src/cli/commands/plan.js"
import * as MirrorSnapshot from "../../src/load/MirrorSnapshot.js"
import * as HtmlPreview from "../../src/preview/HtmlPreview.js"
import * as PlanPreview from "../../src/preview/PlanPreview.js"
import * as Preview from "../../src/preview/Preview.js"
import * as Projection from "../../src/preview/Projection.js"
import type { StoredOp } from "../../src/staging/PlanStore.js"
import * as Money from "../../src/transform/Money.js"
import type { OpKind, Phase } from "../../src/transform/Plan.js"
import type { SourceTrialBalance } from "../../src/transform/SourceModel.js"
import { chromium, dumpDom, screenshot, warnWithoutChromium } from "../support/Browser.js"
import { layers, sandbox, searchAll, tempDir } from "../support/Harness.js"
import { colourProfile, decode } from "../support/Png.js"

warnWithoutChromium("plan.html")

let seq = 0
const op = (
  phase: Phase,
  kind: OpKind,
  naturalKey: string,
  body: unknown,
  dependsOn: Array<string> = []
): StoredOp => ({
  seq: ++seq,
  key: `${kind === "invoice-payment" ? "payment:invoice" : kind}:${naturalKey}`,
  phase,
  kind,
  naturalKey,
  dependsOn,
  body,
  bodyHash: "",
  lineage: [`Test.csv:${seq + 1}`]
})

const invoice = (reference: string, contact: string, lines: Array<unknown>, extra: object = {}) => ({
  reference,
  valueDate: "2025-03-01",
  dueDate: "2025-03-31",
  contactResourceId: `@contact:${contact}`,
  taxInclusion: false,
  saveAsDraft: false,
  lineItems: lines,
  ...extra
})

const plan: Array<StoredOp> = [
  op("currencies", "currency", "USD", { currencies: ["USD"] }),
  op(
    "rates",
    "rate",
    "USD:2025-01-01",
    { currencyCode: "USD", rate: 0.75, rateApplicableFrom: "2025-01-01", rateApplicableTo: "2025-01-31" },
    ["currency:USD"]
  ),
  op("accounts", "account", "Consulting Income", {
    name: "Consulting Income",
    code: "4100",
    classificationType: "Operating Revenue"
  }),
  op("contacts", "contact", "Acme Pte Ltd", {
    name: "Acme Pte Ltd",
    billingName: "Acme Pte Ltd",
    customer: true,
    supplier: false
  }),
  op(
    "transactions",
    "invoice",
    "INV-1",
    invoice("INV-1", "Acme Pte Ltd", [
      {
        name: "Advice",
        quantity: 2,
        unitPrice: 100.5,
        accountResourceId: "@account:Consulting Income",
        taxProfileResourceId: "@taxProfile:SR 9%"
      }
    ]),
    ["account:Consulting Income", "contact:Acme Pte Ltd"]
  ),
  op(
    "transactions",
    "invoice",
    "INV-2",
    invoice("INV-2", "Nobody Ltd", [
      { name: "Lost", quantity: 1, unitPrice: 10, accountResourceId: "@account:Sales" }
    ]),
    []
  ),
  op(
    "transactions",
    "invoice",
    "INV-3",
    invoice(
      "INV-3",
      "Acme Pte Ltd",
      [{ name: "Abroad", quantity: 1, unitPrice: 100, accountResourceId: "@account:Sales" }],
      { currency: { sourceCurrency: "USD" } }
    ),
    ["contact:Acme Pte Ltd", "currency:USD"]
  ),
  op(
    "settlements",
    "invoice-payment",
    "INV-1:1",
    {
      resourceId: "@invoice:INV-1",
      payments: [
        {
          paymentAmount: 50,
          transactionAmount: 50,
          accountResourceId: "@account:Cash on Hand",
          paymentMethod: "BANK_TRANSFER",
          reference: "INV-1-PMT1",
          valueDate: "2025-04-01"
        }
      ]
    },
    ["invoice:INV-1"]
  ),
  op(
    "settlements",
    "invoice-payment",
    "INV-2:1",
    {
      resourceId: "@invoice:INV-2",
      payments: [
        {
          paymentAmount: 10,
          transactionAmount: 10,
          accountResourceId: "@account:Cash on Hand",
          paymentMethod: "BANK_TRANSFER",
          reference: "INV-2-PMT1",
          valueDate: "2025-04-01"
        }
      ]
    },
    ["invoice:INV-2"]
  )
]

const page = (phase: Phase, after: number, limit: number) =>
  Effect.succeed(plan.filter((o) => o.phase === phase && o.seq > after).slice(0, limit))

/** The default organisation's mirror, its projection, and whether the sandbox itself was written to. */
const projected = Effect.gen(function* () {
  const s = yield* sandbox()
  const snapshot = yield* MirrorSnapshot.take.pipe(Effect.provide(layers(s, tempDir("projection"))))
  const p = yield* Projection.project(snapshot.content, page, ["2025-03-15", "2025-12-31"], scratchSandbox)
  const contacts = yield* Effect.promise(() => searchAll(s, "contacts", "name"))
  return { p, contacts }
})

const m = (s: string) => Money.fromNumber(Number(s))
const balances = (p: Projection.Projection) =>
  Object.fromEntries(
    p.accounts.filter((a) => !Money.isZero(a.amount)).map((a) => [a.name, Money.toFixed(a.amount)])
  )

const sourceTb: SourceTrialBalance = {
  asAt: "2025-12-31",
  file: "TrialBalance.csv",
  totalDebit: m("354.23"),
  totalCredit: m("354.09"),
  lines: [
    ["Accounts Receivable", "610", "Assets", "304.23", "0"],
    ["Cash on Hand", "090", "Assets", "50", "0"],
    ["GST Control", "820", "Liabilities", "0", "18.09"],
    ["Consulting Income", "4100", "Revenue", "0", "201"],
    ["Sales", "200", "Revenue", "0", "135"]
  ].map(([accountName, accountCode, section, debit, credit], i) => ({
    accountName: accountName!,
    accountCode: accountCode!,
    section: section!,
    debit: m(debit!),
    credit: m(credit!),
    lineage: `TrialBalance.csv:${i + 5}`
  }))
}

const kindsOf = (docs: ReadonlyArray<Preview.PreviewDoc>) => {
  const planned = new Map<string, { phase: Phase; kind: string; n: number }>()
  for (const d of docs) {
    const k = planned.get(`${d.phase} ${d.kind}`) ?? { phase: d.phase, kind: d.kind, n: 0 }
    k.n++
    planned.set(`${d.phase} ${d.kind}`, k)
  }
  return Preview.kindCounts([...planned.values()], docs)
}

const previewOf = (p: Projection.Projection): Preview.Preview => {
  const outcomes = new Map(p.outcomes.map((o) => [o.key, o]))
  const documents = plan.map((o) => Preview.docOf(Preview.listedOf(o), "SGD", outcomes.get(o.key)))
  return {
    header: {
      company: "Test Company <&>",
      sourceSystem: "Xero",
      baseCurrency: "SGD",
      conversion: "Full history",
      planHash: "ab".repeat(32),
      operations: documents.length,
      generatedAt: "2026-01-01 00:00 UTC"
    },
    kinds: kindsOf(documents),
    matched: Object.entries(p.matched).map(([entity, count]) => ({ entity, count })),
    documents,
    issues: Preview.groupIssues([
      {
        severity: "warning",
        lineage: ["A.csv:2"],
        what: "invoice X (Voided)",
        why: "voided",
        fix: "nothing to do"
      },
      { severity: "reject", lineage: ["A.csv:3"], what: "invoice Y", why: "no date", fix: "give it a date" }
    ]),
    projected: Preview.projectedTrialBalance(p),
    comparisons: [Preview.compareWithSource(p, sourceTb, [])],
    unknowns: Preview.unknownsOf(p),
    unavailable: undefined
  }
}

/** The projection's preview written into a temporary directory named after `name`, with its paths. */
const writtenPreview = (name: string) =>
  Effect.gen(function* () {
    const { p } = yield* projected
    const dir = tempDir(name)
    const paths = yield* PlanPreview.write(dir, previewOf(p))
    return { p, dir, paths }
  })

describe("the projection of a plan in a copy of the target", () => {
  it.scopedLive("posts what the platform's rules post, and names what it cannot know", () =>
    Effect.gen(function* () {
      const { p, contacts } = yield* projected
      assert.deepStrictEqual(contacts, [], "the projection wrote nothing to the sandbox it mirrored")
      const outcome = Object.fromEntries(p.outcomes.map((o) => [o.key, o.outcome]))
      assert.deepStrictEqual(outcome, {
        "currency:USD": "created",
        "rate:USD:2025-01-01": "created",
        "account:Consulting Income": "created",
        "contact:Acme Pte Ltd": "created",
        "invoice:INV-1": "created",
        "invoice:INV-2": "refused",
        "invoice:INV-3": "created",
        "payment:invoice:INV-1:1": "created",
        "payment:invoice:INV-2:1": "skipped"
      })
      assert.match(p.outcomes.find((o) => o.key === "invoice:INV-2")!.message!, /contact:Nobody Ltd/)
      assert.strictEqual(p.outcomes.find((o) => o.key === "invoice:INV-1")!.total, 219.09)
      // 2 × 100.50 at 9% GST; 50.00 paid; USD 100 at the fallback 0.74 USD per SGD = 135.14 (no rate covers March).
      assert.deepStrictEqual(balances(p), {
        "Accounts Receivable": "304.23",
        "GST Control": "-18.09",
        Sales: "-135.14",
        "Cash on Hand": "50.00",
        "Consulting Income": "-201.00"
      })
      const at = (d: string) =>
        Object.fromEntries([...(p.asAt.get(d) ?? new Map())].map(([k, v]) => [k, Money.toFixed(v)]))
      assert.deepStrictEqual(at("2025-03-15"), {
        "Accounts Receivable": "354.23",
        "GST Control": "-18.09",
        Sales: "-135.14",
        "Consulting Income": "-201.00"
      })
      assert.deepStrictEqual(
        Object.fromEntries(
          p.accounts.filter((a) => !Money.isZero(a.amount)).map((a) => [a.name, a.existing])
        ),
        {
          "Accounts Receivable": true,
          "GST Control": true,
          Sales: true,
          "Cash on Hand": true,
          "Consulting Income": false
        },
        "the account the plan creates is told from the target's own"
      )
      assert.deepStrictEqual(p.platformRated, [{ key: "invoice:INV-3", currency: "USD", date: "2025-03-01" }])
      const unknowns = Preview.unknownsOf(p)
      assert.strictEqual(unknowns.length, 2)
      assert.match(
        unknowns[0]!,
        /^1 operation is refused by a copy of the target \(e\.g\. invoice:INV-2: .*\), and 1 depends on one/
      )
      assert.match(
        unknowns[1]!,
        /^1 USD document \(dated 2025-03-01 to 2025-03-01\) falls on days no USD rate/
      )

      // Beside the source's TB: Sales differs by 0.14, the rest agrees.
      const c = Preview.compareWithSource(p, sourceTb, [])
      const rows = c.sections.flatMap((x) => x.rows)
      assert.deepStrictEqual(
        rows.filter((r) => r.status !== "ok").map((r) => [r.targetAccount, r.difference]),
        [["Sales", "-0.14"]]
      )
      assert.strictEqual(rows.length, 5)
    })
  )

  it.scopedLive(
    "puts the preview's files in place only once its plan is stored: a plan not stored leaves the last preview",
    () =>
      Effect.gen(function* () {
        const { p, dir, paths } = yield* writtenPreview("preview-ready")
        const last = [NodeFs.readFileSync(paths.html), NodeFs.readFileSync(paths.xlsx)]
        const later = { ...previewOf(p), header: { ...previewOf(p).header, planHash: "another plan" } }
        const failed = yield* Effect.exit(PlanPreview.write(dir, later, Effect.dieMessage("not stored")))
        assert.isTrue(failed._tag === "Failure")
        assert.deepStrictEqual([NodeFs.readFileSync(paths.html), NodeFs.readFileSync(paths.xlsx)], last)
        assert.deepStrictEqual(NodeFs.readdirSync(dir).sort(), ["plan.html", "plan.xlsx"])
        yield* PlanPreview.write(dir, later, Effect.void)
        assert.include(NodeFs.readFileSync(paths.html, "utf8"), "another plan")
        assert.deepStrictEqual(NodeFs.readdirSync(dir).sort(), ["plan.html", "plan.xlsx"])
      })
  )

  it.scopedLive("says why when no copy of the target can be made, and the page says it too", () =>
    Effect.gen(function* () {
      const s = yield* sandbox()
      const snapshot = yield* MirrorSnapshot.take.pipe(Effect.provide(layers(s, tempDir("projection"))))
      const refused = yield* Effect.flip(
        Projection.project(snapshot.content, page, [], {
          fallbackRates: () => ({}),
          start: () => Promise.reject(new Error("no free port"))
        })
      )
      assert.strictEqual(
        refused.message,
        "the snapshot cannot be mirrored: a sandbox would not start on it: no free port"
      )
      const noRoles = yield* Effect.flip(
        Projection.project(
          { ...snapshot.content, accounts: snapshot.content.accounts.filter((a) => !a.controlFlag) },
          page,
          [],
          scratchSandbox
        )
      )
      assert.match(noRoles.message, /no system account of the target plays AR, AP/)
      const { p } = yield* projected
      const html = HtmlPreview.render({
        ...previewOf(p),
        projected: undefined,
        comparisons: [],
        unavailable: `The projected trial balance could not be made: ${refused.message}`
      })
      assert.include(html, "<strong>REVIEW</strong>")
      assert.include(html, "The projected trial balance could not be made: the snapshot cannot be mirrored")
    })
  )

  it.scopedLive(
    "keeps the page bounded: the first N operations of each phase, the rest in the workbook",
    () =>
      Effect.gen(function* () {
        const { p } = yield* projected
        const html = HtmlPreview.render(previewOf(p), 1, 1)
        assert.include(html, "The first 1 of 3; every operation is in plan.xlsx")
        assert.notInclude(html, ">INV-2<", "only the first invoice of the phase is listed")
        assert.include(html, "Test Company &#60;&#38;&#62;", "text is escaped")
      })
  )
})

describe.skipIf(chromium === undefined)(`plan.html in headless Chromium (${chromium ?? "not found"})`, () => {
  it.scopedLive(
    "renders a page that is not blank, with the verdict, the projected rows and what cannot be known",
    () =>
      Effect.gen(function* () {
        const { dir, paths } = yield* writtenPreview("preview-browser")
        const png = yield* Effect.promise(() => screenshot(paths.html, NodePath.join(dir, "page.png")))
        const keep = process.env["KEEP_SCREENSHOT"]
        if (keep) NodeFs.copyFileSync(NodePath.join(dir, "page.png"), NodePath.join(keep, "plan-page.png"))
        const image = decode(png)
        assert.deepStrictEqual([image.width, image.height], [1280, 2000])
        const { dominant, colours } = colourProfile(image)
        assert.isBelow(
          dominant,
          0.9,
          `the commonest colour covers ${(dominant * 100).toFixed(1)}% of the page`
        )
        assert.isAbove(colours, 50, "text, rules and highlighted rows give many colours")
        const dom = yield* Effect.promise(() => dumpDom(paths.html))
        assert.match(dom, /<div class="verdict warn" id="verdict"><strong>REVIEW<\/strong>/)
        for (const account of ["Accounts Receivable", "Consulting Income", "Cash on Hand"])
          assert.match(dom, new RegExp(`<tr[^>]*data-account="${account}"`), `a projected row for ${account}`)
        assert.include(dom, "What the projection cannot know before the load")
        assert.match(dom, /data-account="Sales"[^]*?<td class="num bad">-0\.14<\/td>/, "Sales' difference")
      }),
    120_000
  )
})
