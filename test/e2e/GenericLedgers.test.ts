/**
 * Ledgers of other systems through column profiles, through the command line into the sandbox: the shipped
 * Sage 50 and MYOB samples each extract, plan, load and reconcile with zero trial-balance differences, a
 * match whose receivables and payables are control-account balances since journals carry no contacts (their
 * trial balances checked first against this test's own arithmetic over the sample's rows); a profiled trial
 * balance and aged listings give a quick conversion that matches; a profile that does not match its file is
 * refused naming the missing columns with staging untouched; an unbalanced group and an unclassified
 * account are named by the plan.
 */
import { assert, describe, it } from "@effect/vitest"
import { parse } from "csv-parse/sync"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as SourceRows from "../../src/staging/SourceRows.js"
import * as StagingDb from "../../src/staging/StagingDb.js"
import * as Money from "../../src/transform/Money.js"
import { apiKey, runCli, sandbox, tempDir } from "../support/Harness.js"
import { migration } from "../support/Migration.js"
import { bash, freePort, readmeBlock, root } from "../support/Shell.js"

const sage = NodePath.join(root, "samples/sage50-demo")
const myob = NodePath.join(root, "samples/myob-demo")
const fixtures = NodePath.join(root, "test/transform/generic/fixtures")
const organisation = NodePath.join(root, "mappings/generic/demo-organisation.json")

const cli = (args: ReadonlyArray<string>) => Effect.promise(() => runCli(args, { JK_API_KEY: apiKey }))

const money = (text: string) =>
  Option.getOrThrow(Money.parse(text.replace(/[$,()]/g, "") === "" ? "0" : text.replace(/[$,()]/g, "")))

const table = (file: string, delimiter: string): Array<Record<string, string>> =>
  parse(NodeFs.readFileSync(file, "utf8"), { columns: true, delimiter, bom: true })

type Balances = Map<string, Money.Money>
const post = (b: Balances, code: string, amount: Money.Money) =>
  b.set(code, Money.add(b.get(code) ?? Money.zero, amount))

/** Sage 50's double entry of each audit-trail type, written out here independently of the shipped profile. */
const sageEntry: Record<string, readonly [1 | -1, string | undefined, string | undefined]> = {
  SI: [-1, "2200", "1100"],
  SC: [1, "2200", "1100"],
  SR: [1, "2200", "1100"],
  PI: [1, "2201", "2100"],
  PC: [-1, "2201", "2100"],
  PP: [-1, "2201", "2100"],
  JD: [1, undefined, undefined],
  JC: [-1, undefined, undefined],
  BP: [1, "2201", "bank"],
  BR: [-1, "2200", "bank"],
  CP: [1, "2201", "bank"],
  CR: [-1, "2200", "bank"]
}

const sageBalances = (): Balances => {
  const b: Balances = new Map()
  for (const r of table(NodePath.join(sage, "AuditTrail.csv"), ",")) {
    const [sign, tax, control] = sageEntry[r["Type"]!]!
    const net = money(r["Net Amount"]!)
    const vat = money(r["Tax Amount"]!)
    const signed = (m: Money.Money) => (sign === 1 ? m : Money.negate(m))
    post(b, r["Nominal A/C Ref"]!.padStart(4, "0"), signed(net))
    if (tax !== undefined) post(b, tax, signed(vat))
    if (control !== undefined)
      post(
        b,
        control === "bank" ? r["Account Reference"]! : control,
        Money.negate(signed(Money.add(net, vat)))
      )
  }
  return b
}

const myobBalances = (): Balances => {
  const b: Balances = new Map()
  for (const r of table(NodePath.join(myob, "GeneralJournal.txt"), "\t")) {
    // ($x) in a column is a negative amount of that column.
    const side = (t: string) => (t.startsWith("(") ? Money.negate(money(t)) : money(t))
    post(b, r["Account Number"]!, Money.sub(side(r["Debit Amount"]!), side(r["Credit Amount"]!)))
  }
  return b
}

/** The sample's trial balance file as code → debit − credit. */
const tbFile = (file: string, delimiter: string, code: string): Balances =>
  new Map(table(file, delimiter).map((r) => [r[code]!, Money.sub(money(r["Debit"]!), money(r["Credit"]!))]))

const nonZero = (b: Balances) =>
  [...b]
    .filter(([, m]) => !Money.isZero(m))
    .map(([c, m]) => [c, Money.toFixed(m)])
    .sort(([a], [c]) => (a! < c! ? -1 : 1))

describe("profiled ledgers end to end", () => {
  it("the samples' trial balances are what their rows add up to", () => {
    const sageTb = tbFile(NodePath.join(sage, "TrialBalance-2025-03-31.csv"), ",", "N/C")
    assert.deepStrictEqual(nonZero(sageBalances()), nonZero(sageTb))
    assert.strictEqual(sageTb.size, 14)
    const myobTb = tbFile(NodePath.join(myob, "TrialBalance-2025-06-30.txt"), "\t", "Account Number")
    assert.deepStrictEqual(nonZero(myobBalances()), nonZero(myobTb))
    assert.strictEqual(myobTb.size, 13)
  })

  for (const [name, input, asAt, accounts, journals] of [
    ["Sage 50", sage, "2025-03-31", 14, 38],
    ["MYOB", myob, "2025-06-30", 13, 41]
  ] as const) {
    it.scopedLive(
      `the ${name} sample: extract, plan, load and reconcile with zero trial-balance differences`,
      () =>
        Effect.gen(function* () {
          const dir = tempDir(`generic-${name.replace(/\W/g, "")}`)
          const s = yield* sandbox({ fixture: organisation })
          const { common, workspace } = migration(dir, s.url)
          const runs = ["--runs-dir", NodePath.join(dir, "runs")]
          const extract = yield* cli([
            "extract",
            "--source",
            "generic",
            "--input",
            input,
            "--workspace",
            workspace,
            ...runs
          ])
          assert.strictEqual(extract.status, 0, extract.stdout + extract.stderr)
          assert.match(extract.stdout, /rejected 0\n[\s\S]*rejected 0\n/)
          const plan = yield* cli(["plan", ...common])
          assert.strictEqual(plan.status, 0, plan.stdout + plan.stderr)
          assert.match(plan.stdout, /0 rejected source items, 0 warnings/)
          assert.match(
            plan.stdout,
            new RegExp(`accounts\\s+${accounts}\\n\\s+transactions\\s+${journals}\\n`)
          )
          const load = yield* cli(["load", ...common])
          assert.strictEqual(load.status, 0, load.stdout + load.stderr)
          const reconcile = yield* cli(["reconcile", ...common])
          assert.match(
            reconcile.stdout,
            new RegExp(`trial balance at ${asAt}: ${accounts} accounts, total difference 0\\.00`)
          )
          assert.match(
            reconcile.stdout,
            new RegExp(`journals\\s+source\\s+${journals}\\s+target\\s+${journals}\\s+matched\\s+${journals}`)
          )
          // Journals carry no contacts: receivables and payables are proved as control-account balances.
          assert.strictEqual(reconcile.status, 0, reconcile.stdout + reconcile.stderr)
          assert.match(reconcile.stdout, /Reconciliation: MATCHES/)
          assert.notMatch(reconcile.stdout, /✗|not proved/)
          const report = JSON.parse(
            NodeFs.readFileSync(/Report: (.*)report\.html/.exec(reconcile.stdout)![1] + "report.json", "utf8")
          )
          assert.match(report.notes.join(" "), /journals only: no open items per contact were migrated/)
        }),
      240_000
    )
  }

  it.scopedLive(
    "a profiled trial balance and aged listings give a quick conversion that matches",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("generic-quick")
        const s = yield* sandbox({ fixture: organisation })
        const { common, workspace } = migration(dir, s.url)
        const extract = yield* cli([
          "extract",
          "--source",
          "generic",
          "--input",
          NodePath.join(fixtures, "myob-quick"),
          "--profile",
          NodePath.join(fixtures, "myob-aged-receivables.profile.json"),
          "--profile",
          NodePath.join(fixtures, "myob-aged-payables.profile.json"),
          "--workspace",
          workspace,
          "--runs-dir",
          NodePath.join(dir, "runs")
        ])
        assert.strictEqual(extract.status, 0, extract.stdout + extract.stderr)
        const plan = yield* cli(["plan", "--mode", "quick", "--as-at", "2025-06-30", ...common])
        assert.strictEqual(plan.status, 0, plan.stdout + plan.stderr)
        assert.match(
          plan.stdout,
          /Quick conversion as at 2025-06-30: 3 open items as conversion documents, a trial balance journal of 13 lines/
        )
        const load = yield* cli(["load", ...common])
        assert.strictEqual(load.status, 0, load.stdout + load.stderr)
        const reconcile = yield* cli(["reconcile", ...common])
        assert.strictEqual(reconcile.status, 0, reconcile.stdout + reconcile.stderr)
        assert.match(reconcile.stdout, /Reconciliation: MATCHES/)
        assert.match(reconcile.stdout, /trial balance at 2025-06-30: 13 accounts, total difference 0\.00/)
        assert.match(reconcile.stdout, /AR at 2025-06-30: 2 contacts, difference 0\.00/)
        assert.match(reconcile.stdout, /AP at 2025-06-30: 1 contacts, difference 0\.00/)
      }),
    240_000
  )

  it.scopedLive(
    "a profile that does not match its file is refused naming the missing columns",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("generic-mismatch")
        const { workspace } = migration(dir, "http://127.0.0.1:1")
        const runs = ["--runs-dir", NodePath.join(dir, "runs")]
        const first = yield* cli([
          "extract",
          "--source",
          "generic",
          "--input",
          myob,
          "--workspace",
          workspace,
          ...runs
        ])
        assert.strictEqual(first.status, 0, first.stderr)
        const staged = () =>
          SourceRows.files.pipe(Effect.provide(StagingDb.layer(StagingDb.pathIn(workspace))), Effect.scoped)
        const before = yield* staged()

        const input = NodePath.join(dir, "in")
        NodeFs.mkdirSync(input)
        const journal = NodeFs.readFileSync(NodePath.join(myob, "GeneralJournal.txt"), "utf8")
        NodeFs.writeFileSync(
          NodePath.join(input, "GeneralJournal.txt"),
          journal.replace("\tCredit Amount\t", "\tCredit\t")
        )
        const refused = yield* cli([
          "extract",
          "--source",
          "generic",
          "--input",
          input,
          "--workspace",
          workspace,
          ...runs
        ])
        assert.strictEqual(refused.status, 2, refused.stdout + refused.stderr)
        assert.match(refused.stderr, /unrecognised file/)
        assert.match(
          refused.stderr,
          /profile "MYOB AccountRight general journal export \(tab-delimited\)" does not match: the header on line 1 lacks the column "Credit Amount"/
        )
        assert.deepStrictEqual(yield* staged(), before, "staging untouched")
      }),
    240_000
  )

  it.scopedLive(
    "the plan names an unbalanced group with its lines and an account no range classifies",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("generic-rejects")
        const s = yield* sandbox({ fixture: organisation })
        const { common, workspace } = migration(dir, s.url)
        const input = NodePath.join(dir, "in")
        NodeFs.mkdirSync(input)
        NodeFs.writeFileSync(
          NodePath.join(input, "AuditTrail.csv"),
          [
            "Type,Account Reference,Nominal A/C Ref,Department Code,Date,Reference,Details,Net Amount,Tax Code,Tax Amount,Exchange Rate,Extra Reference,User Name",
            "JD,,1200,0,31/01/2025,JNL1,Transfer,500.00,T9,0.00,1,,MANAGER",
            "JC,,1210,0,31/01/2025,JNL1,Transfer,450.00,T9,0.00,1,,MANAGER",
            "JD,,5,0,31/01/2025,JNL2,Suspense,10.00,T9,0.00,1,,MANAGER",
            "JC,,1200,0,31/01/2025,JNL2,Suspense,10.00,T9,0.00,1,,MANAGER",
            "JD,,7502,0,31/01/2025,JNL3,Phone,20.00,T9,0.00,1,,MANAGER",
            "JC,,1200,0,31/01/2025,JNL3,Phone,20.00,T9,0.00,1,,MANAGER"
          ].join("\r\n")
        )
        const extract = yield* cli([
          "extract",
          "--source",
          "generic",
          "--input",
          input,
          "--workspace",
          workspace,
          "--runs-dir",
          NodePath.join(dir, "runs")
        ])
        assert.strictEqual(extract.status, 0, extract.stdout + extract.stderr)
        const plan = yield* cli(["plan", ...common])
        const out = plan.stdout + plan.stderr
        assert.match(
          out,
          /the journal "JNL1" of 2025-01-31 \(AuditTrail\.csv:2, AuditTrail\.csv:3\): its debits 500\.00 and credits 450\.00 differ by 50\.00/
        )
        // The reader's warning (its text is checked in test/transform/generic); the account is created as the
        // "Unmapped" mapping says (a Current Asset), so its balanced journal is planned.
        assert.match(out, /1 rejected source items, 1 warnings/)
        const issues = yield* PlanStore.issues.pipe(
          Effect.provide(StagingDb.layer(StagingDb.pathIn(workspace))),
          Effect.scoped
        )
        const warnings = issues.filter((i) => i.severity === "warning")
        assert.deepStrictEqual(
          warnings.map((w) => [w.what, w.lineage]),
          [['account "0005" (Account 0005)', ["AuditTrail.csv:4"]]]
        )
        assert.include(warnings[0]?.why, "classified Unmapped")
        assert.notMatch(out, /has no classification mapping/)
        assert.match(out, /transactions\s+2\n/, "the balanced journals JNL2 and JNL3 are planned")
      }),
    240_000
  )

  it.live(
    "the README's profiled-ledger example runs as written and matches",
    () =>
      Effect.gen(function* () {
        const port = yield* Effect.promise(freePort)
        const dir = tempDir("generic-readme")
        const lines = readmeBlock("profiled").map((line) => {
          const swapped = line
            .replaceAll("8787", String(port))
            .replaceAll("runs/sage50", NodePath.join(dir, "ws"))
          // The steps' run records go to the test's directory, not the repository's runs/.
          return /cli -- (extract|plan|load|reconcile) /.test(swapped)
            ? `${swapped} --runs-dir ${NodePath.join(dir, "runs")}`
            : swapped
        })
        assert.match(lines[0]!, /sandbox .*--organisation mappings\/generic\/demo-organisation\.json &$/)
        const script = [
          "set -em",
          lines[0]!,
          "sandbox=$!",
          "trap 'kill -- -$sandbox 2>/dev/null' EXIT",
          `for i in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.1; done`,
          ...lines.slice(1)
        ].join("\n")
        const r = yield* Effect.promise(() => bash(script))
        assert.strictEqual(r.status, 0, r.out)
        assert.include(r.out, "Load complete")
        assert.include(r.out, "Reconciliation: MATCHES")
        assert.match(r.out, /trial balance at 2025-03-31: 14 accounts, total difference 0\.00/)
      }),
    240_000
  )

  it.live(
    "demo --source generic migrates the MYOB sample into its own organisation and matches",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("generic-demo")
        const r = yield* cli([
          "demo",
          "--source",
          "generic",
          "--input",
          myob,
          "--runs-dir",
          NodePath.join(dir, "runs")
        ])
        assert.strictEqual(r.status, 0, r.stdout + r.stderr)
        assert.match(r.stdout, /Plan: \d+ operations \(base currency GBP\)/)
        assert.match(r.stdout, /trial balance at 2025-06-30: 13 accounts, total difference 0\.00/)
        assert.match(r.stdout, /Demo finished in .*: MATCHES/)
      }),
    240_000
  )
})
