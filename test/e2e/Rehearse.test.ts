/**
 * Rehearsing against a mirror of the real target (`rehearse`, issue 17), through the command line. A sandbox
 * plays the real target, started from an organisation that already has its own chart (system accounts named
 * otherwise than the shipped ones), extra tax profiles, some of the client's contacts and a tag the books use.
 * The rehearsal's outcome per operation (created, adopted, refused) is exactly the real load's; the real
 * target receives not one write during the rehearsal (its request log says so); the real load then reconciles. A target changed since the rehearsal,
 * and a plan changed after it, are refused by load unless forced; a rehearsal from a saved snapshot gives the same rehearsal.json twice; a
 * snapshot that cannot be read completely (a 401, a truncated list) stops with exit 2. rehearsal.html is
 * checked in headless Chromium, and the mirror's organisation file starts the same mirror with
 * `sandbox --organisation`.
 */
import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { parse } from "csv-parse/sync"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { chromium, dumpDom, screenshot, warnWithoutChromium } from "../support/Browser.js"
import { apiKey, call, cliCommand, runCli, sampleDir, sandbox, tempDir } from "../support/Harness.js"
import { colourProfile, decode } from "../support/Png.js"

warnWithoutChromium("rehearsal.html")

const cli = (args: ReadonlyArray<string>, key = apiKey) =>
  Effect.promise(() => runCli(args, { JK_API_KEY: key }))

const repo = NodePath.resolve(import.meta.dirname, "../..")

/** The shipped organisation, renamed and extended into a client's real target. */
const realTarget = () => {
  const org = JSON.parse(
    NodeFs.readFileSync(NodePath.join(repo, "src/sandbox/fixtures/default-organization.json"), "utf8")
  )
  const renamed: Record<string, string> = {
    "Accounts Receivable": "Trade Debtors",
    "Accounts Payable": "Trade Creditors",
    "GST Control": "GST Payable",
    "Foreign Exchange Gain/Loss": "Exchange Differences",
    Rounding: "Rounding Adjustments",
    "Retained Earnings": "Accumulated Profits"
  }
  const contacts = (
    parse(NodeFs.readFileSync(NodePath.join(sampleDir, "Contacts.csv")), { columns: true }) as Array<
      Record<string, string>
    >
  )
    .slice(0, 5)
    .map((c) => ({ name: c["*ContactName"]!, customer: true, supplier: true }))
  assert.lengthOf(contacts, 5)
  return {
    ...org,
    name: "Client Real Target Pte. Ltd.",
    accounts: [
      ...org.accounts.map((a: { name: string }) => ({ ...a, name: renamed[a.name] ?? a.name })),
      { name: "Petty Cash", classificationType: "Cash", code: "1010" },
      { name: "Staff Welfare", classificationType: "Operating Expense", code: "6100" }
    ],
    taxProfiles: [
      ...org.taxProfiles,
      {
        name: "IM 9%",
        description: "Imports at 9%",
        vatValue: 9,
        appliesToSale: false,
        appliesToPurchase: true
      },
      { name: "SR 8% (2023)", vatValue: 8, appliesToSale: true, appliesToPurchase: false }
    ],
    contacts,
    tags: ["Region: Central", "Cost Centre: Head Office"]
  }
}

/** The maps a reviewer would write for that chart: the source's system accounts to the target's names. */
const reviewedMaps = (dir: string) => {
  const maps = NodePath.join(dir, "maps")
  NodeFs.mkdirSync(maps)
  NodeFs.writeFileSync(
    NodePath.join(maps, "accounts.json"),
    JSON.stringify({
      "Accounts Receivable": "Trade Debtors",
      "Accounts Payable": "Trade Creditors",
      GST: "GST Payable",
      "Realised Currency Gains": "Exchange Differences",
      "Unrealised Currency Gains": "Exchange Differences",
      "Bank Revaluations": "Exchange Differences",
      Rounding: "Rounding Adjustments"
    })
  )
  return maps
}

/** Each operation's outcome as a load's checkpoints record it: created, adopted, or its status. */
const outcomesOf = (workspace: string) => {
  const db = new Database(NodePath.join(workspace, "staging.db"), { readonly: true })
  try {
    const rows = db
      .prepare(
        `SELECT p.key, c.status, c.origin FROM plan_ops p LEFT JOIN checkpoints c ON c.key = p.key ORDER BY p.seq`
      )
      .all() as Array<{ key: string; status: string | null; origin: string | null }>
    return Object.fromEntries(
      rows.map((r) => [r.key, r.status === "done" ? (r.origin ?? "created") : (r.status ?? "pending")])
    )
  } finally {
    db.close()
  }
}

const runDirs = (runs: string, prefix: string) =>
  NodeFs.readdirSync(runs)
    .filter((d) => d.startsWith(prefix))
    .sort()
    .map((d) => NodePath.join(runs, d))

/** Runs `sandbox …` through the CLI for the scope; its URL once it listens. */
const cliSandbox = (args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const [cmd, argv] = cliCommand(["sandbox", "--port", "0", ...args])
      return spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] })
    }),
    (child) => Effect.sync(() => child.kill("SIGTERM"))
  ).pipe(
    Effect.flatMap((child) =>
      Effect.async<string, Error>((resume) => {
        let out = ""
        child.stdout!.on("data", (d) => {
          out += String(d)
          const url = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1]
          if (url !== undefined) resume(Effect.succeed(url))
        })
        child.on("exit", (code) => resume(Effect.fail(new Error(`sandbox exited ${code}: ${out}`))))
      })
    )
  )

const readJson = (file: string) => JSON.parse(NodeFs.readFileSync(file, "utf8"))

/** Requests in a sandbox's NDJSON log that change something: any method but GET, other than a search. */
const writes = (lines: ReadonlyArray<string>) =>
  lines
    .map((l) => JSON.parse(l) as { method: string; path: string; status: number })
    .filter((r) => r.method !== "GET" && !(r.method === "POST" && r.path.endsWith("/search")))

const logLines = async (file: string) => {
  await new Promise((r) => setTimeout(r, 200))
  return NodeFs.readFileSync(file, "utf8").split("\n").filter(Boolean)
}

describe("rehearse against a mirror of the real target", () => {
  it.scopedLive(
    "the rehearsal predicts the real load operation by operation, writes nothing to the target, and the load reconciles",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("rehearse")
        const fixture = NodePath.join(dir, "real-target.json")
        NodeFs.writeFileSync(fixture, JSON.stringify(realTarget(), null, 2))
        const requestLog = NodePath.join(dir, "requests.ndjson")
        const real = yield* sandbox({ fixture, requestLog })
        const workspace = NodePath.join(dir, "ws")
        const runs = NodePath.join(dir, "runs")
        const ws = ["--workspace", workspace, "--runs-dir", runs]
        const target = [...ws, "--base-url", real.url]

        const extract = yield* cli(["extract", "--source", "xero", "--input", sampleDir, ...ws])
        assert.strictEqual(extract.status, 0, extract.stderr)
        const plan = yield* cli(["plan", ...target, "--mappings", reviewedMaps(dir)])
        assert.strictEqual(plan.status, 0, plan.stdout + plan.stderr)

        const before = (yield* Effect.promise(() => logLines(requestLog))).length
        const rehearsal = yield* cli(["rehearse", ...target])
        assert.strictEqual(rehearsal.status, 0, rehearsal.stdout + rehearsal.stderr)
        assert.match(rehearsal.stdout, /Rehearsal CLEAN: \d+ operations/)
        const during = (yield* Effect.promise(() => logLines(requestLog))).slice(before)
        assert.isAbove(during.length, 10, "the snapshot read the real target")
        assert.deepStrictEqual(writes(during), [], "no write reached the real target during the rehearsal")

        const snapshot = readJson(NodePath.join(workspace, "snapshot.json"))
        assert.match(snapshot.sha256, /^[0-9a-f]{64}$/)
        assert.includeMembers(
          snapshot.content.accounts.map((a: { name: string }) => a.name),
          ["Trade Debtors", "Trade Creditors", "GST Payable", "Exchange Differences", "Petty Cash"]
        )
        assert.includeMembers(
          snapshot.content.taxProfiles.map((t: { name: string }) => t.name),
          ["IM 9%", "SR 8% (2023)"]
        )
        assert.lengthOf(snapshot.content.contacts, 5)
        assert.deepStrictEqual(
          outcomesOf(workspace),
          Object.fromEntries(Object.keys(outcomesOf(workspace)).map((k) => [k, "pending"])),
          "the real workspace's checkpoints are untouched"
        )

        const [rehearsalRun] = runDirs(runs, "rehearse-")
        const report = readJson(NodePath.join(rehearsalRun!, "rehearsal.json"))
        const predicted = Object.fromEntries(
          report.operations.map((o: { key: string; outcome: string }) => [o.key, o.outcome])
        )

        // The mirror's organisation, kept with the run, starts the same mirror again.
        const again = yield* cliSandbox([
          "--organisation",
          NodePath.join(rehearsalRun!, "mirror-organisation.json")
        ])
        const chart = yield* Effect.promise(async () => {
          const res = await fetch(`${again}/api/v1/chart-of-accounts?limit=1000&offset=0`, {
            headers: { "x-jk-api-key": apiKey }
          })
          return ((await res.json()) as { data: Array<{ name: string; controlFlag: boolean }> }).data
        })
        assert.deepStrictEqual(
          chart
            .filter((a) => a.controlFlag)
            .map((a) => a.name)
            .sort(),
          ["Trade Creditors", "Trade Debtors"]
        )
        const bad = NodePath.join(dir, "bad-organisation.json")
        NodeFs.writeFileSync(bad, JSON.stringify({ ...realTarget(), accounts: [] }))
        const refused = yield* cli(["sandbox", "--organisation", bad])
        assert.strictEqual(refused.status, 2, refused.stdout + refused.stderr)
        assert.match(
          refused.stderr,
          /organisation file .*bad-organisation\.json: accounts: no account has role AR/
        )

        // The mirror's chart leaves one suggestion below the review's threshold (CPF Payable, created new beside
        // an alike GST Payable): the real load accepts it as the rehearsal did.
        const load = yield* cli(["load", ...target, "--accept-suggestions"])
        assert.strictEqual(load.status, 0, load.stdout + load.stderr)
        assert.match(load.stdout, /CPF Payable/)
        assert.match(load.stdout, /Rehearsed in rehearse-/)
        const actual = outcomesOf(workspace)
        assert.strictEqual(Object.keys(actual).length, report.operations.length)
        assert.deepStrictEqual(
          predicted,
          actual,
          "each operation did in the real load what it did in the mirror"
        )
        const adopted = Object.entries(actual).filter(([, o]) => o === "adopted")
        assert.deepStrictEqual(
          adopted,
          [["tag:Region: Central", "adopted"]],
          "the target's own tag is adopted"
        )

        const reconcile = yield* cli(["reconcile", ...target])
        assert.strictEqual(reconcile.status, 0, reconcile.stdout + reconcile.stderr)
        assert.match(reconcile.stdout, /Reconciliation: MATCHES/)
        assert.strictEqual(report.reconciliation.verdict, "MATCHES")

        if (chromium !== undefined) {
          const html = NodePath.join(rehearsalRun!, "rehearsal.html")
          const image = decode(
            yield* Effect.promise(() => screenshot(html, NodePath.join(dir, "rehearsal.png")))
          )
          const { dominant, colours } = colourProfile(image)
          assert.isBelow(
            dominant,
            0.9,
            `the commonest colour covers ${(dominant * 100).toFixed(1)}% of the page`
          )
          assert.isAbove(colours, 50, "text, rules and tables give many colours")
          const dom = yield* Effect.promise(() => dumpDom(html))
          assert.match(dom, /<div class="verdict good" id="verdict"><strong>CLEAN<\/strong>/)
          for (const phase of ["accounts", "contacts", "transactions", "settlements"])
            assert.match(dom, new RegExp(`<tr data-phase="${phase}">`), `a row for ${phase}`)
          assert.match(dom, /<tr data-account="Trade Debtors">/, "the projected trial balance")
        }
      }),
    240_000
  )

  it.scopedLive(
    "a target or a plan changed after the rehearsal is refused by load unless forced; a saved snapshot rehearses the same twice",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("rehearse-gate")
        const real = yield* sandbox()
        const workspace = NodePath.join(dir, "ws")
        const runs = NodePath.join(dir, "runs")
        const ws = ["--workspace", workspace, "--runs-dir", runs]
        const target = [...ws, "--base-url", real.url]
        assert.strictEqual(
          (yield* cli(["extract", "--source", "xero", "--input", sampleDir, ...ws])).status,
          0
        )
        assert.strictEqual((yield* cli(["plan", ...target])).status, 0)
        const first = yield* cli(["rehearse", ...target])
        assert.strictEqual(first.status, 0, first.stdout + first.stderr)

        const saved = NodePath.join(dir, "snapshot.json")
        NodeFs.copyFileSync(NodePath.join(workspace, "snapshot.json"), saved)
        for (let i = 0; i < 2; i++) {
          const offline = yield* cli(["rehearse", ...ws, "--snapshot", saved])
          assert.strictEqual(offline.status, 0, offline.stdout + offline.stderr)
        }
        const reports = runDirs(runs, "rehearse-").map((d) => {
          const { run, ...facts } = readJson(NodePath.join(d, "rehearsal.json"))
          assert.match(run.runId, /^rehearse-/)
          return JSON.stringify(facts)
        })
        assert.lengthOf(reports, 3)
        assert.strictEqual(reports[1], reports[2], "the same snapshot and plan give the same rehearsal.json")
        assert.strictEqual(reports[0], reports[1], "and the same as the rehearsal that took the snapshot")

        // Someone adds a contact to the target after the rehearsal: the load's fresh snapshot differs.
        const added = yield* Effect.promise(() =>
          call(real, "POST", "/contacts", { name: "Walk-in Customer", customer: true })
        )
        assert.strictEqual(added.status, 201, JSON.stringify(added.body))
        const moved = yield* cli(["load", ...target])
        assert.strictEqual(moved.status, 2, moved.stdout + moved.stderr)
        assert.match(moved.stderr, /has changed since the rehearsal rehearse-.*: contacts 0 → 1\)/)
        assert.match(moved.stderr, /Run rehearse again .* or pass --force/)

        // Reviewed maps that send one more source account to an existing one: another plan.
        const maps = NodePath.join(dir, "maps")
        NodeFs.mkdirSync(maps)
        NodeFs.writeFileSync(
          NodePath.join(maps, "accounts.json"),
          JSON.stringify({
            GST: "GST Control",
            "Realised Currency Gains": "Foreign Exchange Gain/Loss",
            "Unrealised Currency Gains": "Foreign Exchange Gain/Loss",
            "Bank Revaluations": "Foreign Exchange Gain/Loss",
            "Historical Adjustment": "Retained Earnings"
          })
        )
        assert.strictEqual((yield* cli(["plan", ...target, "--mappings", maps])).status, 0)
        const refused = yield* cli(["load", ...target])
        assert.strictEqual(refused.status, 2, refused.stdout + refused.stderr)
        assert.match(refused.stderr, /is not the one cleanly rehearsed in rehearse-/)
        assert.match(refused.stderr, /removed \(1\): account:Historical Adjustment/)
        assert.match(refused.stderr, /pass --force/)
        assert.deepStrictEqual(
          Object.values(outcomesOf(workspace)).filter((s) => s !== "pending"),
          [],
          "nothing was loaded"
        )
        const forced = yield* cli(["load", ...target, "--force"])
        assert.strictEqual(forced.status, 0, forced.stdout + forced.stderr)
        assert.match(forced.stdout, /--force: loading a plan that differs from the one rehearsed/)
        assert.match(forced.stdout, /--force: .* has changed since the rehearsal/)
        assert.match(forced.stdout, /Load complete/)
      }),
    240_000
  )

  it.scopedLive(
    "a snapshot that cannot be read completely stops the rehearsal with exit 2",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("rehearse-401")
        const locked = yield* sandbox({ apiKeys: ["jk-the-real-key"] })
        const workspace = NodePath.join(dir, "ws")
        const args = ["--workspace", workspace, "--runs-dir", NodePath.join(dir, "runs")]
        const unplanned = yield* cli(["rehearse", ...args, "--base-url", locked.url], "jk-the-real-key")
        assert.strictEqual(unplanned.status, 2, unplanned.stdout + unplanned.stderr)
        assert.match(unplanned.stderr, /no plan in the workspace .*: a rehearsal loads the stored plan/)

        const extract = yield* cli(["extract", "--source", "xero", "--input", sampleDir, ...args])
        assert.strictEqual(extract.status, 0, extract.stderr)
        const plan = yield* cli(["plan", ...args, "--base-url", locked.url], "jk-the-real-key")
        assert.strictEqual(plan.status, 0, plan.stdout + plan.stderr)

        const denied = yield* cli(["rehearse", ...args, "--base-url", locked.url], "jk-a-wrong-key")
        assert.strictEqual(denied.status, 2, denied.stdout + denied.stderr)
        assert.match(denied.stderr, /the snapshot of http:\/\/127\.0\.0\.1:\d+ is incomplete: .*401/)
        assert.match(denied.stderr, /never runs against a partial mirror/)
        assert.isFalse(
          NodeFs.existsSync(NodePath.join(workspace, "snapshot.json")),
          "no partial snapshot saved"
        )

        const capped = yield* sandbox({ searchMaxRows: 3 })
        const truncated = yield* cli(["rehearse", ...args, "--base-url", capped.url])
        assert.strictEqual(truncated.status, 2, truncated.stdout + truncated.stderr)
        assert.match(truncated.stderr, /is incomplete: .*truncated/)
        assert.isFalse(
          NodeFs.existsSync(NodePath.join(workspace, "snapshot.json")),
          "no partial snapshot saved"
        )
      }),
    120_000
  )
})
