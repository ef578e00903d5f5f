/** How the sign-off pack writes amounts and names: thousands separators, blank zeros in debit/credit columns. */

/** `"-1234567.5"` → `"-1,234,567.50"`; anything that is not a decimal is returned as it is. */
export const amount = (text: string): string => {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (!m) return text
  const [, sign, whole, fraction = ""] = m
  const cents = `${fraction}00`.slice(0, 2)
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return `${sign === "-" && /[1-9]/.test(whole! + cents) ? "-" : ""}${grouped}.${cents}`
}

/** An amount for a debit or credit column: blank when zero. */
export const column = (text: string): string => (isZero(text) ? "" : amount(text))

export const isZero = (text: string): boolean => /^-?0*(\.0*)?$/.test(text.trim()) && text.trim() !== ""

/** A decimal string as a JavaScript number, for spreadsheet cells (two decimals are exact enough there). */
export const toNumber = (text: string): number | null => {
  if (text.trim() === "") return null
  const n = Number(text)
  return Number.isFinite(n) ? n : null
}
