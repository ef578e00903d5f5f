/**
 * Strings that the books keep for as long as a command runs. V8 makes a long substring (13 characters or
 * more) a slice that keeps its whole parent alive, and a concatenation a pair of pointers to its parts; for
 * a value kept per row, both cost more than the text itself.
 */

/** Whether texts are read only to be written elsewhere, not kept (`transiently`). */
let kept = true

/**
 * `text` as one string of its own: neither a slice of a larger string (a value cut from a staged row's text
 * keeps the whole row) nor a concatenation (`${file}:${line}` is three strings, 88 bytes, instead of one of
 * 32). JSON's round trip is the one way JavaScript has to ask for a fresh, flat copy. Within `transiently`,
 * `text` as it is.
 */
export const flat = (text: string): string => (kept ? copied(text) : text)

/**
 * `text` as one string of its own, as `flat` makes it, within `transiently` too: for what outlives the read
 * it was made in (a memo of the texts read, whose answers the books kept later share).
 */
export const copied = (text: string): string =>
  text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string)

/**
 * `f()`, in which `flat` leaves texts as they are: for a reader whose records are written out and let go of
 * (the documents and payments a plan keeps in its `BooksSpill`), a flat copy of each text is work for
 * nothing.
 */
export const transiently = <A>(f: () => A): A => {
  const before = kept
  kept = false
  try {
    return f()
  } finally {
    kept = before
  }
}

/**
 * `text`, flattened in place when it is a concatenation: V8 flattens one the first time a character is read
 * from it, and its parts become garbage. `JSON.stringify`'s long results are concatenations of the chunks it
 * wrote (a 500-character body is a tree of four or five), and template literals are too; a plan keeps one of
 * each per operation. Returns `text`.
 */
export const flattened = (text: string): string => {
  text.charCodeAt(0)
  return text
}
