/**
 * The projected load: the stored plan run, operation by operation, against a scratch copy of the target — an
 * embedded sandbox started on the mirror of a read-only snapshot of it (`src/load/Mirror.ts`, as `rehearse`
 * does), met over HTTP like any target — so that what the preview says the load will post is computed by the
 * posting rules the sandbox implements for the platform (documents, credit notes, payments with their exchange
 * differences, refunds, credit applications, journals, cash entries and transfers), not by a second arithmetic.
 *
 * Each phase goes as the loader runs it (`src/load/Executor.ts`): the references the plan does not create are
 * looked up in the target by natural key, records that already exist are adopted rather than created
 * (settlements only under an adopted parent), an operation whose dependency did not complete is skipped, a
 * body that does not resolve or decode is refused, and the rest is POSTed to the path
 * `Operations.createPath` gives. Settlements are sent one at a time in plan order (a payment and a credit on
 * one document must meet it in a known order); the other phases, whose operations depend on earlier phases
 * only, a few at a time.
 *
 * What the load posts is the copy's trial balance after the run less the one before it, per account, valued
 * in the base currency. Held: the real target is only read (the snapshot), and the copy is shut down at the
 * end whatever happens. A refusal in the copy is reported as an operation whose postings the projection
 * cannot show.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Agent } from "../load/Undici.js"
import type { MirrorRefused } from "../load/Mirror.js"
import * as Mirror from "../load/Mirror.js"
import type { SnapshotContent } from "../load/MirrorSnapshot.js"
import { canonicalBody, createPath, lookupEntity, lookupOps } from "../load/Operations.js"
import * as TargetApi from "../load/TargetApi.js"
import type { TargetError } from "../load/TargetErrors.js"
import * as TargetBooks from "../reconcile/TargetBooks.js"
import * as PlanStore from "../staging/PlanStore.js"
import type { StoredOp } from "../staging/PlanStore.js"
import * as Money from "../transform/Money.js"
import type { Phase } from "../transform/Plan.js"
import * as Refs from "../transform/Refs.js"

/** What one planned operation would do in the target. */
export type Outcome = "created" | "adopted" | "refused" | "skipped"

export interface OpOutcome {
  readonly key: string
  readonly phase: Phase
  readonly kind: string
  readonly outcome: Outcome
  /** Why it was refused or skipped (the platform's words for a refusal). */
  readonly message?: string
  /** A created document's total as the platform computed it, in its currency. */
  readonly total?: number
}

/** One account the load posts to, with what it posts (base currency, debit positive). */
export interface ProjectedAccount {
  readonly name: string
  readonly code: string
  /** Asset, Liability, Equity, Revenue or Expense. */
  readonly accountClass: string
  readonly accountType: string
  readonly controlFlag: boolean
  /** True when the account exists in the target already; false when the plan creates it. */
  readonly existing: boolean
  /** What the load posts to it, all dates. */
  readonly amount: Money.Money
}

export interface Projection {
  readonly baseCurrency: string
  readonly outcomes: ReadonlyArray<OpOutcome>
  /** Every account of the target after the load (existing and created), with what the load posts to it. */
  readonly accounts: ReadonlyArray<ProjectedAccount>
  /** Net postings per account name as at each date asked for (base currency, debit positive); non-zero only. */
  readonly asAt: ReadonlyMap<string, ReadonlyMap<string, Money.Money>>
  /**
   * Foreign-currency operations no organisation rate covers (nor a rate of their own): the platform values
   * them at its own rate of the day they are sent, which the projection cannot know.
   */
  readonly platformRated: ReadonlyArray<{
    readonly key: string
    readonly currency: string
    readonly date: string
  }>
  /** References the plan does not create, found in the target (matched), per entity. */
  readonly matched: Readonly<Record<string, number>>
}

/** The mirror could not be made of the snapshot: no projection (the preview says why). */
export type ProjectionRefused = MirrorRefused

/** A scratch target: a sandbox started on an organisation file, reached at `url`. */
export interface ScratchTarget {
  readonly url: string
  close(): Promise<void>
}

/**
 * Starts a sandbox on an organisation file (the `cli/commands` that run a preview pass `startSandbox`, the
 * only modules allowed to start one) with `fallbackRates` the platform's rates of the day for currencies the
 * target has not enabled, read only when a projection runs: the shipped organisation they come from took
 * 15-18 ms of every command's start to read and validate (CPU profiles of `--version`, three runs each).
 */
export interface StartScratch {
  readonly fallbackRates: () => Readonly<Record<string, number>>
  readonly start: (organisation: Record<string, unknown>) => Promise<ScratchTarget>
}

interface State {
  status: "pending" | "done" | "refused" | "skipped"
  id?: string
  adopted?: boolean
  message?: string
}

/** The kinds of operation whose total the platform computes (a document's: the projection tells it). */
export const documentKinds: ReadonlySet<string> = new Set([
  "invoice",
  "bill",
  "customer-credit-note",
  "supplier-credit-note"
])

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** Balances per account name from a trial balance (debit positive). */
const byName = (tb: TargetBooks.TargetTrialBalance) => new Map(tb.rows.map((r) => [r.accountName, r.balance]))

/** `after − before` per account, non-zero only. */
const delta = (
  after: ReadonlyMap<string, Money.Money>,
  before: ReadonlyMap<string, Money.Money>
): Map<string, Money.Money> => {
  const out = new Map<string, Money.Money>()
  for (const name of new Set([...after.keys(), ...before.keys()])) {
    const d = Money.sub(after.get(name) ?? Money.zero, before.get(name) ?? Money.zero)
    if (!Money.isZero(d)) out.set(name, d)
  }
  return out
}

/**
 * Runs the plan (its operations in load order, read phase by phase through `page`, which is
 * `PlanStore.page`) against a scratch copy of the target described by `snapshot`; `dates` are the dates the
 * projection is wanted as at (the source's Trial Balance dates).
 */
export const project = <R>(
  snapshot: SnapshotContent,
  page: PlanStore.PageReader<R>,
  dates: ReadonlyArray<string>,
  scratch: StartScratch
): Effect.Effect<Projection, ProjectionRefused | TargetError, R> =>
  Effect.gen(function* () {
    const organisation = Mirror.organisation(snapshot, scratch.fallbackRates())
    if (organisation instanceof Mirror.MirrorRefused) return yield* organisation
    const target = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => scratch.start(organisation),
        catch: (e) =>
          new Mirror.MirrorRefused({
            detail: `a sandbox would not start on it: ${e instanceof Error ? e.message : String(e)}`
          })
      }),
      (t) => Effect.promise(() => t.close())
    )
    const agent = yield* Effect.acquireRelease(
      Effect.sync(() => new Agent({ connections: 8 })),
      (a) => Effect.promise(() => a.close())
    )
    const api = yield* TargetApi.make(
      { baseUrl: target.url, apiKey: "jk-preview-projection", readAttempts: 3 },
      agent
    ).pipe(Effect.orDie)
    const { outcomes, platformRated, matched, before } = yield* run(snapshot, page, dates).pipe(
      Effect.provideService(TargetApi.TargetApi, api)
    )
    const after = yield* readBalances(dates).pipe(Effect.provideService(TargetApi.TargetApi, api))
    const chart = yield* TargetBooks.chart.pipe(Effect.provideService(TargetApi.TargetApi, api))
    const existing = new Set(snapshot.accounts.map((a) => a.name))
    const all = delta(after.all, before.all)
    const accounts: Array<ProjectedAccount> = chart
      .map((a) => ({
        name: a.name,
        code: a.code,
        accountClass: a.accountClass,
        accountType: a.accountType,
        controlFlag: a.controlFlag,
        existing: existing.has(a.name),
        amount: all.get(a.name) ?? Money.zero
      }))
      .sort((x, y) => (x.code || "\uffff").localeCompare(y.code || "\uffff") || x.name.localeCompare(y.name))
    const asAt = new Map(dates.map((d) => [d, delta(after.at.get(d)!, before.at.get(d)!)]))
    return {
      baseCurrency: snapshot.organisation.baseCurrency,
      outcomes,
      accounts,
      asAt,
      matched,
      platformRated
    } satisfies Projection
  }).pipe(Effect.scoped)

/** The copy's trial balance, all dates and as at each of `dates`. */
const readBalances = (dates: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const all = byName(yield* TargetBooks.trialBalance("1900-01-01", "9999-12-31"))
    const at = new Map<string, Map<string, Money.Money>>()
    for (const d of dates) at.set(d, byName(yield* TargetBooks.trialBalance("1900-01-01", d)))
    return { all, at }
  })

const run = <R>(snapshot: SnapshotContent, page: PlanStore.PageReader<R>, dates: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const api = yield* TargetApi.TargetApi
    const before = yield* readBalances(dates)
    const base = snapshot.organisation.baseCurrency
    const state = new Map<string, State>()
    const external = new Map<string, string>()
    const matched: Record<string, number> = {}
    const outcomes: Array<OpOutcome & { readonly seq: number }> = []
    const platformRated: Array<{ key: string; currency: string; date: string }> = []
    // The organisation rates the load will find: the target's and the plan's own (rates precede documents).
    const rates = snapshot.rates.map((r) => ({
      code: r.currencyCode,
      from: r.applicableFrom,
      to: r.applicableTo ?? "9999-12-31"
    }))
    const covered = (code: string, date: string) =>
      code === base || !DAY.test(date) || rates.some((r) => r.code === code && r.from <= date && r.to >= date)
    const idOf = (r: Refs.ParsedRef) => state.get(r.key)?.id ?? external.get(r.key)

    yield* PlanStore.eachPageOf(page)((ops, phase) =>
      Effect.gen(function* () {
        for (const op of ops) state.set(op.key, { status: "pending" })
        // The references this page needs that the plan does not create: the target's own records.
        const wanted = Refs.wanted(
          ops.map((op) => op.body),
          (key) => state.has(key) || external.has(key)
        )
        for (const [entity, keys] of wanted) {
          const found = yield* lookupEntity(entity, [...keys])
          for (const [k, id] of found) external.set(Refs.opKey(entity, k), id)
          matched[entity] = (matched[entity] ?? 0) + found.size
        }
        const resolved = new Map<string, Either.Either<Record<string, unknown>, string>>()
        const resolve = (op: StoredOp) => {
          let body = resolved.get(op.key)
          if (body === undefined) {
            const { value, missing } = Refs.resolve(op.body, idOf)
            body =
              missing.length > 0
                ? Either.left(
                    `references ${missing.map((m) => m.key).join(", ")}, found neither in this plan nor in the target`
                  )
                : canonicalBody(op.kind, value)
            resolved.set(op.key, body)
          }
          return body
        }
        // Adoption, as the loader does it before a phase: settlements only under an adopted parent.
        const fresh = ops.filter(
          (o) => o.phase !== "settlements" || o.dependsOn.some((d) => state.get(d)?.adopted === true)
        )
        const lookups = fresh.flatMap((op) => {
          const body = resolve(op)
          return Either.isRight(body)
            ? [{ key: op.key, kind: op.kind, naturalKey: op.naturalKey, body: body.right }]
            : []
        })
        const found = yield* lookupOps(lookups)
        for (const [key, id] of found) state.set(key, { status: "done", id, adopted: true })
        const record = (op: StoredOp, outcome: Outcome, extra: { message?: string; total?: number } = {}) =>
          outcomes.push({ seq: op.seq, key: op.key, phase: op.phase, kind: op.kind, outcome, ...extra })

        const send = (op: StoredOp) =>
          Effect.gen(function* () {
            const s = state.get(op.key)!
            if (s.status === "done") return record(op, "adopted")
            const failed = op.dependsOn.find((d) => {
              const st = state.get(d)
              return st !== undefined && st.status !== "done"
            })
            if (failed !== undefined) {
              const message = `dependency ${failed} was ${state.get(failed)!.status}`
              state.set(op.key, { status: "skipped", message })
              return record(op, "skipped", { message })
            }
            const body = resolve(op)
            if (Either.isLeft(body)) {
              state.set(op.key, { status: "refused", message: body.left })
              return record(op, "refused", { message: body.left })
            }
            if (op.kind === "rate") {
              const b = body.right
              rates.push({
                code: String(b.currencyCode),
                from: String(b.rateApplicableFrom),
                to: typeof b.rateApplicableTo === "string" ? b.rateApplicableTo : "9999-12-31"
              })
            }
            const currency = body.right.currency as Record<string, unknown> | undefined
            if (
              currency !== undefined &&
              currency.exchangeRate === undefined &&
              !covered(String(currency.sourceCurrency), String(body.right.valueDate))
            )
              platformRated.push({
                key: op.key,
                currency: String(currency.sourceCurrency),
                date: String(body.right.valueDate)
              })
            const path = createPath(op.kind, body.right)
            const sent = yield* Effect.either(api.send("POST", path, body.right))
            const id = Either.isRight(sent)
              ? (TargetApi.createdId(sent.right) ?? (op.kind === "currency" ? op.naturalKey : undefined))
              : undefined
            if (id === undefined) {
              const message = Either.isLeft(sent) ? sent.left.message : "no id in the response"
              state.set(op.key, { status: "refused", message })
              return record(op, "refused", { message })
            }
            state.set(op.key, { status: "done", id })
            // A document's total as the platform computed it (the create answers with its id only).
            const total = documentKinds.has(op.kind)
              ? TargetApi.unwrap(yield* api.read("GET", `${path}/${id}`)).totalAmount
              : undefined
            return record(op, "created", typeof total === "number" ? { total } : {})
          })
        yield* Effect.forEach(ops, send, {
          concurrency: phase === "settlements" ? 1 : 8,
          discard: true
        })
      })
    )
    outcomes.sort((a, b) => a.seq - b.seq)
    return {
      outcomes: outcomes.map(({ seq: _, ...o }) => o as OpOutcome),
      platformRated: platformRated.sort((a, b) => a.key.localeCompare(b.key)),
      matched,
      before
    }
  })
