/**
 * A small seeded pseudo-random generator (sfc32, seeded through splitmix32) so the sample is reproducible:
 * the same seed and stream name always give the same sequence, on every platform, with no clock involved.
 */

const splitmix32 = (state: { s: number }): number => {
  state.s = (state.s + 0x9e3779b9) | 0
  let z = state.s
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  return (z ^ (z >>> 16)) >>> 0
}

const hashString = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  }
  return h >>> 0
}

/** A deterministic random source; every draw advances its own state only. */
export class Prng {
  private a: number
  private b: number
  private c: number
  private d: number

  private constructor(seed: number) {
    const state = { s: seed | 0 }
    this.a = splitmix32(state)
    this.b = splitmix32(state)
    this.c = splitmix32(state)
    this.d = splitmix32(state)
    for (let i = 0; i < 12; i++) this.nextUint32()
  }

  /** A generator for one named stream of a seed, so each file's draws are independent of the others. */
  static make(seed: number, stream: string): Prng {
    return new Prng((Math.imul(seed | 0, 0x27d4eb2d) ^ hashString(stream)) | 0)
  }

  /** The next raw 32-bit unsigned integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296
  }

  /** An integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1))
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** One element of a non-empty array. */
  pick<A>(items: ReadonlyArray<A>): A {
    const item = items[Math.floor(this.next() * items.length)]
    if (item === undefined) throw new Error("Prng.pick: empty array")
    return item
  }

  /** One element chosen with the given relative weights. */
  weighted<A>(choices: ReadonlyArray<readonly [A, number]>): A {
    const total = choices.reduce((sum, [, w]) => sum + w, 0)
    let r = this.next() * total
    for (const [value, weight] of choices) {
      r -= weight
      if (r < 0) return value
    }
    const last = choices[choices.length - 1]
    if (last === undefined) throw new Error("Prng.weighted: no choices")
    return last[0]
  }

  /** `count` distinct integers from [lo, hi] (fewer if the range is smaller), in ascending order. */
  distinct(count: number, lo: number, hi: number): Array<number> {
    const size = hi - lo + 1
    const wanted = Math.max(0, Math.min(count, size))
    const chosen = new Set<number>()
    while (chosen.size < wanted) chosen.add(this.int(lo, hi))
    return [...chosen].sort((x, y) => x - y)
  }
}
