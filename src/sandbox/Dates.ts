/** Request dates (`YYYY-MM-DD` only) and response dates (epoch ms of the organization-local date at UTC midnight). */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Epoch ms of a real calendar `YYYY-MM-DD` date, or undefined when the text is not one. */
export const parseDate = (text: string): number | undefined => {
  const m = DATE.exec(text)
  if (m === null) return undefined
  const y = Number(m[1])
  const mo = Number(m[2])
  const d = Number(m[3])
  const ms = Date.UTC(y, mo - 1, d)
  const back = new Date(ms)
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return undefined
  return ms
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

/** Epoch ms of an RFC 3339 datetime (or a plain date at UTC midnight), for datetime filters. */
export const parseDateTime = (text: string): number | undefined => {
  if (RFC3339.test(text)) {
    const ms = Date.parse(text)
    return Number.isNaN(ms) ? undefined : ms
  }
  return parseDate(text)
}

/** Today's business date in the organization's time zone, as epoch ms at UTC midnight. */
export const today = (timeZone: string): number => {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit"
  })
    .format(new Date())
    .slice(0, 10)
  return parseDate(parts) ?? Date.UTC(1970, 0, 1)
}
