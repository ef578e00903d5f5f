/**
 * The identity of a migrated record, read by both the plan and the reconciliation: whether a source document
 * migrates, the reference it carries in the target (made unique deterministically), the derived reference of
 * a journal and of a payment, and the target account a source account becomes. Changing one of these rules
 * changes what the plan sends and what the reconciliation looks for, together.
 */
import { createHash } from "node:crypto"
import { normalizeName, type NameMap } from "./Mappings.js"
import type { SourceAccount, SourceDocument, SourcePayment } from "./SourceModel.js"
import { append } from "../Multimap.js"
import { rememberedFor } from "../Remembered.js"

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Whether a source document migrates: everything but voided ones. */
export const migrates = (d: SourceDocument): boolean => d.state !== "voided"

/** The documents that migrate. */
export const migrating = (docs: ReadonlyArray<SourceDocument>) => docs.filter(migrates)

/**
 * References made unique: a repeated number keeps its first use (by date, contact, source line) and the
 * others get `-2`, `-3`, … ; `onDuplicate` hears of each renamed document.
 */
export const assignReferences = (
  docs: ReadonlyArray<SourceDocument>,
  onDuplicate: (doc: SourceDocument, reference: string, uses: number) => void = () => {}
): Map<SourceDocument, string> => {
  const refs = new Map<SourceDocument, string>()
  const byNumber = new Map<string, Array<SourceDocument>>()
  for (const d of docs) append(byNumber, `${d.kind}:${d.number}`, d)
  for (const group of byNumber.values()) {
    const sorted = [...group].sort(
      (a, b) =>
        compare(a.date, b.date) ||
        compare(a.contactName, b.contactName) ||
        compare(a.lineage[0]!, b.lineage[0]!)
    )
    sorted.forEach((d, i) => {
      const reference = i === 0 ? d.number : `${d.number}-${i + 1}`
      refs.set(d, reference)
      if (i > 0) onDuplicate(d, reference, sorted.length)
    })
  }
  return refs
}

/**
 * Every migrating document with the reference it carries in the target. Built once per collection of
 * documents: the reconciliation's document, aged and candidate checks each ask for it.
 */
export const documentReferences: (
  docs: ReadonlyArray<SourceDocument>
) => ReadonlyMap<SourceDocument, string> = rememberedFor((docs) => assignReferences(migrating(docs)))

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
