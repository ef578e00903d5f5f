/**
 * Proves the target matches the source, independently of our own parse where the input allows: the
 * target's trial balance against the source's own Trial Balance at each of its dates, AR and AP against the
 * source's aged detail reports, the migration's clearing accounts at zero; and, as before, every migrated
 * document and journal against our reading of the source. Each difference is classified, given candidate
 * transactions from the target's general ledger and a suggested fix. Without the source's own reports the
 * verdict is NOT PROVEN: the document comparison alone cannot see what the transform drops.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Queue from "effect/Queue"
import type { TargetError } from "../load/TargetErrors.js"
import * as PlanStore from "../staging/PlanStore.js"
import { normalizeName } from "../transform/Mappings.js"
import * as Money from "../transform/Money.js"
import { journalReference, type AccountPairing } from "../transform/RecordIdentity.js"
import { creditReferences, heldOnAccount, heldRecordOf } from "../transform/TransactionIdentity.js"
import { documentKinds, type ComparedBooks, type SourceBooks } from "../transform/SourceModel.js"
import { latest, sameWindow, windowOf, type ReadWindow } from "../transform/BooksSpan.js"
import * as ComparedDocuments from "../transform/ComparedDocuments.js"
import * as AgedCheck from "./AgedCheck.js"
import * as Candidates from "./Candidates.js"
import * as ClearingCheck from "./ClearingCheck.js"
import * as DocumentCheck from "./DocumentCheck.js"
import * as LoadFacts from "./LoadFacts.js"
import { anySource, type Difference, type Mismatch, type Reconciliation, type SourceSystem } from "./Model.js"
import * as TargetBooks from "./TargetBooks.js"
import * as TrialBalanceCheck from "./TrialBalanceCheck.js"

const fmt = (m: Money.Money) => Money.toFixed(m)

const mismatchFix = (m: Mismatch): string => {
  if (m.field === "count")
    return m.target === "0"
      ? "Not in the target: load again (see problems.json if it was refused), or create it."
      : `In the target ${m.target} times: void the extra copies.`
  if (m.field === "outstanding") return "See the contact's documents and payments in the rows above."
  return `The target's ${m.field} differs from the source: correct it in the target, or roll back and load again.`
}

const documentDifference = (m: Mismatch, asAt: string): Difference => {
  const s = Money.parse(m.source)
  const t = Money.parse(m.target)
  return {
    class: "document",
    area: "Documents",
    asAt,
    subject: m.key === "all" ? m.entity : `${m.entity} ${m.key}`,
    source: m.source,
    target: m.target,
    difference: s._tag === "Some" && t._tag === "Some" ? fmt(Money.sub(t.value, s.value)) : "",
    fix: `${m.field}: ${mismatchFix(m)}`,
    candidates: [],
    lineage: m.lineage
  }
}

/** How many refunds of prepayments held on their account the plan made cash entries of, per side. */
const heldRefunds = (
  books: Pick<ComparedBooks, "credits">,
  ops: ReadonlyArray<{ readonly kind: string; readonly naturalKey: string }>
): DocumentCheck.HeldRefunds => {
  const side = new Map<string, "sale" | "purchase">()
  for (const [c, reference] of creditReferences(books.credits ?? []))
    if (heldOnAccount(c) !== undefined) side.set(reference, c.side)
  const out = { sale: 0, purchase: 0 }
  for (const op of ops) {
    if (op.kind !== "cash-in" && op.kind !== "cash-out") continue
    const record = heldRecordOf(op.naturalKey)
    const s = record?.record === "refund" ? side.get(record.prepayment) : undefined
    if (s !== undefined) out[s]++
  }
  return out
}

/** Pairings for a plan stored before the plan kept them: each source account by its own name. */
const byName = (books: Pick<ComparedBooks, "accounts">): Array<AccountPairing> =>
  books.accounts.map((a) => ({
    sourceCode: a.code,
    sourceName: a.name,
    targetName: a.name,
    lineage: a.lineage
  }))

/**
 * What reconcile reads of the target before it compares: its chart, company and credit notes over a window,
 * its aged receivables and payables at the date it proves, and its invoices and bills over the window, which
 * are handed over a window of dates at a time as they are read (once): at 100,000 invoices, held whole, they
 * were a third of reconcile's heap.
 */
export interface TargetReads {
  readonly chart: ReadonlyArray<TargetBooks.TargetChartAccount>
  readonly company: string
  /** Hands the customer and supplier credit notes over (once): they are compared as soon as they are read. */
  readonly creditNotes: () => Required<DocumentCheck.CreditNotes>
  readonly AR: ReadonlyArray<TargetBooks.TargetAgedRow>
  readonly AP: ReadonlyArray<TargetBooks.TargetAgedRow>
  /** Hands each window of invoices and bills to `each`, in the order they were read; fails as the reads did. */
  readonly documents: <R>(
    each: (
      kind: "invoice" | "bill",
      docs: ReadonlyArray<TargetBooks.TargetDocument>
    ) => Effect.Effect<void, never, R>
  ) => Effect.Effect<void, TargetError, R>
}

/** Windows of invoices and bills read ahead of the comparison before the reads wait for it. */
const WINDOWS_AHEAD = 2

type Window =
  | { readonly kind: "invoice" | "bill"; readonly docs: ReadonlyArray<TargetBooks.TargetDocument> }
  | { readonly end: Exit.Exit<void, TargetError> }

/**
 * The target's chart, company and documents over `window` (credit notes only when the books have credits),
 * and its AR and AP reports at `asAt`, read side by side: while the target answers one read the answer to
 * another is parsed. The invoices and bills are read in the scope, a few windows ahead of their comparison.
 */
export const readTarget = (window: ReadWindow, credits: boolean, baseCurrency: string, asAt: string) =>
  Effect.gen(function* () {
    const queue = yield* Queue.bounded<Window>(WINDOWS_AHEAD)
    yield* Effect.forkScoped(
      Effect.forEach(
        documentKinds,
        (kind) =>
          TargetBooks.documentWindows(kind, window.from, window.until, baseCurrency, (docs) =>
            Queue.offer(queue, { kind, docs })
          ),
        { concurrency: "unbounded", discard: true }
      ).pipe(
        Effect.exit,
        Effect.flatMap((end) => Queue.offer(queue, { end }))
      )
    )
    const creditNotesOf = (kind: TargetBooks.TargetDocumentKind) =>
      credits
        ? TargetBooks.documents(kind, window.from, window.until, baseCurrency)
        : Effect.succeed<ReadonlyArray<TargetBooks.TargetDocument>>([])
    const read = yield* Effect.all(
      {
        chart: TargetBooks.chart,
        company: TargetBooks.company,
        customerCredits: creditNotesOf("customer-credit-note"),
        supplierCredits: creditNotesOf("supplier-credit-note"),
        AR: TargetBooks.aged("AR", asAt, baseCurrency),
        AP: TargetBooks.aged("AP", asAt, baseCurrency)
      },
      { concurrency: "unbounded" }
    )
    const { customerCredits, supplierCredits, ...rest } = read
    let notes: Required<DocumentCheck.CreditNotes> | undefined = { customerCredits, supplierCredits }
    const creditNotes = () => {
      if (notes === undefined) throw new Error("the target's credit notes were taken twice")
      const taken = notes
      notes = undefined
      return taken
    }
    let taken = false
    const documents: TargetReads["documents"] = (each) =>
      Effect.gen(function* () {
        if (taken) return yield* Effect.dieMessage("the target's invoices and bills were taken twice")
        taken = true
        for (;;) {
          const w = yield* Queue.take(queue)
          if ("end" in w) return yield* w.end
          yield* each(w.kind, w.docs)
        }
      })
    const reads: TargetReads = { ...rest, creditNotes, documents }
    return reads
  })

/**
 * The target's credit notes against the books' credits (those dated up to `asAt`) and in the aged reports'
 * tallies: a function of its own, so that nothing of reconcile's holds the notes once it returns.
 */
const creditNotesCompared = (
  notes: Required<DocumentCheck.CreditNotes>,
  asAt: string,
  agedTallies: ReadonlyArray<{ readonly side: "AR" | "AP"; readonly tally: AgedCheck.AgedTally }>,
  documentTally: DocumentCheck.DocumentTally,
  held: DocumentCheck.HeldRefunds
) => {
  for (const { side, tally } of agedTallies)
    tally.add(side === "AR" ? notes.customerCredits : notes.supplierCredits)
  documentTally.credits(
    {
      customerCredits: notes.customerCredits.filter((d) => d.date <= asAt),
      supplierCredits: notes.supplierCredits.filter((d) => d.date <= asAt)
    },
    held
  )
}

/**
 * The target read ahead (`readTarget`), while the books were read, over the window, for the credits and at
 * the date the stored plan's books gave: used when the books read now give the same, else read again.
 */
export interface ReadAhead<E, R> {
  readonly window: ReadWindow
  readonly credits: boolean
  readonly asAt: string
  readonly reads: Effect.Effect<TargetReads, E, R>
}

/** The books read in full, compared with the target as at `asAt`. */
export const reconcile = <E = never, R = never>(
  books: SourceBooks,
  baseCurrency: string,
  asAt: string,
  source: SourceSystem = anySource,
  ahead?: ReadAhead<E, R>
) =>
  reconcileKept(
    ComparedDocuments.keptInMemory(books),
    baseCurrency,
    asAt,
    source,
    ahead,
    Effect.succeed(books)
  )

/**
 * What a plan kept of the books (`ComparedBooks`: no documents' lines, the payments as their kinds and dates,
 * the invoices and bills handed over a stretch of dates at a time), compared with the target as at `asAt`;
 * `withLines`, the books in full, is read only to explain an account that differs.
 */
export const reconcileKept = <E = never, R = never, RD = never>(
  { books, documents: sourceDocuments, agedItems }: ComparedDocuments.KeptBooks<RD>,
  baseCurrency: string,
  asAt: string,
  source: SourceSystem,
  ahead: ReadAhead<E, R> | undefined,
  withLines: Effect.Effect<SourceBooks, E, R>
) =>
  Effect.gen(function* () {
    const meta = yield* PlanStore.meta
    // What was loaded, counted from the plan and checkpoints now, while the target answers the reads ahead
    // (about 0.2 s of SQL at 20,000 invoices that took place after them).
    const load = yield* LoadFacts.read(books.rates)
    const notes: Array<string> = []
    const pairing = meta?.accounts ?? byName(books)
    if (meta?.accounts === undefined)
      notes.push(
        "The stored plan predates account pairing: accounts were paired by name. Run plan again to pair them as the plan does."
      )
    const tbDates = [...new Set(books.trialBalances.map((t) => t.asAt))].sort()
    const agedDates = {
      AR: books.agedReports
        .filter((r) => r.side === "AR")
        .map((r) => r.asAt)
        .sort(),
      AP: books.agedReports
        .filter((r) => r.side === "AP")
        .map((r) => r.asAt)
        .sort()
    }
    // The dates the target's trial balance is compared at: the source's reports' and the date proven.
    const tbDatesAndAsAt = [...new Set([...tbDates, asAt])].sort()
    const span = sourceDocuments.span
    const window = windowOf(span, asAt)
    const { from } = window
    // What the comparisons read of the target besides the documents depends on none of them: the trial
    // balances at the reports' dates and at `asAt`, the books' journals, the aged reports at other dates than
    // `asAt`. Read while the documents are compared, not after them: at 20,000 invoices reconcile waited
    // about 0.2 s for these answers once the documents were done.
    const aside = yield* Effect.fork(
      Effect.all({
        tbs: Effect.forEach(tbDatesAndAsAt, (date) =>
          Effect.map(TargetBooks.trialBalance(from, date), (tb) => [date, tb] as const)
        ),
        journals: TargetBooks.journals(books.journals.map((j) => journalReference(j.date, j.narration))),
        aged: Effect.forEach(
          books.agedReports.filter((r) => r.asAt !== asAt),
          (r) =>
            Effect.map(
              TargetBooks.aged(r.side, r.asAt, baseCurrency),
              (rows) => [`${r.side}|${r.asAt}`, rows] as const
            )
        )
      })
    )
    // The aged reports' items, read a chunk at a time and tallied before the target's answers are taken:
    // a tally keeps what it needs of them, and they are let go of while the heap is still small (read whole
    // once the target's invoices had begun to arrive, they were reconcile's peak at 100,000 invoices).
    const tallies = books.agedReports.map((heading) => AgedCheck.agedTally(heading, baseCurrency))
    yield* agedItems((at, item, match) => tallies[at]!.source(item, match))
    const agedTallies = books.agedReports
      .map((heading, at) => ({ side: heading.side, asAt: heading.asAt, tally: tallies[at]! }))
      .sort((a, b) => b.side.localeCompare(a.side) || a.asAt.localeCompare(b.asAt))
    const reads =
      ahead !== undefined &&
      sameWindow(ahead.window, window) &&
      ahead.credits === span.credits &&
      ahead.asAt === asAt
        ? yield* ahead.reads
        : yield* readTarget(window, span.credits, baseCurrency, asAt)
    const { chart, company, AR, AP } = reads
    const read = yield* Fiber.join(aside)
    const { journals } = read
    const agedAt = new Map(read.aged)
    for (const { side, asAt: at, tally } of agedTallies)
      // The target's aged report at the documents' date was read with them.
      tally.target(at === asAt ? (side === "AR" ? AR : AP) : agedAt.get(`${side}|${at}`)!)
    const documentTally = DocumentCheck.documentTally(books, sourceDocuments.contacts, baseCurrency)
    // The target's credit notes, compared and tallied now, and let go of before the invoices and bills.
    creditNotesCompared(
      reads.creditNotes(),
      asAt,
      agedTallies,
      documentTally,
      heldRefunds(books, yield* PlanStore.naturalKeys(["cash-in", "cash-out"]))
    )
    // The invoices and bills are compared a window at a time as the target's are read, the source's read as
    // far as the last date of each window of the target's.
    const next = sourceDocuments.cursor()
    yield* reads.documents((kind, docs) =>
      Effect.gen(function* () {
        documentTally.source(kind, yield* next(kind, latest(docs.map((d) => d.date))))
        documentTally.add(
          kind,
          docs.filter((d) => d.date <= asAt)
        )
        for (const { side, tally } of agedTallies)
          if (side === (kind === "invoice" ? "AR" : "AP")) tally.add(docs)
      })
    )
    for (const kind of documentKinds) {
      documentTally.source(kind, yield* next(kind))
      if (documentTally.unclaimed(kind) > 0)
        yield* sourceDocuments.again(kind, (docs) => documentTally.claim(kind, docs))
    }
    const documents = documentTally.finish({ journals, AR, AP }, asAt)
    const differences: Array<Difference> = documents.mismatches.map((m) => documentDifference(m, asAt))
    const changed = new Set(
      documents.mismatches
        .filter((m) =>
          ["invoice", "bill", "journal", "customer credit note", "supplier credit note"].includes(m.entity)
        )
        .map((m) => m.key)
    )

    // Every date asked for below is a report's or `asAt`: read already, aside.
    const tbs = new Map(read.tbs)
    const tbAt = (date: string): TargetBooks.TargetTrialBalance => {
      const tb = tbs.get(date)
      if (tb === undefined) throw new Error(`the target's trial balance at ${date} was not read: a defect`)
      return tb
    }
    const resolve = TrialBalanceCheck.pairingResolver(pairing)
    const control = (cls: string) => {
      const found = chart.filter((a) => a.controlFlag && a.accountClass === cls)
      return found.length === 1 ? normalizeName(found[0]!.name) : undefined
    }
    // Every source posting, indexed: built only when an account differs and needs explaining.
    const postings = yield* Effect.cached(
      Effect.map(withLines, (full) =>
        Candidates.sourcePostings(
          full,
          baseCurrency,
          (code) => {
            const name = resolve(code)
            return name === undefined ? undefined : normalizeName(name)
          },
          { AR: control("Asset"), AP: control("Liability") }
        )
      )
    )
    const trialBalances = []
    for (const tb of [...books.trialBalances].sort((a, b) => (a.asAt < b.asAt ? -1 : 1))) {
      const target = tbAt(tb.asAt)
      const groups = TrialBalanceCheck.groupAccounts(tb, target, chart, pairing)
      const explanations = new Map<string, Candidates.Explanation>()
      if (groups.some(TrialBalanceCheck.needsLedger)) {
        const ledger = yield* TargetBooks.generalLedger(from, tb.asAt)
        const byKey = new Map([...ledger].map(([name, l]) => [normalizeName(name), l]))
        const indexed = yield* postings
        for (const g of groups.filter(TrialBalanceCheck.needsLedger))
          explanations.set(
            g.key,
            Candidates.explain(
              g.key,
              Money.sub(g.target, g.source),
              byKey.get(g.key),
              indexed,
              changed,
              from,
              tb.asAt
            )
          )
      }
      const { comparison, differences: found } = TrialBalanceCheck.compare(tb, target, groups, explanations)
      trialBalances.push(comparison)
      differences.push(...found)
    }

    const aged = []
    for (const { tally } of agedTallies) {
      const { comparison, differences: found } = tally.finish()
      aged.push(comparison)
      differences.push(...found)
    }

    const clearingTbs = []
    if ((meta?.clearingAccounts ?? []).length > 0)
      for (const date of tbDatesAndAsAt) clearingTbs.push(tbAt(date))
    const { clearing, differences: unclear } = ClearingCheck.checkClearing(
      meta?.clearingAccounts ?? [],
      clearingTbs
    )
    differences.push(...unclear)

    const own = tbAt(asAt)
    const balanced = Money.equals(own.debit, own.credit)
    if (!balanced)
      differences.push({
        class: "unbalanced",
        area: "Trial balance",
        asAt,
        subject: "Target trial balance",
        source: fmt(own.debit),
        target: fmt(own.credit),
        difference: fmt(Money.sub(own.credit, own.debit)),
        fix: "The target's own debits and credits differ: report it to the platform.",
        candidates: [],
        lineage: []
      })

    const notProven: Array<{ what: string; export: string }> = []
    if (tbDates.length === 0)
      notProven.push({ what: "Trial balance per account", export: source.exports.trialBalance(asAt) })
    // Books of journals only (a profiled ledger's listing) migrate no open items per contact: receivables and
    // payables are then balances of their control accounts, which the trial balance proves account by account.
    const journalsOnly =
      sourceDocuments.count === 0 &&
      books.payments.length === 0 &&
      (books.credits ?? []).length === 0 &&
      agedDates.AR.length === 0 &&
      agedDates.AP.length === 0
    if (journalsOnly)
      notes.push(
        "The source's books are journals only: no open items per contact were migrated, so receivables and payables are proved as control-account balances by the trial balance. A quick conversion with the ledger's aged listings migrates them per contact."
      )
    if (agedDates.AR.length === 0 && !journalsOnly)
      notProven.push({ what: "Receivables per contact", export: source.exports.AR(asAt) })
    if (agedDates.AP.length === 0 && !journalsOnly)
      notProven.push({ what: "Payables per contact", export: source.exports.AP(asAt) })
    const verdict = differences.length > 0 ? "DIFFERENCES" : notProven.length > 0 ? "NOT PROVEN" : "MATCHES"
    return {
      matches: verdict === "MATCHES",
      verdict,
      header: {
        company,
        baseCurrency,
        conversion:
          meta?.conversion === undefined
            ? "Full history"
            : meta.conversion.mode === "from"
              ? `Full conversion from ${meta.conversion.from} (opening position as at ${meta.conversion.asAt})`
              : `Quick conversion as at ${meta.conversion.asAt}`,
        asAt,
        trialBalanceDates: tbDates,
        agedDates,
        planHash: meta?.planHash ?? ""
      },
      notProven,
      trialBalances,
      aged,
      documents,
      clearing,
      entities: load.entities,
      rates: load.rates,
      differences,
      targetTrialBalance: { asAt, debit: fmt(own.debit), credit: fmt(own.credit), balanced },
      notes
    } satisfies Reconciliation
  }).pipe(Effect.scoped)
