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

export const remembered = <A, K extends string | number = string>(
  f: (s: K) => A,
  limit = 65_536
): Remembered<A, K> => {
  const answers = new Map<K, A>()
  const g = (s: K): A => {
    if (answers.has(s)) return answers.get(s)!
    const a = f(s)
    if (answers.size >= limit) answers.clear()
    answers.set(s, a)
    return a
  }
  return Object.assign(g, { forget: () => answers.clear() })
}

/**
 * A function of an object that remembers its answer for each object it was asked about, for as long as the
 * object lives: for an index that several checks build over the same collection (the reconciliation's
 * documents and credits, each with its reference), which is then built once. The object must not change
 * after it is first asked about; the books are read once and never changed.
 */
export const rememberedFor = <K extends object, A>(f: (k: K) => A): ((k: K) => A) => {
  const answers = new WeakMap<K, A>()
  return (k) => {
    if (answers.has(k)) return answers.get(k)!
    const a = f(k)
    answers.set(k, a)
    return a
  }
}
