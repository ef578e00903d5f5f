/**
 * The identity of a migrated record, read by both the plan and the reconciliation: whether a source document
 * migrates, the reference it carries in the target (made unique deterministically), the derived reference of
 * a journal and of a payment, and the target account a source account becomes. Changing one of these rules
 * changes what the plan sends and what the reconciliation looks for, together.
 */
import { createHash } from "node:crypto"
import { normalizeName, type NameMap } from "./Mappings.js"
import type { SourceAccount, SourceDocument, SourcePayment } from "./SourceModel.js"
import { rememberedFor } from "../Remembered.js"

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Whether a source document migrates: everything but voided ones. */
export const migrates = (d: SourceDocument): boolean => d.state !== "voided"

/** The documents that migrate. */
export const migrating = (docs: ReadonlyArray<SourceDocument>) => docs.filter(migrates)

/** A migrating document whose number other documents carry too: the reference it migrates as instead. */
export interface Renamed {
  readonly doc: SourceDocument
  readonly reference: string
  /** How many migrating documents carry its number. */
  readonly uses: number
}

/** Every migrating document with the reference it carries in the target, and those renamed to make it unique. */
export class DocumentReferences extends Map<SourceDocument, string> {
  readonly renamed: Array<Renamed> = []
}

/** A document's number and what orders it among the documents that share it: date, contact, first row. */
export interface NumberedDocument {
  readonly number: string
  readonly date: string
  readonly contactName: string
  readonly firstRow: string
}

/** What the numbering reads of a collection of documents, each by its place in it. */
export interface NumberedDocuments {
  /** The places of the migrating documents, in order. */
  migratingPlaces(): Iterable<number>
  /** The migrating documents sharing a kind and number with another: each group's places, in order. */
  sharedNumbers(): Array<Array<number>>
  numbered(place: number): NumberedDocument
}

/**
 * The references of a collection of documents: each migrating document's place in the references' order
 * (`order`, and `positions` by place, -1 for one that does not migrate) and those renamed (by place, in the
 * order they are renamed). A document's reference is its number unless renamed.
 */
export interface Numbering {
  readonly order: Int32Array
  readonly positions: Int32Array
  readonly renamed: ReadonlyMap<number, { readonly reference: string; readonly uses: number }>
}

const byNumberOrder = (a: NumberedDocument, b: NumberedDocument) =>
  compare(a.date, b.date) || compare(a.contactName, b.contactName) || compare(a.firstRow, b.firstRow)

/**
 * Every migrating document's reference in the target, made unique: a repeated number keeps its first use (by
 * date, contact, source line) and the others get `-2`, `-3`, … (`renamed`). The documents are in the order
 * of their numbers' first use, a repeated number's documents together in that order.
 */
export const numbering = (docs: NumberedDocuments, count: number): Numbering => {
  const groups = new Map<number, ReadonlyArray<number>>()
  const shared = new Set<number>()
  for (const group of docs.sharedNumbers()) {
    const keyed = group.map((place) => ({ place, n: docs.numbered(place) }))
    // A stable sort: documents alike in all three stay in their places' order.
    keyed.sort((a, b) => byNumberOrder(a.n, b.n))
    groups.set(
      group[0]!,
      keyed.map((k) => k.place)
    )
    for (const place of group) shared.add(place)
  }
  const order: Array<number> = []
  const renamed = new Map<number, { reference: string; uses: number }>()
  for (const place of docs.migratingPlaces()) {
    if (!shared.has(place)) {
      order.push(place)
      continue
    }
    const group = groups.get(place)
    if (group === undefined) continue
    const number = docs.numbered(group[0]!).number
    group.forEach((p, i) => {
      order.push(p)
      if (i > 0) renamed.set(p, { reference: `${number}-${i + 1}`, uses: group.length })
    })
  }
  const positions = new Int32Array(count).fill(-1)
  order.forEach((place, at) => (positions[place] = at))
  return { order: Int32Array.from(order), positions, renamed }
}

/** The numbering's view of documents held whole. */
const heldWhole = (docs: ReadonlyArray<SourceDocument>): NumberedDocuments => ({
  migratingPlaces: function* () {
    for (let i = 0; i < docs.length; i++) if (migrates(docs[i]!)) yield i
  },
  sharedNumbers: () => {
    // Keyed by each kind's numbers: a text of kind and number for each of 167,000 documents at 100,000
    // invoices, at once, was garbage the grouping need not make.
    const seen = new Map<SourceDocument["kind"], Map<string, Array<number>>>()
    const groups: Array<Array<number>> = []
    docs.forEach((d, place) => {
      if (!migrates(d)) return
      let numbers = seen.get(d.kind)
      if (numbers === undefined) seen.set(d.kind, (numbers = new Map()))
      const group = numbers.get(d.number)
      if (group === undefined) numbers.set(d.number, [place])
      else {
        if (group.length === 1) groups.push(group)
        group.push(place)
      }
    })
    return groups.sort((a, b) => a[0]! - b[0]!)
  },
  numbered: (place) => {
    const d = docs[place]!
    return { number: d.number, date: d.date, contactName: d.contactName, firstRow: d.lineage[0]! }
  }
})

/**
 * Every migrating document with the reference it carries in the target (`numbering`), in the references'
 * order. Built once per collection of documents: the plan's documents, the books it keeps for reconcile, and
 * the reconciliation's document, aged and candidate checks each ask for it (the plan made them twice, 0.43 s
 * of a profile of 100,000 invoices).
 */
export const documentReferences: (docs: ReadonlyArray<SourceDocument>) => DocumentReferences = rememberedFor(
  (docs) => {
    const n = numbering(heldWhole(docs), docs.length)
    const refs = new DocumentReferences()
    for (const place of n.order) {
      const doc = docs[place]!
      refs.set(doc, n.renamed.get(place)?.reference ?? doc.number)
    }
    for (const [place, { reference, uses }] of n.renamed)
      refs.renamed.push({ doc: docs[place]!, reference, uses })
    return refs
  }
)

/** A deterministic reference for a journal that has none: its date and a digest of its narration. */
export const journalReference = (date: string, narration: string): string =>
  `MIG-JNL-${date.replace(/-/g, "")}-${createHash("sha256").update(narration).digest("hex").slice(0, 8)}`

/** A document's payments in the order they are numbered: by date, then source row. */
export const paymentOrder = (payments: ReadonlyArray<SourcePayment>): Array<SourcePayment> =>
  [...payments].sort((a, b) => compare(a.date, b.date) || compare(a.lineage, b.lineage))

/** The reference of a document's `n`th payment (1-based, in `paymentOrder`). */
export const paymentReference = (documentReference: string, n: number): string =>
  `${documentReference}-PMT${n}`

/** A source account and the target account it becomes (by name, the target's natural key for accounts). */
export interface AccountPairing {
  readonly sourceCode: string
  readonly sourceName: string
  readonly targetName: string
  readonly lineage: string
}

/**
 * The target account a source account becomes: its alias in the account map (a system account such as GST →
 * GST Control) or its own name, matched case-insensitively against the target's chart; unmatched, it is
 * created under the source's own name.
 */
export const targetAccount = <T extends { readonly name: string }>(
  account: Pick<SourceAccount, "name">,
  aliases: NameMap,
  existing: ReadonlyMap<string, T>
): { readonly name: string; readonly existing: T | undefined } => {
  const alias = aliases.get(account.name)
  const found = existing.get(normalizeName(alias ?? account.name))
  return { name: found?.name ?? account.name, existing: found }
}
