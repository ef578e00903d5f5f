/**
 * Texts joined into pieces small enough for V8's ordinary heap (plain JavaScript, so that the extract's writer
 * thread imports it as it is). V8 puts a string above about 128 KiB in its large-object space, in memory
 * mapped for it alone and unmapped when it is collected. Joining 1,000 texts of about 370 characters into one
 * string took 1.9 ms, against 0.04-0.06 ms in pieces of up to 115 KiB: per million rows, 1,941 ms against 58 ms
 * (the joins alone; strings of 193 and 387 KiB were slow, of 38-115 KiB fast).
 */

/**
 * The most characters a piece has (unless it is one text longer than that). 32,768 characters stay below
 * the limit even in a string of two bytes a character (one holding a character beyond Latin-1).
 */
export const ORDINARY_CHARS = 32768

/**
 * `texts` joined by `separator` into pieces of at most `ORDINARY_CHARS` characters, `open` and `close` around
 * each and counted in it; a text too long for any piece is a piece of its own. Made one at a time as they
 * are taken; none for no texts.
 * @param {Iterable<string>} texts
 * @param {string} separator
 * @param {string} [open]
 * @param {string} [close]
 * @returns {Generator<string, void, undefined>}
 */
export function* pieces(texts, separator, open = "", close = "") {
  const empty = open.length + close.length
  let group = []
  let length = empty
  for (const text of texts) {
    const added = (group.length > 0 ? separator.length : 0) + text.length
    if (group.length > 0 && length + added > ORDINARY_CHARS) {
      yield open + group.join(separator) + close
      group = []
      length = empty
    }
    length += (group.length > 0 ? separator.length : 0) + text.length
    group.push(text)
  }
  if (group.length > 0) yield open + group.join(separator) + close
}
