/**
 * Writes `Allocations.csv` (`Credit Note Number,Document Number,Amount`): which invoice or bill each credit
 * note was allocated to, for how much (in the document's currency). Not a Xero export — Xero's exports do not
 * say where a credit went — but the optional file a migration takes so it need not infer it; overpayments and
 * prepayments have no number to name them by, and are left to that inference.
 */
import type * as BigDecimal from "effect/BigDecimal"
import { CsvFile } from "./CsvFile.js"
import * as Money from "./Money.js"

/** The header of the allocations file. */
export const HEADER = ["Credit Note Number", "Document Number", "Amount"] as const

/** An allocations file being written. */
export class AllocationsFile {
  private readonly file: CsvFile

  constructor(path: string) {
    this.file = new CsvFile(path)
    this.file.row(HEADER)
  }

  /** Records that `amount` of credit note `creditNumber` went to document `documentNumber`. */
  add(creditNumber: string, documentNumber: string, amount: BigDecimal.BigDecimal): void {
    this.file.row([creditNumber, documentNumber, Money.format2(amount)])
  }

  /** Closes the file; returns the number of allocations written. */
  close(): number {
    return this.file.close() - 1
  }
}
