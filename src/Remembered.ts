/**
 * A function of a string that remembers its answers: for values that repeat row after row (a name to
 * normalise, an amount's text, a cell's text), so that each is computed, and held, once. The memory is
 * emptied when it holds `limit` answers, so it never grows with the company.
 */
export interface Remembered<A> {
  (s: string): A
  /** Lets go of every answer held. */
  readonly forget: () => void
}

export const remembered = <A>(f: (s: string) => A, limit = 65_536): Remembered<A> => {
  const answers = new Map<string, A>()
  const g = (s: string): A => {
    if (answers.has(s)) return answers.get(s)!
    const a = f(s)
    if (answers.size >= limit) answers.clear()
    answers.set(s, a)
    return a
  }
  return Object.assign(g, { forget: () => answers.clear() })
}
