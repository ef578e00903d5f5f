/**
 * The projected load: the stored plan run, operation by operation, against a scratch copy of the target
 * held in memory — the embedded sandbox's own organisation, ledger and route handlers, called in-process
 * without a socket — so that what the preview says the load will post is computed by the same posting rules
 * the sandbox implements for the platform (documents, credit notes, payments with their exchange differences,
 * refunds, credit applications, journals, cash entries and transfers), not by a second arithmetic.
 *
 * The scratch organisation is the mirror of the target (`src/load/Mirror.ts` over a `MirrorSnapshot`): its
 * chart, system-account roles, tax profiles, enabled currencies and their rates, contacts, items and the
 * references of existing documents. Each phase goes as the loader runs it (`src/load/Executor.ts`): the
 * references the plan does not create are looked up in the target by natural key, records that already exist
 * are adopted rather than created (settlements only under an adopted parent), an operation whose dependency
 * did not complete is skipped, a body that does not resolve or decode is refused, and the rest is POSTed to
 * the path `Operations.createPath` gives, through the same `TargetApi` (its reads, searches and error split)
 * over an in-process dispatcher.
 *
 * What the load posts is the ledger after the run less the ledger before it, per account, valued in the base
 * currency. Held: nothing here touches the real target or the workspace; the scratch store is dropped at the
 * end. A refusal in the scratch copy is reported as an operation whose postings the projection cannot show.
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Agent } from "undici"
import type { MirrorRefused } from "../load/Mirror.js"
import * as Mirror from "../load/Mirror.js"
import type { SnapshotContent } from "../load/MirrorSnapshot.js"
import { createPath, lookupEntity, lookupOps, schemas } from "../load/Operations.js"
import * as TargetApi from "../load/TargetApi.js"
import type { TargetError } from "../load/TargetErrors.js"
import { loadFixture, validateOrganisation } from "../sandbox/Fixture.js"
import { ApiError, badRequest, notFound, type Reply } from "../sandbox/Http.js"
import { parseDate } from "../sandbox/Dates.js"
import { Org } from "../sandbox/Org.js"
import { accounts } from "../sandbox/resources/Accounts.js"
import { routes } from "../sandbox/Sandbox.js"
import { seed } from "../sandbox/Seed.js"
import { Store } from "../sandbox/Store.js"
import type { StoredOp } from "../staging/PlanStore.js"
import * as Money from "../transform/Money.js"
import { phases, type Phase } from "../transform/Plan.js"
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

const root = "/api/v1"

/** Calls a route of the scratch organisation as the sandbox's server would, without its socket. */
const dispatcher = (store: Store, router: ReturnType<typeof routes>) => {
  const call = (method: string, full: string, raw: string): Reply => {
    const q = full.indexOf("?")
    const path = (q < 0 ? full : full.slice(0, q)).slice(root.length)
    const query = new URLSearchParams(q < 0 ? "" : full.slice(q + 1))
    let body: unknown
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw)
      } catch {
        return { status: 400, body: badRequest("request body is not valid JSON").body }
      }
    }
    const match = router.match(method, path)
    if (match === undefined) return { status: 404, body: notFound(`no endpoint ${method} ${path}`).body }
    const ctx = { method, path, params: match.params, query, body, raw, contentType: "application/json" }
    try {
      return method === "GET" ? match.handler(ctx) : store.tx(() => match.handler(ctx))
    } catch (e) {
      if (e instanceof ApiError) return { status: e.status, body: e.body }
      const message = e instanceof Error ? e.message : String(e)
      return { status: 500, body: { error: { error_type: "internal_server_error", errors: [message] } } }
    }
  }
  // The one method of undici's Agent that `TargetApi.make` uses.
  return {
    request: (o: { path: string; method: string; body?: string }) => {
      const reply = call(o.method, o.path, o.body ?? "")
      const text = JSON.stringify(reply.body)
      return Promise.resolve({
        statusCode: reply.status,
        headers: {},
        body: { text: () => Promise.resolve(text) }
      })
    }
  } as unknown as Agent
}

const documentKinds = new Set(["invoice", "bill", "customer-credit-note", "supplier-credit-note"])

interface State {
  status: "pending" | "done" | "refused" | "skipped"
  id?: string
  adopted?: boolean
  message?: string
}

const cents = (n: number): Money.Money => BigDecimal.normalize(BigDecimal.make(BigInt(n), 2))

/**
 * Runs the plan (its operations in load order, read phase by phase through `page`) against a scratch mirror
 * of the target described by `snapshot`. `page(phase, afterSeq, limit)` is `PlanStore.page`.
 */
export const project = <R>(
  snapshot: SnapshotContent,
  page: (phase: Phase, afterSeq: number, limit: number) => Effect.Effect<ReadonlyArray<StoredOp>, never, R>,
  dates: ReadonlyArray<string>
): Effect.Effect<Projection, ProjectionRefused | TargetError, R> =>
  Effect.gen(function* () {
    const organisation = Mirror.organisation(snapshot, loadFixture(undefined).platformRates)
    if (organisation instanceof Mirror.MirrorRefused) return yield* organisation
    const fixture = validateOrganisation(organisation, "the mirror of the target")
    const store = new Store(undefined)
    yield* Effect.addFinalizer(() => Effect.sync(() => store.close()))
    const org = new Org(store, fixture, 1_000_000)
    seed(org, fixture)
    const router = routes(org)
    const api = yield* TargetApi.make(
      { baseUrl: "http://127.0.0.1", apiKey: "jk-preview-projection" },
      dispatcher(store, router)
    ).pipe(Effect.orDie)
    const existingAccounts = new Set(
      accounts(org)
        .values()
        .map((a) => a.resourceId)
    )
    const before = new Map(org.ledger.balancesAt(Number.MAX_SAFE_INTEGER).map((b) => [b.accountId, b.amount]))
    const seeded = (store.db.prepare("SELECT COALESCE(MAX(seq), 0) AS m FROM ledger").get() as { m: number })
      .m

    const state = new Map<string, State>()
    const external = new Map<string, string>()
    const matched: Record<string, number> = {}
    const outcomes: Array<OpOutcome> = []
    const platformRated: Array<{ key: string; currency: string; date: string }> = []
    const covered = (code: string, date: string) => {
      const d = parseDate(date)
      if (d === undefined || code === org.base) return true
      return org.rates
        .values()
        .some(
          (r) => r.currencyCode === code && r.rateApplicableFrom <= d && (r.rateApplicableTo ?? Infinity) >= d
        )
    }
    const idOf = (r: Refs.ParsedRef) => state.get(r.key)?.id ?? external.get(r.key)

    const run = Effect.gen(function* () {
      for (const phase of phases) {
        for (let after = 0; ;) {
          const ops = yield* page(phase, after, 5000)
          if (ops.length === 0) break
          after = ops[ops.length - 1]!.seq
          for (const op of ops) state.set(op.key, { status: "pending" })
          // The references this page needs that the plan does not create: the target's own records.
          const wanted = new Map<Refs.RefEntity, Set<string>>()
          for (const op of ops)
            for (const r of Refs.collect(op.body)) {
              if (state.has(r.key) || external.has(r.key)) continue
              wanted.set(r.entity, (wanted.get(r.entity) ?? new Set()).add(r.naturalKey))
            }
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
                  : Schema.decodeUnknownEither(schemas[op.kind])(value).pipe(
                      Either.map((d) => Schema.encodeSync(schemas[op.kind])(d) as Record<string, unknown>),
                      Either.mapLeft((e) => `the resolved body does not decode: ${e.message}`)
                    )
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
          for (const op of ops) {
            const s = state.get(op.key)!
            if (s.status === "done") {
              outcomes.push({ key: op.key, phase: op.phase, kind: op.kind, outcome: "adopted" })
              continue
            }
            const failed = op.dependsOn.find((d) => {
              const st = state.get(d)
              return st !== undefined && st.status !== "done"
            })
            if (failed !== undefined) {
              const message = `dependency ${failed} was ${state.get(failed)!.status}`
              state.set(op.key, { status: "skipped", message })
              outcomes.push({ key: op.key, phase: op.phase, kind: op.kind, outcome: "skipped", message })
              continue
            }
            const body = resolve(op)
            if (Either.isLeft(body)) {
              state.set(op.key, { status: "refused", message: body.left })
              outcomes.push({ key: op.key, phase, kind: op.kind, outcome: "refused", message: body.left })
              continue
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
            const sent = yield* Effect.either(api.send("POST", createPath(op.kind, body.right), body.right))
            const id = Either.isRight(sent)
              ? (TargetApi.createdId(sent.right) ?? (op.kind === "currency" ? op.naturalKey : undefined))
              : undefined
            if (id !== undefined) {
              state.set(op.key, { status: "done", id })
              // A document's total as the platform computed it (the create answers with its id only).
              const total = documentKinds.has(op.kind)
                ? TargetApi.unwrap(yield* api.read("GET", `${createPath(op.kind, body.right)}/${id}`))
                    .totalAmount
                : undefined
              outcomes.push({
                key: op.key,
                phase,
                kind: op.kind,
                outcome: "created",
                ...(typeof total === "number" ? { total } : {})
              })
            } else {
              const message = Either.isLeft(sent) ? sent.left.message : "no id in the response"
              state.set(op.key, { status: "refused", message })
              outcomes.push({ key: op.key, phase, kind: op.kind, outcome: "refused", message })
            }
          }
          if (ops.length < 5000) break
        }
      }
    })
    yield* run.pipe(Effect.provideService(TargetApi.TargetApi, api))

    const chart = accounts(org).values()
    const nameOf = new Map(chart.map((a) => [a.resourceId, a.name]))
    const after = new Map(org.ledger.balancesAt(Number.MAX_SAFE_INTEGER).map((b) => [b.accountId, b.amount]))
    const projected: Array<ProjectedAccount> = chart
      .map((a) => ({
        name: a.name,
        code: a.code ?? "",
        accountClass: a.accountClass,
        accountType: a.accountType,
        controlFlag: a.controlFlag,
        existing: existingAccounts.has(a.resourceId),
        amount: cents((after.get(a.resourceId) ?? 0) - (before.get(a.resourceId) ?? 0))
      }))
      .sort((x, y) => (x.code || "\uffff").localeCompare(y.code || "\uffff") || x.name.localeCompare(y.name))
    // As at a date: the lines the run posted are those after the seeded ones (the ledger only grows).
    const byDate = new Map<string, ReadonlyMap<string, Money.Money>>()
    const since = store.db.prepare(
      "SELECT accountId, SUM(amount) AS amount FROM ledger WHERE valueDate <= ? AND seq > ? GROUP BY accountId"
    )
    for (const date of dates) {
      const rows = since.all(parseDate(date) ?? Number.MAX_SAFE_INTEGER, seeded) as Array<{
        accountId: string
        amount: number
      }>
      const m = new Map<string, Money.Money>()
      for (const r of rows) if (r.amount !== 0) m.set(nameOf.get(r.accountId) ?? r.accountId, cents(r.amount))
      byDate.set(date, m)
    }
    return {
      baseCurrency: org.base,
      outcomes,
      accounts: projected,
      asAt: byDate,
      matched,
      platformRated
    } satisfies Projection
  }).pipe(Effect.scoped)
