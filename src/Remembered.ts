/**
 * A function of a string (or a number) that remembers its answers: for values that repeat row after row (a name to
 * normalise, an amount's text, a cell's text), so that each is computed, and held, once. The memory is
 * emptied when it holds `limit` answers, so it never grows with the company.
 */
export interface Remembered<A, K extends string | number = string> {
  (s: K): A
  /** Lets go of every answer held. */
  readonly forget: () => void
}

/**
 * `keep`: a copy of `s` (equal to it) to hold as the key of the answer made for it, and to ask `f` about, for
 * keys that must not hold on to more than themselves: a text cut from a larger one is a slice of it
 * (`Strings.copied`).
 */
export const remembered = <A, K extends string | number = string>(
  f: (s: K) => A,
  limit = 65_536,
  keep?: (s: K) => K
): Remembered<A, K> => {
  const answers = new Map<K, A>()
  const g = (s: K): A => {
    // One lookup for a known answer (most calls), a second only for an answer that is undefined.
    const known = answers.get(s)
    if (known !== undefined || answers.has(s)) return known as A
    const key = keep === undefined ? s : keep(s)
    const a = f(key)
    if (answers.size >= limit) answers.clear()
    answers.set(key, a)
    return a
  }
  return Object.assign(g, { forget: () => answers.clear() })
}

/**
 * A function of an object that remembers its answer for each object it was asked about, for as long as the
 * object lives: what is built once per schema or header (an encoder, a row builder), or an index that several
 * checks build over the same collection (the reconciliation's documents and credits, each with its
 * reference). The object must not change after it is first asked about.
 */
export const rememberedFor = <K extends object, A>(f: (k: K) => A): ((k: K) => A) => {
  const answers = new WeakMap<K, A>()
  return (k) => {
    const known = answers.get(k)
    if (known !== undefined || answers.has(k)) return known as A
    const a = f(k)
    answers.set(k, a)
    return a
  }
}
