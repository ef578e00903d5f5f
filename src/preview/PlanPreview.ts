/**
 * Builds the preview of the workspace's stored plan and writes `plan.html` and `plan.xlsx` into a directory
 * (the workspace, for `plan`). Reads the plan (`PlanStore`), a read-only snapshot of the target
 * (`MirrorSnapshot.take`: GETs and searches only; above `PROJECTION_LIMIT` operations only its organisation and
 * chart, `MirrorSnapshot.outline`) and the books the plan was built from; the projection runs in a scratch
 * copy of the target in memory (`Projection`). When the snapshot cannot be read or mirrored, the preview is
 * still written, without the projected trial balance, and says why.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import { relieve } from "../Memory.js"
import * as MirrorSnapshot from "../load/MirrorSnapshot.js"
import * as PlanStore from "../staging/PlanStore.js"
import { phases, type Phase } from "../transform/Plan.js"
import type { Listing } from "../transform/PlanScratch.js"
import type { SourceBooks } from "../transform/SourceModel.js"
import * as HtmlPreview from "./HtmlPreview.js"
import * as Preview from "./Preview.js"
import * as Projection from "./Projection.js"
import * as XlsxPreview from "./XlsxPreview.js"

const conversionText = (c: PlanStore.PlanMeta["conversion"]) =>
  c === undefined
    ? "Full history"
    : c.mode === "quick"
      ? `Quick conversion as at ${c.asAt}`
      : `From ${c.from ?? ""} (opening position as at ${c.asAt})`

const entityLabels: Record<string, string> = { taxProfile: "tax profile", currency: "currency" }

/**
 * What the plan uses from the target as it is: the accounts its pairings name that the target has (the
 * system accounts the platform posts to itself included), and the other records its bodies refer to.
 */
const matchedOf = (
  referenced: Readonly<Record<string, number>>,
  meta: PlanStore.PlanMeta,
  target: MirrorSnapshot.Outline | undefined
) => {
  const inTarget = new Set((target?.accounts ?? []).map((a) => a.name))
  const paired = new Set((meta.accounts ?? []).map((a) => a.targetName).filter((n) => inTarget.has(n)))
  const counts: Record<string, number> = { ...referenced }
  if (meta.accounts !== undefined && target !== undefined) counts.account = paired.size
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([entity, count]) => ({ entity: entityLabels[entity] ?? entity, count }))
}

/**
 * Above this many operations the plan does not run itself in a scratch copy of the target: that costs as much
 * as a load (minutes at 20,000 invoices) and would make every re-plan one. `rehearse` makes the same
 * projection against a mirror of the target, and the preview says so.
 */
export const PROJECTION_LIMIT = 25_000

/**
 * Operations the preview reads and lists at a time. Each page's bodies are parsed and held until its rows are
 * written, long enough for V8's young generation to copy them and promote most: at 20,000 invoices, pages of
 * 5,000 (the loader's) cost the preview 396-475 ms of scavenges, pages of 1,000 159-176 ms, of 500 111-116 ms
 * (`--trace-gc`, two runs each).
 */
const PREVIEW_PAGE = 500

/**
 * The preview's heap ceiling, its buffers counted (`Memory.relieve`): little is live while it writes (at
 * 100,000 invoices 21 MB as it starts, 44-45 MB in use just after full collections every 25 pages); its
 * garbage is the pages' parsed bodies and the workbook's XML and zip chunks, outside the heap. Under the
 * stages' ceiling (128 MB, the heap alone) those buffers reached 42-51 MB beside 100-119 MB of heap, and the
 * preview's RSS 284-289 MiB, the highest of plan at 100,000 invoices; with this one, counting the buffers, it
 * ended at 201, 208 and 241 MiB with floors of 48, 64 and 96 MB (one run each; the store and preview took
 * 7.0-7.1 s against 6.4 s in one run without).
 */
const PREVIEW_FLOOR = 64 * 1024 * 1024

/**
 * What the preview lists of an operation as the plan's scratch keeps it (`PlanScratch.open`), made from the
 * body as built: read back as `PlanSource.listedPage` gives it.
 */
export const listingText: Listing = (kind, phase, body) => JSON.stringify(Preview.listing(kind, phase, body))

/** The preview of the plan `plan` reads, and its operations as it shows them, page by page. */
const make = <RP>(
  plan: PlanStore.PlanSource<RP>,
  books: Pick<SourceBooks, "trialBalances">,
  sourceSystem: string,
  generatedAt: string,
  scratch: Projection.StartScratch,
  projectionLimit: number = PROJECTION_LIMIT
) =>
  Effect.gen(function* () {
    const meta = yield* plan.meta
    if (meta === undefined) return yield* Effect.dieMessage("no plan in this workspace: run plan first")
    const tbs = books.trialBalances
    // The counts cover every operation (counted by the database, not read); the page lists the first of each phase.
    const planned = yield* plan.kindCounts
    const phaseCounts: Partial<Record<Phase, number>> = {}
    for (const k of planned) phaseCounts[k.phase] = (phaseCounts[k.phase] ?? 0) + k.n
    const operations = planned.reduce((n, k) => n + k.n, 0)
    // The whole target is read only to run the plan in a copy of it; otherwise its organisation and chart.
    const projecting = operations <= projectionLimit
    const target = yield* Effect.either(
      projecting
        ? Effect.map(MirrorSnapshot.take, (s): MirrorSnapshot.Outline => s.content)
        : MirrorSnapshot.outline
    )
    const projection = Either.isLeft(target)
      ? Either.left(target.left.message)
      : !MirrorSnapshot.isWhole(target.right)
        ? Either.left(
            `the plan has ${operations.toLocaleString("en-US")} operations, more than the ${projectionLimit.toLocaleString("en-US")} plan runs in a scratch copy of the target; ` +
              "run rehearse, which loads the plan into a mirror of the target and reports the projected trial balance"
          )
        : yield* Projection.project(
            target.right,
            plan.page,
            tbs.map((t) => t.asAt),
            scratch
          ).pipe(
            Effect.map((p) => Either.right(p)),
            Effect.catchAll((e) => Effect.succeed(Either.left(e.message)))
          )
    const p = Either.getOrUndefined(projection)
    const byKey = new Map((p?.outcomes ?? []).map((o) => [o.key, o]))
    // What the preview lists of each operation: as the plan's scratch kept it, or from the stored bodies.
    const listedPage: PlanStore.PageReader<RP, PlanStore.ListedOp> =
      plan.listedPage ??
      ((phase, afterSeq, limit) =>
        Effect.map(plan.previewPage(phase, afterSeq, limit), (ops) => ops.map(Preview.listedOf)))
    /**
     * Hands each operation of the stored plan, as the preview shows it, to `visit`, a page at a time, and
     * waits for `afterPage` after each page.
     */
    const eachDoc = (visit: (d: Preview.PreviewDoc) => void, afterPage: Effect.Effect<void>) =>
      PlanStore.eachPageOf(listedPage)(
        (ops) =>
          Effect.zipRight(
            Effect.sync(() => {
              for (const op of ops) visit(Preview.docOf(op, meta.baseCurrency, byKey.get(op.key)))
            }),
            Effect.zipRight(
              afterPage,
              Effect.sync(() => relieve(PREVIEW_FLOOR, { buffers: true }))
            )
          ),
        PREVIEW_PAGE
      )
    const documents: Array<Preview.PreviewDoc> = []
    for (const phase of phases)
      for (const op of yield* listedPage(phase, 0, HtmlPreview.PER_PHASE))
        documents.push(Preview.docOf(op, meta.baseCurrency, byKey.get(op.key)))
    const unknowns = p === undefined ? [] : Preview.unknownsOf(p)
    const preview: Preview.Preview = {
      header: {
        company: Either.isRight(target) ? target.right.organisation.name : "",
        sourceSystem,
        baseCurrency: meta.baseCurrency,
        conversion: conversionText(meta.conversion),
        planHash: meta.planHash,
        operations,
        generatedAt
      },
      kinds: Preview.kindCounts(planned, p?.outcomes ?? []),
      matched: matchedOf(p?.matched ?? {}, meta, Either.getOrUndefined(target)),
      documents,
      phaseCounts,
      issues: Preview.groupIssues(yield* plan.issues),
      projected: p === undefined ? undefined : Preview.projectedTrialBalance(p),
      comparisons:
        p === undefined ? [] : tbs.map((tb) => Preview.compareWithSource(p, tb, meta.accounts ?? [])),
      unknowns,
      unavailable: Either.isLeft(projection)
        ? `The projected trial balance could not be made: ${projection.left}`
        : undefined
    }
    return { preview, eachDoc }
  })

/** The preview of the stored plan; `books` are the books it was built from (for the source's TBs). */
export const build = (
  books: Pick<SourceBooks, "trialBalances">,
  sourceSystem: string,
  generatedAt: string,
  scratch: Projection.StartScratch,
  projectionLimit: number = PROJECTION_LIMIT
) =>
  Effect.map(
    make(PlanStore.stored, books, sourceSystem, generatedAt, scratch, projectionLimit),
    (m) => m.preview
  )

/**
 * Writes `plan.html` and `plan.xlsx` of a preview that holds all its operations into `dir`, in place once
 * `ready` succeeds.
 */
export const write = <E2 = never, R2 = never>(
  dir: string,
  preview: Preview.Preview,
  ready?: Effect.Effect<void, E2, R2>
) => writeWith(dir, preview, (visit) => Effect.sync(() => preview.documents.forEach((d) => visit(d))), ready)

/** The name a preview's file is written under until it is complete (and its plan stored). */
const partial = (file: string): string => `${file}.partial`

/**
 * Writes `plan.html` and `plan.xlsx` into `dir`, the workbook's operations from `eachDoc` (the plan, page by
 * page); returns their paths. Each is written under a name of its own, and takes its place once both are
 * written and `ready` has succeeded (the plan stored, when it is stored beside the preview): a preview never
 * describes a plan that was not stored, and one that fails leaves the last one as it was.
 */
const writeWith = <R, E2 = never, R2 = never>(
  dir: string,
  preview: Preview.Preview,
  eachDoc: (
    visit: (d: Preview.PreviewDoc) => void,
    afterPage: Effect.Effect<void>
  ) => Effect.Effect<void, never, R>,
  ready: Effect.Effect<void, E2, R2> = Effect.void as Effect.Effect<void, E2, R2>
) => {
  const html = NodePath.join(dir, "plan.html")
  const xlsx = NodePath.join(dir, "plan.xlsx")
  return Effect.gen(function* () {
    const operations = yield* Effect.promise(async () => {
      await NodeFs.mkdir(dir, { recursive: true })
      await NodeFs.writeFile(partial(html), HtmlPreview.render(preview))
      return XlsxPreview.open(partial(xlsx), preview)
    })
    // The workbook's zip takes each page before the next is read: exceljs would hold it all otherwise.
    yield* eachDoc(operations.add, Effect.promise(operations.drained))
    yield* Effect.promise(operations.close)
    yield* ready
    yield* Effect.promise(async () => {
      await NodeFs.rename(partial(html), html)
      await NodeFs.rename(partial(xlsx), xlsx)
    })
    return { html, xlsx }
  }).pipe(
    Effect.onExit((exit) =>
      exit._tag === "Success"
        ? Effect.void
        : Effect.promise(() => Promise.all([html, xlsx].map((f) => NodeFs.rm(partial(f), { force: true }))))
    )
  )
}

/**
 * Builds and writes the preview of the plan `plan` reads into `dir`: what `plan` does once it has built a
 * plan. The files take their place once `ready` succeeds (see `writeWith`).
 */
export const writeFor = <RP, E2 = never, R2 = never>(
  dir: string,
  plan: PlanStore.PlanSource<RP>,
  books: Pick<SourceBooks, "trialBalances">,
  sourceSystem: string,
  scratch: Projection.StartScratch,
  ready?: Effect.Effect<void, E2, R2>
) =>
  Effect.gen(function* () {
    const generatedAt = new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC"
    const { preview, eachDoc } = yield* make(plan, books, sourceSystem, generatedAt, scratch)
    const paths = yield* writeWith(dir, preview, eachDoc, ready)
    return { ...paths, preview }
  })
