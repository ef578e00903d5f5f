/**
 * The plan: one operation per target write, each with a key (its natural key, also how other bodies refer
 * to it), a phase, its dependencies, its canonical body (already encoded to the wire form, with symbolic
 * references) and its source lineage. The plan hash covers every operation, so two plans are byte-identical
 * exactly when their hashes agree.
 */
import type { BooksSpan } from "./BooksSpan.js"
import type { OpSpill } from "./OpSpill.js"
import { createHash } from "node:crypto"
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

/** The texts of a `SpilledOp`, one line each: body JSON, dependencies' JSON, lineage's JSON (JSON has no raw newline). */
const spilledTexts = (spill: OpSpill, at: number, bytes: number): OpTexts => {
  const record = spill.read(at, bytes)
  const a = record.indexOf("\n")
  const b = record.indexOf("\n", a + 1)
  return {
    json: record.slice(0, a),
    dependsOn: JSON.parse(record.slice(a + 1, b)) as ReadonlyArray<string>,
    lineage: JSON.parse(record.slice(b + 1)) as ReadonlyArray<string>
  }
}

function spilledBody(this: SpilledOp): unknown {
  return JSON.parse(this.texts().json)
}
function spilledDependsOn(this: SpilledOp): ReadonlyArray<string> {
  return this.texts().dependsOn
}
function spilledLineage(this: SpilledOp): ReadonlyArray<string> {
  return this.texts().lineage
}

/**
 * A planned operation whose body, dependencies and lineage are in the plan's spill file (`OpSpill`) while
 * it is built: it holds what orders the plan (phase, sort key, key) and what names it, and reads the rest
 * back when asked, each time afresh. Like `EncodedOp`'s body, they are own, enumerable properties, so a copy
 * made by spreading carries them. It can be read only until the spill is closed.
 */
export class SpilledOp implements PlannedOp {
  declare readonly body: unknown
  declare readonly dependsOn: ReadonlyArray<string>
  declare readonly lineage: ReadonlyArray<string>

  constructor(
    readonly key: string,
    readonly phase: Phase,
    readonly kind: OpKind,
    readonly naturalKey: string,
    readonly sortKey: string,
    private readonly spill: OpSpill,
    private readonly at: number,
    private readonly bytes: number
  ) {
    Object.defineProperty(this, "body", { get: spilledBody, enumerable: true })
    Object.defineProperty(this, "dependsOn", { get: spilledDependsOn, enumerable: true })
    Object.defineProperty(this, "lineage", { get: spilledLineage, enumerable: true })
  }

  /** Puts the texts of an operation in `spill`; returns the operation that reads them back. */
  static put(
    spill: OpSpill,
    op: Pick<PlannedOp, "key" | "phase" | "kind" | "naturalKey" | "sortKey" | "dependsOn" | "lineage">,
    json: string
  ): SpilledOp {
    const record = `${json}\n${JSON.stringify(op.dependsOn)}\n${JSON.stringify(op.lineage)}`
    const bytes = Buffer.byteLength(record, "utf8")
    const at = spill.put(record, bytes)
    return new SpilledOp(op.key, op.phase, op.kind, op.naturalKey, op.sortKey, spill, at, bytes)
  }

  /** The body's canonical JSON, the dependencies and the lineage, read in one go. */
  texts(): OpTexts {
    return spilledTexts(this.spill, this.at, this.bytes)
  }
}

/** What a store writes of an operation besides its names: its canonical body JSON, dependencies and lineage. */
export interface OpTexts {
  readonly json: string
  readonly dependsOn: ReadonlyArray<string>
  readonly lineage: ReadonlyArray<string>
}

/** An operation's body JSON, dependencies and lineage (a spilled one's read back once, not once each). */
export const textsOf = (op: PlannedOp): OpTexts =>
  op instanceof SpilledOp ? op.texts() : { json: jsonOf(op), dependsOn: op.dependsOn, lineage: op.lineage }

/** An operation's canonical body JSON (without serialising it again when it is already held as JSON). */
export const jsonOf = (op: PlannedOp): string =>
  op instanceof EncodedOp ? op.json : op instanceof SpilledOp ? op.texts().json : canonicalJson(op.body)

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
 * dependencies, body hash and lineage, in order, one line each.
 */
export class PlanHasher {
  private readonly hash = createHash("sha256")
  private first = true

  /** Adds the next operation, with its texts (`textsOf`); returns its body's hash. */
  add(op: Pick<PlannedOp, "key" | "phase" | "kind">, texts: OpTexts): string {
    const body = sha256(texts.json)
    this.hash.update(
      `${this.first ? "" : "\n"}${[op.key, op.phase, op.kind, texts.dependsOn.join(","), body, texts.lineage.join(",")].join("|")}`
    )
    this.first = false
    return body
  }

  digest(): string {
    return this.hash.digest("hex")
  }
}

/** The plan hash: over every operation's key, phase, kind, dependencies, body hash and lineage, in order. */
export const planHash = (ops: ReadonlyArray<PlannedOp>): string => {
  const hasher = new PlanHasher()
  for (const op of ops) hasher.add(op, textsOf(op))
  return hasher.digest()
}
