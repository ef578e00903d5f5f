/**
 * A collection of the books' records that need not be in the heap: counted, iterated from the first each time,
 * and read by place. An array is one; so are the documents and payments a plan keeps out of the heap while it
 * is built (`BooksSpill`), which make each record afresh as it is read.
 */
export interface Records<A> extends Iterable<A> {
  readonly length: number
  /** The record at `place` (0-based, in the collection's order); undefined past its end. */
  at(place: number): A | undefined
}

/** The record at `place`, which must be there (a defect otherwise). */
export const recordAt = <A>(records: Records<A>, place: number): A => {
  const a = records.at(place)
  if (a === undefined) throw new Error(`no record at ${place} of ${records.length}: a defect`)
  return a
}
