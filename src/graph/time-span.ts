/**
 * The period a date as text names ("1996", "April 1996", "June 17th, 1996", "1990s",
 * "2001-04-15"): its first day and the first day after it, as ISO dates. The same reading as
 * the database's aizk_time_bound (src/db/definitions/functions/aizk_time_bound.sql), which
 * recall's `--as-of` compares claims with (docs/memory-graph.md, "Time on every fact").
 */
export interface TimeSpan {
  /** First day of the period, YYYY-MM-DD. */
  start: string
  /** First day after the period, YYYY-MM-DD. */
  end: string
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

const pad = (n: number) => String(n).padStart(2, '0')
const isoDay = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate()

export function timeSpan(text: string | null | undefined): TimeSpan | undefined {
  if (!text) return undefined
  let y: number
  let m: number | undefined
  let d: number | undefined
  let decade = false
  const iso = text.match(/\b(1[89]\d\d|20\d\d)-(\d\d)(?:-(\d\d))?\b/)
  if (iso && Number(iso[2]) >= 1 && Number(iso[2]) <= 12) {
    y = Number(iso[1])
    m = Number(iso[2])
    d = iso[3] && Number(iso[3]) >= 1 && Number(iso[3]) <= 31 ? Number(iso[3]) : undefined
  } else {
    const year = text.match(/\b(1[89]\d\d|20\d\d)(s?)\b/)
    if (!year) return undefined
    y = Number(year[1])
    decade = year[2] === 's' && y % 10 === 0
    const lower = text.toLowerCase()
    const month = lower.match(/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+([0-3]?\d)(?:st|nd|rd|th)?\b)?/)
    if (month && !decade) {
      m = MONTHS.indexOf(month[1]) + 1
      d = month[2] ? Number(month[2]) : undefined
      if (d === undefined) {
        const before = lower.match(/\b([0-3]?\d)(?:st|nd|rd|th)?(?:\s+of)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/)
        d = before ? Number(before[1]) : undefined
      }
      if (d !== undefined && (d < 1 || d > 31)) d = undefined
    }
  }
  if (d !== undefined && d > daysIn(y, m ?? 1)) d = undefined
  const first = new Date(Date.UTC(y, (m ?? 1) - 1, d ?? 1))
  const after = new Date(first)
  if (d !== undefined) after.setUTCDate(after.getUTCDate() + 1)
  else if (m !== undefined) after.setUTCMonth(after.getUTCMonth() + 1)
  else after.setUTCFullYear(after.getUTCFullYear() + (decade ? 10 : 1))
  return { start: isoDay(first), end: isoDay(after) }
}

/**
 * What `recall --as-of` asks about: a period written as a date ("1997", "2001-04", "April 2001",
 * "2010-06-01"), or an ISO 8601 moment (the day it falls on, in UTC). Undefined when the text is
 * neither.
 */
export function asOfSpan(text: string): TimeSpan | undefined {
  const t = text.trim()
  if (/^\d{4}-\d\d-\d\d[T ]\d/.test(t)) {
    const moment = new Date(t)
    if (Number.isNaN(moment.getTime())) return undefined
    const day = new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth(), moment.getUTCDate()))
    const next = new Date(day)
    next.setUTCDate(next.getUTCDate() + 1)
    return { start: isoDay(day), end: isoDay(next) }
  }
  if (/^\d{4}-\d\d(-\d\d)?$/.test(t)) {
    const [y, m, d] = t.split('-').map(Number)
    if (m < 1 || m > 12 || (d !== undefined && (d < 1 || d > daysIn(y, m)))) return undefined
  }
  return /\b(1[89]\d\d|20\d\d)s?\b/.test(t) ? timeSpan(t) : undefined
}
