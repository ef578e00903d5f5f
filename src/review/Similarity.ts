/**
 * How alike two names are, for suggesting matches an accountant then reviews: Jaro–Winkler over the
 * normalised names, and a token measure (each word of the shorter name paired with its most alike word of the
 * other, so "Salaries & Wages" meets "Wages and Salaries"). Scores are in [0, 1]; 1 is the same normalised
 * name. Small and dependency-free on purpose: the measure is part of what the review's reasons cite.
 */
import { remembered } from "../Remembered.js"

/** Lower case, accents folded, `&` as "and", punctuation as spaces, spaces collapsed. */
export const normalise = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}%]+/gu, " ")
    .trim()
    .replace(/\s+/g, " ")

/** The Jaro similarity of two strings. */
export const jaro = (a: string, b: string): number => {
  if (a === b) return 1
  if (a.length === 0 || b.length === 0) return 0
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1)
  const aMatched = new Array<boolean>(a.length).fill(false)
  const bMatched = new Array<boolean>(b.length).fill(false)
  let matches = 0
  for (let i = 0; i < a.length; i++) {
    const lo = Math.max(0, i - window)
    const hi = Math.min(b.length - 1, i + window)
    for (let j = lo; j <= hi; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue
      aMatched[i] = true
      bMatched[j] = true
      matches++
      break
    }
  }
  if (matches === 0) return 0
  let transpositions = 0
  let k = 0
  for (let i = 0; i < a.length; i++) {
    if (!aMatched[i]) continue
    while (!bMatched[k]) k++
    if (a[i] !== b[k]) transpositions++
    k++
  }
  const m = matches
  return (m / a.length + m / b.length + (m - transpositions / 2) / m) / 3
}

/** Jaro–Winkler: Jaro raised for a common prefix of up to 4 characters (scaling 0.1). */
export const jaroWinkler = (a: string, b: string): number => {
  const j = jaro(a, b)
  let prefix = 0
  while (prefix < Math.min(4, a.length, b.length) && a[prefix] === b[prefix]) prefix++
  return j + prefix * 0.1 * (1 - j)
}

/**
 * Words paired across the two names: each word of the shorter name with its most alike word of the longer
 * (Jaro–Winkler), averaged over the longer name's word count, so extra words cost and word order does not.
 */
export const tokenScore = (a: string, b: string): number => {
  const ta = a.split(" ").filter((t) => t !== "")
  const tb = b.split(" ").filter((t) => t !== "")
  if (ta.length === 0 || tb.length === 0) return 0
  const [short, long] = ta.length <= tb.length ? [ta, tb] : [tb, ta]
  const used = new Set<number>()
  let total = 0
  for (const s of short) {
    let best = 0
    let at = -1
    long.forEach((l, i) => {
      if (used.has(i)) return
      const v = jaroWinkler(s, l)
      if (v > best) {
        best = v
        at = i
      }
    })
    if (at >= 0) used.add(at)
    total += best
  }
  return total / long.length
}

/** The similarity of two names: the better of Jaro–Winkler and the token measure over their normalised forms. */
export const similarity = (a: string, b: string): number => {
  const na = normalise(a)
  const nb = normalise(b)
  if (na === nb) return 1
  return Math.max(jaroWinkler(na, nb), tokenScore(na, nb))
}

/** A score as the review shows it: two decimals. */
export const score = (n: number): string => n.toFixed(2)

/** Legal-form words a company name may carry or drop ("Pte. Ltd.", "Sdn Bhd", "LLP", "Inc", …). */
const LEGAL = new Set([
  "pte",
  "ltd",
  "limited",
  "private",
  "llp",
  "llc",
  "lp",
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "co",
  "company",
  "plc",
  "sdn",
  "bhd",
  "berhad",
  "gmbh",
  "ag",
  "sa",
  "bv",
  "nv",
  "pty",
  "pvt"
])

/**
 * A contact's identity for matching: the normalised name without its trailing legal-form words and without
 * dots inside abbreviations, so "Acme Pte Ltd", "ACME Pte. Ltd." and "Acme  pte ltd" are one key. A name made
 * only of legal words keeps them. Remembered: reconcile asks it of every document on both sides, of a few
 * hundred names.
 */
export const contactKey = remembered((name: string): string => {
  const words = normalise(name.replace(/\.(?=\S)/g, "")).split(" ")
  let end = words.length
  while (end > 1 && LEGAL.has(words[end - 1]!)) end--
  return words.slice(0, end).join(" ")
})
