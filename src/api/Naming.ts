/**
 * The names a generated specification derives from one endpoint: the plural path segment (`products`), the
 * PascalCase singular for schemas (`Product`), the title for `info` and tags (`Products`) and camelCase for
 * fields. English plurals are a heuristic: regular rules plus a short table of words they get wrong.
 */

/** Words whose singular and plural are the same. */
const uncountable = new Set([
  "auth",
  "data",
  "equipment",
  "feedback",
  "health",
  "information",
  "inventory",
  "media",
  "metadata",
  "news",
  "software"
])

/** Plurals the rules below get wrong, by singular. */
const irregular: ReadonlyMap<string, string> = new Map([
  ["alias", "aliases"],
  ["analysis", "analyses"],
  ["bus", "buses"],
  ["campus", "campuses"],
  ["child", "children"],
  ["person", "people"],
  ["status", "statuses"],
  ["virus", "viruses"]
])
const irregularSingular: ReadonlyMap<string, string> = new Map([...irregular].map(([s, p]) => [p, s]))

/** The plural of one lowercase word. */
export const pluralWord = (word: string): string => {
  if (uncountable.has(word)) return word
  const known = irregular.get(word) ?? (irregularSingular.has(word) ? word : undefined)
  if (known) return known
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`
  return `${word}s`
}

/** The singular of one lowercase word. */
export const singularWord = (word: string): string => {
  if (uncountable.has(word)) return word
  const known = irregularSingular.get(word) ?? (irregular.has(word) ? word : undefined)
  if (known) return known
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`
  if (/(ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2)
  if (/(ss|us|is)$/.test(word)) return word
  if (word.endsWith("s")) return word.slice(0, -1)
  return word
}

const lastWord = (endpoint: string) => {
  const cut = endpoint.lastIndexOf("-")
  return [endpoint.slice(0, cut + 1), endpoint.slice(cut + 1)] as const
}

/** The endpoint with its last word plural: `line-item` → `line-items`; `line-items` stays as it is. */
export const plural = (endpoint: string): string => {
  const [head, word] = lastWord(endpoint)
  return singularWord(word) === word ? head + pluralWord(word) : endpoint
}

/** The endpoint with its last word made singular: `line-items` → `line-item`. */
export const singular = (endpoint: string): string => {
  const [head, word] = lastWord(endpoint)
  return head + singularWord(word)
}

const words = (name: string): Array<string> =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase())

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/** `line-item` → `LineItem`. */
export const pascal = (name: string): string => words(name).map(capitalised).join("")

/** `unit_price`, `unit-price`, `UnitPrice` → `unitPrice`. */
export const camel = (name: string): string => {
  const [first = "", ...rest] = words(name)
  return first + rest.map(capitalised).join("")
}

/** `line-items` → `Line Items`. */
export const title = (name: string): string => words(name).map(capitalised).join(" ")
