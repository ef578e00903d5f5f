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

/**
 * Every migrating document with the reference it carries in the target, made unique: a repeated number keeps
 * its first use (by date, contact, source line) and the others get `-2`, `-3`, … (`renamed`). Built once per
 * collection of documents: the plan's documents, the books it keeps for reconcile, and the reconciliation's
 * document, aged and candidate checks each ask for it (the plan made them twice, 0.43 s of a profile of
 * 100,000 invoices).
 */
export const documentReferences: (docs: ReadonlyArray<SourceDocument>) => DocumentReferences = rememberedFor(
  (docs) => {
    const refs = new DocumentReferences()
    for (const group of numberGroups(docs)) {
      if (!Array.isArray(group)) {
        refs.set(group, group.number)
        continue
      }
      const sorted = group.sort(
        (a, b) =>
          compare(a.date, b.date) ||
          compare(a.contactName, b.contactName) ||
          compare(a.lineage[0]!, b.lineage[0]!)
      )
      sorted.forEach((doc, i) => {
        const reference = i === 0 ? doc.number : `${doc.number}-${i + 1}`
        refs.set(doc, reference)
        if (i > 0) refs.renamed.push({ doc, reference, uses: sorted.length })
      })
    }
    return refs
  }
)

/**
 * The migrating documents grouped by kind and number, the groups in the order first met: a document alone
 * with its number as itself (almost every one), the documents sharing a number as an array. Keyed by each
 * kind's numbers, not by a text of kind and number, and without an array for each number: at 100,000
 * invoices that was a text and an array for each of 167,000 documents, made at once.
 */
const numberGroups = (docs: ReadonlyArray<SourceDocument>): Array<SourceDocument | Array<SourceDocument>> => {
  const groups: Array<SourceDocument | Array<SourceDocument>> = []
  const seen = new Map<SourceDocument["kind"], Map<string, number>>()
  for (const d of docs) {
    if (!migrates(d)) continue
    let numbers = seen.get(d.kind)
    if (numbers === undefined) seen.set(d.kind, (numbers = new Map()))
    const at = numbers.get(d.number)
    if (at === undefined) {
      numbers.set(d.number, groups.length)
      groups.push(d)
      continue
    }
    const group = groups[at]!
    if (Array.isArray(group)) group.push(d)
    else groups[at] = [group, d]
  }
  return groups
}

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
