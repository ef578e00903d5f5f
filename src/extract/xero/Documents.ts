/**
 * Xero's sales invoices and bills exports: one layout, told apart by the `Type` column's values
 * ("Sales invoice", "Sales credit note", "Sales overpayment" vs "Bill", "Bill credit note",
 * "Supplier credit note", "Bill overpayment"), never by the file name.
 */
import * as Headers from "../Headers.js"
import * as P from "../Profile.js"
import * as Table from "../Table.js"
import { documentsExport } from "./Layouts.js"

/** The staged kinds of the two exports. */
export const SALES = "xero.invoices"
export const PURCHASES = "xero.bills"

/** Which export a `Type` value belongs to, if it says. */
export const family = (type: string): typeof SALES | typeof PURCHASES | undefined => {
  const t = type.trim().toLowerCase()
  if (/^(sales|receivable|accrec|customer)\b/.test(t)) return SALES
  if (/^(bill|purchase|payable|accpay|supplier)\b/.test(t)) return PURCHASES
  return undefined
}

/** Sales invoices export or bills export, decided by the `Type` values among the first records. */
export const profile: P.Profile = {
  kinds: [SALES, PURCHASES],
  expects: `a header row with ${documentsExport.required.join(", ")} and sales or purchase values in Type`,
  recognise: (head, file) => {
    const match = Table.findHeader(head, documentsExport.required, documentsExport.known)
    if (match === undefined) return []
    const headerCells = head[match.index]!.cells
    const typeAt = headerCells.findIndex((h) => Headers.fold(h) === "type")
    const seen = { [SALES]: 0, [PURCHASES]: 0 }
    for (const r of head.slice(match.index + 1)) {
      const f = family(r.cells[typeAt] ?? "")
      if (f !== undefined) seen[f]++
    }
    const claim = (kind: string, confidence: number, evidence: string): P.Recognition => ({
      kind,
      confidence,
      evidence,
      reader: () =>
        Table.reader(file, match.index, headerCells, (record) => {
          const type = (record.cells[typeAt] ?? "").trim()
          const f = family(type)
          if (f === undefined || f === kind) return undefined
          return P.rejected(
            `wrong document type at ${file}:${record.line}: Type "${type}" is a ${f} document ` +
              `in a file recognised as ${kind}; the export mixes sales and purchases — export sales ` +
              `invoices and bills to separate files and extract again`
          )
        })
    })
    const counts = `${seen[SALES]} sales and ${seen[PURCHASES]} purchase Type values`
    if (seen[SALES] > 0 && seen[PURCHASES] === 0) return [claim(SALES, match.coverage, counts)]
    if (seen[PURCHASES] > 0 && seen[SALES] === 0) return [claim(PURCHASES, match.coverage, counts)]
    return [claim(SALES, match.coverage, counts), claim(PURCHASES, match.coverage, counts)]
  }
}
