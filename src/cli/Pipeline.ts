/**
 * The pipeline's steps as the commands run them: extract into staging, plan against the target (read-only),
 * load the plan, reconcile the target with the source. Each returns figures the command prints.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as NodeFs from "node:fs/promises"
import * as NodeCrypto from "node:crypto"
import * as NodePath from "node:path"
import * as Extract from "../extract/Extract.js"
import * as PlanPreview from "../preview/PlanPreview.js"
import type { StartScratch } from "../preview/Projection.js"
import * as Executor from "../load/Executor.js"
import * as ProblemReport from "../load/ProblemReport.js"
import * as ReadSnapshot from "../load/ReadSnapshot.js"
import { TargetApi } from "../load/TargetApi.js"
import * as Reconcile from "../reconcile/Reconcile.js"
import * as ReportWriter from "../reconcile/ReportWriter.js"
import * as XlsxTable from "../reconcile/XlsxTable.js"
import * as Matching from "../review/Matching.js"
import * as Review from "../review/Review.js"
import * as Checkpoints from "../staging/Checkpoints.js"
import * as PlanBooks from "../staging/PlanBooks.js"
import * as PlanStore from "../staging/PlanStore.js"
import * as StagingDb from "../staging/StagingDb.js"
import * as Mappings from "../transform/Mappings.js"
import { PlanScratch } from "../transform/PlanScratch.js"
import * as PlanBuilder from "../transform/PlanBuilder.js"
import * as QuickConversion from "../transform/QuickConversion.js"
import * as PeriodConversion from "../transform/PeriodConversion.js"
import { addDays } from "../transform/Dates.js"
import { spanOf, windowOf, type BooksSpan } from "../transform/BooksSpan.js"
import type { BuiltPlan, Conversion } from "../transform/Plan.js"
import type { Books, SourceBooks } from "../transform/SourceModel.js"
import { isSpilled } from "../transform/BooksSpill.js"
import * as Sources from "../transform/Sources.js"
import type { TargetSnapshot } from "../transform/TargetSnapshot.js"
import * as Progress from "./Progress.js"
import { collectNow, growingYoungGeneration } from "../Memory.js"
import type { Run } from "./Run.js"
import type { Cutover } from "./common.js"

/** Stages a surveyed input (`Extract.survey` runs before staging is opened) and prints its files. */
export const extract = (input: Extract.Survey) =>
  Effect.gen(function* () {
    const files = yield* Extract.stage(input)
    yield* Console.log(`Extracted ${files.length} files from ${input.options.inputDir}:`)
    for (const f of files) {
      yield* Console.log(
        `  ${f.file.padEnd(28)} ${f.kind.padEnd(26)} lines ${String(f.lines).padStart(6)} = staged ${f.staged} + skipped ${f.skipped} + rejected ${f.rejected}`
      )
      for (const w of f.warnings) yield* Console.log(`    warning: ${w}`)
    }
    return files
  })

/**
 * The books a plan is built from: the source's whole history, a quick conversion's opening position, or a
 * conversion from a start date (the opening position the day before and the period's transactions).
 */
const convertedBooks = (
  books: SourceBooks,
  cutover: Cutover,
  snapshot: TargetSnapshot,
  mappings: Mappings.Mappings,
  mappingsDir: string | undefined
) =>
  Effect.gen(function* () {
    if (cutover === undefined) return { books, conversion: undefined, clearingAccounts: [] }
    const made =
      cutover.mode === "quick"
        ? QuickConversion.books(books, cutover.asAt, snapshot, mappings)
        : PeriodConversion.books(books, cutover.from, snapshot, mappings)
    if (made instanceof QuickConversion.ConversionRefused) return yield* made
    return {
      books: made.books,
      conversion: {
        mode: cutover.mode,
        asAt: cutover.mode === "quick" ? cutover.asAt : addDays(cutover.from, -1),
        ...(cutover.mode === "from" ? { from: cutover.from } : {}),
        files: made.files,
        ...(mappingsDir !== undefined ? { mappings: mappingsDir } : {})
      },
      clearingAccounts: made.clearingAccounts
    }
  })

/** The conversion a stored plan was made with, as the options that made it. */
const cutoverOf = (c: Conversion | undefined): Cutover =>
  c === undefined
    ? undefined
    : c.mode === "from" && c.from !== undefined
      ? { mode: "from", from: c.from }
      : { mode: "quick", asAt: c.asAt }

/** The date reconcile proves: `asAt` when given, else a quick conversion's date, else the books' `last`. */
const provenAt = (asAt: string | undefined, cutover: Cutover, last: string): string =>
  asAt ?? (cutover?.mode === "quick" ? cutover.asAt : last)

/**
 * Plans the staged books against the target. `workspace`: the decisions of its review.xlsx apply (a bad one
 * fails the plan, naming its cell) and the suggestions still unconfirmed are recorded for load's gate.
 * `preview`: where to write the plan's preview (`plan.html`, `plan.xlsx`) and how to start the scratch copy of
 * the target it runs the plan in; none when undefined.
 */
export const plan = (
  mappingsDir: string | undefined,
  cutover?: Cutover,
  options: { readonly workspace?: string; readonly preview?: PreviewOptions } = {}
) =>
  Effect.gen(function* () {
    // Built and stored in a function of its own: the books are garbage once it has built the plan (at 20,000
    // invoices, 112 MB of books, measured after forced collections), and are collected before the plan is
    // stored and its preview written.
    const stored = yield* buildAndSave(mappingsDir, cutover, options.workspace, options.preview)
    const { previewed } = stored
    if (previewed !== undefined)
      yield* Console.log(`Preview: ${previewed.html} (the workbook: ${previewed.xlsx})`)
    return {
      ops: stored.ops,
      hash: stored.hash,
      rejects: stored.rejects,
      warnings: stored.warnings,
      ...(previewed ? { preview: { html: previewed.html, xlsx: previewed.xlsx } } : {})
    }
  })

/** Where to write a plan's preview and how to start the scratch copy of the target it runs the plan in. */
type PreviewOptions = { readonly dir: string; readonly scratch: StartScratch }

/** Builds the plan, stores it, writes its preview and says what it holds; returns its counts and paths. */
const buildAndSave = (
  mappingsDir: string | undefined,
  cutover: Cutover,
  workspace: string | undefined,
  preview: PreviewOptions | undefined
) =>
  Effect.acquireUseRelease(
    // The operations wait in a scratch database until they are stored.
    // With a preview to write, each operation is kept with what the preview lists of it.
    Effect.sync(() => PlanScratch.open(preview === undefined ? undefined : PlanPreview.listingText)),
    (scratch) => buildAndSaveIn(scratch, mappingsDir, cutover, workspace, preview),
    (scratch) => Effect.sync(() => scratch.close())
  )

/**
 * Stores the plan built in `scratch` and writes its preview when asked for one: with a staging file, the plan
 * is stored by a thread of its own while this one writes the preview from the scratch (at 100,000 invoices,
 * storing took about 5 s and the preview about 5.5 s one after the other), and the preview's files take
 * their place once the plan is stored.
 */
const storeAndPreview = (
  scratch: PlanScratch,
  built: BuiltPlan,
  baseCurrency: string,
  books: { readonly sourceSystem: string; readonly trialBalances: SourceBooks["trialBalances"] },
  preview: PreviewOptions | undefined
) =>
  Effect.gen(function* () {
    if (preview === undefined)
      return { hash: yield* PlanStore.saveBuilt(scratch, built, baseCurrency), previewed: undefined }
    const file = yield* StagingDb.sharedFile
    const { hash, plan, stored } = Option.isSome(file)
      ? yield* Effect.map(PlanStore.saveBuiltBeside(file.value, scratch, built, baseCurrency), (beside) => ({
          hash: beside.hash,
          plan: PlanStore.inScratch(scratch, built, beside.hash, baseCurrency),
          stored: beside.stored
        }))
      : {
          hash: yield* PlanStore.saveBuilt(scratch, built, baseCurrency),
          plan: PlanStore.stored,
          stored: Effect.void
        }
    const previewed = yield* PlanPreview.writeFor(
      preview.dir,
      plan,
      books,
      books.sourceSystem,
      preview.scratch,
      stored
    ).pipe(Effect.ensuring(Effect.ignore(stored)))
    return { hash, previewed }
  })

const buildAndSaveIn = (
  scratch: PlanScratch,
  mappingsDir: string | undefined,
  cutover: Cutover,
  workspace: string | undefined,
  preview: PreviewOptions | undefined
) =>
  Effect.gen(function* () {
    // The books are garbage once `build` returns, and are collected before the plan is stored.
    // The books' spill is closed, and the books garbage, once `build` returns.
    const { built, review, snapshot, sourceSystem, trialBalances } = yield* Effect.scoped(
      build(mappingsDir, cutover, workspace, scratch)
    )
    collectNow()
    const { hash, previewed } = yield* storeAndPreview(
      scratch,
      built,
      snapshot.baseCurrency,
      { sourceSystem, trialBalances },
      preview
    )
    if (review) {
      yield* Review.save(review.state)
      const n = review.state.pending.length
      yield* Console.log(
        `Review: ${review.decisions.size} decisions (${review.differing} other than suggested) from ${review.state.workbook ? Review.workbookPath(workspace!) : "no review.xlsx"}; ${n} suggestion${n === 1 ? "" : "s"} below confidence ${Matching.confirmBelow.toFixed(2)} to confirm before load`
      )
    }
    const rejects = built.issues.filter((i) => i.severity === "reject")
    const warnings = built.issues.filter((i) => i.severity === "warning")
    yield* Console.log(`Plan: ${scratch.size} operations (base currency ${snapshot.baseCurrency})`)
    for (const [p, n] of scratch.phaseCounts())
      yield* Console.log(`  ${p.padEnd(14)} ${String(n).padStart(6)}`)
    yield* Console.log(`  ${rejects.length} rejected source items, ${warnings.length} warnings`)
    for (const i of rejects.slice(0, 20))
      yield* Console.log(`  ✗ ${i.lineage[0] ?? ""} ${i.what}: ${i.why}. ${i.fix}`)
    yield* Console.log(`Plan hash: ${hash}`)
    return {
      ops: scratch.size,
      hash,
      rejects: rejects.length,
      warnings: warnings.length,
      previewed
    }
  })

/**
 * The books to plan, read from staging, with the target's snapshot and the review's decisions, converted when
 * the plan is a conversion, and kept for reconcile. What the build does not read is let go of here, in a
 * generator of its own so that the staged books it started from are garbage once it returns: the aged
 * reports' items, kept for reconcile and matched to their records as they are (`PlanBooks.save`), are
 * read by no planner (`PlanBuilder.withoutAgedItems`).
 */
const prepare = (mappingsDir: string | undefined, cutover: Cutover, workspace: string | undefined) =>
  Effect.gen(function* () {
    const from = yield* Sources.staged
    // The target is read before the books, while the heap is small: read after them, its pages were parsed,
    // and the review was worked out, on top of what is left of the books' read, where plan's heap is largest.
    const snapshot = yield* ReadSnapshot.read
    // A full history's documents and payments are kept out of the heap while it is planned (`BooksSpill`, closed
    // with the build's scope); a conversion's books are made from the books held whole.
    const source = yield* cutover === undefined ? from.readSpilled : from.read
    const shipped = yield* Mappings.load(from.mappings, mappingsDir)
    const review =
      workspace === undefined ? undefined : yield* Review.decisions(workspace, source, snapshot, shipped)
    const mappings = review ? { ...shipped, decisions: review.decisions } : shipped
    const converting = isSpilled(source)
      ? undefined
      : yield* convertedBooks(
          source,
          cutover,
          snapshot,
          mappings,
          mappingsDir === undefined ? undefined : NodePath.resolve(mappingsDir)
        )
    const books: Books = converting?.books ?? source
    const conversion = converting?.conversion
    const clearingAccounts = converting?.clearingAccounts ?? []
    // A conversion's books, held whole, for what the plan says of them.
    const converted = conversion === undefined ? undefined : converting?.books
    // Full-history books are kept for reconcile, which otherwise reads them again; a conversion's depend on
    // the target as it was planned against, and reconcile converts them again. Kept before the build, and
    // the garbage of keeping them collected: after it, that garbage piled on the build's peak.
    const booksDigest =
      cutover === undefined
        ? { id: NodeCrypto.randomUUID(), fingerprint: yield* PlanBooks.fingerprint }
        : undefined
    yield* booksDigest === undefined ? PlanBooks.clear : PlanBooks.save(booksDigest.id, books)
    // The review's suggestions are the plan's when the books are the staged ones: not worked out again.
    const matching =
      review && books === source ? Matching.decided(review.suggestions, review.decisions) : undefined
    return {
      books: PlanBuilder.withoutAgedItems(books),
      converted,
      snapshot,
      mappings,
      matching,
      review,
      conversion,
      clearingAccounts,
      booksDigest,
      sourceSystem: from.system.name
    }
  })

/** The plan of the staged books against the target, with the review's decisions applied. */
const build = (
  mappingsDir: string | undefined,
  cutover: Cutover,
  workspace: string | undefined,
  scratch: PlanScratch
) =>
  Effect.gen(function* () {
    const prepared = yield* prepare(mappingsDir, cutover, workspace)
    const { books, converted, snapshot, review, conversion, booksDigest } = prepared
    collectNow()
    growingYoungGeneration()
    const plain = PlanBuilder.buildInto(scratch, books, snapshot, prepared.mappings, prepared.matching)
    const built = {
      ...plain,
      clearingAccounts: [...(plain.clearingAccounts ?? []), ...prepared.clearingAccounts],
      ...(conversion ? { conversion } : {}),
      span: spanOf(books),
      ...(booksDigest ? { booksDigest } : {})
    }
    if (conversion?.mode === "quick" && converted !== undefined)
      yield* Console.log(
        `Quick conversion as at ${conversion.asAt}: ${converted.documents.length + (converted.credits ?? []).length} open items as conversion documents, a trial balance journal of ${converted.journals[0]?.lines.length ?? 0} lines, from ${conversion.files.join(", ")}`
      )
    if (conversion?.mode === "from" && converted !== undefined) {
      const from = conversion.from!
      const credits = converted.credits ?? []
      const opening =
        converted.documents.filter((d) => d.date < from).length +
        credits.filter((c) => c.date < from && c.opening !== true).length
      const held = credits.filter((c) => c.opening === true).length
      const period = (xs: ReadonlyArray<{ readonly date: string }>) => xs.filter((x) => x.date >= from).length
      yield* Console.log(
        `Conversion from ${from}: the opening position as at ${conversion.asAt} (${opening} open items as conversion documents${held > 0 ? `, ${held} prepayment${held === 1 ? "" : "s"} still held on ${held === 1 ? "its account" : "their accounts"}` : ""}, a trial balance journal of ${converted.journals[0]?.lines.length ?? 0} lines, from ${conversion.files.join(", ")}), then ${period(converted.documents)} documents, ${period(credits)} credits, ${converted.payments.length} payments, ${converted.journals.length - 1} journals, ${(converted.cashEntries ?? []).length} cash entries and ${(converted.transfers ?? []).length} transfers dated ${from} or later`
      )
    }
    return {
      built,
      review,
      snapshot,
      sourceSystem: prepared.sourceSystem,
      trialBalances: books.trialBalances
    }
  })

/** An operation's change of state, as a line of the run's log (written directly: see `Executor.ProgressEvent`). */
const logOutcome = (run: Run, e: Executor.ProgressEvent) => {
  const fields = {
    op: e.key,
    phase: e.phase,
    status: e.status,
    ...(e.resourceId ? { resourceId: e.resourceId } : {}),
    lineage: e.lineage.join(",")
  }
  if (e.status === "done") run.log.info(fields, `${e.key} done`)
  else run.log.warn(fields, `${e.key} ${e.status}: ${e.error ?? ""}`)
}

export const load = (
  run: Run,
  options: { readonly concurrency: number; readonly retryRejected: boolean; readonly maxRate?: number }
) =>
  Effect.gen(function* () {
    // Counts, not operations: the loader pages through the plan, and so does what shows its progress.
    const planned = yield* PlanStore.phaseCounts
    if (planned.size === 0) return yield* Effect.dieMessage("no plan in this workspace: run plan first")
    const progress = Progress.start(planned)
    const started = Date.now()
    const onProgress = (e: Executor.ProgressEvent) => {
      progress.onEvent(e)
      logOutcome(run, e)
    }
    const result = yield* Executor.load({ ...options, onProgress }).pipe(
      Effect.ensuring(Effect.sync(progress.stop))
    )
    const seconds = (Date.now() - started) / 1000
    yield* Console.log(
      `Load ${result.complete ? "complete" : "INCOMPLETE"}: ${result.sent} requests sent, ${result.adopted} adopted from the target, ${result.throttled} throttled (429), ${seconds.toFixed(1)} s, ${result.checkpointTransactions} checkpoint transactions`
    )
    yield* printStatus
    if (result.changedRejected > 0) {
      yield* Console.log(
        `${result.changedRejected} rejected operations have changed since they were refused: run load --retry-rejected to send them`
      )
    }
    if (result.changedDone > 0) {
      yield* Console.log(
        `${result.changedDone} completed operations changed in the plan after they were loaded: the target keeps what was sent (roll back and load again to replace them)`
      )
    }
    const groups = ProblemReport.group(yield* Checkpoints.problems)
    if (groups.length > 0) {
      yield* Effect.promise(() =>
        NodeFs.writeFile(NodePath.join(run.dir, "problems.json"), `${JSON.stringify(groups, null, 2)}\n`)
      )
      for (const line of ProblemReport.lines(groups)) yield* Console.log(line)
    }
    return result
  })

export const printStatus = Effect.gen(function* () {
  const rows = yield* Checkpoints.summary
  const byPhase = new Map<string, Record<string, number>>()
  for (const r of rows)
    byPhase.set(r.phase, { ...(byPhase.get(r.phase) ?? {}), [r.status ?? "pending"]: r.n })
  yield* Console.log(`  ${"phase".padEnd(14)} planned   done rejected  skipped in_doubt remaining`)
  for (const [phase, c] of byPhase) {
    const planned = Object.values(c).reduce((a, b) => a + b, 0)
    const remaining = (c.pending ?? 0) + (c.sending ?? 0)
    const cols = [planned, c.done ?? 0, c.rejected ?? 0, c.skipped ?? 0, c.in_doubt ?? 0, remaining].map(
      (n) => String(n).padStart(8)
    )
    yield* Console.log(`  ${phase.padEnd(14)}${cols.join(" ")}`)
  }
})

export const reconcile = (run: Run, asAt: string | undefined) =>
  Effect.gen(function* () {
    const api = yield* TargetApi
    const from = yield* Sources.staged
    // Compared in a function of its own: the kept books (heap in use 49 MB once they are read, at 20,000
    // invoices) and what was read of the target are garbage once it returns, and the ceiling collects them
    // before the report is written.
    const result = yield* compare(asAt)
    collectNow()
    const paths = yield* Effect.promise(() =>
      ReportWriter.write(run.dir, result, {
        runId: run.runId,
        baseUrl: api.baseUrl,
        sourceSystem: from.system.name,
        generatedAt: new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC"
      })
    )
    yield* Console.log(ReportWriter.summary(result))
    yield* Console.log(`Report: ${paths.html}`)
    return { result, paths }
  })

/** The staged books compared with the target as at `asAt` (by default their last date, or the cut-over). */
const compare = (asAt: string | undefined) =>
  Effect.gen(function* () {
    const meta = yield* PlanStore.meta
    if (!meta) return yield* Effect.dieMessage("no plan in this workspace: run plan and load first")
    const from = yield* Sources.staged
    const cutover = cutoverOf(meta.conversion)
    // The target's documents are read while the books are (the window and credits the stored plan's books
    // gave; reconcile reads again if the books read now differ): at 100,000 invoices the target took 64 s to
    // answer the reads, in which reading the books again took place after them.
    const span = meta.span
    const date = span && provenAt(asAt, cutover, span.last)
    const ahead =
      span === undefined || date === undefined
        ? undefined
        : { window: windowOf(span, date), credits: span.credits, asAt: date }
    // The fiber hands its reads over once and ends with nothing: a fiber keeps its result for as long as it
    // is referenced, and this one was until the report had been written, holding what it read through the
    // collection after the comparison (heap in use after it at 100,000 invoices, when the reads held the
    // invoices and bills as well: 175 MB against 69 MB). They hold the credit notes and aged reports now.
    let answered: Reconcile.TargetReads | undefined
    const fiber =
      ahead === undefined
        ? undefined
        : yield* Effect.fork(
            Effect.map(
              Reconcile.readTarget(ahead.window, ahead.credits, meta.baseCurrency, ahead.asAt),
              (r) => {
                answered = r
              }
            )
          )
    const handedOver = <E>(f: Fiber.RuntimeFiber<void, E>) =>
      Effect.flatMap(Fiber.join(f), () => {
        const reads = answered
        answered = undefined
        return reads === undefined
          ? Effect.dieMessage("the target's reads were taken twice")
          : Effect.succeed(reads)
      })
    // exceljs' writer, which writes the report, is loaded while the target answers the reads: about 0.14 s
    // of this thread, which waits on the target for about a second then (20,000 invoices), instead of after.
    yield* Effect.forkDaemon(Effect.ignore(Effect.tryPromise(XlsxTable.excelWriter)))
    // What the plan kept of the books (no documents' lines, no cash entries, the payments as their kinds and
    // dates, the invoices and bills read as they are compared) while staging is what it read; else the books
    // read again.
    const kept = cutover === undefined ? yield* PlanBooks.read(meta.booksDigest) : undefined
    const proven = (span: BooksSpan) => provenAt(asAt, cutover, span.last)
    const readAhead =
      ahead === undefined || fiber === undefined ? undefined : { ...ahead, reads: handedOver(fiber) }
    const result =
      kept !== undefined
        ? // To explain an account that differs, the documents' lines: the books read in full.
          yield* Reconcile.reconcileKept(
            kept,
            meta.baseCurrency,
            proven(kept.documents.span),
            from.system,
            readAhead,
            from.read
          )
        : yield* Effect.gen(function* () {
            const source = yield* from.read
            const { books } =
              cutover === undefined
                ? { books: source }
                : yield* convertedBooks(
                    source,
                    cutover,
                    yield* ReadSnapshot.read,
                    yield* Mappings.load(from.mappings, meta.conversion?.mappings),
                    meta.conversion?.mappings
                  )
            return yield* Reconcile.reconcile(
              books,
              meta.baseCurrency,
              proven(spanOf(books)),
              from.system,
              readAhead
            )
          })
    if (fiber !== undefined) yield* Fiber.interrupt(fiber)
    // Reads that were not used (the books read now gave another window) are let go of as well.
    answered = undefined
    return result
  }).pipe(Effect.scoped)
