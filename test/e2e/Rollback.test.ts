/**
 * Rollback, proved through the target's own API: the sandbox's state is read before the load (every list the
 * migration touches, each document's payments, the cash ledger, the trial balance); the bundled sample is
 * loaded and rolled back; the state read again equals the one before, but for currencies the load enabled
 * (an enabled currency cannot be disabled). Records that existed before and were adopted survive; a created
 * record someone else
 * has built on is refused and what it refers to skipped; a rollback SIGKILLed midway and run again, or run
 * under injected faults, ends in the same state; a load after a rollback completes and reconciles.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as Extract from "../../src/extract/Extract.js"
import * as Executor from "../../src/load/Executor.js"
import * as ReadSnapshot from "../../src/load/ReadSnapshot.js"
import * as Rollback from "../../src/load/Rollback.js"
import * as Reconcile from "../../src/reconcile/Reconcile.js"
import type { RunningSandbox } from "../../src/sandbox/Sandbox.js"
import * as Checkpoints from "../../src/staging/Checkpoints.js"
import * as PlanStore from "../../src/staging/PlanStore.js"
import * as Mappings from "../../src/transform/Mappings.js"
import * as PlanBuilder from "../../src/transform/PlanBuilder.js"
import * as XeroSource from "../../src/transform/xero/XeroSource.js"
import {
  apiKey,
  call,
  cliCommand,
  inProcessIn,
  runCli,
  sampleDir,
  sandbox,
  searchAll,
  tempDir
} from "../support/Harness.js"

const byId = (a: any, b: any) => (a.resourceId < b.resourceId ? -1 : a.resourceId > b.resourceId ? 1 : 0)

const ok = async (s: RunningSandbox, method: string, path: string, body?: unknown) => {
  const res = await call(s, method, path, body)
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

/** A record created through the API: the `data` of its create response (`{ resourceId, … }`). */
const created = async (s: RunningSandbox, path: string, body: unknown) =>
  (await ok(s, "POST", path, body)).data as { resourceId: string }

/** Everything the migration touches, read through the API. */
const targetState = async (s: RunningSandbox) => {
  const list = async (resource: string, sortBy: string) => (await searchAll(s, resource, sortBy)).sort(byId)
  const currencies: Array<string> = (await ok(s, "GET", "/organization/currencies?limit=1000&offset=0")).data
    .map((c: any) => c.currencyCode)
    .sort()
  const rates: Record<string, Array<unknown>> = {}
  for (const code of currencies) {
    const res = await call(s, "GET", `/organization-currencies/${code}/rates?limit=1000&offset=0`)
    if (res.status === 200) rates[code] = [...res.body.data].sort(byId)
  }
  const invoices = await list("invoices", "reference")
  const bills = await list("bills", "reference")
  const payments: Record<string, unknown> = {}
  for (const [path, docs] of [
    ["invoices", invoices],
    ["bills", bills]
  ] as const)
    for (const d of docs)
      payments[d.resourceId] = (await ok(s, "GET", `/${path}/${d.resourceId}/payments`)).data
  return {
    currencies,
    rates,
    accounts: await list("chart-of-accounts", "name"),
    contacts: await list("contacts", "name"),
    items: await list("items", "itemCode"),
    invoices,
    bills,
    journals: await list("journals", "reference"),
    payments,
    cashflows: await list("cashflow-transactions", "valueDate"),
    trialBalance: (
      await ok(s, "POST", "/generate-reports/trial-balance", {
        startDate: "2000-01-01",
        endDate: "2099-12-31"
      })
    ).data
  }
}
type State = Awaited<ReturnType<typeof targetState>>

/**
 * The state after equals the state before, except currencies enabled since (whose rates must be gone), the
 * created accounts the platform refused to delete (`kept`, names) and the `updatedAt` of documents in
 * `touched` (existing documents the load added a payment to, which the rollback removed).
 */
const assertRestored = (
  after: State,
  before: State,
  kept: ReadonlySet<string>,
  touched: ReadonlySet<string> = new Set()
) => {
  const untouched = (rows: Array<any>) =>
    rows.map((r) => (touched.has(r.resourceId) ? { ...r, updatedAt: "(touched)" } : r))
  for (const key of ["invoices", "bills"] as const) {
    after = { ...after, [key]: untouched(after[key]) }
    before = { ...before, [key]: untouched(before[key]) }
  }
  for (const code of after.currencies.filter((c) => !before.currencies.includes(c)))
    assert.deepStrictEqual(
      after.rates[code] ?? [],
      [],
      `${code}: enabled by the load, but its rates are gone`
    )
  for (const c of before.currencies) assert.include(after.currencies, c)
  for (const [code, rows] of Object.entries(before.rates))
    assert.deepStrictEqual(after.rates[code], rows, `${code} rates as before`)
  const accounts = after.accounts.filter((a: any) => !kept.has(a.name))
  assert.strictEqual(after.accounts.length - accounts.length, kept.size, "each kept account is there once")
  assert.deepStrictEqual(accounts, before.accounts, "accounts as before the load (but for those kept)")
  for (const key of Object.keys(before) as Array<keyof State>) {
    if (key === "currencies" || key === "rates" || key === "accounts") continue
    assert.deepStrictEqual(after[key], before[key], `${key} as before the load`)
  }
}

/**
 * Everything a rollback meant to remove was removed: the only outcomes that are not deletions are the
 * currencies left enabled (the platform has no request to disable one). Returns the names of any accounts
 * kept (always none; the callers' arithmetic is written for the general case).
 */
const refusedAccounts = (outcomes: ReadonlyArray<Rollback.Outcome>): Set<string> => {
  const refused = outcomes.filter((x) => x.status !== "left")
  assert.deepStrictEqual(
    refused.map((o) => `${o.key}: ${o.status} ${o.reason}`),
    [],
    "nothing the workspace created is refused or skipped"
  )
  return new Set()
}

const migrate = Effect.gen(function* () {
  yield* Extract.run({ source: "xero", inputDir: sampleDir })
  const snapshot = yield* ReadSnapshot.read
  const plan = PlanBuilder.build(yield* XeroSource.read, snapshot, yield* Mappings.load("xero"))
  yield* PlanStore.save(plan, snapshot.baseCurrency)
  const loaded = yield* Executor.load({ concurrency: 8 })
  assert.isTrue(loaded.complete, "the load completes")
  return loaded
})

const accountId = async (s: RunningSandbox, name: string) =>
  (await searchAll(s, "chart-of-accounts", "name")).find((a) => a.name === name)!.resourceId as string

/** A contact, an invoice and its payment that exist before the load and have nothing to do with the sample. */
const unrelated = async (s: RunningSandbox) => {
  const contact = await created(s, "/contacts", {
    name: "Harbourfront Florists",
    billingName: "Harbourfront Florists"
  })
  const invoice = await created(s, "/invoices", {
    reference: "PRE-0001",
    valueDate: "2024-12-15",
    dueDate: "2025-01-15",
    contactResourceId: contact.resourceId,
    taxInclusion: false,
    saveAsDraft: false,
    lineItems: [
      { name: "Flowers", quantity: 1, unitPrice: 250, accountResourceId: await accountId(s, "Sales") }
    ]
  })
  await created(s, `/invoices/${invoice.resourceId}/payments`, {
    payments: [
      {
        paymentAmount: 100,
        transactionAmount: 100,
        accountResourceId: await accountId(s, "Cash on Hand"),
        paymentMethod: "CASH",
        reference: "PRE-PAY-1",
        valueDate: "2024-12-20"
      }
    ]
  })
}

const inWorkspace = <A, E, R>(s: RunningSandbox, workspace: string, effect: Effect.Effect<A, E, R>) =>
  effect.pipe(inProcessIn(s, workspace))

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const started = Date.now()
    const result = yield* effect
    return { result, ms: Date.now() - started }
  })

/** Starts `rollback` as a child process and SIGKILLs it once the sandbox has logged `after` more DELETEs. */
const rollbackAndKill = (args: ReadonlyArray<string>, requestLog: string, after: number) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    const deletes = () =>
      NodeFs.existsSync(requestLog)
        ? NodeFs.readFileSync(requestLog, "utf8")
            .split("\n")
            .filter((l) => l.startsWith('{"method":"DELETE"')).length
        : 0
    const start = deletes()
    const [cmd, argv] = cliCommand(["rollback", ...args])
    const child = spawn(cmd, argv, { env: { ...process.env, JK_API_KEY: apiKey }, stdio: "ignore" })
    const timer = setInterval(() => {
      if (deletes() - start >= after) {
        clearInterval(timer)
        child.kill("SIGKILL")
      }
    }, 5)
    child.on("exit", (code, signal) => {
      clearInterval(timer)
      resolve({ code, signal })
    })
  })

describe("rollback", () => {
  it.scopedLive(
    "removes what the load created, in reverse order, and leaves the target as it was before the load",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        yield* Effect.promise(() => unrelated(s))
        const before = yield* Effect.promise(() => targetState(s))
        const workspace = tempDir("rollback")
        const { ops, first, second, checkpoints } = yield* inWorkspace(
          s,
          workspace,
          Effect.gen(function* () {
            yield* migrate
            const ops = yield* PlanStore.ops
            const first = yield* timed(Rollback.rollback({ concurrency: 8 }))
            const checkpoints = yield* Checkpoints.all
            const second = yield* Rollback.rollback({ concurrency: 8 })
            return { ops, first, second, checkpoints }
          })
        )
        const { counts, outcomes } = first.result
        const kept = refusedAccounts(outcomes)
        const planned = (phase: string) => ops.filter((o) => o.phase === phase).length
        for (const phase of ["settlements", "transactions", "items", "contacts", "rates"] as const)
          assert.strictEqual(counts[phase].deleted, planned(phase), `${phase}: every created record deleted`)
        assert.strictEqual(counts.accounts.deleted + counts.accounts.rejected, planned("accounts"))
        assert.strictEqual(counts.accounts.rejected, kept.size)
        assert.strictEqual(counts.currencies.left, planned("currencies"), "enabled currencies are left")
        assert.deepStrictEqual(
          outcomes.filter((o) => o.status === "left").map((o) => o.key),
          ["currency:USD", "currency:EUR"].filter((k) => ops.some((o) => o.key === k))
        )
        assert.strictEqual(first.result.complete, kept.size === 0, "complete only when every record is gone")
        const cash = ops.filter((o) => ["cash-in", "cash-out", "cash-transfer"].includes(o.kind)).length
        assert.isAbove(cash, 0, "the sample has cash entries and transfers")
        assert.strictEqual(
          first.result.deleteRequests,
          ops.length - planned("currencies") + cash,
          "one DELETE per created record, two per cash entry (the first voids it, the second removes it)"
        )

        for (const op of ops) {
          const cp = checkpoints.get(op.key)!
          if (op.kind === "currency" || kept.has(op.naturalKey)) {
            assert.strictEqual(cp.status, "done", `${op.key} is still in the target`)
            assert.strictEqual(cp.origin, "created")
          } else {
            assert.strictEqual(cp.status, "pending", `${op.key}: a load would create it again`)
            assert.isNull(cp.resourceId)
            assert.isNull(cp.origin)
          }
        }

        const after = yield* Effect.promise(() => targetState(s))
        assertRestored(after, before, kept)
        assert.isTrue(
          after.invoices.some((i: any) => i.reference === "PRE-0001" && i.paymentRecords.length === 1),
          "the unrelated invoice and its payment are untouched"
        )

        assert.strictEqual(
          second.deleteRequests,
          kept.size,
          "a second rollback only tries again what was refused"
        )
        assert.strictEqual(
          Object.values(second.counts).reduce((n, c) => n + c.earlier, 0),
          first.result.deleteRequests - cash - kept.size
        )
        console.log(
          `rollback: ${first.result.deleteRequests} DELETEs (${ops.length - planned("currencies") - kept.size} removed, ${kept.size} accounts refused) in ${first.ms} ms, ${first.result.logTransactions} log transactions`
        )
      }),
    120_000
  )

  it.scopedLive(
    "never deletes a record that existed before the load and was adopted",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const contact = yield* Effect.promise(() =>
          created(s, "/contacts", {
            name: "Bukit Timah Dental Clinic Pte. Ltd.",
            billingName: "Bukit Timah Dental Clinic Pte. Ltd."
          })
        )
        const sales = yield* Effect.promise(() => accountId(s, "Sales"))
        const invoice = yield* Effect.promise(() =>
          created(s, "/invoices", {
            reference: "INV-0001",
            valueDate: "2025-01-02",
            dueDate: "2025-02-01",
            contactResourceId: contact.resourceId,
            taxInclusion: false,
            saveAsDraft: false,
            lineItems: [
              // the total of the sample's INV-0001, so that its payment settles the adopted invoice
              { name: "Custom furniture", quantity: 1, unitPrice: 4068.28, accountResourceId: sales }
            ]
          })
        )
        const before = yield* Effect.promise(() => targetState(s))
        const workspace = tempDir("rollback-adopted")
        const { result, loaded, ops } = yield* inWorkspace(
          s,
          workspace,
          Effect.gen(function* () {
            yield* migrate
            const loaded = yield* Checkpoints.all
            const ops = yield* PlanStore.ops
            const result = yield* Rollback.rollback({ concurrency: 8 })
            return { result, loaded, ops }
          })
        )
        assert.isFalse(
          ops.some((o) => o.key === "contact:Bukit Timah Dental Clinic Pte. Ltd."),
          "the existing contact is not even planned"
        )
        const inv = loaded.get("invoice:INV-0001")!
        assert.strictEqual(inv.origin, "adopted")
        assert.strictEqual(inv.resourceId, invoice.resourceId)
        const payments = ops.filter(
          (o) => o.kind === "invoice-payment" && o.dependsOn.includes("invoice:INV-0001")
        )
        assert.isAbove(payments.length, 0)
        for (const p of payments)
          assert.strictEqual(loaded.get(p.key)!.origin, "created", "its payment was added by the load")

        const kept = refusedAccounts(result.outcomes)
        const after = yield* Effect.promise(() => targetState(s))
        assertRestored(after, before, kept, new Set([invoice.resourceId]))
        const got = yield* Effect.promise(() => call(s, "GET", `/invoices/${invoice.resourceId}`))
        assert.strictEqual(got.status, 200, "the adopted invoice survives")
        assert.deepStrictEqual(got.body.paymentRecords, [], "without the payment the load added")
        const c = yield* Effect.promise(() => call(s, "GET", `/contacts/${contact.resourceId}`))
        assert.strictEqual(c.status, 200, "the existing contact survives")
      }),
    120_000
  )

  it.scopedLive(
    "a rollback killed midway and run again ends in the same state",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("rollback-crash")
        const requestLog = NodePath.join(dir, "requests.ndjson")
        const s = yield* sandbox({ requestLog, faults: { latencyMs: 3 } })
        const workspace = NodePath.join(dir, "ws")
        const before = yield* Effect.promise(() => targetState(s))
        const ops = yield* inWorkspace(s, workspace, Effect.zipRight(migrate, PlanStore.ops))
        const args = ["--workspace", workspace, "--base-url", s.url, "--runs-dir", NodePath.join(dir, "runs")]
        const created = ops.length - ops.filter((o) => o.kind === "currency").length

        for (const after of [120, 250]) {
          const killed = yield* Effect.promise(() =>
            rollbackAndKill([...args, "--concurrency", "4"], requestLog, after)
          )
          assert.strictEqual(killed.signal, "SIGKILL", `killed after ${after} DELETEs, before it finished`)
        }
        const killedAt = NodeFs.readFileSync(requestLog, "utf8")
          .split("\n")
          .filter((l) => l.startsWith('{"method":"DELETE"')).length
        assert.isBelow(killedAt, created, "the kills came before every record was deleted")

        const finish = yield* Effect.promise(() => runCli(["rollback", ...args], { JK_API_KEY: apiKey }))
        const rejected = yield* inWorkspace(
          s,
          workspace,
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            return yield* sql<{ key: string; error: string }>`
              SELECT key, error FROM rollback_ops WHERE status = 'rejected' ORDER BY key`
          })
        )
        const kept = new Set(rejected.map((r) => r.key.slice("account:".length)))
        for (const r of rejected) {
          assert.match(r.key, /^account:/)
          assert.match(r.error, /has transactions and cannot be deleted$/)
        }
        assert.strictEqual(finish.status, kept.size === 0 ? 0 : 1, finish.stdout + finish.stderr)
        assert.match(finish.stdout, kept.size === 0 ? /Rollback complete/ : /Rollback INCOMPLETE/)
        assert.match(finish.stdout, /currency:USD left in place: an enabled currency cannot be disabled/)
        assert.match(
          finish.stdout,
          /settlements\s+0\s+0\s+263\s+0\s+0\s+0\s+0/,
          "payments (settlements) were all removed earlier"
        )

        const after = yield* Effect.promise(() => targetState(s))
        assertRestored(after, before, kept)

        const log = NodeFs.readFileSync(requestLog, "utf8")
          .split("\n")
          .filter((l) => l.startsWith('{"method":"DELETE"'))
          .map((l) => JSON.parse(l) as { path: string; status: number })
        const okPerPath = new Map<string, number>()
        for (const l of log) if (l.status === 200) okPerPath.set(l.path, (okPerPath.get(l.path) ?? 0) + 1)
        assert.strictEqual(okPerPath.size, created - kept.size, "every removed record was deleted")
        // A cash entry answers two DELETEs: the first voids it, the second removes it.
        const deletes = (path: string) => (path.includes("/cashflow-journals/") ? 2 : 1)
        assert.deepStrictEqual(
          [...okPerPath].filter(([path, n]) => n !== deletes(path)),
          [],
          "and deleted once (a cash entry: voided once, removed once)"
        )
        assert.isTrue(
          log.every((l) => l.status === 200 || l.status === 404 || l.status === 422),
          "a DELETE resent after a kill answers 404 (already gone)"
        )
      }),
    240_000
  )

  it.scopedLive(
    "a created record someone has since built on is refused, what it refers to is skipped, and a later rollback finishes",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const before = yield* Effect.promise(() => targetState(s))
        const workspace = tempDir("rollback-refused")
        const { ops, loaded } = yield* inWorkspace(
          s,
          workspace,
          Effect.gen(function* () {
            yield* migrate
            return { ops: yield* PlanStore.ops, loaded: yield* Checkpoints.all }
          })
        )
        const unpaid = ops.find(
          (o) =>
            o.kind === "invoice" && !ops.some((p) => p.dependsOn.includes(o.key) && p.phase === "settlements")
        )!
        const contactKey = unpaid.dependsOn.find((d) => d.startsWith("contact:"))!
        const invoiceId = loaded.get(unpaid.key)!.resourceId!
        const cash = yield* Effect.promise(() => accountId(s, "Cash on Hand"))
        const theirs = yield* Effect.promise(() =>
          created(s, `/invoices/${invoiceId}/payments`, {
            payments: [
              {
                paymentAmount: 1,
                transactionAmount: 1,
                accountResourceId: cash,
                paymentMethod: "CASH",
                reference: "SOMEONE-ELSE",
                valueDate: "2025-12-30"
              }
            ]
          })
        )

        const first = yield* inWorkspace(s, workspace, Rollback.rollback({ concurrency: 8 }))
        assert.isFalse(first.complete)
        const outcome = (key: string) => first.outcomes.find((o) => o.key === key)
        assert.strictEqual(outcome(unpaid.key)?.status, "rejected")
        assert.match(outcome(unpaid.key)!.reason, /HTTP 422: .*has payments/, "in the platform's words")
        assert.strictEqual(outcome(contactKey)?.status, "skipped")
        assert.strictEqual(
          outcome(contactKey)!.reason,
          `${unpaid.key} refers to it and could not be removed (rejected)`
        )
        const paid = yield* Effect.promise(() => call(s, "GET", `/payments/${theirs.resourceId}`))
        assert.strictEqual(paid.status, 200, "the payment this workspace did not make is untouched")

        yield* Effect.promise(() => ok(s, "DELETE", `/payments/${theirs.resourceId}`))
        const second = yield* inWorkspace(s, workspace, Rollback.rollback({ concurrency: 8 }))
        assert.strictEqual(second.counts.transactions.deleted, 1, "once unblocked, the invoice goes")
        assert.isAtLeast(second.counts.contacts.deleted, 1, "and then its contact")
        const kept = refusedAccounts(second.outcomes)
        const after = yield* Effect.promise(() => targetState(s))
        assertRestored(after, before, kept)
      }),
    120_000
  )

  it.live(
    "under 5xx, connection resets, commit-then-drop and a rate limit, DELETEs are retried and still end in the same state",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("rollback-faults")
        const statePath = NodePath.join(dir, "sandbox.db")
        const workspace = NodePath.join(dir, "ws")
        const restart = (faults = {}) => sandbox({ statePath, faults })
        const before = yield* Effect.scoped(
          Effect.gen(function* () {
            const s = yield* restart()
            const before = yield* Effect.promise(() => targetState(s))
            yield* inWorkspace(s, workspace, migrate)
            return before
          })
        )
        const faults = { failRate: 0.1, resetRate: 0.05, dropAfterCommitRate: 0.1, rateLimit: 120, seed: 11 }
        const result = yield* Effect.scoped(
          Effect.flatMap(restart(faults), (s) =>
            inWorkspace(s, workspace, Rollback.rollback({ concurrency: 8 }))
          )
        )
        const kept = refusedAccounts(result.outcomes)
        const removed = Object.values(result.counts).reduce((n, c) => n + c.deleted + c.gone, 0)
        const unfinished = Object.values(result.counts).reduce((n, c) => n + c.unfinished + c.skipped, 0)
        assert.strictEqual(unfinished, 0, "no DELETE was given up on")
        assert.isAbove(result.deleteRequests, removed + kept.size, "transient failures were retried")
        assert.isAbove(result.throttled, 0, "the rate limit was met, and its 429s honoured")
        assert.isAbove(
          Object.values(result.counts).reduce((n, c) => n + c.gone, 0),
          0,
          "a DELETE committed before its connection dropped answers 404 when resent: already gone"
        )
        console.log(
          `rollback under faults: ${result.deleteRequests} DELETEs for ${removed} removed + ${kept.size} refused; ${Object.values(result.counts).reduce((n, c) => n + c.gone, 0)} already gone; ${result.throttled} answered 429`
        )
        const after = yield* Effect.scoped(
          Effect.flatMap(restart(), (s) => Effect.promise(() => targetState(s)))
        )
        assertRestored(after, before, kept)
      }),
    240_000
  )

  it.scopedLive(
    "a load after a rollback creates the records again, exactly once, and reconciles",
    () =>
      Effect.gen(function* () {
        const s = yield* sandbox()
        const workspace = tempDir("rollback-reload")
        const { rolled, reloaded, rec } = yield* inWorkspace(
          s,
          workspace,
          Effect.gen(function* () {
            yield* migrate
            const rolled = yield* Rollback.rollback({ concurrency: 8 })
            const reloaded = yield* Executor.load({ concurrency: 8 })
            const rec = yield* Reconcile.reconcile(yield* XeroSource.read, "SGD", "2025-12-31")
            return { rolled, reloaded, rec }
          })
        )
        const removed = Object.values(rolled.counts).reduce((n, c) => n + c.deleted + c.gone, 0)
        assert.isTrue(reloaded.complete)
        assert.strictEqual(reloaded.sent, removed, "exactly what the rollback removed is created again")
        assert.deepStrictEqual(rec.documents.mismatches, [])
        assert.isTrue(rec.matches)
        const invoices = yield* Effect.promise(() => searchAll(s, "invoices", "reference"))
        assert.strictEqual(invoices.length, 148)
        assert.strictEqual(new Set(invoices.map((i) => i.reference)).size, 148, "each invoice exists once")
      }),
    120_000
  )
})
