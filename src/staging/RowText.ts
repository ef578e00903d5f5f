/**
 * How a staged row's values are stored in `src_rows.data`: joined by U+001F (the unit separator), which is
 * what `sqlite3 .import` pays for a row too, one byte a value; a JSON array (two quotes and a comma a value,
 * and `JSON.parse` to read) made staging 1.5× the size of `.import`'s database. A row with a value that holds
 * U+001D, U+001E or U+001F (control characters no export uses, but a cell may hold anything) is stored as its
 * values' JSON behind a U+001D marker instead. Either way a stored text never holds a raw U+001E, which
 * separates the texts of a batch on their way to the writer thread (`StagingSql.BATCH_SEPARATOR`).
 */

const UNIT = "\u001f"
const JSON_MARK = "\u001d"
const reserved = /[\u001d-\u001f]/

/** The stored text of a row's values. */
export const encode = (values: ReadonlyArray<string>): string => {
  for (const v of values) if (reserved.test(v)) return JSON_MARK + JSON.stringify(values)
  return values.join(UNIT)
}

/**
 * The values of a stored text that has `count` of them (its shape's key count: a row of one empty value and
 * a row of none are both stored as ""); undefined when the text does not hold `count` values.
 */
export const decode = (text: string, count: number): ReadonlyArray<string> | undefined => {
  const values = text.startsWith(JSON_MARK)
    ? (JSON.parse(text.slice(1)) as ReadonlyArray<string>)
    : count === 0 && text === ""
      ? []
      : text.split(UNIT)
  return values.length === count ? values : undefined
}
