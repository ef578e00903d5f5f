/**
 * The plan: one operation per target write, each with a key (its natural key, also how other bodies refer
 * to it), a phase, its dependencies, its canonical body (already encoded to the wire form, with symbolic
 * references) and its source lineage. The plan hash covers every operation, so two plans are byte-identical
 * exactly when their hashes agree.
 */
import type { BooksSpan } from "./BooksSpan.js"
import { createHash } from "node:crypto"
import { flattened } from "../Strings.js"
import { opRow } from "./PlanRows.mjs"
import type { AccountPairing } from "./RecordIdentity.js"
import type { Issue } from "./SourceModel.js"

/**
 * Load phases in the specification's dependency order: tags (depend on nothing; documents carry their
 * names), master data, transactions (documents, credit notes, journals, cash entries, transfers), then
 * settlements (payments, credit-note applications, refunds), which refer to the transactions.
 */
export const phases = [
  "tags",
  "currencies",
  "rates",
  "accounts",
  "contacts",
  "items",
  "transactions",
  "settlements"
] as const
export type Phase = (typeof phases)[number]

export type OpKind =
  | "currency"
  | "rate"
  | "account"
  | "contact"
  | "item"
  | "invoice"
  | "bill"
  | "journal"
  | "invoice-payment"
  | "bill-payment"
  | "tag"
  | "customer-credit-note"
  | "supplier-credit-note"
  | "cash-in"
  | "cash-out"
  | "cash-transfer"
  | "invoice-credit"
  | "bill-credit"
  | "customer-refund"
  | "supplier-refund"

export interface PlannedOp {
  readonly key: string
  readonly phase: Phase
  readonly kind: OpKind
  readonly naturalKey: string
  readonly dependsOn: ReadonlyArray<string>
  /** The encoded wire body (JSON-ready), with `@entity:key` references. */
  readonly body: unknown
  readonly lineage: ReadonlyArray<string>
  /** Orders operations within a phase (dates first for transactions); not part of the wire body. */
  readonly sortKey: string
}

export interface Plan {
  readonly ops: ReadonlyArray<PlannedOp>
  readonly issues: ReadonlyArray<Issue>
  /** Which target account each source account became: the reconciliation compares balances through it. */
  readonly accounts?: ReadonlyArray<AccountPairing>
  /**
   * Target accounts the migration posts through and which must end at zero (the clearing accounts of a
   * conversion at a cut-over date). A full-history migration uses none.
   */
  readonly clearingAccounts?: ReadonlyArray<string>
  /** How the books are converted: absent for full history; a quick conversion names its date and files. */
  readonly conversion?: Conversion
  /** The dates of the books planned, which decide what of the target reconcile reads (`BooksSpan`). */
  readonly span?: BooksSpan
  /** The books planned, kept for reconcile (`PlanBooks`); absent when none are kept. */
  readonly booksDigest?: BooksDigest
}

/** How many operations of a phase and kind a plan has (the stored plan's, or its scratch's). */
export interface KindCount {
  readonly phase: Phase
  readonly kind: OpKind
  readonly n: number
}

/**
 * The query of `KindCount`s over `table`, which has each operation's `phase`, `kind` and place in load order
 * (`seq`): in the order of each kind's first operation.
 */
export const kindCountsSql = (table: string): string =>
  `SELECT phase, kind, COUNT(*) AS n FROM ${table} GROUP BY phase, kind ORDER BY MIN(seq)`

/** A plan whose operations are kept elsewhere while it is stored (`PlanScratch`). */
export type BuiltPlan = Omit<Plan, "ops">

/** Books a plan keeps for reconcile: the id of their rows, and the fingerprint of the staging they were read from. */
export interface BooksDigest {
  readonly id: string
  readonly fingerprint: string
}

/**
 * A conversion at a cut-over date: the opening position from the source's own reports at `asAt` (quick), or
 * that position the day before `from` and every transaction from `from` on (from).
 */
export interface Conversion {
  readonly mode: "quick" | "from"
  readonly asAt: string
  /** The start date of a conversion from a date (`asAt` is the day before it). */
  readonly from?: string
  /** The source files the opening position was built from. */
  readonly files: ReadonlyArray<string>
  /** The reviewed mappings directory the plan used (`--mappings`), so that reconcile rebuilds the same books. */
  readonly mappings?: string
}

const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex")

/** The canonical JSON of a body (key order is the schema's field order, fixed by encoding). */
export const canonicalJson = (body: unknown): string => JSON.stringify(body)

export const bodyHash = (body: unknown): string => sha256(canonicalJson(body))

/** `body` of an `EncodedOp`: its JSON parsed afresh (one function shared by every operation). */
function parsedBody(this: EncodedOp): unknown {
  return JSON.parse(this.json)
}

/**
 * A planned operation that holds its body as the canonical JSON it was encoded to: one string per operation
 * instead of an object graph (a big plan's bodies are most of its memory), serialised once for the store and
 * the plan hash alike. `body` parses it afresh each time it is read; it is an own, enumerable property, so a
 * copy made by spreading (`{ ...op, dependsOn: [] }`) carries the parsed body like any other operation.
 */
export class EncodedOp implements PlannedOp {
  declare readonly body: unknown

  constructor(
    readonly key: string,
    readonly phase: Phase,
    readonly kind: OpKind,
    readonly naturalKey: string,
    readonly dependsOn: ReadonlyArray<string>,
    readonly json: string,
    readonly lineage: ReadonlyArray<string>,
    readonly sortKey: string
  ) {
    Object.defineProperty(this, "body", { get: parsedBody, enumerable: true })
  }
}

/** An operation but its body: its names, its place in the load order, its dependencies and lineage. */
export type OpSpec = Pick<
  PlannedOp,
  "key" | "phase" | "kind" | "naturalKey" | "sortKey" | "dependsOn" | "lineage"
>

/** Where a plan's operations go as they are built: memory (`OpsInMemory`) or a scratch database (`PlanScratch`). */
export interface OpSink {
  /** Keeps `op`, with its canonical body `json`, the text of `body` (its encoded value). */
  put(op: OpSpec, json: string, body: unknown): void
}

/** Operations kept in memory as `EncodedOp`s, in the order they were built (small plans, tests, a conversion's full-history pass). */
export class OpsInMemory implements OpSink {
  readonly ops: Array<EncodedOp> = []

  put(op: OpSpec, json: string): void {
    // Flat strings: the plan keeps them to the end, and as concatenations they took 22 MB more at 20,000
    // invoices (heap snapshot).
    this.ops.push(
      new EncodedOp(
        flattened(op.key),
        op.phase,
        op.kind,
        flattened(op.naturalKey),
        op.dependsOn.map(flattened),
        flattened(json),
        op.lineage,
        flattened(op.sortKey)
      )
    )
  }
}

/** What a store writes of an operation besides its names: its canonical body JSON, dependencies and lineage. */
export interface OpTexts {
  readonly json: string
  readonly dependsOn: ReadonlyArray<string>
  readonly lineage: ReadonlyArray<string>
}

/** An operation's body JSON, dependencies and lineage. */
export const textsOf = (op: PlannedOp): OpTexts => ({
  json: jsonOf(op),
  dependsOn: op.dependsOn,
  lineage: op.lineage
})

/** An operation's canonical body JSON (without serialising it again when it is already held as JSON). */
export const jsonOf = (op: PlannedOp): string => (op instanceof EncodedOp ? op.json : canonicalJson(op.body))

/**
 * An operation as the store writes it (a row of `plan_ops` but its place in the load order), with its line
 * of the plan hash: each text serialised and the body hashed once, for the row and the hash alike.
 */
export interface OpRow {
  readonly key: string
  readonly phase: Phase
  readonly kind: OpKind
  readonly natural_key: string
  readonly depends_on: string
  readonly body: string
  readonly body_hash: string
  readonly lineage: string
  readonly hash_line: string
}

/** `op`'s row, from its texts (`textsOf`): `PlanRows.opRow`, which the scratch's writer thread uses too. */
export const rowOf = (op: Pick<PlannedOp, "key" | "phase" | "kind" | "naturalKey">, texts: OpTexts): OpRow =>
  opRow(op.key, op.phase, op.kind, op.naturalKey, texts.json, texts.dependsOn, texts.lineage)

/** Puts operations in load order: phase, then the phase's sort key, then the key. */
export const order = (ops: ReadonlyArray<PlannedOp>): Array<PlannedOp> =>
  [...ops].sort(
    (a, b) =>
      phases.indexOf(a.phase) - phases.indexOf(b.phase) ||
      (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  )

/**
 * The plan hash, fed one operation at a time (no plan-sized string): over every operation's key, phase, kind,
 * dependencies, body hash and lineage, in order, one line each (`OpRow.hash_line`).
 */
export class PlanHasher {
  private readonly hash = createHash("sha256")
  private first = true

  /** Adds the next operation's line. */
  add(row: Pick<OpRow, "hash_line">): void {
    this.hash.update(`${this.first ? "" : "\n"}${row.hash_line}`)
    this.first = false
  }

  digest(): string {
    return this.hash.digest("hex")
  }
}

/** The plan hash: over every operation's key, phase, kind, dependencies, body hash and lineage, in order. */
export const planHash = (ops: ReadonlyArray<PlannedOp>): string => {
  const hasher = new PlanHasher()
  for (const op of ops) hasher.add(rowOf(op, textsOf(op)))
  return hasher.digest()
}
